# lib.sh: TAP helpers for the CLI tests. Source it; it makes a scratch
# directory $tmp under the build tree and a store path $db in it.
#
#   ok STATUS DESC           a TAP line, passing when STATUS is 0
#   check DESC CMD... ['&&' CMD...]...
#                            run CMD, then each further CMD after a '&&'
#                            word while they succeed, as sh's && would;
#                            pass when all exit 0. On failure print the
#                            command that failed, its exit status and its
#                            output. The last command's stdout and stderr
#                            stay in $tmp/check.out and $tmp/check.err
#   is DESC GOT WANT         pass when GOT and WANT are the same text; on
#                            failure print both
#   expect_err DESC STATUS TEXT CMD...
#                            CMD exits STATUS and its stderr holds TEXT
#   expect_transcript [-f FILE] [-m] [-e SED]... DESC CMD...
#                            run CMD and diff its transcript with the one
#                            expected: stdin (a here-doc), or FILE under
#                            tests/data/cli/; -m masks measured figures
#                            (below); -e adds a sed -E expression applied
#                            to this transcript only, after the rest.
#                            CMD's stdout and stderr stay in $tmp/tr.out
#                            and $tmp/tr.err for further checks. With
#                            KBENCH_REGEN set in the environment (as for
#                            the renderers' golden files) FILE is
#                            rewritten from what CMD printed instead:
#                            review the change with git diff
#   kb ARGS...               kbench on the test's store
#   sql SQL                  query the test's store, read-only, through
#                            tests/tools/kb-sql (rows as 'a|b', as the
#                            sqlite3 shell prints them); "$KB_SQL" is
#                            that program, for other databases, and its
#                            --integrity and --lock (KB_SQL set in the
#                            environment: one built elsewhere)
#   sql_write SQL            change the test's store (building fixtures)
#   sql_write_file FILE      sql_write the SQL script FILE: a fixture built
#                            in a file, for check to name rather than print
#   store_digest FILE        a checksum of what the SQLite file FILE holds
#                            (its schema, versions and every row, read
#                            through kb-sql), to check that a store in WAL
#                            mode is unchanged (its file alone does not say)
#   no_workers               no process of the test's store is left
#   no_process PATTERN       no process's command line matches PATTERN
#                            (pgrep -f); else list those that do
#   skip WHY, diag TEXT, done_testing
#
# With KBENCH_TEST_STOP=1 in the environment a test stops at its first
# failure: the helper that failed prints what it saw, then "Bail out!".
#
# A transcript is what a reader of the terminal would need to see:
#
#   $ kb show nope                  the command, words quoted as needed
#   first line of stdout            stdout as printed
#   2> kbench: no run named ...     then stderr, each line marked "2> "
#   [exit 1]                        then the exit status
#
# stdout and stderr are kept apart (not interleaved) so that a transcript
# does not depend on buffering. Machine-dependent text is normalised in
# the transcript before the diff (the expected text is written with it):
#
#   the scratch directory $tmp      TMP
#   the kbench binary $KBENCH       kbench
#   the source tree $TOP_SRCDIR     SRCDIR
#   this kernel's release (uname -r)  KERNEL
#   a uuid                          UUID
#   an ISO 8601 UTC time            YYYY-MM-DDThh:mm:ssZ (same width)
#   a "date hour:minute" time       YYYY-MM-DD hh:mm (same width, as runs
#                                   prints it)
#   blanks at the end of a line     dropped (a here-doc cannot keep them
#                                   reliably; t2001 checks for them)
#
# Host names, CPU models and timings are left alone: tests that print
# them normalise them with -e, naming what they expect there (e.g.
# -e 's/^Time: [0-9]+\.[0-9]{3}$/Time: N.NNN/'); $show_sed does it for
# the machine lines of kbench show, $runs_sed for the columns of kbench
# runs, $header_sed for the machine lines of compare's header block.
#
# -m is for tables of measured figures (compare, a run's report): a
# number with a decimal point that stands in a table cell (after two or
# more blanks) is replaced, with the blanks before it, by blanks and 9s
# of the same width and the same number of decimals ("   -12.5" and
# "     3.7" both read "     9.9"); a percentage in parentheses reads
# (   9.99%) whatever its digits (a large change prints fewer decimals,
# or none, to keep its %7.2f cell's width), and so do significance marks
# *  9.99%*, +  9.99%+ and ?  9.99%?. A ~ before a mean (a noisy row) reads as a
# blank and the footer line that explains it is dropped. The footer's
# figures of the cannot-tell rows (how many, the detectable change, the
# runs a side needed) stand on lines of their own and read as
# $cannot_tell_sed prints them. The layout, every label and every other
# integer count stay as printed.
set -u
tap_n=0
tap_failed=0
tap_stopping=

