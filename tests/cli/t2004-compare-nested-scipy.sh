#!/bin/sh
# t2004: kbench compare's nested noise model (run, round within run,
# sample) agrees with a balanced nested ANOVA and with scipy's t
# distribution on constructed runs of 3 rounds (see tests/nested_ref.py).
# Needs python3-scipy.
# Covers: compare/paired.c compare/noise.c
if ! /usr/bin/python3 -c 'import scipy, numpy' 2>/dev/null; then
	echo "1..0 # SKIP python3-scipy is not installed (apt-get install python3-scipy)"
	exit 0
fi
tmp=$(mktemp -d ./t2004.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
KBENCH_HOSTNAME=ref /usr/bin/python3 "$TOP_SRCDIR/tests/nested_ref.py" "$KBENCH" "$tmp"
