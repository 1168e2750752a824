#!/bin/sh
# t8000-external-tbench: configs/tbench.conf with the real tbench (dbench's
# tbench and tbench_srv; 2 s samples at 1 and 2 clients): the server runs
# around the section and is gone after it, every stored throughput is the
# Throughput line of the same output (parsed again here with awk), and
# compare prints the rows as the seed thread's clients-N.
# Covers: workloads/external.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# need PROGRAM PACKAGE: skip without it, but fail in CI, which installs it
need() {
	command -v "$1" >/dev/null && return 0
	if [ "${CI:-}" = true ]; then
		ok 1 "$1 is installed (Debian package $2, from .ci/install-deps --test)"
	else
		skip "$1 is not installed (Debian package $2; .ci/install-deps --test installs it)"
	fi
	done_testing
	exit
}
need tbench dbench
need tbench_srv dbench
if ss -ltn 2>/dev/null | grep -q ':7003 '; then
	skip "something else listens on port 7003, tbench's fixed port"
	done_testing
	exit
fi

# A tbench that keeps a copy of what the real one printed, first on PATH.
mkdir "$tmp/bin"
cat >"$tmp/bin/tbench" <<WRAP
#!/bin/sh
"$(command -v tbench)" "\$@" >"$tmp/one.out" 2>&1
st=\$?
cat "$tmp/one.out"
cat "$tmp/one.out" >>"$tmp/tbench.log"
exit \$st
WRAP
chmod +x "$tmp/bin/tbench"
cat >"$tmp/short.conf" <<EOF2
[global]
iterations = 2
param.clients = 1 2
param.duration = 2
timeout = 60
env.PATH = $tmp/bin:/usr/local/bin:/usr/bin:/bin
EOF2

for name in slab slub; do
	kb --quiet run -c "$TOP_SRCDIR/configs/tbench.conf" -c "$tmp/short.conf" -n "$name" \
		--no-report >"$tmp/out" 2>"$tmp/err"
	ok $? "configs/tbench.conf runs with 2 s samples ($name): $(cat "$tmp/err")"
	check "tbench_srv is stopped after the section ($name)" \
		sh -c "! ss -ltn 2>/dev/null | grep ':7003 '"
done

got=$(sql "SELECT row || '|' || printf('%.6f', value) || '|' || unit || '|' || better FROM samples ORDER BY rowid")
want=$(awk '/^Throughput / { printf "clients-%s|%.6f|MB/sec|higher\n", $4, $2 }' "$tmp/tbench.log")
is "each stored value is the Throughput line tbench printed" "$got" "$want"
n=$(printf '%s\n' "$got" | awk -F'|' '$2 > 0' | wc -l)
is "eight samples, none of them zero" "$n" 8

# The header block names this machine (header_sed); the config's checksum
# covers short.conf, whose PATH holds the scratch directory.
expect_transcript -m -e "$header_sed" \
	-e 's/^(Config: +tbench\+short, cksum )[0-9]+$/\1CKSUM/' \
	"compare reads as the seed's tbench tables: rows clients-N, MB/sec" \
	kb compare --monitors none slab slub <<'EOF2'
$ kb compare --monitors none slab slub
Kernel:   KERNEL
Host:     HOST
CPU:      CPU
Machine:  MACHINE
Config:   tbench+short, cksum CKSUM
Samples:  slab 2, slub 2

tbench
                                      slab                   slub
Min       clients-1        9.99 (   9.99%)        9.99 (   9.99%)
Min       clients-2        9.99 (   9.99%)        9.99 (   9.99%)
Hmean     clients-1        9.99 (   9.99%)        9.99 (   9.99%)
Hmean     clients-2        9.99 (   9.99%)        9.99 (   9.99%)
HStddev   clients-1        9.99 (   9.99%)        9.99 (   9.99%)
HStddev   clients-2        9.99 (   9.99%)        9.99 (   9.99%)
HCoeffVar clients-1        9.99 (   9.99%)        9.99 (   9.99%)
HCoeffVar clients-2        9.99 (   9.99%)        9.99 (   9.99%)
Max       clients-1        9.99 (   9.99%)        9.99 (   9.99%)
Max       clients-2        9.99 (   9.99%)        9.99 (   9.99%)
BHmean-95 clients-1        9.99 (   9.99%)        9.99 (   9.99%)
BHmean-95 clients-2        9.99 (   9.99%)        9.99 (   9.99%)

                        slab        slub
Duration User           9.99        9.99
Duration System         9.99        9.99
Duration Elapsed        9.99        9.99

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%). Hmean rows are tested on 1/x.
Positive % = better: the sign follows each metric's direction.
No star, fewer than 3 samples on a side: tbench clients-1, tbench clients-2.
[exit 0]
EOF2
no_workers
ok $? "nothing left running"
done_testing
