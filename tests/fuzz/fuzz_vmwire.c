/* fuzz_vmwire: libFuzzer target for the frames of kbench vm's serial link
 * (sampler/guest.c), the stream a guest sends its host: the input, fed in
 * pieces whose sizes its first byte chooses, must yield frames that
 * survive being written again and read back, and every byte must be
 * either part of a frame read, dropped (and counted), or still waiting. */
#include "config.h"
#include "lib/strbuf.h"
#include "sampler/guest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The frame payload read back unchanged: write it, take it. */
static void check_round_trip(int type, const struct strbuf *payload)
{
	struct strbuf again = STRBUF_INIT, back = STRBUF_INIT;
	size_t dropped = 0;
	int t;

	if (payload->len > WIRE_MAX_PAYLOAD)
		abort();
	wire_frame(&again, type, payload->buf, payload->len);
	if (wire_take(&again, &t, &back, &dropped) != 1 || t != type || dropped ||
	    back.len != payload->len || memcmp(back.buf, payload->buf, back.len) || again.len)
		abort();
	strbuf_release(&again);
	strbuf_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT, payload = STRBUF_INIT;
	size_t dropped = 0, piece, fed = 0;
	int type;

	if (!size)
		return 0;
	/* Pieces of 1 to 256 bytes, as reads of a serial port come. */
	piece = (size_t)data[0] + 1;
	data++;
	size--;
	while (fed < size) {
		size_t n = size - fed < piece ? size - fed : piece;
		size_t before_dropped;

		strbuf_add(&in, data + fed, n);
		fed += n;
		for (;;) {
			size_t len = in.len;

			before_dropped = dropped;
			if (!wire_take(&in, &type, &payload, &dropped)) {
				/* Nothing read: only dropped bytes may go. */
				if (in.len + (dropped - before_dropped) != len)
					abort();
				break;
			}
			if (in.len >= len)
				abort();	/* a frame read consumes bytes */
			check_round_trip(type, &payload);
		}
	}
	strbuf_release(&in);
	strbuf_release(&payload);
	return 0;
}
