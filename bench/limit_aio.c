/*
 * limit_aio: the bare libaio loop, what a measuring tool cannot beat with Linux native AIO.
 * One thread keeps -q reads of -b bytes (4 KiB) in flight at random aligned offsets, O_DIRECT.
 * Each pass waits for at least one completion and takes every one there is (io_getevents),
 * reads the clock once (each read's latency counts from the pass that issued it), and issues
 * as many new reads in one io_submit.
 *
 *   limit_aio [-d SECONDS] [-b BYTES] [-q DEPTH] [--json] PATH
 *
 * Output as bench/limit.c's. Exit 0 on success, 1 on an I/O error, 2 on bad usage.
 * Built by bench/run.sh with cc -O2 ... -laio; not part of iorate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "limit_common.h"

int main(int argc, char **argv)
{
	struct loop_args args;
	uint64_t sm = 0x243f6a8885a308d3ull ^ (uint64_t)getpid();
	io_context_t ctx = 0;
	int r;

	if ((r = loop_args(argc, argv, "limit_aio",
			   "[-d SECONDS] [-b BYTES] [-q DEPTH] [--json] PATH", LOOP_Q, &args)))
		return r;
	double secs = args.secs;
	uint64_t bs = args.bs, size = args.size;
	unsigned depth = args.depth;
	int json = args.json, fd = args.fd;
	const char *path = args.path;
	if ((r = io_setup((int)depth, &ctx)) < 0) {
		fprintf(stderr, "limit_aio: io_setup: %s\n", strerror(-r));
		return 1;
	}
	char *bufs;
	struct iocb *cbs = calloc(depth, sizeof(*cbs));
	struct iocb **batch = calloc(depth, sizeof(*batch));
	struct io_event *ev = calloc(depth, sizeof(*ev));
	uint64_t *start = calloc(depth, sizeof(*start));
	if (!cbs || !batch || !ev || !start || posix_memalign((void **)&bufs, 4096, bs * depth))
		return 1;
	memset(bufs, 0, bs * depth);
	seed_rand(sm);

	uint64_t slots = size / bs, ios = 0, lat_sum = 0;
	uint64_t t0 = now_ns(), t_end = t0 + (uint64_t)(secs * 1e9), t = t0;
	unsigned nb = 0;

	for (unsigned i = 0; i < depth; i++)
		batch[nb++] = &cbs[i];
	while (t < t_end) {
		/* What was reaped goes back in one call: fresh offsets, stamped now. */
		for (unsigned k = 0; k < nb; k++) {
			unsigned i = (unsigned)(batch[k] - cbs);
			uint64_t slot = (uint64_t)(((unsigned __int128)next_rand() * slots) >> 64);
			io_prep_pread(batch[k], fd, bufs + i * bs, bs, (long long)(slot * bs));
			start[i] = t;
		}
		for (unsigned off = 0; off < nb;) {
			r = io_submit(ctx, (long)(nb - off), batch + off);
			if (r == -EINTR || r == -EAGAIN)
				continue;
			if (r <= 0) {
				fprintf(stderr, "limit_aio: io_submit: %s\n", strerror(-r));
				return 1;
			}
			off += (unsigned)r;
		}
		do
			r = io_getevents(ctx, 1, (long)depth, ev, NULL);
		while (r == -EINTR);
		if (r < 0) {
			fprintf(stderr, "limit_aio: io_getevents: %s\n", strerror(-r));
			return 1;
		}
		t = now_ns();
		nb = 0;
		for (int k = 0; k < r; k++) {
			struct iocb *cb = ev[k].obj;
			if ((long)ev[k].res != (long)bs) {
				fprintf(stderr, "limit_aio: %s: read: %s\n", path,
					(long)ev[k].res < 0 ? strerror(-(int)(long)ev[k].res) :
					"short read");
				return 1;
			}
			lat_sum += t - start[cb - cbs];
			ios++;
			batch[nb++] = cb;
		}
	}
	double el = (double)(t - t0) / 1e9, iops = (double)ios / el;
	if (json)
		printf("{\"iops\": %.1f, \"ios\": %" PRIu64 ", \"seconds\": %.6f, "
		       "\"mean_lat_us\": %.3f, \"bs\": %" PRIu64 ", \"depth\": %u}\n",
		       iops, ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0, bs, depth);
	else
		printf("limit_aio: %.0f IOPS (%" PRIu64 " I/Os in %.3f s, mean latency %.3f us)\n",
		       iops, ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0);
	io_destroy(ctx);
	close(fd);
	return 0;
}
