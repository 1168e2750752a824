#!/bin/sh
# t1230: every JSON document kbench writes (runs, show, compare, history,
# regressions, query, experiments) has the envelope, format then
# format_version, with the name and version docs/json.md gives it, and
# the keys docs/json.md lists for it: every key a document holds is
# listed there, and every key listed as always present is in every
# object of its kind. The store holds what makes the optional keys
# appear: a note, -o overrides, iterations = auto, nightly runs with a
# regression, and runs of one config that measured other work.
# Covers: lib/json.c cli/cmd_runs.c cli/cmd_show.c compare/render_json.c compare/render_history.c cli/cmd_query.c views/experiment_view.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
printf '[hackbench-process-pipes]\niterations = auto\nci_target = 50%%\nmax_iterations = 4\nloops = 5\ngroups = 1\n' \
	> "$tmp/auto.conf"
run() {	# run CONF NAME ARGS...
	conf=$1 name=$2
	shift 2
	kb --quiet run -c "$tmp/$conf.conf" -n "$name" --no-report "$@"
}
check "runs: base three times, new twice with -o loops=6, auto once" \
	run hb base '&&' run hb base '&&' run hb base '&&' \
	run hb new -o loops=6 '&&' run hb new -o loops=6 '&&' run auto auto '&&' \
	kb note base 'a note'
nightly=$(awk -v first=1 -v last=30 -v base=0.5 -v step_at=20 -v step_to=0.55 -v config=nightly \
	-v tag=0 -f "$TOP_SRCDIR/tests/data/nightly-runs.awk")
check "30 nightly runs of config nightly, 10% worse from night 20" sql_write "$nightly"

# json FILE COMMAND...: the command's document into $tmp/FILE.json.
json() {
	file=$1
	shift
	kb "$@" --format json > "$tmp/$file.json" 2> "$tmp/$file.err"
	st=$?
	# regressions exits 1 when it found one: a document all the same.
	case "$st.$1" in
	0.* | 1.regressions) ok 0 "$* --format json" ;;
	*) ok 1 "$* --format json"; diag "exit $st"; comment "$tmp/$file.err" ;;
	esac
}
json runs runs
json show-base show base
json show-auto show auto
json compare compare base new
json compare-auto compare base auto
json history history --config nightly
json history-work history --config hb
json regressions regressions
json query query 'SELECT id, name, NULL, 1.5, x'"'"'0a1b'"'"' FROM runs LIMIT 2; SELECT 1'
json experiments experiments

# check_doc NAME FILE...: the files are documents NAME as docs/json.md
# describes it.
check_doc() {
	name=$1
	shift
	check "$name: the envelope and the keys of docs/json.md" python3 - \
		"$TOP_SRCDIR/docs/json.md" "$name" "$@" <<'PY'
import json, re, sys

doc, name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
keys, version, section = {}, None, None
for line in open(doc):
    m = re.match(r'## (kbench-[a-z]+) \(format_version (\d+)\)', line)
    if m:
        section = m.group(1)
        if section == name:
            version = int(m.group(2))
        continue
    if line.startswith('## '):
        section = None
    m = re.match(r'\| `([^`]+)` \| [^|]+ \| ([^|]+) \|', line)
    if m and section == name:
        keys[m.group(1)] = m.group(2).strip() == 'always'
if version is None or not keys:
    sys.exit('docs/json.md has no table for %s' % name)

def pattern(path):
    return re.compile(re.escape(path).replace(r'\.\*', r'\.[^.\[]+') + '$')

documented = [pattern(p) for p in keys]
bad = []
for f in files:
    d = json.load(open(f))
    if list(d)[:2] != ['format', 'format_version']:
        bad.append('%s: the first keys are %s' % (f, list(d)[:2]))
    if (d.get('format'), d.get('format_version')) != (name, version):
        bad.append('%s: format %r version %r, docs/json.md says %s %d' %
                   (f, d.get('format'), d.get('format_version'), name, version))
    objects = []  # (path, object)

    def walk(v, path):
        if isinstance(v, dict):
            objects.append((path, v))
            for k, x in v.items():
                p = path + ('.' if path else '') + k
                if not any(r.match(p) for r in documented):
                    bad.append('%s: key %s is not in docs/json.md' % (f, p))
                walk(x, p)
        elif isinstance(v, list):
            for x in v:
                walk(x, path + '[]')
    walk(d, '')
    for p, always in keys.items():
        # An array's elements ("a[]") and free keys ("a.*") are no key.
        if not always or p.endswith('.*') or p.endswith('[]'):
            continue
        parent, _, key = p.rpartition('.')
        for path, o in objects:
            if path == parent and key not in o:
                bad.append('%s: %s is always there, says docs/json.md, and is not'
                           % (f, p))
                break
for b in sorted(set(bad)):
    print(b)
sys.exit(1 if bad else 0)
PY
}
check_doc kbench-runs "$tmp/runs.json"
check_doc kbench-show "$tmp/show-base.json" "$tmp/show-auto.json"
check_doc kbench-compare "$tmp/compare.json" "$tmp/compare-auto.json"
check_doc kbench-history "$tmp/history.json" "$tmp/history-work.json"
check_doc kbench-regressions "$tmp/regressions.json"
check_doc kbench-query "$tmp/query.json"
check_doc kbench-experiments "$tmp/experiments.json"

# That the documents hold what makes the optional keys appear (else the
# checks above would pass on less).
check "the documents hold the optional parts" python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
load = lambda f: json.load(open('%s/%s.json' % (t, f)))
c = load('compare')
assert c['different_work'] is True and 'options' in c['runs'][1], c['runs']
assert 'note' in c['runs'][0], c['runs'][0]
assert 'test' in c['sections'][0]['rows'][0]['runs'][1]
assert 'adaptive_rows' in load('compare-auto')['runs'][1]
assert load('show-auto')['row_results']
h = load('history')
assert h['series'][0]['change_points'], h['series'][0]
assert [s['work'] for s in load('history-work')['series']] == ['loops=5', 'loops=6']
r = load('regressions')
assert r['regressions'] and r['work_changes'], r
assert len(load('query')['results']) == 2
PY

done_testing
