#!/bin/sh
# t2100: run selectors are scoped to this host. A bare name is the latest
# complete run of that name made here; a name made only elsewhere is an
# error that lists the NAME@HOST choices; --pool stays on one host unless
# NAME@* says every host. Two hosts are simulated with KBENCH_HOSTNAME.
# Names that clash with the selector syntax are refused at run.
# Covers: db/query.c compare/compare.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
loops = 10
groups = 1

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
on() {	# on HOST COMMAND...: kbench as if on HOST
	host=$1
	shift
	KBENCH_HOSTNAME=$host kb "$@"
}

check "five tiny runs stored, as made on hosts alpha and beta" \
	on alpha run -c "$tmp/tiny.conf" -n base --no-report '&&' \
	on beta run -c "$tmp/tiny.conf" -n base --no-report '&&' \
	on beta run -c "$tmp/tiny.conf" -n base --no-report '&&' \
	on alpha run -c "$tmp/tiny.conf" -n new --no-report '&&' \
	on beta run -c "$tmp/tiny.conf" -n only-beta --no-report
check "the runs carry their host" \
	test "$(sql "SELECT group_concat(m.hostname, ' ') FROM runs r JOIN machines m ON m.id = r.machine_id ORDER BY r.id")" = "alpha beta beta alpha beta"

# show_id HOST SELECTOR: the id show picks, as if on HOST
show_id() {
	on "$1" show "$2" 2>"$tmp/err" | sed -n 's/^run @\([0-9]*\) .*/\1/p'
}

# expect_id DESCRIPTION HOST SELECTOR ID
expect_id() {
	got=$(show_id "$2" "$3")
	if [ "$got" = "$4" ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "show $3 on $2 picked '$got', want #$4; stderr:"
		sed 's/^/#   /' "$tmp/err"
	fi
}

expect_id "a bare name is this host's run (alpha)" alpha base 1
expect_id "a bare name is this host's run (beta: its latest)" beta base 3
expect_id "NAME@HOST picks that host's latest" alpha base@beta 3
expect_id "NAME@* picks the latest on any host" alpha 'base@*' 3
expect_id "#ID is not scoped to a host" alpha '#2' 2
uuid=$(sql "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 5")
expect_id "a uuid prefix is not scoped to a host" alpha "$uuid" 5

expect_err "a name made only on other hosts lists the NAME@HOST choices" 1 \
	"kbench: no complete run named 'base' on this host 'gamma'; choose one of: base@alpha, base@beta (base@* picks the latest on any host)" \
	on gamma show base
expect_err "compare says the same for a baseline made elsewhere" 1 \
	"kbench: no complete run named 'only-beta' on this host 'alpha'; choose one of: only-beta@beta (only-beta@* picks the latest on any host)" \
	on alpha compare only-beta new
expect_err "NAME@HOST with no such run lists the hosts that have one" 1 \
	"kbench: no complete run named 'base@gamma' in $db; choose one of: base@alpha, base@beta" \
	on alpha show base@gamma
expect_err "NAME@* with no such name says so" 1 \
	"kbench: no complete run named 'nosuch@*' in $db" \
	on alpha show 'nosuch@*'
expect_err "a name made nowhere is still unknown" 1 \
	"kbench: no run named 'nosuch' in $db (see kbench runs)" \
	on alpha show nosuch

# pool_json HOST SELECTOR...: compare --pool --format json, as if on HOST
pool_json() {
	host=$1
	shift
	on "$host" compare --pool --format json "$@" 2>"$tmp/err"
}

expect_json() {	# expect_json DESCRIPTION TEXT HOST SELECTOR...
	desc=$1 want=$2
	shift 2
	pool_json "$@" > "$tmp/json"
	if grep -qF -- "$want" "$tmp/json"; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "want $want in:"
		sed 's/^/#   /' "$tmp/json" | head -5
		sed 's/^/#   /' "$tmp/err"
	fi
}

expect_json "--pool NAME pools this host's runs only" \
	'"runs":[{"label":"base","ids":[1],' alpha base new
expect_json "... and no fact differs between runs of one host" '"differs":[]' alpha base new
expect_json "--pool NAME@HOST pools that host's runs only" \
	'"label":"base","ids":[2,3],' alpha base@beta new
expect_json "... and the machine is named as differing" '"differs":[{"fact":"machine"' \
	alpha base@beta new
expect_json "--pool #ID pools the runs of that run's host" \
	'"label":"base","ids":[2,3],' alpha '#2' new
expect_json "--pool NAME@* pools every host" \
	'"label":"base","ids":[1,2,3],' alpha 'base@*' new
expect_json "... and names every host of the column" '"hostname":"alpha+beta"' \
	alpha 'base@*' new

# Names that would read as selectors, or garble a table, are refused at
# run, before anything runs.
expect_err "a name starting with '#' is refused" 2 \
	"kbench: invalid run name '#7': it must not start with '#' (#ID and @ID select a run by id)" \
	kb run -c "$tmp/tiny.conf" -n '#7'
expect_err "a name with '@' is refused" 2 \
	"kbench: invalid run name 'x@y': it must not contain '@' (NAME@HOST selects a run by host)" \
	kb run -c "$tmp/tiny.conf" -n 'x@y'
expect_err "a name with a control character is refused" 2 \
	"kbench: invalid run name: it must not contain control characters (byte 0x09 at offset 1)" \
	kb run -c "$tmp/tiny.conf" -n "$(printf 'a\tb')"
long=$(printf '%0129d' 0)
expect_err "a name over 128 bytes is refused" 2 \
	"kbench: invalid run name: it is 129 bytes long, the limit is 128" \
	kb run -c "$tmp/tiny.conf" -n "$long"
expect_err "an empty name is refused" 2 "kbench: the run name must not be empty" \
	kb run -c "$tmp/tiny.conf" -n ''
check "nothing was stored for them" test "$(sql 'SELECT count(*) FROM runs')" = 5
check "a name of 128 bytes is fine" \
	kb run -c "$tmp/tiny.conf" -n "${long%0}" --dry-run
check "... as are '#' and UTF-8 past the first byte" \
	kb run -c "$tmp/tiny.conf" -n 'v6.18#2-été' --dry-run

done_testing
