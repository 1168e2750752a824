#!/bin/sh
# t2045-compare-kinds: where a run measured is part of its work. Runs of
# one config made natively and in guests (the vm.* facts kbench vm stores,
# written here into runs made natively; t1525 boots a real guest): the
# report after a native run compares it with the previous native run,
# never a guest's, and says why it passed one over; kbench history and
# kbench regressions keep one series per kind, labelled by it (JSON too);
# compare of unlike kinds warns naming both in text, markdown and html,
# and JSON says each run's kind. A guest run's header names the guest's
# CPU and machine, and the host under Host:. Runs without such facts are
# native, as every run stored before kinds were.
# Covers: compare/work.c compare/history.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[global]\nwarmup = 0\n\n[hb]\nworkload = hackbench\niterations = 2\nloops = 10\ngroups = 1\n' \
	> "$tmp/hb.conf"
check "runs n1 (native), g1 and g2 (to be guests)" \
	kb --quiet run -c "$tmp/hb.conf" -n n1 --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n g1 --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n g2 --no-report
host=$(sql "SELECT hostname FROM machines")
# guest NAME FACTS...: run NAME measured in a guest with these KEY=VALUE facts.
guest() {
	g_name=$1
	shift
	for g_fact; do
		sql_write "INSERT INTO run_meta(run_id, section, key, value)
			SELECT id, '', '${g_fact%%=*}', '${g_fact#*=}' FROM runs WHERE name = '$g_name'" ||
			return 1
	done
}
check "g1: a guest under TCG, 2 vCPUs, 512 MiB, whose own facts are stored" \
	guest g1 vm.accel=tcg vm.vcpus=2 vm.memory_mib=512 vm.boot_s=7.5 \
	"guest.cpu_model=QEMU Virtual CPU version 2.5+" guest.cpus=2 guest.numa_nodes=1 \
	guest.mem_bytes=482344960
check "g2: a guest counting instructions, 1 vCPU, without guest facts (an older kbench)" \
	guest g2 vm.accel=tcg vm.icount=3 vm.vcpus=1 vm.memory_mib=512

kb run -c "$tmp/hb.conf" -n n2 > "$tmp/n2.out" 2> "$tmp/err"
is "native run n2 exits 0" "$?" 0
check "... its report compares it with n1, the previous native run" \
	grep -q "^Compared with n1 (id 1, .*), the previous complete run here" "$tmp/n2.out"
grep -q "Compared with g" "$tmp/n2.out"
ok $((!$?)) "... not with a guest's run"

check "g3: a guest under KVM, 4 vCPUs, 2048 MiB" \
	kb --quiet run -c "$tmp/hb.conf" -n g3 --no-report '&&' \
	guest g3 vm.accel=kvm vm.vcpus=4 vm.memory_mib=2048
kb run -c "$tmp/hb.conf" -n n3 > "$tmp/n3.out" 2> "$tmp/err"
is "native run n3 exits 0" "$?" 0
check "... compares with n2, past the guest g3" \
	grep -q "^Compared with n2 (id 4, .*), the previous complete run here" "$tmp/n3.out"

# history: one series per kind, labelled.
kb history --config hb > "$tmp/history.txt" 2> "$tmp/err"
is "history --config hb exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "... a series per kind, labelled by it" "$(grep "^hb 1 on" "$tmp/history.txt")" \
"hb 1 on $host, config hb, native: Amean (s), lower is better
hb 1 on $host, config hb, guest (TCG, 2 vCPUs, 512 MiB): Amean (s), lower is better
hb 1 on $host, config hb, guest (TCG icount shift 3, 1 vCPU, 512 MiB): Amean (s), lower is better
hb 1 on $host, config hb, guest (KVM, 4 vCPUs, 2048 MiB): Amean (s), lower is better"
is "... the native series holds the native runs only" \
	"$(sed -n '/, native:/,/^trend/p' "$tmp/history.txt" | awk 'NR > 2 && !/^trend/ { print $3 }' | tr '\n' ' ')" \
	"n1 n2 n3 "
kb history --config hb --format json > "$tmp/history.json"
check "... JSON: each series' kind" python3 -c '
import json, sys
kinds = [s["kind"] for s in json.load(open(sys.argv[1]))["series"]]
sys.exit(0 if kinds == ["native", "guest (TCG, 2 vCPUs, 512 MiB)",
	"guest (TCG icount shift 3, 1 vCPU, 512 MiB)", "guest (KVM, 4 vCPUs, 2048 MiB)"] else 1)' \
	"$tmp/history.json"
