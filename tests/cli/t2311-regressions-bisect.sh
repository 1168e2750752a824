#!/bin/sh
# t2311-regressions-bisect: when the runs either side of a change point
# are of kernels built from one git tree (their kernel-commit and
# kernel-tree facts, as kbench vm --ref and kbench bisect store them),
# kbench regressions prints the kbench bisect command between them, with
# the row and the guests' size; runs of the same commit say the kernel did
# not change; runs without the facts, or of two trees, get no command.
# Covers: cli/cmd_regressions.c compare/history.c compare/render_history.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a real run to clone" kb --quiet run -c "$tmp/hb.conf" -n seed --no-report
host=$(sql "SELECT hostname FROM machines")
gen() {
	gen_runs=$(awk -v first=1 -v last=30 -v base=0.5 "$@" \
		-f "$TOP_SRCDIR/tests/data/nightly-runs.awk") && sql_write "$gen_runs"
}
# Night N of config hb is kernel commit N0c0c... (40 hex digits) of
# /src/linux, in a guest of 4 vCPUs with a command line; hb2 steps too,
# with the same commit every night; hb3 has no facts; hb4's nights are of
# trees of their own.
c38=cccccccccccccccccccccccccccccccccccccc
facts() {
	sql_write "INSERT INTO run_meta(run_id, section, key, value)
		SELECT id, '', 'kernel-commit', $2 FROM runs WHERE config_name = '$1';
		INSERT INTO run_meta(run_id, section, key, value)
		SELECT id, '', 'kernel-tree', '$3' FROM runs WHERE config_name = '$1';
		INSERT INTO run_meta(run_id, section, key, value)
		SELECT id, '', 'vm.vcpus', '4' FROM runs WHERE config_name = '$1';
		INSERT INTO run_meta(run_id, section, key, value)
		SELECT id, '', 'vm.memory_mib', '512' FROM runs WHERE config_name = '$1';
		INSERT INTO run_meta(run_id, section, key, value)
		SELECT id, '', 'vm.append', 'quiet mitigations=off' FROM runs WHERE config_name = '$1'"
}
gen -v config=hb -v tag=0 -v step_at=20 -v step_to=0.55 &&
	gen -v config=hb2 -v tag=1 -v step_at=12 -v step_to=0.55 &&
	gen -v config=hb3 -v tag=2 -v step_at=8 -v step_to=0.55 &&
	gen -v config=hb4 -v tag=3 -v step_at=15 -v step_to=0.55 &&
	sql_write "UPDATE runs SET config_name = 'seed' WHERE id = 1" &&
	facts hb "substr(name, 9) || '$c38'" /src/linux &&
	facts hb2 "'ab$c38'" /src/linux &&
	facts hb4 "substr(name, 9) || '$c38'" "/src/linux-night-' || substr(name, 9) || '"
ok $? "120 nightly runs, three configs of them with kernel facts"

kb regressions > "$tmp/out" 2> "$tmp/err"
is "regressions found: exit 1" "$?" 1
cat > "$tmp/want" <<WANT
hackbench-process-pipes 1 on $host, config hb: Min 0.4992 -> 0.5486 s (-9.90%), p 5e-28
  last run before: @20 nightly-19 (6.1.19) 2026-10-19 02:00
  first run after: @21 nightly-20 (6.1.20) 2026-10-20 02:00
  bisect it: kbench bisect --tree /src/linux --good 19cccccccccc --bad 20cccccccccc -c hb --row hackbench-process-pipes/1 --vcpus 4 --append 'quiet mitigations=off'
WANT
sed -n 1,4p "$tmp/out" > "$tmp/got"
if cmp -s "$tmp/want" "$tmp/got"; then
	ok 0 "the bisect command between the runs either side, with the row and the guests"
else
	ok 1 "the bisect command between the runs either side, with the row and the guests"
	diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /'
fi
grep -A3 "config hb2:" "$tmp/out" > "$tmp/hb2"
is "the same commit either side: the kernel did not change" "$(sed -n 4p "$tmp/hb2")" \
	"  both runs are of kernel commit abcccccccccc: the kernel did not change"
grep -A3 "config hb3:" "$tmp/out" > "$tmp/hb3"
check "no facts: no command" sh -c "! grep -q 'bisect\|kernel commit' '$tmp/hb3'"
grep -A3 "config hb4:" "$tmp/out" > "$tmp/hb4"
check "two trees: no command" sh -c "! grep -q 'bisect\|kernel commit' '$tmp/hb4'"
check "nothing on stderr" test ! -s "$tmp/err"

done_testing
