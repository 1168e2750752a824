# empty-store.sh: sourced by the bench/ scripts that build a store through
# SQL. empty_store KBENCH DB makes DB a kbench store with no rows: only
# 'kbench run' creates a store (the commands that read one refuse a file
# that does not exist), so one tiny hackbench sample is run into DB,
# without monitors, and then every row of every table is deleted. The
# schema stays, at the version this kbench writes. Needs the sqlite3 CLI.
empty_store() {
	es_conf=$(mktemp "${TMPDIR:-/tmp}/empty-store.XXXXXX") || return 1
	printf '[s]\nworkload = hackbench\niterations = 1\nwarmup = 0\nloops = 1\ngroups = 1\nmonitors = none\n' \
		> "$es_conf"
	# (a list, so that a caller's set -e lets the message through)
	es_out=$("$1" --quiet --db "$2" run -c "$es_conf" 2>&1) && es_rc=0 || es_rc=$?
	rm -f "$es_conf"
	if [ "$es_rc" -ne 0 ]; then
		printf '%s\n' "$es_out" >&2
		echo "bench: cannot create the store $2 with '$1 run' (its output above)" >&2
		return 1
	fi
	sqlite3 "$2" "SELECT 'DELETE FROM \"' || name || '\";' FROM sqlite_master WHERE type = 'table'" |
		sqlite3 "$2"
}
