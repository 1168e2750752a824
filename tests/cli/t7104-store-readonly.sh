#!/bin/sh
# t7104-store-readonly: runs, show, compare, query and export open the
# store read-only, the same way:
# they refuse a database that does not exist (naming it) instead of
# creating an empty one, never change the file, and work in a directory
# the user cannot write and on a read-only mount. A store of an older
# schema there is refused with the reason, untouched.
. "$TOP_SRCDIR/tests/cli/lib.sh"
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 3\n' > "$tmp/tiny.conf"
ro=$tmp/ro
rdb=$ro/k.db
mkdir "$ro"
check "two runs are stored" \
	"$KBENCH" --db "$rdb" --quiet run -c "$tmp/tiny.conf" -n base --no-report '&&' \
	"$KBENCH" --db "$rdb" --quiet run -c "$tmp/tiny.conf" -n new --no-report

# The three readers, one a line.
readers() {
	cat <<-'EOF'
	runs
	show base
	compare base new
	query select*from(runs)
	EOF
}

readers > "$tmp/readers"
while read -r cmd; do
	# shellcheck disable=SC2086 # the arguments are words
	expect_err "$cmd: a --db that does not exist is refused, named" 1 \
		"cannot open database '$tmp/typo.db': no such file" "$KBENCH" --db "$tmp/typo.db" $cmd
	check "$cmd: and no file is created" test ! -e "$tmp/typo.db"
done < "$tmp/readers"
KBENCH_DB=$tmp/nodir/k.db "$KBENCH" runs >/dev/null 2>&1
st=$?
check "the default database is not created by runs either ($st)" \
	test "$st" -eq 1 -a ! -e "$tmp/nodir"

sum=$(cksum < "$rdb")
while read -r cmd; do
	# shellcheck disable=SC2086
	check "$cmd reads the store" "$KBENCH" --db "$rdb" $cmd
done < "$tmp/readers"
check "and the file is byte for byte as it was" test "$(cksum < "$rdb")" = "$sum"
rm -f "$rdb-wal" "$rdb-shm"

# As a user who cannot write the directory: root writes anywhere, so
# become nobody when root.
as_reader() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	fi
}

chmod 0755 "$tmp"
chmod 0555 "$ro"
if ! as_reader "$KBENCH" --version >/dev/null 2>&1 || ! as_reader test -r "$rdb"; then
	skip "cannot run kbench as a user without write access here (needs setpriv as root, \
or a non-root user, and a build tree others may read)"
elif as_reader touch "$ro/probe" 2>/dev/null; then
	skip "the read-only directory is writable for the reader (no permission checks here)"
else
	while read -r cmd; do
		# shellcheck disable=SC2086
		as_reader "$KBENCH" --db "$rdb" $cmd >"$tmp/out" 2>"$tmp/err"
		st=$?
		if [ "$st" -eq 0 ] && grep -q base "$tmp/out"; then
			ok 0 "$cmd works in a directory the user cannot write"
		else
			ok 1 "$cmd works in a directory the user cannot write"
			diag "exit $st; stderr:"
			sed 's/^/#   /' "$tmp/err"
		fi
	done < "$tmp/readers"
	mkdir "$tmp/out.d" && chmod 0777 "$tmp/out.d"
	check "export reads it too" as_reader "$KBENCH" --db "$rdb" export -o "$tmp/out.d/b.kbench" base
	check "and nothing is left beside the store" test "$(ls "$ro")" = k.db
	check "which is byte for byte as it was" test "$(cksum < "$rdb")" = "$sum"

	chmod 0755 "$ro"
	"$KB_SQL" --write "$ro/old.db" "$(cat "$TOP_SRCDIR/tests/data/store-v1.sql")"
	chmod 0555 "$ro"
	old=$(cksum < "$ro/old.db")
	expect_err "a store of an older schema there is refused, saying why" 1 \
		"schema version 1 is older than this kbench's (12) and bringing it up to date needs write access" \
		as_reader "$KBENCH" --db "$ro/old.db" show v1-new
	check "and left as it was" test "$(cksum < "$ro/old.db")" = "$old"
	chmod 0755 "$ro"
	rm -f "$ro/old.db"
	chmod 0555 "$ro"
fi

# A read-only mount (bind-mounted read-only in a private mount namespace).
chmod 0755 "$ro"
# shellcheck disable=SC2016 # expanded by the inner shell
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"' sh "$ro" 2>/dev/null
then
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		! touch "$1/probe" 2>/dev/null && "$2" --db "$1/k.db" compare base new' \
		sh "$ro" "$KBENCH" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] && grep -q base "$tmp/out"; then
		ok 0 "compare works on a read-only mount"
	else
		ok 1 "compare works on a read-only mount"
		diag "exit $st; stderr:"
		sed 's/^/#   /' "$tmp/err"
	fi
	# The store was closed cleanly: no -wal or -shm, which a reader
	# there cannot create.
	check "no -wal or -shm is beside the store" test "$(ls "$ro")" = k.db
	# shellcheck disable=SC2016
	check "query works on a read-only mount" unshare -m sh -c \
		'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		"$2" --db "$1/k.db" query "SELECT name FROM runs" | grep -qx base' sh "$ro" "$KBENCH"
	# shellcheck disable=SC2016
	check "export works on a read-only mount" unshare -m sh -c \
		'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		"$2" --db "$1/k.db" export -o "$3" base' sh "$ro" "$KBENCH" "$tmp/mount.kbench"
else
	skip "cannot mount read-only here (needs root and mount namespaces)"
fi
done_testing
