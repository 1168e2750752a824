#!/bin/sh
# t1095-sample-program: every hackbench, netperf and pft sample runs in
# kbench-sample, a program linked without kbench's heavy libraries, found
# next to kbench (or through KBENCH_SAMPLE, or in the libexec directory);
# its workers carry fewer mappings than kbench; a missing program is a
# clear error; direct mode and runs both go through it.
# Covers: sampler/main.c sampler/sample.c runner/sample_run.c cli/setup.c lib/io.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

sample=$(dirname "$KBENCH")/kbench-sample
time_sed='s/^Time: [0-9]+\.[0-9]{3}$/Time: N.NNN/'

check "kbench-sample is built next to kbench" test -x "$sample"

# The libraries a sample's workers must not carry.
heavy='libsqlite3|libhwloc|libpfm|libcurl|libgsl|libpcre2|libxml2|libinih'
if command -v ldd >/dev/null 2>&1; then
	ldd "$sample" > "$tmp/ldd" 2>&1
	grep -E "$heavy" "$tmp/ldd" > "$tmp/heavy"
	is "kbench-sample links none of SQLite, hwloc, libpfm, libcurl, GSL, PCRE2" \
		"$(cat "$tmp/heavy")" ""
	grep -E "$heavy" > /dev/null <<EOT || diag "kbench itself links none of them?"
$(ldd "$KBENCH")
EOT
else
	skip "no ldd here"
fi

# Static where it can be (configure's default without the sanitizers),
# else bound at start-up, as rt-tests' hackbench is: either way a forked
# worker's first calls in the timed window do not enter the dynamic linker.
if command -v readelf >/dev/null 2>&1; then
	readelf -d "$sample" > "$tmp/dynamic" 2>&1
	if grep -q 'no dynamic section' "$tmp/dynamic"; then
		ok 0 "kbench-sample is static: no dynamic linker at all"
		static=yes
	elif grep -Eq 'BIND_NOW|Flags:.* NOW' "$tmp/dynamic"; then
		ok 0 "kbench-sample binds its symbols at start-up (-z now)"
		static=no
	else
		ok 1 "kbench-sample binds its symbols at start-up (-z now)"
		sed 's/^/#   /' "$tmp/dynamic"
		static=no
	fi
	if grep -q '^SAMPLE_LDFLAGS = -static' "$(dirname "$KBENCH")/Makefile" 2>/dev/null; then
		is "... static as configure chose" "$static" yes
	fi
else
	skip "no readelf here"
	static=no
fi

expect_transcript "run by hand, it says what it is for" "$sample" <<'T'
$ kbench-sample
2> usage: kbench-sample --job-fd=N --result-fd=N [--go-fd=N]
2> kbench runs this program for each sample; it is not meant to be run by hand
[exit 2]
T
expect_transcript "a descriptor given twice is a usage error too" \
	"$sample" --job-fd=0 --result-fd=1 --job-fd=0 <<'T'
$ kbench-sample --job-fd=0 --result-fd=1 --job-fd=0
2> usage: kbench-sample --job-fd=N --result-fd=N [--go-fd=N]
2> kbench runs this program for each sample; it is not meant to be run by hand
[exit 2]
T

# --time-forks=N, for bench/harness-overhead.sh: the mean of N forks.
check "--time-forks=3 prints a positive count of nanoseconds" \
	sh -c '"$1" --time-forks=3 | grep -Eqx "[1-9][0-9]*"' sh "$sample"
expect_err "--time-forks=0 is a usage error" 2 "usage: kbench-sample" "$sample" --time-forks=0

# KBENCH_SAMPLE names the program: a wrapper that leaves a mark shows
# that direct mode runs its sample there.
cat > "$tmp/wrap" <<EOT
#!/bin/sh
echo "\$@" >> "$tmp/calls"
echo \$\$ >> "$tmp/pids"
case \$1 in
--job-fd=*) cat "/proc/self/fd/\${1#--job-fd=}" > "$tmp/job" ;;
esac
exec "$sample" "\$@"
EOT
chmod +x "$tmp/wrap"
KBENCH_SAMPLE=$tmp/wrap expect_transcript -e "$time_sed" "direct mode runs through the sample program" \
	"$KBENCH" hackbench -g 1 -l 10 <<'T'
$ kbench hackbench -g 1 -l 10
Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)
Each sender will pass 10 messages of 100 bytes
Time: N.NNN
[exit 0]
T
is "... called once, with a job, a result descriptor and a go socket" \
	"$(sed 's/[0-9][0-9]*/N/g' "$tmp/calls" 2>&1)" "--job-fd=N --result-fd=N --go-fd=N"

# By hand, with the job kbench passed: nothing runs before the go byte,
# and EOF on the go socket (kbench gave up, or died) ends it unrun.
"$sample" --job-fd=3 --result-fd=4 --go-fd=5 3<"$tmp/job" 4>"$tmp/result" 5</dev/null
is "without a go byte it exits 1" "$?" 1
is "... and writes no result" "$(wc -c < "$tmp/result")" 0
printf g > "$tmp/go"
"$sample" --job-fd=3 --result-fd=4 --go-fd=5 3<"$tmp/job" 4>"$tmp/result" 5<"$tmp/go"
is "with it the sample runs and ends well" "$?" 0
check "... and writes its result" test -s "$tmp/result"

