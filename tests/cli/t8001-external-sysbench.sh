#!/bin/sh
# t8001-external-sysbench: configs/sysbench.conf with the real sysbench
# (1 s tests or a few events, 1 and 2 threads): each test's figure is
# stored with its unit and direction, and every stored value is what the
# same output says, parsed again here with awk.
# Covers: workloads/external.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

if ! command -v sysbench >/dev/null; then
	if [ "${CI:-}" = true ]; then
		ok 1 "sysbench is installed (Debian package sysbench, from .ci/install-deps --test)"
	else
		skip "sysbench is not installed (Debian package sysbench; .ci/install-deps --test installs it)"
	fi
	done_testing
	exit
fi

# A sysbench that keeps a copy of what the real one printed, first on PATH,
# each run after a line naming its test and thread count.
mkdir "$tmp/bin"
cat >"$tmp/bin/sysbench" <<WRAP
#!/bin/sh
"$(command -v sysbench)" "\$@" >"$tmp/one.out" 2>&1
st=\$?
cat "$tmp/one.out"
echo "=== \$1 \$2" >>"$tmp/sysbench.log"
cat "$tmp/one.out" >>"$tmp/sysbench.log"
exit \$st
WRAP
chmod +x "$tmp/bin/sysbench"
cat >"$tmp/short.conf" <<EOF2
[global]
iterations = 1
param.threads = 1 2
param.time = 1
param.events = 200
timeout = 60
env.PATH = $tmp/bin:/usr/local/bin:/usr/bin:/bin
EOF2

# sysbench threads does 1000 sched_yield() calls an event; on busy CPUs
# each can wait out another task's slice (200 events took 39 s and more
# with three spinning processes on 2 CPUs), so it gets few events here.
kb --quiet run -c "$TOP_SRCDIR/configs/sysbench.conf" -c "$tmp/short.conf" -n sb \
	-o sysbench-threads.param.events=5 --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "configs/sysbench.conf runs with 1 s tests: $(cat "$tmp/err")"

got=$(sql "SELECT section || '|' || row || '|' || printf('%.6f', value) || '|' || unit || '|' || better FROM samples ORDER BY rowid")
want=$(awk '
	/^=== / { test = $2; sub(/--threads=/, "", $3); row = "threads-" $3; next }
	function put(v, unit, better) {
		printf "sysbench-%s|%s|%.6f|%s|%s\n", test, row, v, unit, better
	}
	(test == "threads" || test == "mutex") && /^ *total time:/ {
		v = $3; sub(/s$/, "", v); put(v, "s", "lower")
	}
	test == "memory" && /MiB transferred/ { v = $4; sub(/^\(/, "", v); put(v, "MiB/sec", "higher") }
	test == "cpu" && /events per second:/ { put($4, "events/s", "higher") }
' "$tmp/sysbench.log")
is "each stored value is the figure sysbench printed, with its unit and direction" \
	"$got" "$want"
is "eight samples: four tests at 1 and 2 threads" \
	"$(printf '%s\n' "$got" | awk -F'|' '$3 > 0 { print $1, $2 }')" \
"sysbench-threads threads-1
sysbench-threads threads-2
sysbench-mutex threads-1
sysbench-mutex threads-2
sysbench-memory threads-1
sysbench-memory threads-2
sysbench-cpu threads-1
sysbench-cpu threads-2"
no_workers
ok $? "nothing left running"
done_testing
