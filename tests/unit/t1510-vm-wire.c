/* t1510-vm-wire: the frames of kbench vm's serial link survive being cut
 * anywhere and noise around them, and a damaged frame is dropped, never
 * read; the initramfs writer's newc entries are laid out as the kernel
 * reads them.
 * Covers: sampler/guest.c lib/cpio.c */
#include "config.h"
#include "../tap.h"
#include "lib/cpio.h"
#include "lib/strbuf.h"
#include "sampler/guest.h"

#include <string.h>
#include <sys/stat.h>

/* Feed bytes one at a time; return the frames read, joined "T:payload;". */
static void feed(const char *buf, size_t len, struct strbuf *got, size_t *dropped)
{
	struct strbuf in = STRBUF_INIT, payload = STRBUF_INIT;
	int type;

	for (size_t i = 0; i < len; i++) {
		strbuf_add(&in, buf + i, 1);
		while (wire_take(&in, &type, &payload, dropped))
			strbuf_addf(got, "%c:%.*s;", type, (int)payload.len, payload.buf);
	}
	strbuf_release(&in);
	strbuf_release(&payload);
}

int main(void)
{
	struct strbuf s = STRBUF_INIT, got = STRBUF_INIT, cpio = STRBUF_INIT;
	size_t dropped = 0;

	wire_frame(&s, WIRE_HELLO, "release=6.1", 11);
	wire_frame(&s, WIRE_RESULT, "rc=0", 4);
	feed(s.buf, s.len, &got, &dropped);
	ok(!strcmp(got.buf, "H:release=6.1;R:rc=0;") && !dropped,
	   "frames fed a byte at a time are read whole, in order");

	strbuf_reset(&s);
	strbuf_reset(&got);
	strbuf_addstr(&s, "login: KB\r\n[  3.1] K noise");
	wire_frame(&s, WIRE_RESULT, "rc=0", 4);
	strbuf_addstr(&s, "KBK");
	wire_frame(&s, WIRE_QUIT, "", 0);
	dropped = 0;
	feed(s.buf, s.len, &got, &dropped);
	ok(!strcmp(got.buf, "R:rc=0;Q:;"), "noise before, between and inside lookalikes is skipped");
	ok(dropped > 0, "the noise is counted (%zu bytes)", dropped);

	strbuf_reset(&s);
	strbuf_reset(&got);
	wire_frame(&s, WIRE_RESULT, "r=0 0.5 1", 9);
	s.buf[10] ^= 0x20;	/* a bit flipped in the payload */
	wire_frame(&s, WIRE_RESULT, "r=0 0.7 1", 9);
	dropped = 0;
	feed(s.buf, s.len, &got, &dropped);
	ok(!strcmp(got.buf, "R:r=0 0.7 1;"), "a damaged frame is dropped, the next one read");

	cpio_add(&cpio, "init", S_IFREG | 0755, "abc", 3, 0, 0);
	ok(cpio.len == 120 && !memcmp(cpio.buf, "070701", 6) &&
	   !memcmp(cpio.buf + 14, "000081ED", 8) && !memcmp(cpio.buf + 54, "00000003", 8) &&
	   !memcmp(cpio.buf + 94, "00000005", 8) && !memcmp(cpio.buf + 110, "init\0", 5) &&
	   !memcmp(cpio.buf + 116, "abc\0", 4),
	   "a newc entry: header, mode, size, name size, name and data padded to 4");
	strbuf_reset(&cpio);
	cpio_add(&cpio, "dev/ttyS1", S_IFCHR | 0600, NULL, 0, 4, 65);
	ok(!memcmp(cpio.buf + 78, "0000000400000041", 16), "a device node's rdev major and minor");
	cpio_finish(&cpio);
	ok(cpio.len % 4 == 0 && strstr(cpio.buf + 120 + 110, "TRAILER!!!"), "the trailer ends it");

	strbuf_release(&s);
	strbuf_release(&got);
	strbuf_release(&cpio);
	return done_testing();
}
