#!/bin/sh
# t1910-docs-commands: the commands README.md and docs/*.md show run, so
# that a guide cannot name an option, a config or a command that does
# not exist; kbench.1 lists every option of every command; the man
# pages are lint clean; README's config mistake, docs/schema.md's columns
# and the compare marks the guides explain are the program's.
#
# A command is a line of a code block (indented by 4 or more, or fenced)
# that starts with "kbench ", "./kbench ", "sudo kbench " or
# "sudo ./kbench ", alone or after a "$ " prompt, with the lines that
# continue it (after a '\' at the end, or inside an open quote). It runs
# as sh reads it, in a scratch directory where ./configs is the source
# tree's and $HOME is a scratch one; kbench, ./kbench and sudo there
# are wrappers that run the kbench under test on a store of the test's
# (one tiny run in it), whatever --db the command gives:
#
#   - run, vm, ab: with --dry-run added (as written when it is there):
#     the configs are read, every option and value is checked, the
#     kernel images too;
#   - configs, topology, query, and runs or experiments without
#     arguments: as written;
#   - every other command (compare, show, history, mail, fleet, import,
#     ab --resume, the workloads run directly...: they need the runs the
#     doc names, a server, root or a minute): with --help added, which
#     parses every option before it, so that an unknown option, one
#     missing its value or an unknown command fails; mail's comparison
#     arguments (after "--") are checked as kbench compare's. Each
#     config given with -c or --config (not the external workload's
#     command) must be one that kbench run --dry-run -c reads.
#
# A code block that starts with [global] is a whole config: kbench run
# --dry-run must read it.
#
# Each command must exit 0. Files the docs show with "$ cat FILE" are
# written first, from the block's lines up to the next "$ " line. A
# kernel image a command or such a file names (-k, kernel =) is made up
# (a file with the x86 boot header only): at its path when that is
# relative (to the scratch directory) or under $HOME, in place of it
# when absolute. The exceptions, each with its reason, are listed below.
#
# docs/vm.md's VM examples (kbench vm, kbench ab, kbench compare) are
# also run for real, each with a real guest where it boots one, and their
# output checked against what the guide shows, by t1511-vm-docs.sh, which
# lists which run so and why the others cannot.
# Covers: lib/parse-options.c cli/main.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# FILE|TEXT|WHY: the command (or [global] config) of FILE that holds TEXT
# is not run, for WHY.
exceptions='docs/fleet.md|kbench fleet submit   ──►|a diagram of the jobs, not a command
docs/fleet.md|kbench fleet schedule       kbench fleet upload|a diagram of the jobs, not a command
docs/pft.md|kbench pft [-m SIZE]|a synopsis: [ ] and | mark optional and alternative words
docs/schema.md|--format csv - < report.sql|report.sql stands for a file of the reader'"'"'s queries
docs/vm.md|--modules $HOME/mods|needs a kernel'"'"'s modules tree (make modules_install); t1511 runs it on a Debian kernel'"'"'s
README.md|--tree ~/linux --ref v6.18 --ref HEAD|needs a kernel git tree; t1541 runs kbench vm --ref with two refs
docs/vm.md|--tree ~/linux --ref v6.6 -c hackbench|needs a kernel git tree; t1541 runs kbench vm --ref
docs/vm.md|--ref my-series|needs a kernel git tree; t1541 runs kbench vm --ref with two refs
docs/bisect.md|--tree ~/fixture/tree|the worked example'"'"'s tree and config are the fixture of t1532, which runs it and checks its output
docs/external.md|command = stress-ng|runs stress-ng, which need not be installed; t8000-t8003 run external workloads'

work=$tmp/work
home=$tmp/home
bin=$tmp/bin
mkdir "$work" "$home" "$bin" "$tmp/cmds"
ln -s "$TOP_SRCDIR/configs" "$work/configs"
# A made-up bzImage: the boot protocol's "HdrS" at offset 0x202.
head -c 514 /dev/zero >"$tmp/bzImage" &&
	printf 'HdrS' >>"$tmp/bzImage" && head -c 512 /dev/zero >>"$tmp/bzImage"
printf '[hackbench]\ngroups = 1\nloops = 10\niterations = 1\n' >"$tmp/tiny.conf"
check "a store with one tiny run" kb --quiet run -c "$tmp/tiny.conf" -n tiny

