#!/usr/bin/env python3
# ab-order-sim: the false-positive rate and power of kbench ab's paired
# t-test under the orders of arms it could use, on simulated machines
# whose state drifts. Each experiment has ROUNDS rounds of two arms, one
# block each; a block's value is the machine's state at its time plus
# independent noise (sd 0.3); arm B adds DELTA (0.3) in the power trials.
# The state is one of:
#   two-level P   two speeds, switching with probability P a block
#   ar1 P         an AR(1) process, 1 - P its correlation a block
#   linear P      a drift of P a block
# The orders: abba (kbench ab's default: AB BA AB BA ...), ab (AB every
# round), random (each round's order drawn at random, as kbench ab
# --order shuffle draws it). The test: the paired t-test of the rounds'
# differences B - A, two-sided at 0.05, as kbench compare decides an
# experiment's arms.
# Prints one line per state and order:
#   STATE       P     ORDER    A/A RATE  power RATE
# Exits 2 on bad arguments, 1 when a rate is not a number.
#
# Usage: bench/ab-order-sim.py
# Variables: N (A/A experiments a line, default 1500; a quarter as many
# power trials), ROUNDS (default 12), SEED (default 1). Needs python3
# with numpy and scipy.
import os
import sys

if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
    with open(sys.argv[0]) as f:
        for line in f.readlines()[1:]:
            if not line.startswith("#"):
                break
            print(line[2:].rstrip() if len(line) > 2 else "")
    sys.exit(0)

import numpy as np
from scipy import stats


def positive(name, default):
    v = os.environ.get(name, str(default))
    if not v.isdigit() or int(v) < 1:
        print("ab-order-sim: %s must be a positive integer ('%s')" % (name, v), file=sys.stderr)
        sys.exit(2)
    return int(v)


N = positive("N", 1500)
ROUNDS = positive("ROUNDS", 12)
SEED = positive("SEED", 1)
if ROUNDS < 3:
    print("ab-order-sim: ROUNDS must be 3 or more", file=sys.stderr)
    sys.exit(2)
rng = np.random.default_rng(SEED)


def order(name):
    """Per round, whether arm A runs first."""
    if name == "abba":
        return [k % 2 == 0 for k in range(ROUNDS)]
    if name == "ab":
        return [True] * ROUNDS
    return list(rng.random(ROUNDS) < 0.5)


def state(kind, p, n):
    s = np.empty(n)
    if kind == "two-level":
        cur = rng.random() < 0.5
        for i in range(n):
            if rng.random() < p:
                cur = not cur
            s[i] = cur
    elif kind == "ar1":
        cur = rng.normal()
        for i in range(n):
            cur = (1 - p) * cur + np.sqrt(1 - (1 - p) ** 2) * rng.normal()
            s[i] = cur
    else:
        s = np.arange(n) * p
    return s


def p_value(kind, p, name, delta):
    v = state(kind, p, 2 * ROUNDS) + 0.3 * rng.normal(size=2 * ROUNDS)
    d = np.empty(ROUNDS)
    for k, a_first in enumerate(order(name)):
        a, b = (v[2 * k], v[2 * k + 1]) if a_first else (v[2 * k + 1], v[2 * k])
        d[k] = b + delta - a
    return stats.ttest_1samp(d, 0).pvalue


for kind, p in [("two-level", 0.1), ("two-level", 0.3), ("two-level", 0.5),
                ("ar1", 0.1), ("ar1", 0.3), ("linear", 0.1)]:
    for name in ("abba", "ab", "random"):
        aa = np.mean([p_value(kind, p, name, 0) < 0.05 for _ in range(N)])
        pw = np.mean([p_value(kind, p, name, 0.3) < 0.05 for _ in range(max(1, N // 4))])
        if not (np.isfinite(aa) and np.isfinite(pw)):
            print("ab-order-sim: a rate is not a number", file=sys.stderr)
            sys.exit(1)
        print("%-10s %4.2f  %-7s  A/A %.3f  power %.3f" % (kind, p, name, aa, pw))
        sys.stdout.flush()