kb regressions --config hb > "$tmp/regr.txt" 2> "$tmp/err"
is "regressions --config hb: none, exit 0" "$?" 0
check "... the change of kind is a new series, not a regression" grep -q \
	"^hb 1 on $host, config hb: the kind changed, native -> guest (KVM, 4 vCPUs, 2048 MiB) (a new series, not a regression)\$" \
	"$tmp/regr.txt"
check "... in four series" grep -q "^0 regressions in 4 series" "$tmp/regr.txt"

# compare: a warning naming both kinds.
warning() { sed -n '/^Warning:/,/^$/p' "$1" | sed '$d'; }
kb compare n1 g1 > "$tmp/ng.txt" 2> "$tmp/err"
is "compare n1 g1 exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "... warns naming both kinds" "$(warning "$tmp/ng.txt")" \
"Warning:  the runs measured on different kinds, native vs guest (TCG, 2 vCPUs,
          512 MiB): a change includes what the kind changed, and the noise of
          one is not the other's."
kb compare n1 n2 > "$tmp/nn.txt"
is "compare n1 n2 (both native): no warning" "$(warning "$tmp/nn.txt")" ""
kb compare g1 g2 g3 > "$tmp/gg.txt"
is "compare g1 g2 g3: each kind named once" "$(warning "$tmp/gg.txt" | tr -s ' \n' ' ' | sed 's/ $//')" \
"Warning: the runs measured on different kinds, guest (TCG, 2 vCPUs, 512 MiB) vs guest (TCG icount shift 3, 1 vCPU, 512 MiB) vs guest (KVM, 4 vCPUs, 2048 MiB): a change includes what the kind changed, and the noise of one is not the other's."
kb compare --format markdown n1 g1 > "$tmp/ng.md"
check "... markdown: the warning" grep -qx \
	'\*\*Warning:\*\* the runs measured on different kinds, native vs guest (TCG, 2 vCPUs, 512 MiB): a change includes what the kind changed\.' \
	"$tmp/ng.md"
check "... markdown: kind differs" grep -qx -- '- g1: guest (TCG, 2 vCPUs, 512 MiB)' "$tmp/ng.md"
kb compare --format html n1 g1 > "$tmp/ng.html"
check "... html: the warning" grep -q "Warning:  the runs measured on different kinds, native vs guest" \
	"$tmp/ng.html"
kb compare --format json n1 g1 > "$tmp/ng.json"
check "... json: different_kinds, each run's kind, the guest's facts" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n, g = d["runs"]
ok = (d["different_kinds"] is True and d["different_work"] is False and
      n["kind"] == "native" and "guest" not in n and g["kind"] == "guest" and
      g["guest"] == {"accel": "tcg", "memory_mib": 512, "vcpus": 2,
                     "cpu_model": "QEMU Virtual CPU version 2.5+", "cpus": 2,
                     "numa_nodes": 1, "mem_bytes": 482344960} and
      g["cpu_model"] == n["cpu_model"] and g["cpus"] == n["cpus"] and
      {"fact": "kind", "values": ["native", "guest (TCG, 2 vCPUs, 512 MiB)"]} in d["differs"])
sys.exit(0 if ok else 1)' "$tmp/ng.json"
kb compare --format json n1 n2 > "$tmp/nn.json"
check "... json of two native runs: different_kinds false" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_kinds"] is False else 1)' "$tmp/nn.json"

# The header of a guest run: the guest's CPU and machine, the host's on Host:.
cpu=$(kb show --format json n1 | python3 -c '
import json, sys
print(" ".join(json.load(sys.stdin)["host"]["cpu_model"].split()))')
kb compare g1 > "$tmp/g1.txt"
is "a guest run's header: CPU and Machine of the guest, Host the host's" \
	"$(sed -n '/^Host:/,/^VM:/p' "$tmp/g1.txt" | sed -n '/^CPU:/,$p')" \
"CPU:      QEMU Virtual CPU version 2.5+
Machine:  2 CPUs, 1 node, 460 MiB
VM:       TCG, 2 vCPUs, 512 MiB"
sed -n '/^Host:/,/^CPU:/p' "$tmp/g1.txt" | sed '$d' | tr -s ' \n' ' ' > "$tmp/g1.host"
check "... Host: the host's name, CPU and machine" grep -qF "Host: $host: $cpu, " "$tmp/g1.host"
kb compare g2 > "$tmp/g2.txt"
check "a guest run stored without the guest's facts: the host's CPU, no more" \
	grep -qx "CPU:      $cpu" "$tmp/g2.txt"
check "... Host: the hostname alone" grep -qx "Host:     $host" "$tmp/g2.txt"
kb compare n1 > "$tmp/n1.txt"
check "a native run's Host: is its hostname" grep -qx "Host:     $host" "$tmp/n1.txt"

done_testing
