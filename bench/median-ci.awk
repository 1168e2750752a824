# median-ci.awk: the distribution-free 95% confidence interval of the
# median of the numbers it reads, one a line, sorted ascending: the order
# statistics of ranks k and n+1-k for the largest k whose coverage,
# 1 - 2 P(X <= k-1) with X ~ binomial(n, 1/2), is at least 95%. Prints
# "lo-hi" (three decimals), or "-" for fewer than 6 numbers, where no
# pair of ranks covers 95%. Used by the *-vs-peers.sh scripts:
#   sort -g FILE | awk -f bench/median-ci.awk
{ v[NR] = $1 }
END {
	n = NR
	if (n < 6) {
		print "-"
		exit
	}
	p = 0.5 ^ n	# P(X = j), from j = 0
	cdf = p		# P(X <= j)
	k = 0
	for (j = 0; j < n / 2 && 1 - 2 * cdf >= 0.95; j++) {
		k = j + 1
		p = p * (n - j) / (j + 1)
		cdf += p
	}
	printf "%.3f-%.3f\n", v[k], v[n + 1 - k]
}
