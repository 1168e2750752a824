# usage.sh: sourced first by each bench/ script. -h or --help prints the
# script's header comment, which is its documentation (what it measures,
# its variables and arguments), and exits; anything else is left to it.
case ${1-} in
-h | --help)
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
esac