# A run: every sample of each driver it has, through the program.
rm -f "$tmp/calls" "$tmp/pids"
cat > "$tmp/all.conf" <<'EOT'
[hackbench]
groups = 1
loops = 10
iterations = 2
[netperf]
test = TCP_RR
duration = 0.1
iterations = 1
[pft]
workers = 1
mapping_size = 8M
iterations = 1
EOT
KBENCH_SAMPLE=$tmp/wrap kb --quiet run -c "$tmp/all.conf" --no-report > "$tmp/out" 2>&1
is "a run of hackbench, netperf and pft exits 0" "$?" 0
is "... its 4 samples ran in one sample program serving the run" \
	"$(sed 's/[0-9][0-9]*/N/g' "$tmp/calls" 2>&1)" "--serve-fd=N"
is "... and are stored" \
	"$(sql "SELECT count(DISTINCT section || '/' || iteration) FROM samples")" 4
is "... with their rusage" \
	"$(sql "SELECT count(DISTINCT section || '/' || iteration) FROM samples WHERE user_ns + sys_ns > 0")" 4
srv=$(tail -n 1 "$tmp/pids" 2>/dev/null)
check "... and its server ($srv) is gone, reaped" test -n "$srv" -a ! -d "/proc/${srv:-0}"

# The server dies in the middle of a run: the sample in flight is
# kbench's child and ends well; the next starts another server.
rm -f "$tmp/calls" "$tmp/pids"
printf '[hackbench]\ngroups = 1\nloops = 3000\niterations = 3\n' > "$tmp/long.conf"
KBENCH_SAMPLE=$tmp/wrap "$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n serverdies \
	--no-report > "$tmp/out" 2>&1 &
kpid=$!
# The wrapper exec's the server: its pid is the server's. A sample is
# another child of kbench, with workers of its own.
i=0 server= served=
while [ -z "$served" ] && [ $i -lt 500 ]; do
	for p in $(pgrep -P "$kpid"); do
		grep -qx "$p" "$tmp/pids" 2>/dev/null && continue
		[ -n "$(pgrep -P "$p")" ] && served=$p
	done
	[ -z "$served" ] && sleep 0.02
	i=$((i + 1))
done
server=$(tail -n 1 "$tmp/pids" 2>/dev/null)
check "a served sample is kbench's child, beside its server" \
	test -n "$served" -a -n "$server"
is "... its program is kbench-sample" "$(cat "/proc/$served/comm" 2>/dev/null)" kbench-sample
[ -n "$server" ] && kill -9 "$server"
wait "$kpid"
is "... when the server is killed, the run still exits 0" "$?" 0
is "... its 3 samples are stored" "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'serverdies'")" 3
is "... and a second server served the rest" "$(wc -l < "$tmp/calls" | tr -d ' ')" 2

# A wrapper that forks the program instead of exec'ing it leaves the
# samples another process's children: said once, and each sample is
# spawned instead.
cat > "$tmp/forkwrap" <<EOT
#!/bin/sh
"$sample" "\$@"
EOT
chmod +x "$tmp/forkwrap"
printf '[hackbench]\ngroups = 1\nloops = 10\niterations = 1\n' > "$tmp/one.conf"
printf '[hackbench]\ngroups = 1\nloops = 10\niterations = 3\n' > "$tmp/three.conf"
KBENCH_SAMPLE=$tmp/forkwrap kb run -c "$tmp/three.conf" -n forked --no-report > "$tmp/out" 2> "$tmp/err"
is "with a wrapper that forks the sample program, the run still exits 0" "$?" 0
is "... says once why its samples are spawned" "$(grep -c 'spawned instead' "$tmp/err")" 1
check "... naming the cause" grep -qF "kbench: notice: the samples the sample program forks are not kbench's children (does a KBENCH_SAMPLE wrapper fork it rather than exec it?); each sample is spawned instead" "$tmp/err"
is "... and stores its 3 samples" \
	"$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'forked'")" 3
is "... and no failure" \
	"$(sql "SELECT count(*) FROM failures f JOIN runs r ON r.id = f.run_id WHERE r.name = 'forked'")" 0

# A worker's mappings: a sample whose workers run long enough to be seen.
"$KBENCH" hackbench -g 1 -l 1000000 > /dev/null 2>&1 &
kpid=$!
spid= wpid=
# find_worker: true once kbench's sample has a worker (spid, wpid set)
find_worker() {
	spid=$(pgrep -P "$kpid" | head -1)
	[ -n "$spid" ] && wpid=$(pgrep -P "$spid" | head -1)
	[ -n "$wpid" ]
}
wait_until 10 find_worker
kmaps=$(wc -l < "/proc/$kpid/maps" 2>/dev/null)
wmaps=$(wc -l < "/proc/$wpid/maps" 2>/dev/null)
wcomm=$(cat "/proc/$wpid/comm" 2>/dev/null)
kill "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
is "the sample's worker is a kbench-sample process" "$wcomm" kbench-sample
check "a worker maps less than kbench does ($wmaps < $kmaps mappings)" \
	test "${wmaps:-999999}" -lt "${kmaps:-0}"
