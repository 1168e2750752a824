# lib-verdict.sh: what the bench scripts that count verdicts on one
# hackbench row share (ab-power.sh, time-to-verdict.sh). Source it after
# usage.sh, with ITERATIONS and LOOPS set.
#
#   hb_conf FILE ROUNDS LOOPS_B   the config: the row, arms a and b (b at
#                                 LOOPS_B loops) for kbench ab
#   mean_marked JSON WHO          1 when the mean row of the last column
#                                 of kbench compare's json is significant,
#                                 0 when not; a non-zero status after
#                                 saying why (as WHO) when it holds no
#                                 verdict
#   mean_sign JSON WHO            better or worse: the sign of that mean
#                                 row's change, or a non-zero status
#   mean_p JSON WHO               the p-value of that mean row's test (1
#                                 when no test was done), the same way;
#                                 a non-zero status for a test that
#                                 gives none (--test ci)

hb_conf() {
	cat > "$1" <<CONF
[experiment]
rounds = $2

[arm:a]

[arm:b]
option.loops = $3

[global]
iterations = $ITERATIONS
warmup = 1
loops = $LOOPS
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
}

# mean_test JSON WHO: "MARKED P" of that mean row (P 1 when no test was
# done, none when the test gives no p-value, as --test ci), or a non-zero
# status after saying why.
mean_test() {
	python3 - "$1" "$2" <<'PY'
import json, math, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
    t = d["sections"][0]["rows"][0]["runs"][-1]["test"]
    if not isinstance(t.get("done"), bool):
        raise KeyError("done")
    if t["done"] and not isinstance(t.get("significant"), bool):
        raise KeyError("significant")
    if not t["done"]:
        p = 1.0
    elif t.get("p") is None:
        p = None        # a rule without a p-value (--test ci)
    else:
        p = float(t["p"])
        if math.isnan(p) or not 0 <= p <= 1:
            raise ValueError("p %r" % t["p"])
except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
    sys.exit("%s: no verdict in the comparison (%s %s)" % (sys.argv[2], type(e).__name__, e))
print(1 if t["done"] and t["significant"] else 0, repr(p))
PY
}

mean_sign() {
	python3 - "$1" "$2" <<'PY'
import json, math, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
    pct = float(d["sections"][0]["rows"][0]["runs"][-1]["pct"]["mean"])
    if math.isnan(pct):
        raise ValueError("pct NaN")
except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
    sys.exit("%s: no change in the comparison (%s %s)" % (sys.argv[2], type(e).__name__, e))
print("better" if pct > 0 else "worse")
PY
}

mean_marked() {
	mt=$(mean_test "$1" "$2") || return 1
	echo "${mt%% *}"
}

mean_p() {
	mt=$(mean_test "$1" "$2") || return 1
	case ${mt#* } in
	None) echo "$2: the comparison's test gives no p-value" >&2; return 1 ;;
	esac
	echo "${mt#* }"
}
