/* uuid: random (version 4) UUIDs, and name-based ones for what has a
 * stable identity of its own. */
#include "config.h"
#include "lib/uuid.h"
#include "lib/clock.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

/* b as a UUID of version `version`, RFC 4122 variant, in text form. */
static void uuid_format(unsigned char b[16], int version, char out[37])
{
	b[6] = (unsigned char)((b[6] & 0x0f) | (version << 4));
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

void uuid_random(char out[37])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t x = (uint64_t)clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);

		for (int i = 0; i < 16; i++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
			b[i] = (unsigned char)(x >> 56);
	}
	uuid_format(b, 4, out);
}

/* FNV-1a 64 of s from h: enough to tell names apart, not a security
 * property. */
static uint64_t fnv1a64(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void uuid_from_text(const char *text, char out[37])
{
	uint64_t h[2];
	unsigned char b[16];

	h[0] = fnv1a64(text, 0xcbf29ce484222325ULL);
	h[1] = fnv1a64(text, h[0] ^ 0x9e3779b97f4a7c15ULL);
	for (int i = 0; i < 16; i++)
		b[i] = (unsigned char)(h[i / 8] >> (56 - 8 * (i % 8)));
	uuid_format(b, 8, out);
}
