#!/bin/sh
# t1210: kbench show --format json holds what show, --config, --monitors
# and --slab print, in one document with a format version: the same run
# facts, section counts, flagged samples, failures, options, monitor
# summaries, slab caches and config text. Bad combinations are refused.
# Covers: cli/cmd_show.c lib/json.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
loops = 10
groups = 1
monitors = rusage,slab

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
kb() { "$KBENCH" --db "$db" --quiet "$@"; }

check "a tiny run with rusage and slab monitors" kb run -c "$tmp/tiny.conf" -n base --no-report --note 'json, "quoted"'
# A flagged sample and a failed warm-up, as the runner would store them.
sql_write "UPDATE samples SET flag = 'samples ran while the machine was busy' WHERE rowid = (SELECT min(rowid) FROM samples);
INSERT INTO failures(run_id, section, row, iteration, reason) VALUES (1, 'hackbench-process-pipes', '1', -1, 'timed out')"

kb show --format json base > "$tmp/json" 2> "$tmp/err"
ok $? "show --format json exits 0"
check "nothing on stderr" test ! -s "$tmp/err"
check "it names its format and version" grep -q '^{"format":"kbench-show","format_version":1,' "$tmp/json"

if ! command -v python3 >/dev/null 2>&1; then
	skip "no python3 to read the json"
	done_testing
	exit
fi
kb show base > "$tmp/text"
kb show --config base > "$tmp/config"
kb show --monitors base > "$tmp/monitors"
kb show --slab base > "$tmp/slab"

# json_is DESCRIPTION EXPR: a python expression over d (the document), t
# (show's text lines), monitors and slab (those views' lines) and config
json_is() {
	if python3 - "$tmp" "$2" > "$tmp/py" 2>&1 <<'PY'
import json, sys
tmp, expr = sys.argv[1], sys.argv[2]
d = json.load(open(tmp + "/json"))
t = open(tmp + "/text").read().splitlines()
monitors = open(tmp + "/monitors").read().splitlines()
slab = open(tmp + "/slab").read().splitlines()
config = open(tmp + "/config").read()
def field(name):	# the value of "  name    value" in show's text
    return next(l[14:] for l in t if l.startswith("  " + name + " "))
ok = eval(expr)
if not ok:
    print("false:", expr)
sys.exit(0 if ok else 1)
PY
	then
		ok 0 "$1"
	else
		ok 1 "$1"
		sed 's/^/# /' "$tmp/py"
	fi
}

json_is "id and name as show prints them" 't[0] == "run @%d  %s" % (d["id"], d["name"])'
json_is "uuid, status, start, end, config" \
	'[field(k) for k in ("uuid", "status", "started", "finished", "config")] == [d["uuid"], d["status"], d["started_at"], d["finished_at"], d["config_name"]]'
json_is "host facts" \
	'field("host") == "%s (%s, %d CPUs, %d cores, %.1f GiB)" % (d["host"]["hostname"], d["host"]["cpu_model"], d["host"]["cpus"], d["host"]["cores"], d["host"]["mem_bytes"] / 2**30)'
json_is "kernel and cmdline" \
	'field("kernel") == d["kernel"]["release"] + " " + d["kernel"]["version"] and field("cmdline") == d["kernel"]["cmdline"]'
json_is "kbench version and sample counts" \
	'field("kbench") == d["kbench_version"] and field("samples") == "%d (%d failed)" % (d["samples"], d["failed_samples"])'
json_is "the note, whole" 'd["notes"] == "json, \"quoted\"" and field("notes") == d["notes"]'
json_is "section counts as in the table" \
	'[l.split() for l in t if l.startswith("hackbench-")] == [[s["section"], str(s["samples"]), str(s["flagged"])] for s in d["sections"]]'
json_is "the flagged sample" \
	'len(d["flagged"]) == 1 and d["flagged"][0]["flag"] == "samples ran while the machine was busy" and "FLAGGED: " + d["flagged"][0]["flag"] in "".join(t)'
json_is "the failure, a warm-up" \
	'd["failures"] == [{"section": "hackbench-process-pipes", "row": "1", "iteration": 1, "warmup": True, "reason": "timed out"}]'
json_is "every option in effect" \
	'len(d["options"]) == len([l for l in t[t.index("Options in effect:"):] if l.startswith("  ")]) and {"section": "hackbench-process-pipes", "key": "loops", "value": "10"} in d["options"]'
json_is "the monitor summaries of --monitors" \
	'len(d["monitors"]) == len([l for l in monitors if l.startswith("  1 ")]) and all(m["kind"] and m["n"] == 3 for m in d["monitors"])'
json_is "the slab caches of --slab, before and after" \
	'len(d["slab_caches"]) > 0 and all(k in d["slab_caches"][0] for k in ("objects_before", "objects_after", "partial_before", "partial_after", "slabs_before", "slabs_after"))'
json_is "the config text of --config" 'd["config_text"] == config'

expect_err "--format json does not combine with --monitors" 2 \
	"kbench: --format json cannot be combined with --config, --monitors or --slab (its document has them all)" \
	kb show --format json --monitors base
expect_err "show has no csv" 2 "kbench: unknown format 'csv' (expected text or json)" \
	kb show --format csv base
expect_err "an unknown run is still an error" 1 \
	"kbench: no run named 'nosuch' in $db (see kbench runs)" kb show --format json nosuch

done_testing