ok() {	# ok STATUS DESCRIPTION: returns STATUS == 0, for "ok ... || show"
	tap_stop
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
		case ${KBENCH_TEST_STOP:-0} in
		'' | 0) ;;
		*) tap_stopping=1 ;;
		esac
	fi
	[ "$1" -eq 0 ]
}

# tap_stop: after a failure, with KBENCH_TEST_STOP set, end the test. A
# helper calls it once it has printed what it saw; ok, skip and
# done_testing call it too, for a test's own diagnostics after an ok.
tap_stop() {
	[ -z "$tap_stopping" ] && return 0
	echo "Bail out! stopped at the first failure (KBENCH_TEST_STOP)"
	exit 1
}

# sq WORD: WORD as the shell would need it quoted (as is when plain).
sq() {
	case $1 in
	'' | '#'* | *[!A-Za-z0-9_./:=@%+,#-]*)
		printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*)
		printf '%s' "$1" ;;
	esac
}

# cmdline WORDS...: the words as one shell command line.
cmdline() {
	cl_sep=
	for cl_w; do
		printf '%s%s' "$cl_sep" "$(sq "$cl_w")"
		cl_sep=' '
	done
}

# comment FILE...: the files as TAP comment lines.
comment() {
	sed 's/^/#   /' "$@"
}

# check_step COMMAND...: one command of check.
check_step() {
	"$@" >"$tmp/check.out" 2>"$tmp/check.err"
	ck_st=$?
	[ "$ck_st" -eq 0 ] && return 0
	ck_failed=$(cmdline "$@")
	return "$ck_st"
}

check() {	# check DESCRIPTION COMMAND... ['&&' COMMAND...]...
	ck_desc=$1
	shift
	# Each command is run through eval from its words' positions ("${3}"
	# "${4}"), so that every word reaches it as given.
	ck_i=0 ck_words='' ck_st=0 ck_failed=''
	for ck_w; do
		ck_i=$((ck_i + 1))
		if [ "$ck_w" = '&&' ]; then
			eval "check_step$ck_words" || break
			ck_words=
		else
			ck_words="$ck_words \"\${$ck_i}\""
		fi
	done
	[ "$ck_st" -eq 0 ] && eval "check_step$ck_words"
	ok "$ck_st" "$ck_desc"
	if [ "$ck_st" -ne 0 ]; then
		echo "# command: $ck_failed"
		echo "# exit status: $ck_st"
		if [ -s "$tmp/check.out" ]; then
			echo "# stdout:"
			comment "$tmp/check.out"
		fi
		if [ -s "$tmp/check.err" ]; then
			echo "# stderr:"
			comment "$tmp/check.err"
		fi
		if [ ! -s "$tmp/check.out" ] && [ ! -s "$tmp/check.err" ]; then
			echo "# (no output)"
		fi
		tap_stop
	fi
	return 0
}

