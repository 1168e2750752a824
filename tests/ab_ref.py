#!/usr/bin/python3
# ab_ref: checks kbench compare's paired verdict of an A/B experiment's
# arms against scipy: per round, the mean of each arm's samples (of 1/x
# for a higher-is-better row, as kbench tests Hmean rows), then
# scipy.stats.ttest_rel on the rounds' pairs; p-value and decision must
# equal kbench's to 1e-9. With "nested" after NEW, compare --paired
# nested is checked against the nested model worked here from the
# samples: the rounds' differences' variance against the samples'
# (scipy's F law), pooled when its p is at least 0.25, the t on the
# summed degrees of freedom (scipy's t law). Usage: ab_ref.py KBENCH DB
# BASE NEW [nested]. Prints TAP lines from number 1 and the count last
# ("1..N").
import json
import sqlite3
import subprocess
import sys

from scipy import stats

kbench, db, base, new = sys.argv[1:5]
nested = sys.argv[5:] == ["nested"]
count = 0
failed = False


def ok(cond, desc):
    global count, failed
    count += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (count, desc))
    failed |= not cond


def round_samples(con, name, row, higher):
    samples = {}
    for rnd, vals in con.execute(
            "SELECT s.round, group_concat(s.value, ' ') FROM samples s JOIN runs r "
            "ON r.id = s.run_id WHERE r.name = ? AND s.row = ? AND s.warmup = 0 "
            "GROUP BY s.round",
            (name, row)):
        xs = [float(v) for v in vals.split()]
        if higher:
            xs = [1 / x for x in xs]
        samples[rnd] = xs
    return samples


def mean(xs):
    return sum(xs) / len(xs)


def ss(xs):
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs)


def nested_model(sb, sn, ks):
    """The nested model's t, df and p, whether it pooled, and the F
    test's p (None: no sample spread to test with)."""
    n = len(ks)
    d = [mean(sn[k]) - mean(sb[k]) for k in ks]
    dm = mean(d)
    var_d = ss(d) / (n - 1)
    ss_w = sum(ss(sb[k]) + ss(sn[k]) for k in ks)
    df_w = sum(len(sb[k]) - 1 + len(sn[k]) - 1 for k in ks)
    h = mean([1 / len(sb[k]) + 1 / len(sn[k]) for k in ks])
    res = stats.ttest_rel([mean(sn[k]) for k in ks], [mean(sb[k]) for k in ks])
    if df_w == 0:
        return res.statistic, n - 1, res.pvalue, False, None
    fp = stats.f.sf(var_d / (h * ss_w / df_w), n - 1, df_w)
    if fp < 0.25:
        return res.statistic, n - 1, res.pvalue, False, fp
    df = n - 1 + df_w
    se = (((n - 1) * var_d + h * ss_w) / df / n) ** 0.5
    t = dm / se
    return t, df, 2 * stats.t.sf(abs(t), df), True, fp


args = [kbench, "--db", db, "compare", "--format", "json"]
if nested:
    args += ["--paired", "nested"]
out = subprocess.run(args + [base, new], capture_output=True, text=True, check=True).stdout
doc = json.loads(out)
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
rows = 0
for sec in doc["sections"]:
    for row in sec["rows"]:
        test = row["runs"][1].get("test")
        if not test:
            continue
        higher = row["better"] == "higher"
        sb = round_samples(con, base, row["label"], higher)
        sn = round_samples(con, new, row["label"], higher)
        ks = sorted(set(sb) & set(sn))
        mb = {k: mean(sb[k]) for k in ks}
        mn = {k: mean(sn[k]) for k in ks}
        what = "%s %s (%s, %d rounds)" % (sec["name"], row["label"], row["better"], len(ks))
        rows += 1
        if nested:
            t, df, p, pooled, fp = nested_model(sb, sn, ks)
            ok(test.get("basis") == "paired-nested",
               "%s: tested with the nested model (%s)" % (what, test.get("basis")))
            ok(test.get("pooled") == pooled,
               "%s: pooled %s, the model says %s (F test p %s)" % (what, test.get("pooled"), pooled, fp))
            ok((fp is None and test.get("interaction_p") is None) or
               (fp is not None and abs(test["interaction_p"] - fp) < 1e-9),
               "%s: F test p %s equals scipy's %s" % (what, test.get("interaction_p"), fp))
            ok(abs(test["p"] - p) < 1e-9, "%s: p %.12g equals scipy's %.12g" % (what, test["p"], p))
            ok(test["df"] == df, "%s: df %s, the model's %s" % (what, test["df"], df))
            ok(test["significant"] == bool(p < 0.05),
               "%s: significant %s as scipy says" % (what, test["significant"]))
            # The statistic is the sign of new - base in x: on 1/x's t
            # for a higher-is-better row, that sign turned.
            want = -t if higher else t
            ok(abs(test["statistic"] - want) < 1e-9 * max(1, abs(want)),
               "%s: t %.12g equals %.12g" % (what, test["statistic"], want))
            continue
        res = stats.ttest_rel([mn[k] for k in ks], [mb[k] for k in ks])
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
