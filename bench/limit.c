/*
 * limit: the bare loop a measuring tool cannot beat on the sync case. One thread, pread of
 * --bs bytes (4 KiB) at random aligned offsets, O_DIRECT unless --buffered, and two
 * clock_gettime(CLOCK_MONOTONIC) reads per I/O, as a tool that times every I/O needs. The
 * latencies are only summed (so the clock reads cannot be optimised away); nothing else.
 *
 *   limit [-d SECONDS] [-b BYTES] [--buffered] [--json] PATH
 *
 * Prints "limit: N IOPS ..." or, with --json, {"iops": N, "ios": ..., "seconds": ...,
 * "mean_lat_us": ...} on stdout. Exit 0 on success, 1 on an I/O error, 2 on bad usage.
 * Built by bench/run.sh with cc -O2; not part of iorate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
	void *buf;
	int r;

	if ((r = loop_args(argc, argv, "limit",
			   "[-d SECONDS] [-b BYTES] [--buffered] [--json] PATH", LOOP_BUFFERED, &args)))
		return r;
	double secs = args.secs;
	uint64_t bs = args.bs, size = args.size;
	int json = args.json, direct = args.direct, fd = args.fd;
	const char *path = args.path;
	if (posix_memalign(&buf, 4096, bs))
		return 1;
	memset(buf, 0, bs);
	seed_rand(sm);

	uint64_t slots = size / bs, ios = 0, lat_sum = 0;
	uint64_t t0 = now_ns(), t_end = t0 + (uint64_t)(secs * 1e9), t = t0;

	while (t < t_end) {
		uint64_t slot = (uint64_t)(((unsigned __int128)next_rand() * slots) >> 64);
		uint64_t start = now_ns();
		ssize_t n = pread(fd, buf, bs, (off_t)(slot * bs));
		t = now_ns();
		if (n != (ssize_t)bs) {
			fprintf(stderr, "limit: %s: read at %" PRIu64 ": %s\n", path, slot * bs,
				n < 0 ? strerror(errno) : "short read");
			return 1;
		}
		lat_sum += t - start;
		ios++;
	}
	double el = (double)(t - t0) / 1e9, iops = (double)ios / el;
	if (json)
		printf("{\"iops\": %.1f, \"ios\": %" PRIu64 ", \"seconds\": %.6f, "
		       "\"mean_lat_us\": %.3f, \"bs\": %" PRIu64 ", \"direct\": %s}\n",
		       iops, ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0, bs,
		       direct ? "true" : "false");
	else
		printf("limit: %.0f IOPS (%" PRIu64 " I/Os in %.3f s, mean latency %.3f us)\n", iops,
		       ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0);
	close(fd);
	free(buf);
	return 0;
}
