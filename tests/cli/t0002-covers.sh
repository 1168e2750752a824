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

# The Covers: lines of the tests' header comments, "TEST FILE..." one a
# line: the comment at the top of a file, "# " lines of a script or the
# first /* */ of a C file.
covers_all() {
	awk '
		FNR == 1 { done = 0; if (/^#!/) next }
		done { next }
		/^#/ || /^\/\*/ || /^ \*/ {
			if (sub(/^(# |\/\* | \* )Covers: /, "")) {
				sub(/ *\*\/$/, "")
				print FILENAME, $0
			}
			if (/\*\//)
				done = 1
			next
		}
		{ done = 1 }' "$@"
}
covers_of() { covers_all "$1" | sed -e 's/^[^ ]* //'; }

# shellcheck disable=SC2086 # $tests: one word a test
covers_all $tests >"$tmp/lines"
cut -d' ' -f1 "$tmp/lines" | sort | uniq -d >"$tmp/several"
cut -d' ' -f1 "$tmp/lines" | sort -u >"$tmp/lines.tests"
none=$(printf '%s\n' $tests | sort | comm -23 - "$tmp/lines.tests" | tr '\n' ' ')
several=$(tr '\n' ' ' <"$tmp/several")
missing=
: >"$tmp/covered"
while read -r t files; do
	for f in $files; do
		[ -f "$f" ] || missing="$missing $t:$f"
		echo "$f" >>"$tmp/covered"
	done
done <"$tmp/lines"
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
# shellcheck disable=SC2086 # $rooms: one word a room
for r in $rooms; do printf '%s\n' "$r"/*.c; done | sort >"$tmp/sources"
sort -u "$tmp/covered" >"$tmp/covered.sorted"
sort -u "$tmp/exempt" >"$tmp/exempt.sorted"
uncovered=$(comm -23 "$tmp/sources" "$tmp/covered.sorted" | comm -23 - "$tmp/exempt.sorted" |
	tr '\n' ' ')
stale=$(comm -12 "$tmp/exempt.sorted" "$tmp/covered.sorted" | tr '\n' ' ')
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
