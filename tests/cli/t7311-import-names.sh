#!/bin/sh
# t7311: names that could inject are refused on every way in, by the one
# check run -n uses (lib/name.c): a bundle whose run, host, section or
# row names hold control characters (an escape sequence that clears the
# screen and sets the terminal title, CR/LF that would start a new line
# of a mail), or whose host name is a path ('..', '/abs', '../../..'), is
# not imported; and a name already in a store is printed escaped by runs
# and show.
# Covers: db/bundle.c lib/name.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a run and a good bundle of it" \
	kb --quiet run -c "$tmp/hb.conf" -n a --no-report '&&' kb export a -o "$tmp/good.kbb"
store=$tmp/store.db
check "a store to import into" "$KBENCH" --db "$store" --quiet run -c "$tmp/hb.conf" -n mine --no-report

esc=$(printf '\033')
bel=$(printf '\007')
cr=$(printf '\r')
nl='
'
n=0
# refused WHAT COLUMN SQL: a copy of the good bundle changed by SQL is not
# imported, and the message names the column.
refused() {
	n=$((n + 1))
	f=$tmp/bad$n.kbb
	cp "$tmp/good.kbb" "$f" && "$KB_SQL" --write "$f" "$3" || { ok 1 "$1 (fixture)"; return; }
	expect_err "$1 is refused" 1 "$2 of row" "$KBENCH" --db "$store" import "$f"
}
refused "a run name with ESC[2J ESC]0;t BEL" runs.name \
	"UPDATE runs SET name = 'x${esc}[2J${esc}]0;t${bel}'"
refused "a run name with CR LF Bcc:" runs.name \
	"UPDATE runs SET name = 'x${cr}${nl}Bcc: victim@evil.org'"
refused "a run name with a C1 control (CSI in UTF-8)" runs.name \
	"UPDATE runs SET name = 'x' || char(155) || '2J'"
refused "a run name starting with #" runs.name "UPDATE runs SET name = '#1'"
refused "a run name that is not UTF-8" runs.name \
	"UPDATE runs SET name = CAST(x'78fffe79' AS TEXT)"
refused "a host name '..'" machines.hostname "UPDATE machines SET hostname = '..'"
refused "a host name '/abs'" machines.hostname "UPDATE machines SET hostname = '/abs'"
refused "a host name '../../..'" machines.hostname "UPDATE machines SET hostname = '../../..'"
refused "a host name with a newline" machines.hostname \
	"UPDATE machines SET hostname = 'h${nl}x'"
refused "a section name with ESC" samples.section \
	"UPDATE samples SET section = 's${esc}[2J'"
refused "a row name with a newline" samples.row "UPDATE samples SET row = 'r${nl}x'"
check "the store holds only its own run" test "$("$KB_SQL" "$store" 'SELECT count(*) FROM runs')" = 1
check "the good bundle imports" "$KBENCH" --db "$store" import "$tmp/good.kbb"

expect_err "run -n refuses the same names" 2 "invalid run name: it must not contain control characters" \
	kb run -c "$tmp/hb.conf" -n "x${esc}[2J"

# A name already stored (by an older kbench, or written by hand) is
# printed escaped, never raw.
sql_write "UPDATE runs SET name = 'x${esc}[2J${esc}]0;t${bel}' WHERE name = 'a'"
kb runs > "$tmp/runs.out" 2>&1
check "runs prints the name without the raw escape" sh -c '! grep -q "$(printf "\\033")" "$1"' sh "$tmp/runs.out"
check "... escaped, as \\x1b" grep -q ' x\\x1b\[2J' "$tmp/runs.out"
kb show "#1" > "$tmp/show.out" 2>&1
check "show prints it escaped, as \\x1b" grep -q '^run @1  x\\x1b\[2J' "$tmp/show.out"
check "... without the raw escape" sh -c '! grep -q "$(printf "\\033")" "$1"' sh "$tmp/show.out"
done_testing
