#!/bin/sh
# t0001-rooms: every .c and .h file of a room includes headers of its own
# room and of rooms below it only, in the order the file rooms (at the top
# of the tree) gives: never a room above it, nor another room of its own
# rank, nor a directory that is not a room. Each offending include is
# printed as FILE:LINE: the include, and why it is refused.
#
# Then the calls: from the symbols each built object file defines and
# uses (nm), the files of the rooms form a graph, an arrow from a file
# to each file whose function or table it uses. No file reaches itself
# through the arrows, within a room or across rooms: each loop found is
# printed as its arrows, FILE -> FILE (SYMBOL...), and a loop between
# rooms as ROOM/ -> ROOM/ (FILE:SYMBOL...).
#
# Last, no command runs another: a command's handler (a function the
# table of cli/main.c names as .fn, and cmd_direct, which runs the
# workloads) is used by no file but cli/main.c. A command that needs
# what another does calls the room below with ids and structs, never
# the other's handler with an argv made up for it.
# Covers: rooms
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

# No file of a room over 1,000 lines (docs/HACKING.md): past that size a
# file holds more than one subject.
long=
for r in $rooms; do
	for f in $(cd "$TOP_SRCDIR" && find "$r" -name '*.[ch]' | LC_ALL=C sort); do
		n=$(wc -l <"$TOP_SRCDIR/$f")
		[ "$n" -gt 1000 ] && long="$long $f ($n lines)"
	done
done
is "no file of a room over 1,000 lines" "$long" ""

# docs/ARCHITECTURE.md is drawn from the code: every source file it names
# (`room/file.c`, or `file.c` in its room's paragraph) is in the tree.
gone=
for f in $(grep -o '`[a-z0-9_/-]*\.[ch]`' "$TOP_SRCDIR/docs/ARCHITECTURE.md" | tr -d '`' |
	LC_ALL=C sort -u); do
	case $f in
	*/*) [ -f "$TOP_SRCDIR/$f" ] || gone="$gone $f" ;;
	*) [ -n "$(cd "$TOP_SRCDIR" && find $rooms -name "$f" | head -n 1)" ] ||
		gone="$gone $f" ;;
	esac
done
is "every file docs/ARCHITECTURE.md names is in the tree" "$gone" ""

# The arrows read from the object files, one a line: FROM TO SYMBOL.
builddir=$(dirname "$KBENCH")
: >"$tmp/syms"
unbuilt=
for r in $rooms; do
	for c in $(cd "$TOP_SRCDIR" && find "$r" -name '*.c' | LC_ALL=C sort); do
		o=$builddir/${c%.c}.o
		if [ ! -f "$o" ]; then
			unbuilt="$unbuilt $c"
			continue
		fi
		# nm -P: NAME TYPE ...; U is used, an upper-case letter
		# other than U is defined here.
		nm -P "$o" | awk -v f="$c" '
			$2 == "U" { print "U", f, $1 }
			$2 ~ /^[A-TV-Z]$/ { print "D", f, $1 }' >>"$tmp/syms"
	done
done
is "every .c file of a room is built into an object file" "$unbuilt" ""

# shellcheck disable=SC2016 # the $ are awk's
awk '$1 == "D" { def[$3] = $2; next }
	$1 == "U" { use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1])
				print a[1], def[a[2]], a[2]
		}
	}' "$tmp/syms" | LC_ALL=C sort -u >"$tmp/arrows"
check "the object files use each other's symbols" test -s "$tmp/arrows"

# loops ARROWS: the loops tsort finds in ARROWS (FROM TO SYMBOL lines),
# each printed as the arrows between its files: FROM -> TO (SYMBOL...).
loops() {
	awk '{ print $1, $2 }' "$1" | tsort 2>&1 >/dev/null |
		awk -v arrows="$1" '
		function flush(   i, k, line, block, more) {
			for (k = 1; k <= na; k++) {
				if (!(af[k] in in_loop) || !(at[k] in in_loop))
					continue
				line = af[k] " -> " at[k]
				if (!(line in said))
					order[++nl] = line
				# Four symbols say enough of an arrow.
				if (++nsym[line] <= 4)
					said[line] = said[line] sep_of(line) as[k]
			}
			block = ""
			for (i = 1; i <= nl; i++) {
				line = order[i]
				more = nsym[line] > 4 ? " and " nsym[line] - 4 " more" : ""
				block = block line " (" said[line] more ")\n"
			}
			# tsort may meet one loop more than once.
			if (block != "" && !(block in shown)) {
				shown[block] = 1
				printf "%s\n", block
			}
			delete in_loop
			delete said
			delete nsym
			nl = 0
		}
		function sep_of(line) { return (said[line] == "") ? "" : " " }
		BEGIN {
			while ((getline l < arrows) > 0) {
				split(l, w, " ")
				na++
				af[na] = w[1]; at[na] = w[2]; as[na] = w[3]
			}
		}
		/input contains a loop/ { flush(); next }
		{ sub(/^tsort: /, ""); in_loop[$0] = 1 }
		END { flush() }'
}

for r in $rooms; do
	awk -v r="$r/" 'index($1, r) == 1 && index($2, r) == 1' "$tmp/arrows" >"$tmp/room"
	loops "$tmp/room" >"$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		ok 1 "$r/ has no call loop between its files"
		comment "$tmp/bad"
	else
		ok 0 "$r/ has no call loop between its files"
	fi
done

# Across rooms the arrows are those of the rooms: ROOM/ ROOM/ FILE:SYMBOL.
awk '{ f = $1; t = $2; sub(/\/.*/, "/", f); sub(/\/.*/, "/", t)
	if (f != t) print f, t, $1 ":" $3 }' "$tmp/arrows" >"$tmp/across"
loops "$tmp/across" >"$tmp/bad"
if [ -s "$tmp/bad" ]; then
	ok 1 "no call loop crosses rooms"
	comment "$tmp/bad"
else
	ok 0 "no call loop crosses rooms"
fi

handlers=$(sed -n 's/.*\.fn = \(cmd_[a-z0-9_]*\).*/\1/p' "$TOP_SRCDIR/cli/main.c")
check "cli/main.c's table names the commands' handlers" test -n "$handlers"
# shellcheck disable=SC2016 # the $ are awk's
calls=$(awk -v handlers="$handlers cmd_direct" '
	BEGIN { n = split(handlers, h, " "); for (i = 1; i <= n; i++) handler[h[i]] = 1 }
	($3 in handler) && $1 != "cli/main.c" { print $1 " -> " $3 }' "$tmp/arrows")
is "no command's handler is called but by cli/main.c" "$calls" ""

done_testing
