#!/usr/bin/python3
# ab_ref: checks kbench compare's paired verdict of an A/B experiment's
# arms against scipy: per round, the mean of each arm's samples (of 1/x
# for a higher-is-better row, as kbench tests Hmean rows), then
# scipy.stats.ttest_rel on the rounds' pairs; p-value and decision must
# equal kbench's to 1e-9. Usage: ab_ref.py KBENCH DB BASE NEW. Prints TAP
# lines from number 1 and the count last ("1..N").
import json
import sqlite3
import subprocess
import sys

from scipy import stats

kbench, db, base, new = sys.argv[1:5]
count = 0
failed = False


def ok(cond, desc):
    global count, failed
    count += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (count, desc))
    failed |= not cond


def round_means(con, name, row, higher):
    means = {}
    for rnd, vals in con.execute(
            "SELECT s.round, group_concat(s.value, ' ') FROM samples s JOIN runs r "
            "ON r.id = s.run_id WHERE r.name = ? AND s.row = ? AND s.warmup = 0 "
            "GROUP BY s.round",
            (name, row)):
        xs = [float(v) for v in vals.split()]
        if higher:
            xs = [1 / x for x in xs]
        means[rnd] = sum(xs) / len(xs)
    return means


out = subprocess.run([kbench, "--db", db, "compare", "--format", "json", base, new],
                     capture_output=True, text=True, check=True).stdout
doc = json.loads(out)
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
rows = 0
for sec in doc["sections"]:
    for row in sec["rows"]:
        test = row["runs"][1].get("test")
        if not test:
            continue
        higher = row["better"] == "higher"
        mb = round_means(con, base, row["label"], higher)
        mn = round_means(con, new, row["label"], higher)
        ks = sorted(set(mb) & set(mn))
        res = stats.ttest_rel([mn[k] for k in ks], [mb[k] for k in ks])
        rows += 1
        what = "%s %s (%s, %d rounds)" % (sec["name"], row["label"], row["better"], len(ks))
        ok(test.get("basis") == "paired-rounds", "%s: tested paired (%s)" % (what, test.get("basis")))
        ok(abs(test["p"] - res.pvalue) < 1e-9,
           "%s: p %.12g equals scipy's ttest_rel %.12g" % (what, test["p"], res.pvalue))
        ok(test["df"] == len(ks) - 1, "%s: df %s" % (what, test["df"]))
        ok(test["significant"] == bool(res.pvalue < 0.05),
           "%s: significant %s as scipy says" % (what, test["significant"]))
        # The smallest change detected at 80% power, and the rounds that
        # would detect 10% of the base arm's mean, from the same pairs.
        n = len(ks)
        d = [mn[k] - mb[k] for k in ks]
        dm = sum(d) / n
        sd = (sum((x - dm) ** 2 for x in d) / (n - 1)) ** 0.5
        base_mean = abs(sum(mb[k] for k in ks) / n)

        def mde(rounds):
            q = stats.t.ppf(0.975, rounds - 1) + stats.t.ppf(0.8, rounds - 1)
            return q * sd / rounds ** 0.5

        ok(abs(test["mde_pct"] - 100 * mde(n) / base_mean) < 1e-6 * test["mde_pct"],
           "%s: detectable change %.9g%% as scipy's t quantiles give" % (what, test["mde_pct"]))
        need = next((k for k in range(3, 201) if mde(k) <= 0.1 * base_mean), None)
        ok(test.get("rounds_needed_10pct") == need,
           "%s: rounds to detect 10%% %s, scipy %s" % (what, test.get("rounds_needed_10pct"), need))
ok(rows > 0, "%d rows compared" % rows)
print("1..%d" % count)
sys.exit(1 if failed else 0)