is() {	# is DESCRIPTION GOT WANT
	if [ "$2" = "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		echo "# got:"
		printf '%s\n' "$2" | comment
		echo "# want:"
		printf '%s\n' "$3" | comment
		tap_stop
	fi
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
		echo "# command: $(cmdline "$@")"
		echo "# exit $st (want $want_status), stderr without '$want_text':"
		comment "$tmp/err"
		echo "# stdout:"
		comment "$tmp/out"
		tap_stop
	fi
}

# normalise: filter a transcript (see the top of this file).
normalise() {
	KB_N_TMP=$tmp KB_N_KBENCH=$KBENCH KB_N_SRC=$TOP_SRCDIR KB_N_KERNEL=$(uname -r) \
	awk '
	function lit(s, from, to,	out, i) {
		if (from == "")
			return s
		out = ""
		while ((i = index(s, from)) > 0) {
			out = out substr(s, 1, i - 1) to
			s = substr(s, i + length(from))
		}
		return out s
	}
	{
		s = lit($0, ENVIRON["KB_N_TMP"], "TMP")
		s = lit(s, ENVIRON["KB_N_KBENCH"], "kbench")
		s = lit(s, ENVIRON["KB_N_SRC"], "SRCDIR")
		s = lit(s, ENVIRON["KB_N_KERNEL"], "KERNEL")
		print s
	}' | sed -E \
		-e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/YYYY-MM-DDThh:mm:ssZ/g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}/YYYY-MM-DD hh:mm/g'
}

# The machine lines of kbench show, for expect_transcript -e: the host
# line keeps its shape, the rest of this machine's facts are named; the
# warm-ups' time is masked.
show_sed='s/^(  host        ).+ \(.+, [0-9]+ CPUs?, [0-9]+ cores?, [0-9.]+ GiB\)$/\1HOST (MACHINE)/
s/^(  kernel      KERNEL) .+$/\1 KVERSION/
s/^(  cmdline     ).*$/\1CMDLINE/
s/^(  kbench      )[^ ]+$/\1VERSION/
s/^(warm-up: [0-9]+ results in )[0-9]+\.[0-9]{3}( s, )/\1N.NNN\2/'
# The machine lines of compare's header block, for expect_transcript -e,
# when every run was measured here: the host, the CPU model and the
# machine's size are named.
header_sed='s/^(Host: +)[^ ]+$/\1HOST/
s/^(CPU: +).+$/\1CPU/
s/^(Machine: +)[0-9]+ CPUs?(, [0-9]+ cores?)?(, [0-9]+ nodes?)?(, [0-9.]+ GiB)?$/\1MACHINE/'
# The host column of kbench runs, as wide as this machine's name: "HOST"
# and the columns after it as printed (the kernel release ends the line,
# whole: KERNEL). The host cell is 10 wide (cut with ~ when longer).
runs_sed="s/^( +[0-9]+ .{18} .{11} )[^ ]+ +(YYYY-MM-DD hh:mm )/\\1HOST \\2/"

# The figure lines of compare's cannot-tell footer: which rows cannot
# tell, and so their count, move with the measured figures.
# A markdown footer's list items ("- ") read the same.
cannot_tell_sed='s/^(- )?Cannot tell: [0-9]+ rows?/\1Cannot tell: N rows/
s/^(- )?Detectable change: .*/\1Detectable change: 9.9-9.9% (median 9.9%)./
s/^(- )?(Runs a side to detect [0-9.]+%): .*/\1\2: N./'

# mask_figures: filter a transcript for -m (see the top of this file).
mask_figures() {
	sed -E -e 's/ ~(-?[0-9])/  \1/g' -e '/^~ before a mean: /d' \
		-e "$cannot_tell_sed" | awk '
	function mask(s,	out, cell, num, rep, d, i, w, pct) {
		out = ""
		while (match(s, /  +-?[0-9]+\.[0-9]+|[(*+?] *[<>]?-?[0-9]+(\.[0-9]+)?%/)) {
			cell = substr(s, RSTART, RLENGTH)
			w = RLENGTH
			pct = ""
			if (substr(cell, 1, 1) != " ") {
				# a percentage: as wide as %7.2f, even when
				# the figure overflowed it
				out = out substr(s, 1, RSTART)
				cell = substr(cell, 2, length(cell) - 2)
				w = 7
				pct = "%"
			} else {
				out = out substr(s, 1, RSTART - 1)
			}
			num = cell
			sub(/^ *-?/, "", num)
			d = length(num) - index(num, ".")
			# a large change prints fewer decimals (or none, or
			# >999999) to keep its width: a percentage reads 9.99
			# whatever it held
			if (pct != "")
				d = 2
			rep = "9."
			for (i = 0; i < d; i++)
				rep = rep "9"
			while (length(rep) < w)
				rep = " " rep
			out = out rep pct
			s = substr(s, RSTART + RLENGTH)
		}
		return out s
	}
	{ print mask($0) }' | sed -E 's/([*]( *9\.99%)[*]|[+]( *9\.99%)[+]|[?]( *9\.99%)[?])/(\2\3\4)/g'
}

# transcript COMMAND...: run COMMAND, print its transcript (not normalised).
transcript() {
	"$@" >"$tmp/tr.out" 2>"$tmp/tr.err"
	tr_st=$?
	echo "\$ $(cmdline "$@")"
	cat "$tmp/tr.out"
	[ -n "$(tail -c 1 "$tmp/tr.out")" ] && printf '\n[no newline at the end of stdout]\n'
	sed 's/^/2> /' "$tmp/tr.err"
	[ -n "$(tail -c 1 "$tmp/tr.err")" ] && printf '\n[no newline at the end of stderr]\n'
	echo "[exit $tr_st]"
}

# expect_transcript [-f FILE] [-m] [-e SED]... DESCRIPTION COMMAND...
expect_transcript() {
	tr_want= tr_mask=cat
	: >"$tmp/tr.sed"
	while :; do
		case $1 in
		-f) tr_want=$TOP_SRCDIR/tests/data/cli/$2; shift 2 ;;
		-m) tr_mask=mask_figures; shift ;;
		-e) printf '%s\n' "$2" >>"$tmp/tr.sed"; shift 2 ;;
		*) break ;;
		esac
	done
	tr_desc=$1
	shift
	if [ -n "$tr_want" ]; then
		sed -E 's/[[:blank:]]+$//' "$tr_want" >"$tmp/tr.want"
	else
		sed -E 's/[[:blank:]]+$//' >"$tmp/tr.want"
	fi
	transcript "$@" | normalise | $tr_mask | sed -E -f "$tmp/tr.sed" |
		sed -E 's/[[:blank:]]+$//' >"$tmp/tr.got"
	if [ -n "$tr_want" ] && [ -n "${KBENCH_REGEN:-}" ]; then
		cp "$tmp/tr.got" "$tr_want"
		skip "$tr_desc: wrote $tr_want"
		return 0
	fi
	if diff -u "$tmp/tr.want" "$tmp/tr.got" >"$tmp/tr.diff"; then
		ok 0 "$tr_desc"
	else
		ok 1 "$tr_desc"
		echo "# transcript differs (-expected +got):"
		sed -e '1s/.*/--- expected/' -e '2s/.*/+++ got/' "$tmp/tr.diff" | comment
		tap_stop
	fi
}

