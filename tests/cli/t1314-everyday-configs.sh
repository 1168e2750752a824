#!/bin/sh
# t1314-everyday-configs: kbench configs gives each shipped config's first
# sentence whole (wrapped within 80 columns, never cut inside a
# sentence), a config whose comment says more than one sentence is cut
# after its first, and README.md lists every shipped config, no other.
# Covers: cli/cmd_configs.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "kbench configs" kb configs
cp "$tmp/check.out" "$tmp/configs"
is "no line past 80 columns" "$(awk 'length > 80 { print length ": " $0 }' "$tmp/configs")" ""
# Each entry's text: its first line after the name, and the lines that
# continue it (indented by 21).
awk '/^[^ ]/ { if (d != "") print d; d = substr($0, 22); next }
	{ sub(/^ +/, ""); d = d " " $0 } END { if (d != "") print d }' "$tmp/configs" >"$tmp/desc"
is "every description ends a sentence" "$(grep -v '[.!?]$' "$tmp/desc")" ""
is "... one sentence each" "$(grep -E '[.!?] [A-Za-z]' "$tmp/desc" | grep -v '\.\.\. ')" ""
is "one entry per shipped config" "$(grep -c '^[^ ]' "$tmp/configs")" \
	"$(ls "$TOP_SRCDIR"/configs/*.conf | wc -l)"

# hackbench.conf's comment goes on after its first sentence, on the same
# line: the sentence alone is shown.
is "hackbench.conf: its first sentence, not its first line" \
	"$(grep '^hackbench ' "$tmp/configs")" \
	"hackbench            mmtests' config-scheduler-hackbench matrix."

# README.md's list of shipped configs is configs/.
sed -n '/^Shipped configs/,/^$/p' "$TOP_SRCDIR/README.md" |
	grep -o '`[a-z0-9-]*\.conf`' | tr -d '`' | sort >"$tmp/readme"
ls "$TOP_SRCDIR/configs" | grep '\.conf$' | sort >"$tmp/shipped"
is "README.md lists the shipped configs" "$(cat "$tmp/readme")" "$(cat "$tmp/shipped")"

done_testing
