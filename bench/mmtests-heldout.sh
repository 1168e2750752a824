#!/bin/sh
# mmtests-heldout.sh: kbench's comparison tables against mmtests' own on
# the same samples (docs/mmtests.md, "The held-out check"). The runs BASE
# and NEW of the store are written with 'kbench export --mmtests'; for
# each benchmark of the export, mmtests' compare-mmtests.pl tables it and
# 'kbench compare --test ci' tables the runs; the rows are paired by
# statistic and order, and every value and percentage compared. Rows
# that differ are printed. Then mmtests' compare-kernels.sh reports on
# the export as a reviewer runs it, every benchmark but those
# compare-mmtests.pl printed no table of (listed), and each Perl error
# in its output ("... at FILE line N.") is printed. Then the counts:
#
#	values equal N/M, percentages equal N/M
#	compare-kernels.sh: N Perl errors
#
# and the exit status is 1 when any figure differs or Perl erred.
# mmtests' labels (time-4, tcprr-send-1, BAmean.95) are not compared,
# only the figures.
#
#	MMTESTS=/path/to/mmtests sh bench/mmtests-heldout.sh BASE NEW
#
# MMTESTS: an mmtests checkout (its path is never committed); its
# reporting needs Perl with YAML::PP, File::Which, Cpanel::JSON::XS and
# File::Slurp (Debian: libyaml-pp-perl libfile-which-perl
# libcpanel-json-xs-perl libfile-slurp-perl); without R, mmtests marks
# significance by another rule than its own, so the marks are not
# compared. KBENCH: the kbench to run (default: ./kbench, else on PATH);
# KBENCH_DB as for kbench. COMPARE_KERNELS=no leaves compare-kernels.sh
# out (checkouts from before 2026-04 have modules of their own that fail
# to compile, as netperf's over-time report of 09b91ce9). compare-kernels.sh
# runs with ASSUME_PACKAGE_INSTALLED=yes unless set otherwise, so that it
# installs nothing. Known differences: mmtests since 2026 prints
# UDP_STREAM's send rate in its recv rows; its sysbenchcpu table treats
# events/sec as lower-is-better; pft needs a checkout from before
# 3ded02f7, which removed it; tbench's table of today reads per-second
# logs kbench does not have.
. "$(dirname "$0")/usage.sh"
set -u

die() { echo "mmtests-heldout.sh: $*" >&2; exit 2; }

[ $# -eq 2 ] || die "usage: MMTESTS=DIR sh bench/mmtests-heldout.sh BASE NEW"
[ -x "${MMTESTS:-}/bin/compare-mmtests.pl" ] ||
	die "MMTESTS must name an mmtests checkout (bin/compare-mmtests.pl)"
kernels=${COMPARE_KERNELS:-yes}
[ "$kernels" = no ] || [ -x "$MMTESTS/compare-kernels.sh" ] ||
	die "MMTESTS has no compare-kernels.sh (COMPARE_KERNELS=no leaves it out)"
kbench=${KBENCH:-./kbench}
[ -x "$kbench" ] || kbench=kbench
base=$1 new=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/mmtests-heldout.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

"$kbench" export --mmtests "$work/log" "$base" "$new" > "$work/export.out" ||
	die "kbench export --mmtests failed"
"$kbench" compare --test ci "$base" "$new" > "$work/kbench.txt" ||
	die "kbench compare failed"
# The directories are named by the runs' names, without any @HOST.
bname=${base%@*} nname=${new%@*}

# rows FILE: "STAT OP<TAB>cells" for each table row of FILE: the op as
# kbench labels it (mmtests' time-4 is 4, tcprr-send-1 is 1,
# udpstream-send-64 is send-64, events/sec-2 is threads-2), the cells
# its values and percentages without marks.
rows() {
	awk '/%[)*?]/ {
		stat = $1; sub(/\./, "-", stat)
		op = $2
		sub(/^(time|[a-z]+rr-send|tcpstream-send|streamstream-send)-/, "", op)
		sub(/^udpstream-/, "", op)
		sub(/^events\/sec-/, "threads-", op)
		line = $0
		sub(/^[^ ]+ +[^ ]+ +/, "", line)
		gsub(/[~()*?%]/, " ", line)
		print stat " " op "\t" line
	}' "$1"
}

