# netperf-tap.sh: the small TAP helper and scratch directory of the
# netperf CLI tests (sourced). Scratch files live under the build tree.
n=0
failed=0
tmp=$(mktemp -d "${PWD:-.}/netperf-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# ok STATUS DESCRIPTION: one TAP line, passing when STATUS is 0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

done_testing() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit $?
}
