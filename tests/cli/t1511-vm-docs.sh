#!/bin/sh
# t1511-vm-docs: the VM examples of docs/vm.md run for real, each with a
# real guest (Debian's cloud and -rt kernels under TCG) where it boots
# one, and print what the guide shows.
#
# An example is a command of a code block of docs/vm.md (found as t1910
# finds them) that starts with "kbench vm", "kbench ab" or "kbench
# compare" ("./kbench", after a "$ " prompt or not), with the lines that
# continue it; what it shows are the block's lines after it, up to the
# next command or "$ " line. Every example is listed in $examples below,
# run for real or kept to t1910's dry run with the reason; an example
# the list does not know, or an entry no example matches, fails the
# test, so that the guide and the test cannot drift apart.
#
# A real example runs as written, in order, one guest at a time, in a
# scratch directory on one store: "kbench" and "./kbench" are a wrapper
# that gives the test's store (and the cached cloud kernel for an image
# under /boot, the host's own). The images the guide names (bzImage,
# arch/x86/boot/bzImage, ~/linux/arch/x86/boot/bzImage,
# vmlinuz-...-cloud-amd64, cloud/boot/..., rt/boot/...) are links to the
# cached kernels of the flavour their name says (cloud unless "rt"), and
# $HOME/mods holds the cached cloud kernel's few modules. Its exit status
# must be 0, or N where the guide shows "[exit N]", and each line the
# guide shows must be in its output, in order, read as a pattern: any
# number (with a sign or compare's "~") stands for any number, a uuid
# for any uuid, a path under /tmp for any path, a run of spaces for any.
# Lines that depend on the host are not compared: "...", KVM's notices
# (this machine may have none), compare's Host:, CPU:, Machine: and
# Options: (the kernels' paths), and the kernel's console lines
# ("[   5.68] ..."); a change's verdict mark, "( 1.2%)", "? 1.2%?" or
# "* 1.2%*", stands for any.
#
# Commands: kbench vm (docs/vm.md), kbench ab (kernel arms), kbench compare
# (of guest runs).
# Covers: cli/cmd_vm.c cli/cmd_ab.c kernel/vm.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

# TEXT|real, or TEXT|dry|WHY: the example that holds TEXT.
examples='vm -k ~/linux/arch/x86/boot/bzImage -c configs/hackbench.conf|dry|hackbench.conf'"'"'s matrix (30 samples a group count) takes an hour under TCG; the next two run the same command on a small config
-c quick -o groups=1 -o iterations=2 -n slub-patched|real
-c quick -o groups=1 -o iterations=2 -n base|real
compare base slub-patched|real
--modprobe vxlan,dummy|real
-n mitigations-off --append|real
-n slub-partial --append|real
-c quick --accel tcg --dry-run|real
--append rdinit=/nonexistent|real
--accel tcg --icount --vcpus 1|real
-c hackbench-ab.conf|real
-n rt -n cloud --rounds 2|real
-n off -n auto --rounds 2|real
kbench ab --resume quick|dry|needs an experiment stopped part way; t1509 interrupts one and resumes it
kbench ab -c kernels.conf|real
compare hackbench-ab/cloud hackbench-ab/rt|real
--tree ~/linux --ref v6.6 -c hackbench|dry|needs a kernel git tree; t1541 runs kbench vm --ref
--ref my-series|dry|needs a kernel git tree; t1541 runs kbench vm --ref with two refs'

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
if ! command -v perl >/dev/null; then
	skip "perl is not installed"
	done_testing
	exit
fi