total=0 untabled=
for dir in "$work/log/$bname"/iter-0/*/; do
	bench=$(basename "$dir")
	[ -d "$dir/logs" ] || continue
	case $bench in
	sysbenchcpu) section=sysbench-cpu ;;
	netperf-tcp | netperf-udp) section=$bench-stream ;;
	pft) section=$(grep -q 'PFT_USE_PROCESSES=yes' "$work/log/$bname/config" &&
		echo pft-processes || echo pft-threads) ;;
	*) section=$bench ;;
	esac
	(cd "$work/log" && "$MMTESTS/bin/compare-mmtests.pl" -d . -b "$bench" \
		-n "$bname,$nname") > "$work/mm.txt" 2> "$work/mm.err"
	awk -v s="$section" '$0 == s { on = 1; next } on && /^$/ { exit } on' \
		"$work/kbench.txt" > "$work/kb.txt"
	rows "$work/mm.txt" > "$work/mm.rows"
	rows "$work/kb.txt" > "$work/kb.rows"
	if [ ! -s "$work/mm.rows" ]; then
		echo "$bench: mmtests printed no table:"
		sed 's/^/  /' "$work/mm.err" | head -5
		untabled="$untabled $bench"
		continue
	fi
	# Pair the rows of one statistic and op; compare the cells.
	awk -F '\t' -v b="$bench" '
	FNR == NR { mm[$1] = $2; next }
	$1 in mm {
		n = split(mm[$1], a, " ")
		split($2, c, " ")
		for (i = 1; i <= n; i++) {
			if (i % 2) {
				tv++
				if (a[i] == c[i]) ev++; else bad = 1
			} else {
				tp++
				if (a[i] + 0 == c[i] + 0) ep++; else bad = 1
			}
		}
		if (bad)
			printf "%s: %s differs: mmtests %s, kbench %s\n", b, $1, mm[$1], $2
		bad = 0
	}
	END { print tv + 0, ev + 0, tp + 0, ep + 0 > "/dev/stderr" }
	' "$work/mm.rows" "$work/kb.rows" 2>> "$work/counts"
	total=$((total + 1))
done
[ "$total" -gt 0 ] || die "no benchmark of the export was tabled"

# compare-kernels.sh finds the benchmarks of a run in its activity files
# ("test start :: BENCH T", or "begin BENCH" as mmtests wrote before
# 2024): those mmtests cannot table leave them.
perl_errors=0
if [ "$kernels" != no ]; then
	for bench in $untabled; do
		for f in "$work/log"/*/mmtests-activity "$work/log"/*/iter-*/tests-activity; do
			[ -f "$f" ] || continue
			grep -v -e " test start :: $bench " -e " run-mmtests: begin $bench\$" "$f" \
				> "$work/activity"
			cat "$work/activity" > "$f"
		done
	done
	[ -z "$untabled" ] || echo "compare-kernels.sh: left out, not tabled:$untabled"
	(cd "$work/log" && ASSUME_PACKAGE_INSTALLED=${ASSUME_PACKAGE_INSTALLED:-yes} \
		"$MMTESTS/compare-kernels.sh" --baseline "$bname" --compare "$nname") \
		> "$work/ck.txt" 2>&1
	# Perl's die and warn: "MESSAGE at FILE line N." (", <FH> line M.")
	grep -E ' at [^ ]+ line [0-9]+' "$work/ck.txt" > "$work/ck.err"
	perl_errors=$(wc -l < "$work/ck.err")
	[ "$perl_errors" -eq 0 ] || { echo "compare-kernels.sh printed Perl errors:"
		sed 's/^/  /' "$work/ck.err"; }
fi
awk -v ck="$kernels" -v pe="$perl_errors" '{ tv += $1; ev += $2; tp += $3; ep += $4 }
END {
	printf "values equal %d/%d, percentages equal %d/%d\n", ev, tv, ep, tp
	if (ck != "no")
		printf "compare-kernels.sh: %d Perl error%s\n", pe, pe == 1 ? "" : "s"
	exit !(ev == tv && ep == tp && pe == 0)
}' "$work/counts"
