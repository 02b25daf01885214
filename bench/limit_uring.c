/*
 * limit_uring: the bare io_uring loop, what a measuring tool cannot beat with io_uring. One
 * thread keeps -q reads of -b bytes (4 KiB) in flight at random aligned offsets, O_DIRECT, with
 * the file and buffers registered and the ring single-issuer with deferred task running where
 * the kernel has them (6.1). Each pass hands every new read to the kernel and waits for one
 * completion in a single io_uring_enter, takes every completion there is, reads the clock once
 * (each read's latency counts from the pass that issued it) and issues as many new reads.
 * -s N submits every N reads on their own instead (1: each read by itself).
 *
 *   limit_uring [-d SECONDS] [-b BYTES] [-q DEPTH] [-s N] [--json] PATH
 *
 * Output as bench/limit.c's. Exit 0 on success, 1 on an I/O error, 2 on bad usage.
 * Built by bench/run.sh with cc -O2 ... -luring; not part of iorate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "limit_common.h"

static struct io_uring ring;
static uint64_t slots, bs, *start;
static char *bufs;
static unsigned pending, every;

static void issue(unsigned i, uint64_t t)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	uint64_t slot = (uint64_t)(((unsigned __int128)next_rand() * slots) >> 64);

	io_uring_prep_read_fixed(sqe, 0, bufs + i * bs, (unsigned)bs, slot * bs, (int)i);
	sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = i;
	start[i] = t;
	if (++pending >= every) {
		io_uring_submit(&ring);
		pending = 0;
	}
}

int main(int argc, char **argv)
{
	struct loop_args args;
	uint64_t sm = 0x243f6a8885a308d3ull ^ (uint64_t)getpid();
	int r;

	if ((r = loop_args(argc, argv, "limit_uring",
			   "[-d SECONDS] [-b BYTES] [-q DEPTH] [-s N] [--json] PATH", LOOP_Q | LOOP_S, &args)))
		return r;
	double secs = args.secs;
	uint64_t size = args.size;
	unsigned depth = args.depth;
	int json = args.json, fd = args.fd;
	const char *path = args.path;

	bs = args.bs;
	/* By default nothing is submitted but by the wait: one system call per pass. */
	every = args.every ? args.every : UINT32_MAX;
	slots = size / bs;
	struct io_uring_params p = {.flags = IORING_SETUP_SINGLE_ISSUER |
					     IORING_SETUP_DEFER_TASKRUN};
	if ((r = io_uring_queue_init_params(depth, &ring, &p)) == -EINVAL) {
		p = (struct io_uring_params){.flags = IORING_SETUP_COOP_TASKRUN};
		if ((r = io_uring_queue_init_params(depth, &ring, &p)) == -EINVAL)
			r = io_uring_queue_init(depth, &ring, 0);
	}
	if (r < 0) {
		fprintf(stderr, "limit_uring: io_uring: %s\n", strerror(-r));
		return 1;
	}
	if (posix_memalign((void **)&bufs, 4096, bs * depth) ||
	    !(start = calloc(depth, sizeof(*start))))
		return 1;
	memset(bufs, 0, bs * depth);
	struct iovec *iov = calloc(depth, sizeof(*iov));
	if (!iov)
		return 1;
	for (unsigned i = 0; i < depth; i++)
		iov[i] = (struct iovec){.iov_base = bufs + i * bs, .iov_len = bs};
	if ((r = io_uring_register_files(&ring, &fd, 1)) < 0 ||
	    (r = io_uring_register_buffers(&ring, iov, depth)) < 0) {
		fprintf(stderr, "limit_uring: registering: %s\n", strerror(-r));
		return 1;
	}
	io_uring_register_ring_fd(&ring);
	seed_rand(sm);

	uint64_t ios = 0, lat_sum = 0;
	uint64_t t0 = now_ns(), t_end = t0 + (uint64_t)(secs * 1e9), t = t0;
	struct io_uring_cqe *cqes[64];

	for (unsigned i = 0; i < depth; i++)
		issue(i, t0);
	while (t < t_end) {
		do
			r = io_uring_submit_and_wait(&ring, 1);
		while (r == -EINTR);
		if (r < 0) {
			fprintf(stderr, "limit_uring: io_uring_enter: %s\n", strerror(-r));
			return 1;
		}
		pending = 0;
		t = now_ns();
		unsigned n;
		while ((n = io_uring_peek_batch_cqe(&ring, cqes, 64))) {
			for (unsigned k = 0; k < n; k++) {
				unsigned i = (unsigned)cqes[k]->user_data;
				if (cqes[k]->res != (int)bs) {
					fprintf(stderr, "limit_uring: %s: read: %s\n", path,
						cqes[k]->res < 0 ? strerror(-cqes[k]->res) :
						"short read");
					return 1;
				}
				lat_sum += t - start[i];
				ios++;
				issue(i, t);
			}
			io_uring_cq_advance(&ring, n);
		}
	}
	double el = (double)(t - t0) / 1e9, iops = (double)ios / el;
	if (json)
		printf("{\"iops\": %.1f, \"ios\": %" PRIu64 ", \"seconds\": %.6f, "
		       "\"mean_lat_us\": %.3f, \"bs\": %" PRIu64 ", \"depth\": %u}\n",
		       iops, ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0, bs, depth);
	else
		printf("limit_uring: %.0f IOPS (%" PRIu64 " I/Os in %.3f s, mean latency %.3f "
		       "us)\n", iops, ios, el, ios ? (double)lat_sum / (double)ios / 1e3 : 0.0);
	io_uring_queue_exit(&ring);
	close(fd);
	return 0;
}
