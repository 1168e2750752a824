# figure.sh: sourced by the bench/ scripts that print figures read from
# another program's output (a peer tool's, or kbench's own). A figure that
# cannot be read stops the script with status 1, saying what was read
# instead: a benchmark that prints 0 or nan where a figure should be, and
# exits 0, is a check that cannot fail.
#
# is_figure VALUE: whether VALUE is a finite number above 0.
is_figure() {
	awk -v v="$1" 'BEGIN {
		exit !(v ~ /^\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ &&
		       v + 0 > 0 && v + 0 < 1e300) }'
}
# need_figure WHAT VALUE [FILE]: return when VALUE is a figure (is_figure),
# else exit 1 naming WHAT and VALUE, and showing FILE (what it was read
# from), when given. Call it from the script's own shell, not inside
# $(...), where exit would end the subshell only.
need_figure() {
	is_figure "$2" && return 0
	echo "${0##*/}: $1: expected a number above 0, read '$2'" >&2
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		echo "${0##*/}: it was read from:" >&2
		sed 's/^/  | /' "$3" >&2
	fi
	exit 1
}
