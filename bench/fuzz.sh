#!/bin/sh
# Build the libFuzzer targets of tests/fuzz with clang in _build-fuzz/ (a
# VPATH build beside the tree) and run each for FUZZ_SECONDS (default 60);
# print executions and crashes per target. Exit 1 if a target crashed,
# or if its count of executions cannot be read from its log.
#
#	sh bench/fuzz.sh [TARGET...]	(default: every target)
#
# Corpora grow under _build-fuzz/corpus/, crash inputs land in
# _build-fuzz/crashes/; rerun one with _build-fuzz/tests/fuzz/TARGET FILE.
. "$(dirname "$0")/usage.sh"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build-fuzz
secs=${FUZZ_SECONDS:-60}
targets=${*:-fuzz_config fuzz_lists fuzz_selectors fuzz_options fuzz_bundle fuzz_vmwire fuzz_ab fuzz_mmtests}

die() { echo "fuzz.sh: $*" >&2; exit 2; }

command -v clang >/dev/null ||
	die "clang not found: install the Debian packages clang and libclang-rt-dev (sh .ci/install-deps --test)"
[ -f "$top/config.status" ] &&
	die "the source tree is configured in place: run 'make distclean' there first (the fuzz build is a VPATH build in _build-fuzz/)"
if [ ! -x "$top/configure" ]; then
	(cd "$top" && ./bootstrap) >/dev/null 2>&1 || die "./bootstrap failed"
fi
mkdir -p "$build" || die "cannot create $build"
cd "$build" || exit 2
if [ ! -f Makefile ]; then
	"$top/configure" CC=clang --enable-fuzz >configure.out 2>&1 || {
		cat configure.out >&2
		die "configure failed (output above)"
	}
fi
make -j"$(nproc)" fuzz-targets >make.out 2>&1 || {
	tail -40 make.out >&2
	die "the build failed (the end of its output above)"
}

# Seeds: the shipped configs and the hand-written ones; the list parsers'
# own. libFuzzer writes what it finds to the first corpus directory only.
mkdir -p seeds/fuzz_config crashes
cp "$top"/configs/*.conf seeds/fuzz_config/

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
n=0
crashed=0
unread=0
for t in $targets; do
	case $t in
	fuzz_config)
		seeds="seeds/fuzz_config $top/tests/fuzz/corpus/config"
		dict=$top/tests/fuzz/config.dict ;;
	fuzz_lists)
		seeds=$top/tests/fuzz/corpus/lists
		dict=$top/tests/fuzz/lists.dict ;;
	fuzz_selectors)
		seeds=$top/tests/fuzz/corpus/selectors
		dict=$top/tests/fuzz/selectors.dict ;;
	fuzz_options)
		seeds=$top/tests/fuzz/corpus/options
		dict=$top/tests/fuzz/options.dict ;;
	fuzz_bundle)
		# SQLite files: a dictionary of words does little for them.
		seeds=$top/tests/fuzz/corpus/bundle
		dict= ;;
	fuzz_ab)
		seeds=$top/tests/fuzz/corpus/ab
		dict=$top/tests/fuzz/config.dict ;;
	fuzz_vmwire)
		# Binary frames: no dictionary either.
		seeds=$top/tests/fuzz/corpus/vmwire
		dict= ;;
	fuzz_mmtests)
		seeds=$top/tests/fuzz/corpus/mmtests
		dict=$top/tests/fuzz/mmtests.dict ;;
	*)
		die "no fuzz target '$t' (fuzz_config, fuzz_lists, fuzz_selectors, fuzz_options, fuzz_bundle, fuzz_vmwire, fuzz_ab, fuzz_mmtests)" ;;
	esac
	mkdir -p "corpus/$t" "crashes/$t"
	rm -f "crashes/$t"/*
	# shellcheck disable=SC2086
	"tests/fuzz/$t" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
		${dict:+-dict="$dict"} -artifact_prefix="crashes/$t/" \
		"corpus/$t" $seeds >"$t.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$t.log" | tail -1)
	# Without final stats (killed by a signal), take the last status line.
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$t.log" | tail -1)
	found=$(find "crashes/$t" -type f \( -name 'crash-*' -o -name 'leak-*' -o \
		-name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	[ "$rc" -ne 0 ] && [ "$found" -eq 0 ] && found=1
	case $execs in
	'' | *[!0-9]*)
		echo "$t: no count of executions in $build/$t.log ('$execs'), $found crashes"
		unread=$((unread + 1)) ;;
	*)
		echo "$t: $execs executions ($((execs / secs)) a second), $found crashes" ;;
	esac
	if [ "$found" -ne 0 ]; then
		crashed=$((crashed + 1))
		grep -E -A12 '^==[0-9]+==ERROR|runtime error|^SUMMARY' "$t.log" | head -40 | sed 's/^/  /'
		find "crashes/$t" -type f | sed "s|^|  input: $build/|"
	fi
	n=$((n + 1))
done
echo "fuzz: $n targets, $crashed crashed, $unread unread"
[ "$crashed" -eq 0 ] && [ "$unread" -eq 0 ]
