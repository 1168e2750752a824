#!/usr/bin/python3
"""Reference for kbench compare's nested noise model (compare/noise.c).

Builds a store of constructed runs with repeat rounds (run, round and
sample levels, a balanced design), asks kbench compare for JSON, and
checks the variance components and the test against a balanced nested
ANOVA (Searle, Casella and McCulloch, ch. 3): with J runs of R rounds of
n samples,

    sigma_w^2 = MS_within
    sigma_r^2 = (MS_rounds(runs) - MS_within) / n
    sigma_b^2 = (MS_runs - MS_rounds(runs)) / (R n)

truncated at 0, and the t-test of two runs (one a side) whose variance
has a run part, a round part and each side's sample part, its df by
Welch-Satterthwaite and its p from scipy's t distribution.

Usage: nested_ref.py KBENCH TMPDIR. Prints TAP.
"""
import json
import os
import sqlite3
import subprocess
import sys

import numpy as np
from scipy import stats

KBENCH, TMP = sys.argv[1], sys.argv[2]
J, R, N = 3, 3, 4          # history runs, rounds a run, samples a round
tap = 0
failed = 0


def ok(cond, desc):
    global tap, failed
    tap += 1
    print(("ok" if cond else "not ok"), tap, "-", desc)
    failed |= not cond


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


def design(seed, level, sd_run, sd_round, sd_sample):
    """values[run][round][sample] of J runs around level."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(J):
        b = rng.normal(0, sd_run)
        rounds = []
        for _ in range(R):
            r = rng.normal(0, sd_round)
            rounds.append(level + b + r + rng.normal(0, sd_sample, N))
        out.append(rounds)
    return np.array(out)


def store(db, base, new):
    open(db, "w").close()   # an empty file: the first reader makes it a store
    subprocess.run([KBENCH, "--db", db, "runs"], capture_output=True, check=True)
    con = sqlite3.connect(db)
    con.execute("INSERT INTO machines (id, hostname, cpu_model, cpus, fingerprint) "
                "VALUES (1, 'ref', 'CPU', 2, 'f')")
    runs = [(i + 1, "base-%d" % (i + 1), "6.1.0", base[i]) for i in range(J)]
    runs.append((J + 1, "new", "6.2.0", new))
    for rid, name, kernel, values in runs:
        con.execute(
            "INSERT INTO runs (id, uuid, name, machine_id, kernel_release, kernel_version, "
            "kernel_cmdline, config_name, config_text, kbench_version, started_at, "
            "finished_at, status) VALUES (?, ?, ?, 1, ?, '#1 SMP', 'quiet', 'hb', '[hb]', "
            "'0.1.0', ?, ?, 'complete')",
            (rid, "00000000-0000-4000-8000-%012d" % rid, name, kernel,
             "2026-01-0%dT00:00:00Z" % rid, "2026-01-0%dT00:10:00Z" % rid))
        it = 0
        for rnd in range(R):
            for v in values[rnd]:
                it += 1
                con.execute(
                    "INSERT INTO samples (run_id, section, workload, row, iteration, round, "
                    "value, unit, better, started_at, duration_ns, user_ns, sys_ns) VALUES "
                    "(?, 'nested', 'external', '1', ?, ?, ?, 's', 'lower', 0, 1, 1, 1)",
                    (rid, it, rnd + 1, float(v)))
    con.commit()
    con.close()


def anova(x):
    """Balanced nested ANOVA of x[run][round][sample]: the components."""
    grand = x.mean()
    run_m = x.mean(axis=(1, 2))
    round_m = x.mean(axis=2)
    msb = R * N * ((run_m - grand) ** 2).sum() / (J - 1)
    msr = N * ((round_m - run_m[:, None]) ** 2).sum() / (J * (R - 1))
    msw = ((x - round_m[:, :, None]) ** 2).sum() / (J * R * (N - 1))
    return {
        "mean": grand,
        "run_var": run_m.var(ddof=1),
        "within": msw,
        "round": max(0.0, (msr - msw) / N),
        "between": max(0.0, (msb - msr) / (R * N)),
    }


def reference_test(a, base_run, new_run):
    """The t-test of one run a side (kbench's noise_test)."""
    parts, dfs = [], []
    parts.append(a["between"] * 2)
    dfs.append(J - 1)
    parts.append(a["round"] * (1 / R + 1 / R))
    dfs.append(J * (R - 1))
    for run in (base_run, new_run):
        wvar = ((run - run.mean(axis=1)[:, None]) ** 2).sum() / (R * (N - 1))
        parts.append(wvar * (R / N) / R ** 2)
        dfs.append(R * (N - 1))
    var = sum(parts)
    t = (new_run.mean() - base_run.mean()) / np.sqrt(var)
    df = var ** 2 / sum(p * p / d for p, d in zip(parts, dfs) if p > 0)
    return t, df, 2 * stats.t.sf(abs(t), df)


def case(name, seed, sd_run, sd_round, sd_sample, shift):
    db = os.path.join(TMP, name + ".db")
    base = design(seed, 100.0, sd_run, sd_round, sd_sample)
    new = design(seed + 1, 100.0 + shift, sd_run, sd_round, sd_sample)[0]
    store(db, base, new)
    out = subprocess.run([KBENCH, "--db", db, "compare", "--format", "json", "base-1", "new"],
                         capture_output=True, text=True, env=dict(os.environ,
                                                                  KBENCH_HOSTNAME="ref"))
    if out.returncode != 0:
        ok(False, "%s: kbench compare ran (%s)" % (name, out.stderr.strip()))
        return
    row = json.loads(out.stdout)["sections"][0]["rows"][0]
    noise, test = row["noise"], row["runs"][1]["test"]
    a = anova(base)
    cv = lambda v: 100 * np.sqrt(v) / a["mean"]
    ok(noise["source"] == "between-run" and noise["runs"] == J and noise["rounds"] == J * R
       and noise["df"] == J - 1,
       "%s: noise from %d runs of %d rounds, df %d (%s)" % (name, J, R, J - 1,
                                                          {k: noise.get(k) for k in
                                                           ("source", "runs", "rounds", "df")}))
    for key, ref in (("run_mean_coeffvar", cv(a["run_var"])), ("within_coeffvar", cv(a["within"])),
                     ("round_coeffvar", cv(a["round"])), ("between_coeffvar", cv(a["between"]))):
        ok(close(noise[key], ref, 1e-9), "%s: %s %.10g = nested ANOVA's %.10g" %
           (name, key, noise[key], ref))
    t, df, p = reference_test(a, base[0], new)
    ok(close(test["statistic"], t, 1e-9) and close(test["df"], df, 1e-9) and
       close(test["p"], p, 1e-6),
       "%s: t %.6g df %.6g p %.6g = reference t %.6g df %.6g p %.6g" %
       (name, test["statistic"], test["df"], test["p"], t, df, p))


# Each level dominant in turn (the new run has offsets of its own).
case("runs-dominate", 1, 3.0, 0.5, 0.2, 10.0)
case("rounds-dominate", 2, 0.3, 2.0, 0.2, 1.0)
case("samples-dominate", 3, 0.2, 0.2, 2.0, 1.0)
# sigma_b^2 truncated at 0: runs agree better than their rounds suggest.
case("between-zero", 4, 0.0, 3.0, 0.5, 1.0)
print("1..%d" % tap)
sys.exit(failed)
