/* guest: kbench-sample as the init of a guest kernel booted under QEMU
 * (kernel/vm.c), and the frames it and kbench exchange on the guest's
 * second serial port (ttyS1, an 8250 built into every x86 kernel, put in
 * raw mode; virtio-console and vsock are modules in distribution
 * kernels). A frame is "KB", a type byte, the payload's length (4 bytes,
 * big-endian), the payload and an FNV-1a checksum (4 bytes) of the type,
 * length and payload: a reader that finds a bad checksum drops bytes up
 * to the next "KB", so that line noise cannot make up a sample. */
#ifndef KBENCH_GUEST_H
#define KBENCH_GUEST_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

enum wire_type {
	WIRE_HELLO = 'H',	/* guest: its facts, "key=value" records */
	WIRE_JOB = 'J',		/* host: "timeout_ms=N" then a sample job */
	WIRE_RESULT = 'R',	/* guest: a sample's outcome, records */
	WIRE_QUIT = 'Q',	/* host: power off */
	WIRE_LOG = 'L',		/* guest: a line for the host's log */
};

/* The modules the guest loads at boot (kbench vm --modules), in the
 * initramfs: their files, and their paths in load order, a line each. */
#define GUEST_MODULES_DIR "kbench-modules"
#define GUEST_MODULES_LIST "kbench-modules.list"

/* The largest payload either side accepts. */
#define WIRE_MAX_PAYLOAD (1u << 20)

/* Append a frame of type with payload (len bytes) to out. */
void wire_frame(struct strbuf *out, int type, const void *payload, size_t len);

/* Take the first whole frame off the front of in: 1 with its type and
 * payload (payload reset first), 0 when in holds no whole frame yet.
 * Bytes that are not part of a valid frame are dropped and counted in
 * *dropped. */
int wire_take(struct strbuf *in, int *type, struct strbuf *payload, size_t *dropped);

/* Run as the guest's init (pid 1): mount what the workloads need,
 * bring the loopback device up, send the facts and run the jobs that
 * arrive until told to quit, then power off. Never returns. */
int guest_main(void);

#endif
