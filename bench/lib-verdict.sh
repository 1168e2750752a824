# lib-verdict.sh: what the bench scripts that count verdicts on one
# row share (ab-power.sh, time-to-verdict.sh). Source it after usage.sh,
# with ITERATIONS and LOOPS set. The row is WORKLOAD's:
#   hackbench (the default) hackbench process pipes, 1 group, LOOPS
#             loops; its first row (groups 1, seconds)
#   pft       pft, one thread faulting a mapping of LOOPS MiB (THP off);
#             its elapsed-1 row (seconds)
# A change is made by the work itself: the changed arm runs more loops,
# or maps more MiB ($vd_knob, with its unit $vd_unit; $vd_only is the
# section for --only; vd_what prints the row in words).
#
#   hb_conf FILE ROUNDS LOOPS_B   the config: the row, arms a and b (b at
#                                 LOOPS_B loops or MiB) for kbench ab
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

case ${WORKLOAD:=hackbench} in
hackbench)
	vd_knob=loops vd_unit= vd_only=hackbench vd_row= ;;
pft)
	vd_knob=mapping_size vd_unit=M vd_only=pft vd_row=elapsed-1 ;;
*)
	echo "$(basename "$0"): WORKLOAD is hackbench or pft ('$WORKLOAD')" >&2
	exit 2 ;;
esac
export VD_ROW=$vd_row
vd_who=$(basename "$0" .sh)
vd_what() {
	case $WORKLOAD in
	hackbench) echo "hackbench process pipes, 1 group, loops $LOOPS" ;;
	pft) echo "pft, 1 thread, a mapping of $LOOPS MiB, its elapsed-1 row" ;;
	esac
}

hb_conf() {
	cat > "$1" <<CONF
[experiment]
rounds = $2

[arm:a]

[arm:b]
option.$vd_knob = $3$vd_unit

[global]
iterations = $ITERATIONS
warmup = 1
timeout = 60
CONF
	case $WORKLOAD in
	hackbench)
		printf '%s\n' "loops = $LOOPS" "groups = 1" "" "[hackbench-process-pipes]" \
			"mode = process" "transport = pipes" ;;
	pft)
		printf '%s\n' "" "[pft-threads]" "workload = pft" "model = threads" "workers = 1" \
			"mapping_size = ${LOOPS}M" "thp = off" ;;
	esac >> "$1"
}

# mean_read JSON WHO WHAT: WHAT of that mean row: "MARKED P" (test: P 1
# when no test was done, None when the test gives no p-value, as --test
# ci) or better/worse (sign: of its change), or a non-zero status after
# saying why.
mean_read() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, math, os, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
    rows = d["sections"][0]["rows"]
    want = os.environ.get("VD_ROW")
    run = (next(r for r in rows if r["label"] == want) if want else rows[0])["runs"][-1]
    if sys.argv[3] == "sign":
        pct = float(run["pct"]["mean"])
        if math.isnan(pct):
            raise ValueError("pct NaN")
        print("better" if pct > 0 else "worse")
        sys.exit(0)
    t = run["test"]
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
except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError, StopIteration) as e:
    sys.exit("%s: no %s in the comparison (%s %s)" % (sys.argv[2],
             "change" if sys.argv[3] == "sign" else "verdict", type(e).__name__, e))
print(1 if t["done"] and t["significant"] else 0, repr(p))
PY
}

mean_sign() { mean_read "$1" "$2" sign; }

mean_marked() {
	mt=$(mean_read "$1" "$2" test) || return 1
	echo "${mt%% *}"
}

mean_p() {
	mt=$(mean_read "$1" "$2" test) || return 1
	case ${mt#* } in
	None) echo "$2: the comparison's test gives no p-value" >&2; return 1 ;;
	esac
	echo "${mt#* }"
}

fail() {
	[ -s "$work/err" ] && sed 's/^/  /' "$work/err" >&2
	echo "$vd_who: $*" >&2
	exit 1
}

now() { date +%s.%N; }

# run NAME LOOPS_B ITERS: one plain run into $db.
run() {
	"$kbench" --db "$db" -q run -c "$work/x.conf" --only "$vd_only" -n "$1" \
		-o "$vd_knob=$2$vd_unit" -o iterations="$3" --no-report >/dev/null 2>>"$work/err"
}

# read_marks JSON LOOPS_B: sets m (0 or 1: the mean row marked) and wrong (1:
# marked in the wrong direction, the changed side faster) of a comparison.
read_marks() {
	m=$(mean_marked "$1" "$vd_who") || exit 1
	wrong=0
	if [ "$m" = 1 ] && [ "$2" != "$LOOPS" ]; then
		wrong=$(mean_sign "$1" "$vd_who") || exit 1
		[ "$wrong" = better ] && wrong=1 || wrong=0
	fi
}

# trial DESIGN SIZE LOOPS_B: one comparison; sets m and wrong (marks), t
# (the seconds its samples took), and for ab mn and wrongn, the same
# experiment read with --paired nested.
trial() {
	db=$work/t.db
	rm -f "$db" "$db"-* "$work/err"
	hb_conf "$work/x.conf" "$2" "$3"
	t0=$(now)
	case $1 in
	mmtests)
		run a "$LOOPS" "$2" && run b "$3" "$2" || fail "kbench run failed"
		t1=$(now)
		"$kbench" --db "$db" compare --test ci --format json a b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		;;
	pooled)
		i=0
		while [ "$i" -lt "$2" ]; do
			i=$((i + 1))
			run a "$LOOPS" "$ITERATIONS" && run b "$3" "$ITERATIONS" ||
				fail "kbench run failed"
		done
		t1=$(now)
		"$kbench" --db "$db" compare --pool --format json a b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		;;
	ab | seq)
		seqopts=
		[ "$1" = seq ] && seqopts="--rounds auto --min-rounds $MIN_ROUNDS --max-rounds $2
			--equivalence $EQUIVALENCE"
		# shellcheck disable=SC2086 # the design's words are meant
		"$kbench" --db "$db" -q ab -c "$work/x.conf" -n e --no-report $seqopts \
			>/dev/null 2>>"$work/err" || fail "kbench ab failed"
		t1=$(now)
		"$kbench" --db "$db" compare --format json e/a e/b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		if [ "$1" = ab ]; then
			"$kbench" --db "$db" compare --paired nested --format json e/a e/b \
				>"$work/n.json" 2>>"$work/err" || fail "kbench compare failed"
			read_marks "$work/n.json" "$3"
			mn=$m wrongn=$wrong
		fi
		;;
	esac
	# A change marked the wrong way (the changed side faster) is no find.
	read_marks "$work/c.json" "$3"
	t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}
