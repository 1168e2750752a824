/* uuid: random (version 4) UUIDs. */
#include "config.h"
#include "lib/uuid.h"
#include "lib/clock.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

void uuid_random(char out[37])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t x = (uint64_t)clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);

		for (int i = 0; i < 16; i++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
			b[i] = (unsigned char)(x >> 56);
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}
