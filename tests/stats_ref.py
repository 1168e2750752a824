#!/usr/bin/python3
# stats_ref: checks kbench compare's significance tests against an
# independent implementation. Random sample pairs (sizes 3-60, shifted or
# not, some with ties, lower- and higher-is-better rows) are stored as two
# runs; `kbench compare --format json` reports each pair's p-value and
# decision, which must equal scipy's to 1e-6: ttest_ind(equal_var=False)
# for Welch (on 1/x for Hmean rows), mannwhitneyu for the U test (exact or
# asymptotic as kbench chose), and mmtests' t-test and CI rule written out
# here with scipy's distributions. Usage: stats_ref.py KBENCH WORKDIR
# Prints TAP.
import json
import sqlite3
import subprocess
import sys

import numpy as np
from scipy import stats

TOL = 1e-6
PAIRS = 240

kbench, work = sys.argv[1], sys.argv[2]
db = work + "/ref.db"
rng = np.random.default_rng(20261129)
count = 0
failed = False


def ok(cond, desc):
    global count, failed
    count += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (count, desc))
    failed |= not cond


def make_pairs():
    pairs = []
    for k in range(PAIRS):
        nb, nn = rng.integers(3, 61, size=2)
        if k % 4 == 0:
            nb, nn = rng.integers(3, 9, size=2)   # small: exact U
        shift = rng.choice([0.0, 0.0, 0.5, 1.0, 2.0, 6.0])
        base = rng.normal(100, 5, nb)
        new = rng.normal(100 + shift * 5 * rng.choice([-1, 1]), 5 * rng.uniform(0.5, 2), nn)
        if k % 5 == 1:                            # ties: normal approximation
            base, new = np.round(base / 2) * 2, np.round(new / 2) * 2
        higher = k % 2 == 1
        pairs.append(("pair-%03d" % k, higher, base, new))
    return pairs


def store(pairs):
    # An empty file is a store of schema version 0: runs sets it up.
    open(db, "a").close()
    subprocess.run([kbench, "--db", db, "runs"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    con.execute("INSERT INTO machines (hostname, cpu_model, cpus, fingerprint) "
                "VALUES ('ref', 'ref cpu', 1, 'ref')")
    mid = con.execute("SELECT id FROM machines WHERE fingerprint = 'ref'").fetchone()[0]
    for i, name in enumerate(("ref-base", "ref-new")):
        cur = con.execute("INSERT INTO runs (uuid, name, machine_id, config_name, config_text, "
                          "started_at, finished_at, status) VALUES (?, ?, ?, 'ref', '', "
                          "'2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'complete')",
                          ("%08d-0000-4000-8000-000000000000" % (i + 1), name, mid))
        run = cur.lastrowid
        for section, higher, base, new in pairs:
            for it, v in enumerate(base if i == 0 else new):
                con.execute("INSERT INTO samples (run_id, section, workload, row, iteration, "
                            "value, unit, better) VALUES (?, ?, 'ref', 'r', ?, ?, 'ops', ?)",
                            (run, section, it, float(v), "higher" if higher else "lower"))
    con.commit()
    con.close()


def kbench_json(test):
    out = subprocess.run([kbench, "--db", db, "compare", "--format", "json", "--test", test,
                          "ref-base", "ref-new"], check=True, capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d["test"]["alpha"], {s["name"]: s["rows"][0]["runs"][1]["test"] for s in d["sections"]}


def hstd(x):
    h = stats.hmean(x)
    return np.sqrt(np.sum((1 / x - 1 / h) ** 2) * h ** 4 / len(x))


def reference(test, higher, base, new, alpha, method):
    """Return (p or None, significant, method)."""
    if test == "welch":
        b, n = (1 / base, 1 / new) if higher else (base, new)
        p = stats.ttest_ind(n, b, equal_var=False).pvalue
        return p, p < alpha, None
    if test == "mwu":
        ties = len(np.unique(np.concatenate([base, new]))) < len(base) + len(new)
        m = "exact" if not ties and len(base) <= 50 and len(new) <= 50 else "asymptotic"
        p = stats.mannwhitneyu(new, base, alternative="two-sided", method=m,
                               use_continuity=True).pvalue
        return p, p < alpha, "exact" if m == "exact" else "normal"
    mean = stats.hmean if higher else np.mean
    if test == "ttest":
        se = np.sqrt(np.var(base, ddof=1) / len(base) + np.var(new, ddof=1) / len(new))
        t = abs(mean(base) - mean(new)) / se
        p = 2 * stats.t.sf(t, len(base) + len(new) - 2)
        return p, p < alpha, None
    z = stats.norm.isf(alpha / 2)
    sd = hstd if higher else (lambda x: np.std(x, ddof=1))
    ratio = (mean(base) - mean(new)) / (z * sd(base) + z * sd(new))
    return None, abs(ratio) > 1, None


pairs = make_pairs()
store(pairs)
for test in ("welch", "mwu", "ttest", "ci"):
    alpha, got = kbench_json(test)
    worst, wrong, methods, sig = 0.0, [], set(), 0
    for section, higher, base, new in pairs:
        r = got.get(section)
        p, significant, method = reference(test, higher, base, new, alpha, None)
        if r is None or not r["done"]:
            wrong.append(section + " untested")
            continue
        if p is not None:
            diff = abs(r["p"] - p)
            worst = max(worst, diff)
            if diff > TOL:
                wrong.append("%s p %r vs %r" % (section, r["p"], p))
        if r["significant"] != bool(significant):
            wrong.append("%s decision %s vs %s" % (section, r["significant"], significant))
        if method and r.get("method") != method:
            wrong.append("%s method %s vs %s" % (section, r.get("method"), method))
        methods.add(r.get("method"))
        sig += r["significant"]
    for w in wrong[:10]:
        print("# " + w)
    ok(not wrong, "%s: %d pairs agree with the reference (worst |dp| %.2g)" %
       (test, len(pairs), worst))
    # A test that stars everything or nothing would agree by accident less
    # often than it seems; make sure both outcomes occur.
    ok(0 < sig < len(pairs), "%s: %d of %d pairs significant, both outcomes seen" %
       (test, sig, len(pairs)))
    if test == "mwu":
        ok(methods == {"exact", "normal"}, "mwu: exact and normal approximation both exercised")
print("1..%d" % count)
sys.exit(1 if failed else 0)
