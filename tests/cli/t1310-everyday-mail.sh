#!/bin/sh
# t1310-everyday-mail: kbench mail sends a comparison as text or brief
# only, and refuses every other format before a mail is made; the
# References chain is the thread above (--references, the answered mail's
# References as they are) then the mails answered (--in-reply-to, one or
# several), each id once; the runs' notes are in the mail.
# Covers: cli/cmd_mail.c lib/mail.c views/compare_cmdline.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# Nothing of the user's: their config, data directory.
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/a.conf"
check "two runs, the second with a note" \
	kb --quiet run -c "$tmp/a.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/a.conf" -n new --no-report --note 'SLUB cpu_partial off'

# mail ARGS...: kbench mail --dry-run from a to b.
mail() { kb mail --dry-run --from a@example.org --to b@example.org "$@"; }

for f in html json csv markdown; do
	expect_transcript "--format $f is refused, nothing is written" \
		mail -- --format "$f" base new <<T
\$ mail -- --format $f base new
2> kbench: mail sends --format text or brief, not $f (write other formats with 'kbench compare --format $f -o FILE' and attach them yourself)
[exit 2]
T
done
check "--format brief is sent" mail -- --format brief base new
is "... with the new run's note" "$(grep '^Note:' "$tmp/check.out")" \
	"Note:     new   SLUB cpu_partial off"
check "--format text (the default) is sent" mail -- base new
is "... with the new run's note" "$(grep '^Note:' "$tmp/check.out")" \
	"Note:     new   SLUB cpu_partial off"
is "... and every line within 80 columns" \
	"$(awk 'length > 80 { print length ": " $0 }' "$tmp/check.out")" ""

# threading ARGS...: the In-Reply-To and References headers of the mail,
# folded lines and all.
threading() {
	mail "$@" -- base new | sed -n '/^$/q; p' |
		awk '/^[^ \t]/ { keep = /^(In-Reply-To|References):/ } keep'
}
expect_transcript "one --in-reply-to: References is that id" \
	threading --in-reply-to parent@example.org <<'T'
$ threading --in-reply-to parent@example.org
In-Reply-To: <parent@example.org>
References: <parent@example.org>
[exit 0]
T
expect_transcript "--references first, then the mail answered, each id once" \
	threading --in-reply-to '<parent@example.org>' \
	--references '<root@example.org> <cover@example.org>,<parent@example.org>' <<'T'
$ threading --in-reply-to '<parent@example.org>' --references '<root@example.org> <cover@example.org>,<parent@example.org>'
In-Reply-To: <parent@example.org>
References: <root@example.org> <cover@example.org> <parent@example.org>
[exit 0]
T
# The answered mail's References header as a mail reader shows it:
# folded, on several lines.
refs=$(printf '<20210913092110.5212-1-vbabka@suse.cz>\n <20210913092110.5212-2-vbabka@suse.cz>\n\t<20210913092110.5212-3-vbabka@suse.cz>')
expect_transcript "a folded References header pasted whole makes a chain folded within 78" \
	threading --references "$refs" --in-reply-to 20210914.reply@example.org \
	--references extra@example.org <<'T'
$ threading --references '<20210913092110.5212-1-vbabka@suse.cz>
 <20210913092110.5212-2-vbabka@suse.cz>
	<20210913092110.5212-3-vbabka@suse.cz>' --in-reply-to 20210914.reply@example.org --references extra@example.org
In-Reply-To: <20210914.reply@example.org>
References: <20210913092110.5212-1-vbabka@suse.cz>
 <20210913092110.5212-2-vbabka@suse.cz> <20210913092110.5212-3-vbabka@suse.cz>
 <extra@example.org> <20210914.reply@example.org>
[exit 0]
T
expect_transcript "several --in-reply-to: each one answered, in References too" \
	threading --in-reply-to a1@example.org --in-reply-to a2@example.org <<'T'
$ threading --in-reply-to a1@example.org --in-reply-to a2@example.org
In-Reply-To: <a1@example.org> <a2@example.org>
References: <a1@example.org> <a2@example.org>
[exit 0]
T
expect_transcript "--references without the mail answered is refused" \
	mail --references root@example.org -- base new <<'T'
$ mail --references root@example.org -- base new
2> kbench: --references without --in-reply-to: give the Message-ID of the mail answered too
[exit 2]
T
expect_transcript "an id that is not a Message-ID is named" \
	mail --in-reply-to p@example.org --references 'root@example.org not-an-id' -- base new <<'T'
$ mail --in-reply-to p@example.org --references 'root@example.org not-an-id' -- base new
2> kbench: --references: 'not-an-id' is not a Message-ID (expected <LEFT@RIGHT>)
[exit 2]
T

done_testing