# The wrapper: kbench as a doc shows it, run as the header says.
cat >"$bin/kbench" <<'EOF'
#!/bin/sh
# stub PATH: a made-up kernel image at PATH (see t1910's header); prints
# the path to give kbench.
stub() {
	case $1 in
	"$HOME"/* | [!/]*)
		if [ ! -e "$1" ]; then
			mkdir -p "$(dirname "$1")" && cp "$KB_STUB" "$1"
		fi
		printf '%s' "$1" ;;
	*)
		printf '%s' "$KB_STUB" ;;
	esac
}
# The global options: the test's store in place of any --db.
while :; do
	case ${1:-} in
	--db) shift 2 ;;
	--db=*) shift ;;
	-q | --quiet) shift ;;
	*) break ;;
	esac
done
cmd=${1:-}
mode=options
case $cmd in
'' | help | --help | -h | --version | configs | topology | query) mode=written ;;
runs | experiments) [ $# -eq 1 ] && mode=written ;;
run | vm | ab) mode=dry-run ;;
esac
echo "$mode" >"$KB_OUT.mode"
n=$#
dry=0 resume=0 help=0 prev= dashdash=0 workload=0
case $cmd in
hackbench | netperf | pft | external) workload=1 ;;
esac
for a in "$@"; do
	case $prev in
	-k | --kernel) a=$(stub "$a") ;;
	-c | --config)
		if [ "$mode" = options ] && [ "$workload" = 0 ] && [ "$dashdash" = 0 ] &&
			! "$KB_REAL" --db "$KB_DB" run -c "$a" --dry-run >/dev/null 2>"$KB_OUT.conf"; then
			echo "t1910: the config '$a' is not one kbench run reads:" >&2
			cat "$KB_OUT.conf" >&2
			exit 1
		fi ;;
	esac
	case $a in
	--kernel=*) a=--kernel=$(stub "${a#--kernel=}") ;;
	--dry-run) dry=1 ;;
	--resume | --resume=*) resume=1 ;;
	--help | -h) help=1 ;;
	--) dashdash=1 ;;
	esac
	prev=$a
	set -- "$@" "$a"
done
shift "$n"
[ "$help" = 1 ] && mode=written
[ "$mode" = dry-run ] && [ "$resume" = 1 ] && mode=options
echo "$mode" >"$KB_OUT.mode"
case $mode in
written) exec "$KB_REAL" --db "$KB_DB" "$@" ;;
dry-run)
	[ "$dry" = 1 ] && exec "$KB_REAL" --db "$KB_DB" "$@"
	exec "$KB_REAL" --db "$KB_DB" "$@" --dry-run ;;
esac
# options: --help after the options, before a "--"; what follows "--"
# (mail's comparison) is checked as compare's.
n=$#
after=0
for a in "$@"; do
	if [ "$after" = 0 ] && [ "$a" = -- ]; then
		after=1
		set -- "$@" --help
		continue
	fi
	[ "$after" = 1 ] && printf '%s\n' "$a" >>"$KB_OUT.compare"
	[ "$after" = 0 ] && set -- "$@" "$a"
done
shift "$n"
[ "$after" = 0 ] && set -- "$@" --help
"$KB_REAL" --db "$KB_DB" "$@" >/dev/null || exit
[ "$after" = 0 ] && exit 0
set --
while IFS= read -r a; do
	set -- "$@" "$a"
done <"$KB_OUT.compare"
exec "$KB_REAL" --db "$KB_DB" compare "$@" --help >/dev/null
EOF
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
chmod +x "$bin/kbench" "$bin/sudo"
cp "$bin/kbench" "$work/kbench"

# The commands and the "$ cat FILE" files of the docs: one file a
# command in $tmp/cmds (N.sh, and N.where: FILE:LINE), each shown file
# written into $work.
for f in "$TOP_SRCDIR/README.md" "$TOP_SRCDIR"/docs/*.md; do
	awk -v doc="${f#"$TOP_SRCDIR"/}" -v out="$tmp/cmds" -v work="$work" '
	# quotes(s): after s, with the quote state q it starts in, the state:
	# 0 none, 1 in single quotes, 2 in double quotes.
	function quotes(s, q,	i, c) {
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (q == 1) { if (c == "\047") q = 0; continue }
			if (c == "\\") { i++; continue }
			if (q == 2) { if (c == "\"") q = 0; continue }
			if (c == "\047") q = 1
			else if (c == "\"") q = 2
		}
		return q
	}
	function indent(s,	t) { t = s; sub(/[^ ].*/, "", t); return length(t) }
	FNR == 1 { fence = 0; inblk = 0 }
	/^[ \t]*```/ { fence = !fence; incmd = 0; cat = ""; conf = ""; inblk = 0; next }
	{
		code = fence || /^    / || (/^[ \t]*$/ && prevcode)
		if (!code) { incmd = 0; cat = ""; conf = ""; prevcode = 0; inblk = 0; next }
		prevcode = 1
		line = $0
		if (!inblk && line !~ /^[ \t]*$/) {
			# A block that starts with [global] is a whole config.
			inblk = 1
			if (line ~ /^[ \t]*\[global\][ \t]*$/) {
				id = sprintf("%s-%04d", doc, FNR)
				gsub(/\//, "_", id)
				conf = out "/" id ".conf"
				confindent = indent(line)
				print doc ":" FNR > (out "/" id ".where")
				close(out "/" id ".where")
			}
		}
		if (conf != "") {
			print substr(line, confindent + 1) >> conf
			next
		}
		if (incmd) {
			text = text "\n" line
			q = quotes(line, q)
			if (q || line ~ /\\$/)
				next
			incmd = 0
			print text > (out "/" id ".sh")
			close(out "/" id ".sh")
			next
		}
		s = line
		sub(/^[ \t]+/, "", s)
		if (s ~ /^\$ cat [^ ]+$/) {
			cat = work "/" substr(s, 7)
			catindent = indent(line)
			printf "" > cat
			next
		}
		if (s ~ /^(\$ )?(sudo )?(\.\/)?kbench( |$)/) {
			cat = ""
			sub(/^\$ /, "", s)
			id = sprintf("%s-%04d", doc, FNR)
			gsub(/\//, "_", id)
			print doc ":" FNR > (out "/" id ".where")
			close(out "/" id ".where")
			text = s
			q = quotes(s, 0)
			if (q || s ~ /\\$/) {
				incmd = 1
				next
			}
			print text > (out "/" id ".sh")
			close(out "/" id ".sh")
			next
		}
		if (cat != "") {
			if (s ~ /^\$ /) { cat = ""; next }
			print substr(line, catindent + 1) >> cat
		}
	}' "$f"
done
# The kernel images the shown files name.
for f in "$work"/*; do
	[ -f "$f" ] || continue
	sed -n 's/^kernel *= *//p' "$f" | while read -r k; do
		case $k in
		/*) ;;
		*) mkdir -p "$work/$(dirname "$k")" && cp "$tmp/bzImage" "$work/$k" ;;
		esac
	done
done

ncmds=0
for c in "$tmp"/cmds/*.sh; do
	where=$(cat "${c%.sh}.where")
	doc=${where%%:*}
	text=$(cat "$c")
	# The description: the command's first line, without its comment
	# (a '#' would read as a TAP directive).
	desc="$where: $(head -1 "$c" | sed 's/ *#.*//; s/ *\\$//')"
	why=$(printf '%s\n' "$exceptions" | while IFS='|' read -r xdoc xtext xwhy; do
		if [ "$xdoc" = "$doc" ]; then
			case $text in
			*"$xtext"*) printf '%s' "$xwhy"; break ;;
			esac
		fi
	done)
	if [ -n "$why" ]; then
		skip "$desc: $why"
		continue
	fi
	ncmds=$((ncmds + 1))
	rm -f "$tmp/kb.mode" "$tmp/kb.compare"
	(cd "$work" && HOME=$home USER=tester PATH="$bin:$PATH" KB_REAL="$KBENCH" \
		KB_DB="$db" KB_STUB="$tmp/bzImage" KB_OUT="$tmp/kb" sh -c "$text") \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	st=$?
	mode=$(cat "$tmp/kb.mode" 2>/dev/null)
	ok "$st" "$desc (${mode:-no kbench})"
	if [ "$st" -ne 0 ]; then
		echo "# command:"
		printf '%s\n' "$text" | comment
		echo "# exit status: $st; stderr:"
		comment "$tmp/err"
		tap_stop
	fi
done
check "the docs show commands (more than 50)" test "$ncmds" -gt 50
for c in "$tmp"/cmds/*.conf; do
	[ -f "$c" ] || continue
	where=$(cat "${c%.conf}.where")
	why=$(printf '%s\n' "$exceptions" | while IFS='|' read -r xdoc xtext xwhy; do
		[ "$xdoc" = "${where%%:*}" ] && grep -qF -- "$xtext" "$c" && printf '%s' "$xwhy" && break
	done)
	if [ -n "$why" ]; then
		skip "$where: the config: $why"
		continue
	fi
	check "$where: the config shown is one kbench run reads" kb run -c "$c" --dry-run
done

# Every option a command's --help lists is in its section of kbench.1 (a
# "kbench CMD ..." heading; fleet schedule's section refers to submit's
# options, fleet collect's LIMITS to upload's), by its long name or its
# short one.
"$KBENCH" --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f { print $1 }' |
	grep -v '^fleet$' >"$tmp/words"
printf '%s\n' "fleet submit" "fleet schedule" "fleet unschedule" "fleet status" \
	"fleet collect" "fleet upload" >>"$tmp/words"
: >"$tmp/undocumented"
while read -r words; do
	# shellcheck disable=SC2086
	"$KBENCH" $words --help 2>&1 | awk -v W="$words" -v MAN="$TOP_SRCDIR/docs/kbench.1" '
	BEGIN {
		n = split(W, w, " ")
		also = W == "fleet schedule" ? "fleet submit" : W == "fleet collect" ? "fleet upload" : ""
		while ((getline l < MAN) > 0) {
			if (l ~ /^\.S[HS]/) {
				split(l, f, " ")
				t = n == 2 ? f[3] " " f[4] : f[3]
				in_s = f[1] == ".SS" && f[2] == "kbench" && (t == W || t == also)
			}
			if (in_s) {
				gsub(/\\-/, "-", l)
				sect = sect "\n" l
			}
		}
	}
	match($0, /^ +(-[A-Za-z0-9], )?--[a-z0-9][a-z0-9-]*/) {
		s = substr($0, RSTART, RLENGTH)
		sub(/^ +/, "", s)
		short = ""
		if (s ~ /^-[A-Za-z0-9], /) {
			short = substr(s, 1, 2)
			s = substr(s, 5)
		}
		if (s != "--help" && !index(sect, s) && (short == "" || !index(sect, short " ")))
			print "kbench " W " " s
	}' >>"$tmp/undocumented"
done <"$tmp/words"
is "kbench.1 describes every option of every command" "$(cat "$tmp/undocumented")" ""

# README's mistake: its config snippet (the indented block from [global])
# with 'loops' misspelt says what README shows, line number and all.
(cd "$tmp" && awk '/^    \[global\]/ { on = 1 } on && !/^    / && !/^$/ { exit }
	on { sub(/^    /, ""); print }' "$TOP_SRCDIR/README.md" |
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' | sed 's/^loops /loopz /' >my.conf &&
	"$KBENCH" --db "$tmp/none.db" run -c my.conf --dry-run >/dev/null 2>my.err)
is "README's config mistake reads as README shows it" \
	"$(sed 's/^/    /' "$tmp/my.err")" \
	"$(grep "^    kbench: my.conf:" "$TOP_SRCDIR/README.md")"

# The columns of every table of a store are in docs/schema.md, in the
# table's section ("| \`col\` |" or "| \`a\`, \`b\` |").
sql "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
	WHERE m.type = 'table' ORDER BY 1, p.cid" >"$tmp/columns"
is "docs/schema.md describes every column of the store" \
	"$(awk -F'|' 'NR == FNR { want[NR] = $1 "|" $2; next }
	/^## / { t = $0; sub(/^## /, "", t); sub(/ .*/, "", t); next }
	/^\| `/ { c = $2; gsub(/[ `]/, "", c); n = split(c, cs, ",")
		for (i = 1; i <= n; i++) have[t "|" cs[i]] = 1 }
	END { for (i = 1; i in want; i++) if (!(want[i] in have)) print want[i] }' \
	"$tmp/columns" "$TOP_SRCDIR/docs/schema.md")" ""

# The marks the guides explain are those compare prints: a row whose
# between-run noise is unknown cannot tell (?  x.xx%?); there is no
# better+ or +  x.xx%+.
is "the guides show no mark compare does not print" \
	"$(cd "$TOP_SRCDIR" && grep -n -E '(better|worse)\+|\+ +-?x?[0-9.]*x*%\+' README.md docs/*.md)" ""

# The man pages: no warning from man (groff) or from mandoc's lint.
for page in kbench.1 kbench.conf.5; do
	if command -v man >/dev/null; then
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$TOP_SRCDIR/docs/$page" \
			>/dev/null 2>"$tmp/man.err"
		is "man -l docs/$page: no warning" "$(cat "$tmp/man.err")" ""
	else
		skip "man is not installed (Debian: man-db)"
	fi
	if command -v mandoc >/dev/null; then
		mandoc -Tlint -Wwarning "$TOP_SRCDIR/docs/$page" >"$tmp/lint" 2>&1
		is "mandoc -Tlint docs/$page: no warning" "$(sed "s|$TOP_SRCDIR/||" "$tmp/lint")" ""
	else
		skip "mandoc is not installed (Debian: mandoc)"
	fi
done

done_testing
