#!/bin/sh
# t9000-fuzz-replay: every fuzz target is built by the ordinary build and
# run over its seed corpus and the shipped configs: a target that stops
# compiling, or an input that once crashed it, fails here (and under the
# sanitizers in CI) without libFuzzer.
# Covers: runner/conf.c runner/plan.c workloads/params.c db/query.c lib/parse-options.c db/bundle.c sampler/guest.c experiment/experiment_design.c mmtests/mmtests.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

bin=$(dirname "$KBENCH")/tests/fuzz
for t in config lists selectors options bundle vmwire ab mmtests; do
	set -- "$TOP_SRCDIR"/tests/fuzz/corpus/$t/*
	[ "$t" = config ] && set -- "$@" "$TOP_SRCDIR"/configs/*.conf
	"$bin/replay_$t" "$@" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/out"
	ok $rc "fuzz_$t replays its $# seeds"
done
done_testing
