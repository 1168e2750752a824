#!/bin/sh
# Config limits: section names longer than inih's 49 bytes, the line
# length limit at its exact boundary, control characters in section names,
# many sections, and a stride list longer than 512 rows.
# Covers: runner/conf.c workloads/stride.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# plan DESCRIPTION FILE PATTERN: the dry-run plan of FILE holds PATTERN (ERE)
plan() {
	kb run -c "$2" --dry-run >"$tmp/out" 2>&1
	st=$?
	if [ "$st" -eq 0 ] && grep -Eq -- "$3" "$tmp/out"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		echo "# exit $st; output:"
		sed 's/^/#   /' "$tmp/out"
	fi
}

# chars N: N characters
chars() { printf "%${1}s" '' | tr ' ' x; }

long=hackbench-$(chars 60)
printf '[%s]\ngroups = 2 3\niterations = 1\n' "$long" >"$tmp/long.conf"
plan "a 70-character section name keeps its keys" "$tmp/long.conf" "^$long +hackbench +1 +0 +groups 2 3\$"
check "and is one section" grep -q '^2 samples in all' "$tmp/out"

printf '[%sa]\ngroups = 2\niterations = 1\n[%sb]\ngroups = 3\niterations = 1\n' \
	"$long" "$long" >"$tmp/prefix.conf"
plan "two long names sharing a prefix are two sections" "$tmp/prefix.conf" "^${long}a +hackbench .* groups 2\$"
check "each with its own keys" grep -Eq "^${long}b +hackbench .* groups 3\$" "$tmp/out"

# A line of exactly N characters: "groups = 1" padded with spaces.
line() { printf 'groups = 1%s' "$(printf "%$(($1 - 10))s" '')"; }
{ printf '[hackbench-a]\n'; line 198; printf '\n'; } >"$tmp/l198.conf"
plan "a line of 198 characters is accepted" "$tmp/l198.conf" '^hackbench-a .* groups 1$'
{ printf '[hackbench-a]\r\n'; line 198; printf '\r\n'; } >"$tmp/l198crlf.conf"
plan "so is one of 198 ending in CR LF" "$tmp/l198crlf.conf" '^hackbench-a .* groups 1$'
{ printf '[hackbench-a]\n'; line 198; } >"$tmp/l198eof.conf"
plan "and one of 198 without a line end" "$tmp/l198eof.conf" '^hackbench-a .* groups 1$'
{ printf '[hackbench-a]\n'; line 199; printf '\n'; } >"$tmp/l199.conf"
expect_err "a line of 199 is refused with the limit" 2 \
	"kbench: $tmp/l199.conf:2: line is 199 characters long; at most 198 are allowed (continue a long list on indented lines)" \
	kb run -c "$tmp/l199.conf" --dry-run

printf '[hackbench-a\033[31m]\ngroups = 1\n' >"$tmp/esc.conf"
expect_err "an escape in a section name is refused" 2 \
	"kbench: $tmp/esc.conf:1: section name contains control character 0x1b" \
	kb run -c "$tmp/esc.conf" --dry-run
printf '[hackbench-a]\ngroups = 1\n[hackbench-b\rc]\ngroups = 1\n' >"$tmp/cr.conf"
expect_err "a carriage return in a section name is refused" 2 \
	"kbench: $tmp/cr.conf:3: section name contains control character 0x0d" \
	kb run -c "$tmp/cr.conf" --dry-run
printf '[hackbench-a\tb]\ngroups = 1\n' >"$tmp/tab.conf"
expect_err "a tab in a section name is refused" 2 \
	"kbench: $tmp/tab.conf:1: section name contains control character 0x09" \
	kb run -c "$tmp/tab.conf" --dry-run
printf '[ ]\ngroups = 1\n' >"$tmp/empty.conf"
expect_err "an empty section name is refused" 2 "kbench: $tmp/empty.conf:1: empty section name" \
	kb run -c "$tmp/empty.conf" --dry-run
printf '[ hackbench-a ]\ngroups = 1\n' >"$tmp/spaces.conf"
plan "spaces around a section name are not part of it" "$tmp/spaces.conf" '^hackbench-a +hackbench .* groups 1$'

{
	printf '[global]\nloopz = 3\n'
	i=0
	while [ $i -lt 10000 ]; do
		printf '[hackbench-%d]\ngroups = 1\n' $i
		i=$((i + 1))
	done
} >"$tmp/many.conf"
expect_err "10,000 sections with a typo on line 2: the typo is named" 2 \
	"kbench: $tmp/many.conf:2: unknown key 'loopz' in [global] (did you mean 'loops'?)" \
	kb run -c "$tmp/many.conf" --dry-run
sed '1,2d' "$tmp/many.conf" >"$tmp/many-ok.conf"
plan "and without it, they are all planned" "$tmp/many-ok.conf" '^50000 samples in all'
printf '[hackbench-1]\ngroups = 2\n' >>"$tmp/many-ok.conf"
expect_err "a section repeated after 10,000 others names the first" 2 \
	"kbench: $tmp/many-ok.conf:20001: duplicate section [hackbench-1] (first at line 3)" \
	kb run -c "$tmp/many-ok.conf" --dry-run

printf '[hackbench-s]\ngroups = stride:1..20000\niterations = 1\n' >"$tmp/stride.conf"
plan "stride:1..20000 plans every row" "$tmp/stride.conf" '^651 samples in all'
check "up to 20000" grep -Eq '^hackbench-s .* 19950 19981 20000$' "$tmp/out"
printf '[netperf-s]\nsizes = stride:1..67108864\n' >"$tmp/np.conf"
expect_err "a stride of more than 100000 rows is refused" 2 \
	"too many rows in 'stride:1..67108864' (more than 100000)" kb run -c "$tmp/np.conf" --dry-run
done_testing
