#!/bin/sh
# t1900-install-prefix: make install under a prefix of a user's own, as
# that user (nobody: the tests run as root), from this build tree: every
# file goes under the prefix (the bash completion too), the README and
# the guides are installed in $(docdir) as the source tree holds them
# (docs/NAME.md), NEWS beside the README, the installed kbench runs (make
# installcheck too), make install says how PATH and XDG_DATA_DIRS reach
# the page and the completion, every guide its help texts and its manual
# name is there, and make uninstall takes it all away, directories too.
#
# The build tree keeps the prefix it was configured with: the test
# installs with make's prefix=P, so that a path compiled into kbench
# (under the configured prefix) is looked for at the same place under P.
# Covers: Makefile.am cli/setup.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

builddir=$(dirname "$KBENCH")
user=nobody
group=$(id -gn "$user" 2>/dev/null)
home=$tmp/home
prefix=$home/kb

# as_user CMD...: CMD as $user, in an environment of its own (no make
# jobserver of the make check this test runs under).
as_user() {
	setpriv --reuid="$user" --regid="$group" --clear-groups \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL HOME="$home" "$@"
}

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ -z "$group" ]; then
	skip "installing as another user needs root, setpriv and the user $user"
	done_testing
	exit
fi
chmod 755 "$tmp"
mkdir "$home" && chown "$user" "$home"
if ! as_user test -r "$builddir/Makefile" -a -x "$builddir"; then
	skip "$user cannot read the build tree $builddir"
	done_testing
	exit
fi
conf_prefix=$(sed -n 's/^prefix = //p' "$builddir/Makefile")

check "make install prefix=~/kb as $user" \
	as_user make --no-print-directory -C "$builddir" install prefix="$prefix"
cp "$tmp/check.out" "$tmp/install.out"
# Automake's install rules name each directory they write in quotes.
is "make install wrote under the prefix only" \
	"$(sed -n "s/.*'\\(\\/[^']*\\)'\$/\\1/p" "$tmp/install.out" | grep -v "^$prefix/" | sort -u)" ""

missing=
for f in bin/kbench libexec/kbench/kbench-sample share/bash-completion/completions/kbench \
	share/man/man1/kbench.1 share/man/man5/kbench.conf.5 share/kbench/quick.conf \
	share/doc/kbench/README.md share/doc/kbench/NEWS; do
	[ -f "$prefix/$f" ] || missing="$missing $f"
done
is "the program, the sample program, the completion, the manual, the configs, the README, NEWS" \
	"$missing" ""
missing=
for f in "$TOP_SRCDIR"/docs/*.md; do
	[ -f "$prefix/share/doc/kbench/docs/${f##*/}" ] || missing="$missing docs/${f##*/}"
done
is "every guide in \$(docdir)/docs" "$missing" ""

# Neither PATH nor XDG_DATA_DIRS names the prefix: make install says how
# man kbench and the completion find it.
is "make install says how to reach the prefix's kbench, man page and completion" \
	"$(grep '^kbench: \|^  export' "$tmp/install.out" | sed "s|$prefix|PREFIX|g")" \
	"kbench: PREFIX/bin is not on PATH: for kbench and man kbench, add it:
  export PATH=\"PREFIX/bin:\$PATH\"
kbench: for bash to complete kbench's commands, add PREFIX/share to XDG_DATA_DIRS:
  export XDG_DATA_DIRS=\"PREFIX/share:\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}\""
if command -v man >/dev/null; then
	is "... and with PATH so, man kbench finds the installed page" \
		"$(as_user env PATH="$prefix/bin:$PATH" MANPATH= man -w kbench 2>&1)" \
		"$prefix/share/man/man1/kbench.1"
else
	skip "man is not installed (Debian: man-db)"
fi

check "make installcheck prefix=~/kb runs the installed kbench, as $user" \
	as_user make --no-print-directory -C "$builddir" installcheck prefix="$prefix"
is "... a tiny run into a store of its own" "$(tail -n 1 "$tmp/check.out")" \
	"installcheck: $prefix/bin/kbench runs"

check "the installed kbench runs --help, as $user" as_user "$prefix/bin/kbench" --help
is "the installed kbench sends the reader to its man page" \
	"$(tail -1 "$tmp/check.out")" \
	"'kbench help COMMAND' describes a command; 'man kbench' has it all."

# Every help text, and the installed manual: the guides they name.
: >"$tmp/help"
"$prefix/bin/kbench" --help |
	awk '/^(Commands|Workloads)/ { f = 1; next } /^$/ { f = 0 } f { print $1 }' >"$tmp/words"
printf '%s\n' "fleet submit" "fleet schedule" "fleet unschedule" "fleet status" \
	"fleet collect" "fleet upload" >>"$tmp/words"
while read -r words; do
	# shellcheck disable=SC2086
	"$prefix/bin/kbench" $words --help >>"$tmp/help" 2>&1
done <"$tmp/words"
is "no installed help line is past 80 columns" \
	"$(awk 'length > 80 { print length ": " $0 }' "$tmp/help")" ""
grep -o '[^ (]*docs/[A-Za-z0-9_-]*\.md' "$tmp/help" | sort -u >"$tmp/named"
is "the help texts name guides: statistics.md among them" \
	"$(grep -c 'docs/statistics\.md$' "$tmp/named")" 1
grep -o '[^ (]*docs/[A-Za-z0-9_-]*\.md' "$prefix/share/man/man1/kbench.1" \
	"$prefix/share/man/man5/kbench.conf.5" | sed 's/^[^:]*://' | sort -u >>"$tmp/named"
bad=
while read -r path; do
	case $path in
	"$conf_prefix"/*) [ -f "$prefix/${path#"$conf_prefix"/}" ] || bad="$bad $path" ;;
	*) bad="$bad $path" ;;
	esac
done <"$tmp/named"
is "each guide the help texts and the manual name is installed" "$bad" ""

check "make uninstall prefix=~/kb as $user" \
	as_user make --no-print-directory -C "$builddir" uninstall prefix="$prefix"
is "make uninstall leaves no file" "$(find "$prefix" ! -type d)" ""
is "... and no directory it made" "$(find "$prefix" -mindepth 1 | sed "s|^$prefix/||")" ""

done_testing
