#!/bin/sh
# mmtests-heldout.sh: kbench's comparison tables against mmtests' own on
# the same samples (docs/mmtests.md, "The held-out check"). The runs BASE
# and NEW of the store are written with 'kbench export --mmtests'; for
# each benchmark of the export, mmtests' compare-mmtests.pl tables it and
# 'kbench compare --test ci' tables the runs; the rows are paired by
# statistic and order, and every value and percentage compared. Rows
# that differ are printed, then the counts:
#
#	values equal N/M, percentages equal N/M
#
# and the exit status is 1 when any differs. mmtests' labels (time-4,
# tcprr-send-1, BAmean.95) are not compared, only the figures.
#
#	MMTESTS=/path/to/mmtests sh bench/mmtests-heldout.sh BASE NEW
#
# MMTESTS: an mmtests checkout (its path is never committed); its
# reporting needs Perl with YAML::PP, File::Which, Cpanel::JSON::XS and
# File::Slurp (Debian: libyaml-pp-perl libfile-which-perl
# libcpanel-json-xs-perl libfile-slurp-perl); without R, mmtests marks
# significance by another rule than its own, so the marks are not
# compared. KBENCH: the kbench to run (default: ./kbench, else on PATH);
# KBENCH_DB as for kbench. Known differences: mmtests since 2026 prints
# UDP_STREAM's send rate in its recv rows; its sysbenchcpu table treats
# events/sec as lower-is-better; pft needs a checkout from before
# 3ded02f7, which removed it.
. "$(dirname "$0")/usage.sh"
set -u

die() { echo "mmtests-heldout.sh: $*" >&2; exit 2; }

[ $# -eq 2 ] || die "usage: MMTESTS=DIR sh bench/mmtests-heldout.sh BASE NEW"
[ -x "${MMTESTS:-}/bin/compare-mmtests.pl" ] ||
	die "MMTESTS must name an mmtests checkout (bin/compare-mmtests.pl)"
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

total=0
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
awk '{ tv += $1; ev += $2; tp += $3; ep += $4 }
END {
	printf "values equal %d/%d, percentages equal %d/%d\n", ev, tv, ep, tp
	exit !(ev == tv && ep == tp)
}' "$work/counts"