work=$tmp/work
home=$tmp/home
bin=$tmp/bin
mkdir "$work" "$home" "$bin" "$tmp/ex"
ln -s "$TOP_SRCDIR/configs" "$work/configs"
cat >"$bin/kbench" <<'EOF'
#!/bin/sh
n=$#
prev=
for a in "$@"; do
	case $prev in
	-k | --kernel) case $a in /boot/*) a=$KB_CLOUD ;; esac ;;
	esac
	prev=$a
	set -- "$@" "$a"
done
shift "$n"
exec timeout 300 "$KB_REAL" --db "$KB_DB" "$@"
EOF
chmod +x "$bin/kbench"
cp "$bin/kbench" "$work/kbench"

# The examples: N.sh (the command), N.where (FILE:LINE), N.shown.
awk -v out="$tmp/ex" -v work="$work" '
function indent(s,	t) { t = s; sub(/[^ ].*/, "", t); return length(t) }
/^[ \t]*```/ { fence = !fence; id = ""; incmd = 0; cat = ""; next }
{
	code = fence || /^    / || (/^[ \t]*$/ && prevcode)
	if (!code) { id = ""; incmd = 0; cat = ""; prevcode = 0; next }
	prevcode = 1
	s = $0
	sub(/^[ \t]+/, "", s)
	if (incmd) {
		print s >> (out "/" id ".sh")
		if (s !~ /\\$/) incmd = 0
		next
	}
	if (s ~ /^\$ cat [^ ]+$/) {
		id = ""
		cat = work "/" substr(s, 7)
		catindent = indent($0)
		printf "" > cat
		next
	}
	if (s ~ /^(\$ )?(\.\/)?kbench (vm|ab|compare)( |$)/) {
		cat = ""
		sub(/^\$ /, "", s)
		id = sprintf("%04d", FNR)
		print "docs/vm.md:" FNR > (out "/" id ".where")
		print s > (out "/" id ".sh")
		printf "" > (out "/" id ".shown")
		incmd = s ~ /\\$/
		next
	}
	if (s ~ /^\$ /) { id = ""; cat = ""; next }
	if (cat != "") print substr($0, catindent + 1) >> cat
	else if (id != "") print s >> (out "/" id ".shown")
}' "$TOP_SRCDIR/docs/vm.md"

# The images and modules the guide names.
ver=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
mkdir -p "$work/arch/x86/boot" "$home/linux/arch/x86/boot" "$work/cloud/boot" \
	"$work/rt/boot" "$home/mods/lib/modules"
for k in bzImage arch/x86/boot/bzImage vmlinuz-6.1.0-57-cloud-amd64 \
	cloud/boot/vmlinuz-6.1.0-57-cloud-amd64; do
	ln -s "$vm_cloud" "$work/$k"
done
ln -s "$vm_cloud" "$home/linux/arch/x86/boot/bzImage"
ln -s "$vm_rt" "$work/rt/boot/vmlinuz-6.1.0-57-rt-amd64"
ln -s "$vm_cloud_modules" "$home/mods/lib/modules/$ver"

# matches SHOWN OUT: each line of SHOWN that is compared is a line of
# OUT, in order; else prints the first that is not.
matches() {
	perl -e '
	open(my $s, "<", $ARGV[0]) or die; open(my $o, "<", $ARGV[1]) or die;
	my @out = map { s/^\s+|\s+$//gr } <$o>;
	my $i = 0;
	for my $l (<$s>) {
		$l =~ s/^\s+|\s+$//g;
		next if $l eq "" || $l eq "..." || $l =~ /KVM/ || $l =~ /^\[exit \d+\]$/ ||
			$l =~ /^(Host|CPU|Machine|Options):/ || $l =~ /^\[\s*\d+\.\d+\]/;
		my ($re, $t) = ("", $l);
		while (length $t) {
			if ($t =~ s/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}//) { $re .= "[0-9a-f-]+" }
			elsif ($t =~ s/^\/(tmp|home)\/\S+//) { $re .= "/\\S+" }
			elsif ($t =~ s/^[(?*]\s*-?\d[\d.]*%[)?*]//) { $re .= "[(?*]\\s*-?\\d[\\d.]*%[)?*]" }
			elsif ($t =~ s/^[-~]*\d[\d.]*//) { $re .= "[-~]*\\d[\\d.]*" }
			elsif ($t =~ s/^\s+//) { $re .= "\\s*" }
			else { $t =~ s/^(.)//; $re .= quotemeta($1) }
		}
		$i++ while $i < @out && $out[$i] !~ /^$re$/;
		if ($i >= @out) { print "$l\n"; exit 1 }
		$i++;
	}' "$1" "$2"
}

: >"$tmp/listed"
nreal=0
for c in "$tmp"/ex/*.sh; do
	where=$(cat "${c%.sh}.where")
	text=$(cat "$c")
	desc="$where: $(head -1 "$c" | sed 's/ *\\$//')"
	entry=$(printf '%s\n' "$examples" | while IFS='|' read -r xtext how why; do
		case $text in
		*"$xtext"*) printf '%s|%s|%s' "$xtext" "$how" "$why"; break ;;
		esac
	done)
	if [ -z "$entry" ]; then
		ok 1 "$desc: an example this test does not list (add it to \$examples)"
		continue
	fi
	printf '%s\n' "${entry%%|*}" >>"$tmp/listed"
	how=${entry#*|}
	why=${how#*|}
	how=${how%%|*}
	if [ "$how" != real ]; then
		skip "$desc: kept to t1910's dry run: $why"
		continue
	fi
	nreal=$((nreal + 1))
	want=$(sed -n 's/^\[exit \([0-9]*\)\]$/\1/p' "${c%.sh}.shown")
	start=$(date +%s)
	(cd "$work" && HOME=$home PATH="$bin:$PATH" KB_REAL="$KBENCH" KB_DB="$db" \
		KB_CLOUD="$vm_cloud" sh -c "$text") >"$tmp/out" 2>&1 </dev/null
	st=$?
	secs=$(($(date +%s) - start))
	missing=$(matches "${c%.sh}.shown" "$tmp/out")
	if [ "$st" != "${want:-0}" ] || [ -n "$missing" ]; then
		echo "# $where: its output:"
		comment "$tmp/out"
	fi
	is "$desc: exit status ($secs s)" "$st" "${want:-0}"
	is "$desc: prints what the guide shows (the first line missing)" "$missing" ""
	no_qemu
done
# Every entry names an example.
printf '%s\n' "$examples" | while IFS='|' read -r xtext how why; do
	grep -qxF -- "$xtext" "$tmp/listed" || echo "$xtext"
done >"$tmp/stale"
is "every example listed is in docs/vm.md" "$(cat "$tmp/stale")" ""
check "docs/vm.md has VM examples run for real (more than 10)" test "$nreal" -gt 10

done_testing
