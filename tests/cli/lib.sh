# lib.sh: TAP helpers for the CLI transcript tests. Source it; it makes a
# scratch directory under the build tree and a database path in it.
set -u
tap_n=0
tap_failed=0

ok() {	# ok STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

check() {	# check DESCRIPTION COMMAND...
	desc=$1
	shift
	if "$@" >/dev/null 2>&1; then ok 0 "$desc"; else ok 1 "$desc"; fi
}

# expect_err DESCRIPTION STATUS TEXT COMMAND...: exit status and stderr text
expect_err() {
	desc=$1 want_status=$2 want_text=$3
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq "$want_status" ] && grep -qF -- "$want_text" "$tmp/err"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		echo "# exit $st (want $want_status); stderr:"
		sed 's/^/#   /' "$tmp/err"
	fi
}

# True when no process mentions the test's database on its command line
# (forked workers keep kbench's argv).
# Killed processes may take a moment to go on a loaded machine: wait up to
# 10 s for them.
no_workers() {
	i=0
	while pgrep -f -- "$db" >/dev/null; do
		[ "$i" -ge 100 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

skip() {	# skip WHY: a passing TAP line marked SKIP
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

: "${KBENCH:?KBENCH must name the kbench binary}"
tmp=$(mktemp -d "${PWD}/cli-tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/k.db
kb() { "$KBENCH" --db "$db" "$@"; }
sql() { sqlite3 "$db" "$@"; }
