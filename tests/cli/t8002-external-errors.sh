#!/bin/sh
# t8002-external-errors: what the external workload refuses before
# anything runs (each message at its key's line), the failures of its
# samples as run and show print them (the output's tail stored with the
# failure), a server that never gets ready, a hung command killed with
# its whole process group at the timeout, and direct mode.
# Covers: workloads/external.c workloads/external_options.c runner/sample_run.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# conf LINES...: $tmp/x.conf, one line each
conf() {
	printf '%s\n' "$@" >"$tmp/x.conf"
}
# failures RUN: the Failures block of kbench show
failures() {
	kb show "$1" | sed -n '/^Failures:/,/^$/p'
}

conf '[global]' 'workload = external' 'better.v = higher' '' \
	'[bad-pattern]' 'command = echo v=1' 'metric.v = v=(?<value>[0-9]+'
expect_transcript "a pattern that does not compile: PCRE2's message and offset, at its line" \
	kb run -c "$tmp/x.conf" <<'EOF2'
$ kb run -c TMP/x.conf
2> kbench: TMP/x.conf:7: invalid pattern for 'metric.v' at offset 17: missing closing parenthesis (in [bad-pattern])
[exit 2]
EOF2
conf '[global]' 'workload = external' '' \
	'[no-group]' 'command = echo v=1' 'metric.v = v=([0-9]+)' 'better.v = higher'
expect_transcript "a pattern without a value group" kb run -c "$tmp/x.conf" <<'EOF2'
$ kb run -c TMP/x.conf
2> kbench: TMP/x.conf:6: the pattern of 'metric.v' has no (?<value>...) group: name the part that is the number (in [no-group])
[exit 2]
EOF2
conf '[global]' 'workload = external' '' \
	'[typo]' 'command = tbenchh -t 1 1 127.0.0.1' 'metric.v = v=(?<value>[0-9]+)' \
	'better.v = higher'
expect_transcript "a command not found, before anything runs" kb run -c "$tmp/x.conf" <<'EOF2'
$ kb run -c TMP/x.conf
2> kbench: TMP/x.conf:5: cannot run 'tbenchh': command not found (in [typo])
[exit 2]
EOF2
conf '[global]' 'workload = external' 'param.clients = 1 2' '' \
	'[placeholder]' 'command = echo {client}' 'metric.v = v=(?<value>[0-9]+)' \
	'better.v = higher'
expect_transcript "an unknown placeholder" kb run -c "$tmp/x.conf" <<'EOF2'
$ kb run -c TMP/x.conf
2> kbench: TMP/x.conf:6: unknown placeholder '{client}' in 'command': no 'param.client' is given (write {{ for a brace) (in [placeholder])
[exit 2]
EOF2
conf '[global]' 'workload = external' 'param.clients = 1 2' '' \
	'[unit]' 'command = echo {clients}' 'metric.v = v=(?<value>[0-9]+)' \
	'better.v = higher' 'unit.w = s'
expect_transcript "a unit for a metric that is not there, at the unit's line" \
	kb run -c "$tmp/x.conf" <<'EOF2'
$ kb run -c TMP/x.conf
2> kbench: TMP/x.conf:9: 'unit.w' is for a metric 'w', but there is no 'metric.w' (in [unit])
[exit 2]
EOF2
conf '[global]' 'workload = external' 'param.clients = doubling:1..4' '' \
	'[plan]' 'command = echo v={clients}' 'metric.v = v=(?<value>[0-9]+)' \
	'better.v = higher'
expect_transcript "the plan names the rows by their labels" \
	kb run -c "$tmp/x.conf" --dry-run <<'EOF2'
$ kb run -c TMP/x.conf --dry-run
section                      workload   iters warmup  rows
plan                         external       5      0  rows clients-1 clients-2 clients-4
15 samples in all (warm-up included)

Effective options:
  [plan] iterations=5 warmup=0 timeout=600 workload=external
    param.clients=doubling:1..4 command=echo v={clients}
    metric.v=v=(?<value>[0-9]+) better.v=higher

estimate                     plan       last run of the same options here
plan                         unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
EOF2

conf '[global]' 'workload = external' 'iterations = 1' 'better.v = higher' '' \
	'[nomatch]' "command = printf 'starting\\nv=\\n'" 'metric.v = ^v=(?<value>[0-9]+)' '' \
	'[nan]' 'command = echo v=12abc' 'metric.v = ^v=(?<value>\S+)' '' \
	'[status]' "command = sh -c 'echo no such file >&2; exit 2'" 'metric.v = ^v=(?<value>\S+)'
kb --quiet run -c "$tmp/x.conf" -n fails --no-report >"$tmp/out" 2>"$tmp/err"
is "a run whose samples all fail exits 1" "$?" 1
is "each failure is stored with its reason and the output's tail, and shown" \
	"$(failures '#1')" \
"Failures:
  [nomatch] row v sample 1: metric 'v': no match for '^v=(?<value>[0-9]+)' in the command's output; the output ended with:
  | starting
  | v=
  [nan] row v sample 1: metric 'v': '12abc' is not a number (what the (?<value>...) group of '^v=(?<value>\\S+)' matched)
  [status] row v sample 1: the command exited with status 2 (sh -c 'echo no such file >&2; exit 2'); the output ended with:
  | no such file"

conf '[global]' 'workload = external' 'iterations = 1' 'better.v = higher' '' \
	'[srv]' 'command = echo v=1' 'metric.v = ^v=(?<value>\S+)' \
	"server = sh -c 'echo starting up; exec sleep 31.5'" 'server_ready = ^ready' \
	'server_timeout = 0.3'
kb --quiet run -c "$tmp/x.conf" -n srv --no-report >"$tmp/out" 2>"$tmp/err"
is "a server that never gets ready: the run fails" "$?" 1
is "the section is skipped, the server's output tail shown" "$(failures '#2')" \
"Failures:
  [srv] row v sample 1: no sample of [srv] ran: the server was not ready after 0.3 s (server_timeout): its output did not match '^ready' (server_ready); the output ended with:
  | starting up"
check "the server is killed" no_process 'sleep 31[.]5'

conf '[global]' 'workload = external' 'iterations = 1' 'better.v = higher' '' \
	'[hung]' "command = sh -c 'sleep 32.5 & exec sleep 33.5'" 'metric.v = ^v=(?<value>\S+)' \
	'timeout = 0.3'
kb --quiet run -c "$tmp/x.conf" -n hung --no-report >"$tmp/out" 2>"$tmp/err"
is "a hung command fails its sample" "$(failures '#3')" \
"Failures:
  [hung] row v sample 1: timed out after 0.3 s (timeout = 0.3); its process group was killed"
check "the command and what it started are killed with the sample's process group" \
	no_process 'sleep 3[23][.]5'

expect_transcript "direct mode runs one sample and prints each metric" \
	kb external -c 'echo v=42 w=7' -o 'metric.v=v=(?<value>\d+)' -o better.v=higher \
	-o unit.v=s <<'EOF2'
$ kb external -c 'echo v=42 w=7' -o 'metric.v=v=(?<value>\d+)' -o better.v=higher -o unit.v=s
v: 42 s
[exit 0]
EOF2
no_workers
ok $? "nothing left running"
done_testing
