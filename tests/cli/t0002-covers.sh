#!/bin/sh
# t0002-covers: every test names the files it mainly exercises, so that
# `grep -l 'Covers:.*FILE' tests/` finds the tests of a file. Each test
# (tests/cli/t*.sh, tests/unit/*.c) has one line "Covers: FILE..." in its
# header comment; every FILE it names exists, a path from the top of the
# tree; and every .c file of every room (the file rooms) is named by at
# least one test, or listed with its reason under "Files no test covers"
# in tests/README, a list that names only files no test covers.
# Covers: rooms tests/README
. "$TOP_SRCDIR/tests/cli/lib.sh"

cd "$TOP_SRCDIR" || exit 1
tests=$(ls tests/cli/t[0-9]*.sh tests/unit/t[0-9]*.c | LC_ALL=C sort)
check "there are tests to look at" test -n "$tests"

# The Covers: line of a test's header comment: the comment at the top of
# the file, "# " lines of a script or the first /* */ of a C file.
covers_of() {
	awk '
		FNR == 1 && /^#!/ { next }
		/^#/ || /^\/\*/ || /^ \*/ {
			if (sub(/^(# |\/\* | \* )Covers: /, "")) {
				sub(/ *\*\/$/, "")
				print
			}
			if (/\*\//)
				exit
			next
		}
		{ exit }' "$1"
}

none= several= missing=
: >"$tmp/covered"
for t in $tests; do
	lines=$(covers_of "$t")
	case $(printf '%s' "$lines" | grep -c .) in
	0) none="$none $t" ;;
	1) ;;
	*) several="$several $t" ;;
	esac
	for f in $lines; do
		[ -f "$f" ] || missing="$missing $t:$f"
		echo "$f" >>"$tmp/covered"
	done
done
is "every test has a Covers: line in its header comment" "$none" ""
is "no test has two" "$several" ""
is "every file a Covers: line names exists (TEST:FILE)" "$missing" ""

# The files tests/README lists as covered by no test: the indented lines
# "FILE  REASON" of its section "Files no test covers", up to the next
# section's underline.
awk '
	/^Files no test covers$/ { in_list = 1; getline; next }
	in_list && /^---/ { exit }
	in_list && /^    [^ ]/ { print $1 }' tests/README >"$tmp/exempt"
check "tests/README has its list of files no test covers" test -s "$tmp/exempt"

rooms=$(sed -e 's/#.*//' rooms)
uncovered= stale=
for r in $rooms; do
	for f in "$r"/*.c; do
		if grep -qxF "$f" "$tmp/covered"; then
			grep -qxF "$f" "$tmp/exempt" && stale="$stale $f"
		elif ! grep -qxF "$f" "$tmp/exempt"; then
			uncovered="$uncovered $f"
		fi
	done
done
is "every .c file of every room is covered by a test, or listed in tests/README" \
	"$uncovered" ""
is "tests/README lists no file a test covers" "$stale" ""
gone=
while read -r f; do
	[ -f "$f" ] || gone="$gone $f"
done <"$tmp/exempt"
is "every file tests/README lists exists" "$gone" ""

# The check itself: a test without the line, a name that is no file and
# a file of a room that nothing covers are each found.
printf '#!/bin/sh\n# a test\n. lib.sh\n# Covers: lib/argv.c\n' >"$tmp/t.sh"
is "a Covers: line below the header comment is not taken" "$(covers_of "$tmp/t.sh")" ""
printf '/* a test\n * Covers: lib/argv.c lib/csv.c */\nint x;\n' >"$tmp/t.c"
is "a C test's Covers: line before */ is read" "$(covers_of "$tmp/t.c")" "lib/argv.c lib/csv.c"

done_testing