if grep -q asan "$tmp/ldd" 2>/dev/null || nm "$sample" 2>/dev/null | grep -q __asan_init; then
	skip "a sanitizer build maps more"
else
	check "a worker maps at most 40 regions ($wmaps)" test "${wmaps:-999999}" -le 40
fi
if [ "$static" = yes ]; then
	check "... static, at most 16 ($wmaps)" test "${wmaps:-999999}" -le 16
fi

# Copied elsewhere with kbench, the program is found next to it.
mkdir "$tmp/bin"
cp "$KBENCH" "$sample" "$tmp/bin/"
expect_transcript -e "$time_sed" "kbench finds kbench-sample next to itself" \
	"$tmp/bin/kbench" hackbench -g 1 -l 10 <<'T'
$ TMP/bin/kbench hackbench -g 1 -l 10
Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)
Each sender will pass 10 messages of 100 bytes
Time: N.NNN
[exit 0]
T

# Without it (and none installed), a sample cannot run: said once, clearly.
rm "$tmp/bin/kbench-sample"
expect_err "without kbench-sample, direct mode says where it looked" 1 \
	"kbench: hackbench: cannot find the sample program 'kbench-sample': not at '$tmp/bin/kbench-sample' nor in '" \
	"$tmp/bin/kbench" hackbench -g 1 -l 10
KBENCH_SAMPLE=$tmp/nope expect_transcript "a KBENCH_SAMPLE that cannot run is named" \
	"$KBENCH" hackbench -g 1 -l 10 <<'T'
$ kbench hackbench -g 1 -l 10
2> kbench: hackbench: KBENCH_SAMPLE names 'TMP/nope', which cannot be run: No such file or directory
[exit 1]
T
printf '[hackbench]\ngroups = 1\nloops = 10\niterations = 2\n' > "$tmp/hb.conf"
KBENCH_SAMPLE=$tmp/nope kb --quiet run -c "$tmp/hb.conf" -n nohelper --no-report > "$tmp/out" 2>&1
is "a run without the program fails its samples (exit 1)" "$?" 1
is "... each failure says why" \
	"$(sql "SELECT count(*) FROM failures WHERE reason LIKE 'KBENCH_SAMPLE names %'")" 2

# The external workload runs in the forked child (its patterns need
# PCRE2): it needs no sample program.
printf '%s\n' '[ext]' 'workload = external' 'command = echo v=1' \
	'metric.v = v=(?<value>[0-9]+)' 'better.v = higher' 'iterations = 1' > "$tmp/ext.conf"
KBENCH_SAMPLE=$tmp/nope kb --quiet run -c "$tmp/ext.conf" --no-report > "$tmp/out" 2>&1
is "an external workload runs without the sample program" "$?" 0

# While its sample runs, kbench sleeps until the sample writes, ends or
# runs out of time: no timer wakes it (a wake-up inside the window takes
# a CPU from the workload). Its voluntary context switches, read from
# /proc with the time about every 0.25 s over a 3 s netperf sample, from
# when the sample's process is there until kbench ends: some span of at
# least a second must pass with at most one (the old 200 ms poll made
# five a second), whatever kbench's start or this loop cost on a loaded
# machine.
"$KBENCH" netperf -t UDP_RR -l 3 > "$tmp/np.out" 2>&1 &
kpid=$!
wait_until 10 pgrep -P "$kpid"
: > "$tmp/switches"
for i in $(seq 200); do
	r=$(awk '/^State:/ { st = $2 } /^voluntary_ctxt_switches:/ { v = $2 }
		END { if (st != "Z" && v != "") print v }' "/proc/$kpid/status" 2>/dev/null)
	[ -n "$r" ] || break
	echo "$(date +%s.%N) $r" >> "$tmp/switches"
	sleep 0.25
done
wait "$kpid"
is "a 3 s direct netperf sample exits 0" "$?" 0
# The fewest switches over any span of a second or more ("none": the
# readings never spanned a second).
quiet=$(awk '{ t[NR] = $1; v[NR] = $2 } END { m = "none"
	for (i = 1; i <= NR; i++)
		for (j = i + 1; j <= NR; j++)
			if (t[j] - t[i] >= 1) {
				if (m == "none" || v[j] - v[i] < m) m = v[j] - v[i]
				break
			}
	print m }' "$tmp/switches")
check "... and kbench does not wake while it runs (fewest switches in a second: $quiet; readings: $(awk '{ printf "%s ", $2 }' "$tmp/switches"))" \
	sh -c '[ "$1" != none ] && [ "$1" -le 1 ]' sh "$quiet"
no_workers
done_testing
