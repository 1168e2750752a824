#!/bin/sh
# t2003: kbench compare's p-values and decisions agree with scipy (see
# tests/stats_ref.py). Needs python3-scipy.
# Covers: compare/stats.c
if ! /usr/bin/python3 -c 'import scipy, numpy' 2>/dev/null; then
	echo "1..0 # SKIP python3-scipy is not installed (apt-get install python3-scipy)"
	exit 0
fi
tmp=$(mktemp -d ./t2003.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
# stats_ref.py stores its runs as made on host 'ref': a bare name means
# this host.
KBENCH_HOSTNAME=ref /usr/bin/python3 "$TOP_SRCDIR/tests/stats_ref.py" "$KBENCH" "$tmp"
