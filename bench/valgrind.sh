#!/bin/sh
# valgrind: run kbench's CLI tests with every kbench process (and every
# process it forks) under valgrind's memcheck, then report clean or each
# error found. KBENCH points the tests at a wrapper that runs kbench under
# valgrind --error-exitcode=99; one log a process. The sample program
# (kbench-sample, which runs each hackbench, netperf and pft sample and
# forks their workers) is copied beside it: under memcheck too when it
# is linked dynamically (configure --disable-static-sample), natively
# when it is static, as it is by default (memcheck cannot replace a
# static C library's malloc, and reports that library's own start-up).
# Only bench/valgrind.supp is suppressed (library internals, each
# documented there); nothing of kbench's own.
# Usage: bench/valgrind.sh [TEST.sh...]   from the build directory
# (default: every tests/cli/t*.sh). Needs valgrind (apt-get install
# valgrind). Slow: valgrind runs each process 20-50 times slower, so a
# test that times its samples may fail for that alone, as may one of the
# open-file limits (valgrind keeps descriptors of its own below the hard
# limit and does not let a program raise its soft one); the verdict is
# the valgrind logs, the tests' own results are listed beside it.
. "$(dirname "$0")/usage.sh"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
kbench=$build/kbench
command -v valgrind >/dev/null || { echo "valgrind.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -x "$kbench" ] || { echo "valgrind.sh: no ./kbench here: run it from the build directory" >&2; exit 2; }
[ -x "$build/kbench-sample" ] || { echo "valgrind.sh: no ./kbench-sample here: run 'make' first" >&2; exit 2; }
# The CLI tests read the store through kb-sql, a check program.
[ -x "$build/tests/tools/kb-sql" ] || make -s tests/tools/kb-sql >/dev/null ||
	{ echo "valgrind.sh: cannot build tests/tools/kb-sql (make tests/tools/kb-sql)" >&2; exit 2; }
[ $# -gt 0 ] || set -- "$srcdir"/tests/cli/t*.sh

out=$(mktemp -d "$build/valgrind.XXXXXX")
logs=$out/logs
mkdir "$logs"
# A copy: a rebuild meanwhile does not change what is checked.
cp "$kbench" "$out/kbench.bin"
# wrap NAME: $out/NAME, a script running $out/NAME.bin under memcheck.
# hwloc's x86 back-end cannot run under valgrind and says so on stderr
# (which transcripts would show): it is left out by name.
wrap() {
	cat > "$out/$1" <<WRAP
#!/bin/sh
HWLOC_COMPONENTS=\${HWLOC_COMPONENTS:+\$HWLOC_COMPONENTS,}-x86
export HWLOC_COMPONENTS
exec valgrind --quiet --error-exitcode=99 --leak-check=full \\
	--show-leak-kinds=definite --errors-for-leak-kinds=definite \\
	--suppressions="$srcdir/bench/valgrind.supp" \\
	--log-file="$logs/%p.log" "$out/$1.bin" "\$@"
WRAP
	chmod +x "$out/$1"
}
wrap kbench
# kbench runs the kbench-sample next to itself (here: $out's).
if ldd "$build/kbench-sample" >/dev/null 2>&1; then
	cp "$build/kbench-sample" "$out/kbench-sample.bin"
	wrap kbench-sample
	echo "valgrind: kbench-sample runs under memcheck too"
else
	cp "$build/kbench-sample" "$out/kbench-sample"
	echo "valgrind: kbench-sample is linked statically and runs natively" \
		"(configure --disable-static-sample to check it too)"
fi

for t in "$@"; do
	t=$(cd "$(dirname "$t")" && pwd)/$(basename "$t")
	name=$(basename "$t" .sh)
	start=$(date +%s)
	(cd "$out" && KBENCH="$out/kbench" TOP_SRCDIR="$srcdir" \
		KB_SQL="$build/tests/tools/kb-sql" \
		KBENCH_DB=/nonexistent/do-not-use-the-default.db \
		timeout 3600 sh "$t" >"$out/$name.tap" 2>&1)
	notok=$(grep -c '^not ok' "$out/$name.tap")
	echo "$name: $(grep -c '^ok' "$out/$name.tap") ok, $notok not ok ($(( $(date +%s) - start )) s)"
done

# Errors are the lines memcheck prints as "==PID== ..." (--quiet keeps
# only errors and leaks counted as errors); "--PID-- WARNING" lines are
# valgrind's own (a syscall it does not know, such as pidfd_open, which
# kbench then does without) and only counted.
bad=0
warned=0
for log in "$logs"/*.log; do
	[ -s "$log" ] || continue
	if grep -Eq '^==[0-9]+==' "$log"; then
		bad=$((bad + 1))
		echo "== $log"
		cat "$log"
	else
		warned=$((warned + 1))
	fi
done
n=$(ls "$logs" | wc -l)
[ "$warned" -gt 0 ] && echo "valgrind: $warned processes logged warnings of valgrind's own only" \
	"($(cat "$logs"/*.log | grep -o 'unhandled amd64-linux syscall: [0-9]*' | sort -u | tr '\n' ' '))"
if [ "$bad" -eq 0 ]; then
	echo "valgrind: clean ($n kbench processes checked)"
	rm -rf "$out"
	exit 0
fi
echo "valgrind: $bad of $n kbench processes had errors; logs and TAP output in $out"
exit 1
