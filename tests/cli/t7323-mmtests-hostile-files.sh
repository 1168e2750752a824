#!/bin/sh
# t7323: import --mmtests reads regular files only, and no more of each
# than its bound (64 MiB, on disk and once decompressed): a FIFO where a
# log should be is refused at once instead of waiting for a writer, a
# link to /dev/zero instead of reading it until memory runs out, a
# directory with what it is, a sparse 1 GB log before it is read, and
# gzip and xz bombs once they pass the bound. Each is refused naming the
# file, and nothing is stored. A regular file of the kernel's file
# systems (/proc/kmsg, whose read waits for the next message; a sysfs
# attribute) is refused too.
# Covers: mmtests/mmtests.c mmtests/mmtests_files.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "a store holding one imported run" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched"
before=$(store_digest "$db")
n=0
# refused DESC TEXT: a fresh copy of one run, changed in its iter-0 by
# the commands on stdin, is refused with TEXT on stderr (within a bound
# far above what a refusal takes, so that a wait fails rather than
# hangs), and the store is left as it was.
refused() {
	n=$((n + 1))
	d=$tmp/run$n
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$d" && chmod -R u+w "$d" &&
		(cd "$d/iter-0" && sh -e) || { ok 1 "$1 (fixture)"; return; }
	expect_err "$1" 1 "$2" timeout 120 "$KBENCH" --db "$db" import --mmtests "$d"
	is "... nothing stored" "$(store_digest "$db")" "$before"
}

log=hackbench-process-pipes/logs/hackbench-1-1
refused "a FIFO as a log is refused, not waited on" \
	"cannot read '$tmp/run1/iter-0/$log': it is a FIFO, not a regular file" <<S
rm $log && mkfifo $log
S
refused "a link to /dev/zero is refused, not read" \
	"cannot read '$tmp/run2/iter-0/$log': it is a character device, not a regular file" <<S
rm $log && ln -s /dev/zero $log
S
refused "a directory as a log is named as one" \
	"cannot read '$tmp/run3/iter-0/$log': it is a directory, not a regular file" <<S
rm $log && mkdir $log
S
refused "a FIFO as a fact file too" \
	"cannot read '$tmp/run4/iter-0/kernel.version': it is a FIFO, not a regular file" <<S
rm kernel.version && mkfifo kernel.version
S
refused "a sparse 1 GB log is refused before it is read" \
	"cannot read '$tmp/run5/iter-0/$log': it is 1073741824 bytes, more than the 64 MiB kbench reads of one file (docs/mmtests.md)" <<S
truncate -s 1G $log
S

# Bombs of 80 MiB of zeros: one compressed MiB, repeated (gzip and xz
# both read concatenated streams as one).
head -c 1048576 /dev/zero | gzip -c > "$tmp/one.gz" &&
	head -c 1048576 /dev/zero | xz -c > "$tmp/one.xz"
ok $? "a compressed MiB of zeros, gzip and xz"
for z in gz xz; do
	i=0
	while [ $i -lt 80 ]; do
		cat "$tmp/one.$z"
		i=$((i + 1))
	done > "$tmp/bomb.$z"
done
is "the gzip bomb decompresses to 80 MiB" "$(gzip -dc < "$tmp/bomb.gz" | wc -c)" 83886080
is "the xz bomb decompresses to 80 MiB" "$(xz -dc < "$tmp/bomb.xz" | wc -c)" 83886080
tb=tbench/logs/tbench-1.log
refused "a gzip bomb is stopped at the bound and refused" \
	"cannot read '$tmp/run6/iter-0/$tb.gz' with gzip: it decompresses to more than the 64 MiB kbench reads of one file (docs/mmtests.md); stopped there" <<S
mkdir -p tbench/logs && cp "$tmp/bomb.gz" $tb.gz
S
refused "an xz bomb is stopped at the bound and refused" \
	"cannot read '$tmp/run7/iter-0/$tb.xz' with xz: it decompresses to more than the 64 MiB kbench reads of one file (docs/mmtests.md); stopped there" <<S
mkdir -p tbench/logs && cp "$tmp/bomb.xz" $tb.xz
S

# Under the bound, compressed or not, a log is read as before.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla" "$tmp/fine" && chmod -R u+w "$tmp/fine" &&
	gzip -n "$tmp/fine/iter-0/tbench/logs/tbench-1.log" &&
	xz "$tmp/fine/iter-0/tbench/logs/tbench-2.log"
ok $? "a run with a gzip'ed and an xz'ed log"
check "it imports" kb import --mmtests "$tmp/fine"
is "... with both tbench samples" \
	"$(sql "SELECT group_concat(value, ' ') FROM samples WHERE section = 'tbench'")" \
	"241.456 242.456"
before=$(store_digest "$db")
# /proc/kmsg is a regular file of size 0 whose read waits for the next
# kernel message: before, each of these hung the import.
if [ -r /proc/kmsg ]; then
	refused "a link to /proc/kmsg as a log is refused, not waited on" \
		"cannot read '$tmp/run$((n + 1))/iter-0/$log': it is a file of /proc, whose read may wait for ever, not a file of a results directory" <<S
rm $log && ln -s /proc/kmsg $log
S
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla" "$tmp/kgz" &&
		chmod -R u+w "$tmp/kgz" && rm "$tmp/kgz/iter-0/tbench/logs/tbench-1.log" &&
		ln -s /proc/kmsg "$tmp/kgz/iter-0/tbench/logs/tbench-1.log.gz"
	expect_err "... as a .log.gz" 1 \
		"cannot read '$tmp/kgz/iter-0/tbench/logs/tbench-1.log.gz': it is a file of /proc" \
		timeout 120 "$KBENCH" --db "$db" import --mmtests "$tmp/kgz"
	is "... nothing stored" "$(store_digest "$db")" "$before"
	refused "... as kernel.version" \
		"cannot read '$tmp/run$((n + 1))/iter-0/kernel.version': it is a file of /proc" <<S
rm kernel.version && ln -s /proc/kmsg kernel.version
S
else
	skip "/proc/kmsg cannot be read here (needs root)"
	skip "/proc/kmsg cannot be read here"
	skip "/proc/kmsg cannot be read here"
fi
if [ -e /sys/kernel/uevent_seqnum ]; then
	refused "a link to a sysfs attribute as a fact file" \
		"cannot read '$tmp/run$((n + 1))/iter-0/kernel.version': it is a file of sysfs" <<S
rm kernel.version && ln -s /sys/kernel/uevent_seqnum kernel.version
S
else
	skip "no /sys/kernel/uevent_seqnum here"
fi
done_testing
