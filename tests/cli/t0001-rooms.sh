#!/bin/sh
# t0001-rooms: every .c and .h file of a room includes headers of its own
# room and of rooms below it only, in the order the file rooms (at the top
# of the tree) gives: never a room above it, nor another room of its own
# rank, nor a directory that is not a room. Each offending include is
# printed as FILE:LINE: the include, and why it is refused.
. "$TOP_SRCDIR/tests/cli/lib.sh"

# Directories holding C files that are not rooms: nothing in a room
# includes them.
not_rooms='tests bench'

order=$TOP_SRCDIR/rooms
rooms=$(sed -e 's/#.*//' "$order" | tr -s ' \t\n' '   ' | sed -e 's/^ //' -e 's/ $//')
check "rooms names at least two rooms" test "$(echo "$rooms" | wc -w)" -ge 2

missing=
for r in $rooms; do
	[ -d "$TOP_SRCDIR/$r" ] || missing="$missing $r/"
done
is "every room in rooms is a directory" "$missing" ""

strays=
for d in "$TOP_SRCDIR"/*/; do
	d=$(basename "$d")
	case " $rooms $not_rooms " in *" $d "*) continue ;; esac
	# Build trees (bench/fuzz.sh's _build-fuzz/) hold generated C files.
	case $d in _build*) continue ;; esac
	if [ -n "$(find "$TOP_SRCDIR/$d" -name '*.[ch]' | head -n 1)" ]; then
		strays="$strays $d/"
	fi
done
is "every directory with C files is a room or one of: $not_rooms" "$strays" ""

# includes ROOM: the includes of ROOM's files that break the order, one a
# line: FILE:LINE: the include: why.
includes() {
	# shellcheck disable=SC2016 # the $ are awk's
	(cd "$TOP_SRCDIR" && find "$1" -name '*.[ch]' | LC_ALL=C sort |
		xargs -r awk -v order="$order" -v room="$1" '
		BEGIN {
			while ((getline line < order) > 0) {
				sub(/#.*/, "", line)
				if (split(line, w) == 0)
					continue
				n++
				for (i = 1; i in w; i++)
					rank[w[i]] = n
			}
		}
		/^[ \t]*#[ \t]*include[ \t]*"[^"\/]+\// {
			inc = $0
			sub(/^[^"]*"/, "", inc)
			sub(/".*/, "", inc)
			to = inc
			sub(/\/.*/, "", to)
			why = ""
			if (!(to in rank))
				why = to "/ is not a room"
			else if (rank[to] > rank[room])
				why = to "/ is above " room "/"
			else if (rank[to] == rank[room] && to != room)
				why = to "/ is of the same rank as " room "/"
			if (why != "")
				printf "%s:%d: #include \"%s\": %s\n", FILENAME, FNR, inc, why
		}')
}

for r in $rooms; do
	includes "$r" >"$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		ok 1 "$r/ includes only its own headers and those of the rooms below it"
		comment "$tmp/bad"
	else
		ok 0 "$r/ includes only its own headers and those of the rooms below it"
	fi
done

done_testing