# True when no process mentions the test's database on its command line
# (forked workers keep kbench's argv).
# Killed processes may take a moment to go on a loaded machine: wait up to
# 10 s for them.
no_workers() {
	i=0
	while pgrep -f -- "$db" >/dev/null; do
		[ "$i" -ge 100 ] && { pgrep -af -- "$db"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# no_process PATTERN: true when no process's command line matches PATTERN
# (an extended regular expression, as pgrep -f takes it); else those that
# do are listed, for check to print.
no_process() {
	! pgrep -af -- "$1"
}

# wait_until SECONDS CMD...: run CMD (quietly) every 0.2 s until it
# succeeds; false when SECONDS pass first.
wait_until() {	# wait_until SECONDS CMD...
	wu_end=$(( $(date +%s) + $1 ))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$wu_end" ] && return 1
		sleep 0.2
	done
}

skip() {	# skip WHY: a passing TAP line marked SKIP
	tap_stop
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

diag() { echo "# $*"; }

done_testing() {
	tap_stop
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

: "${KBENCH:?KBENCH must name the kbench binary}"
tmp=$(mktemp -d "${PWD}/cli-tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/k.db
KB_SQL=${KB_SQL:-$(dirname "$KBENCH")/tests/tools/kb-sql}
kb() { "$KBENCH" --db "$db" "$@"; }
# Each test says who measures and holds the knobs in a lock directory of
# its own (machine/hostlock.h): tests run at once must not see each other.
# The knob tests (lib-ab.sh) use the machine's, as a user's kbench does.
export KBENCH_LOCK_DIR="$tmp/lock"
# run_status NAME: the status kbench runs gives the latest run of NAME
# (its csv's status column, whatever the text layout).
run_status() {
	kb runs --name "$1" --format csv | awk -F, '$1 ~ /^[0-9]+$/ { s = $9 } END { print s }'
}
sql() { "$KB_SQL" "$db" "$@"; }
sql_write() { "$KB_SQL" --write "$db" "$@"; }
sql_write_file() { sql_write "$(cat "$1")"; }

store_digest() {	# store_digest FILE
	{
		"$KB_SQL" "$1" "PRAGMA user_version; PRAGMA application_id;
			SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
		for sd_t in $("$KB_SQL" "$1" "SELECT name FROM sqlite_master
				WHERE type = 'table' ORDER BY name"); do
			echo "table $sd_t"
			# every column quoted: NULL, '' and 1.0 stay apart
			"$KB_SQL" "$1" "$("$KB_SQL" "$1" "SELECT 'SELECT ' ||
				group_concat('quote(\"' || name || '\")', ' || '','' || ') ||
				' FROM \"$sd_t\" ORDER BY rowid' FROM pragma_table_info('$sd_t')")"
		done
	} 2>&1 | cksum
}
