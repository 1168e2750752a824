#!/bin/sh
# flake-finder: run each CLI test N times through make check (Automake's
# TAP driver, as CI runs them) and list every test that failed at least
# once, with how often and the first failing lines of each failed run.
# Meant for a build configured with --enable-sanitizers, where the extra
# cost of ASan and UBSan brings out tests that depend on timing; it
# warns when the build is not one.
# Usage: bench/flake-finder.sh [TEST.sh...]   from the build directory
# (default: every tests/cli/t*.sh except the t85xx fleet tests, which
# start servers on fixed ports; name them to include them).
# Variables: FLAKE_RUNS (N, default 10); FLAKE_JOBS (tests run at once,
# make -j, default 2); FLAKE_LOG (directory for the failed runs' logs,
# default flake-logs). Exit status: 0 when no test failed, 1 otherwise.
. "$(dirname "$0")/usage.sh"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
runs=${FLAKE_RUNS:-10}
jobs=${FLAKE_JOBS:-2}
logs=${FLAKE_LOG:-flake-logs}
[ -f Makefile ] || { echo "flake-finder.sh: no Makefile here: run it from the build directory" >&2; exit 2; }
case $runs in '' | *[!0-9]*) echo "flake-finder.sh: FLAKE_RUNS must be a number" >&2; exit 2 ;; esac
grep -q -- '-fsanitize=address' Makefile ||
	echo "flake-finder.sh: warning: this build has no sanitizers (configure --enable-sanitizers)" >&2
if [ $# -eq 0 ]; then
	for t in "$srcdir"/tests/cli/t*.sh; do
		case ${t##*/} in t85*) continue ;; esac
		set -- "$@" "tests/cli/${t##*/}"
	done
fi
mkdir -p "$logs"
tests=$*
i=1
while [ "$i" -le "$runs" ]; do
	make -s -k check -j"$jobs" TESTS="$tests" >/dev/null 2>&1
	for t in $tests; do
		log=${t%.sh}.log
		if [ -f "$log" ] && grep -q '^\(not ok\|Bail out!\)' "$log"; then
			cp "$log" "$logs/${t##*/}.$i.log"
		elif [ -f "${t%.sh}.trs" ] && grep -q '^:test-result: ERROR' "${t%.sh}.trs"; then
			cp "$log" "$logs/${t##*/}.$i.log"
		fi
	done
	echo "flake-finder: run $i of $runs done" >&2
	i=$((i + 1))
done
status=0
for t in $tests; do
	n=$(find "$logs" -name "${t##*/}.*.log" | wc -l)
	[ "$n" -eq 0 ] && continue
	status=1
	echo "${t##*/}: failed $n of $runs runs"
	for f in "$logs/${t##*/}".*.log; do
		grep -m 3 '^\(not ok\|Bail out!\)' "$f" | sed "s|^|  ${f##*/}: |"
	done
done
[ "$status" -eq 0 ] && echo "no flaky test in $runs runs of $# tests"
exit "$status"
