# wilson.awk: the 95% Wilson score interval of K successes in N trials,
# for the bench scripts that print a rate: they read it into a variable
# and put it before their program (awk "$wilson"'{ ... }').
#   wilson_lo(K, N), wilson_hi(K, N)   its ends, as fractions
function wilson_c(k, n, z) { return (k / n + z * z / (2 * n)) / (1 + z * z / n) }
function wilson_h(k, n, z,    p) {
	p = k / n
	return z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
}
function wilson_lo(k, n,    z, x) { z = 1.959964; x = wilson_c(k, n, z) - wilson_h(k, n, z); return x < 0 ? 0 : x }
function wilson_hi(k, n,    z, x) { z = 1.959964; x = wilson_c(k, n, z) + wilson_h(k, n, z); return x > 1 ? 1 : x }
