/*
 * fault: the sync engine with injected failures, for testing how a run ends when a device
 * fails, stalls or loses data. Configured by the environment, read once per worker:
 *   IORATE_FAULT=eio:N        the Nth I/O of each thread fails with EIO (N from 1)
 *   IORATE_FAULT=stall:N:MS   every Nth I/O of each thread takes MS milliseconds longer
 * and, for --verify's tests, faults that a device hides (the write reports success):
 *   IORATE_FAULT=bitflip:N    every Nth write of a thread is stored with one bit flipped
 *   IORATE_FAULT=torn:N       every Nth write stores only its first 512 bytes
 *   IORATE_FAULT=lost:N       every Nth write is not stored at all
 *   IORATE_FAULT=misdirect:N  every Nth write is stored one I/O length lower (higher at 0)
 * Without IORATE_FAULT it behaves exactly like sync.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

enum hidden { HIDE_NONE, HIDE_BITFLIP, HIDE_TORN, HIDE_LOST, HIDE_MISDIRECT };

struct fault {
	unsigned long long n, every, stall_ms, fail_at;
	enum hidden hide;
	unsigned long long hide_every, writes;
};

static int parse(const char *env, struct fault *f)
{
	static const char *const names[] = {NULL, "bitflip", "torn", "lost", "misdirect"};
	char word[16];

	if (!env || sscanf(env, "eio:%llu", &f->fail_at) == 1 ||
	    sscanf(env, "stall:%llu:%llu", &f->every, &f->stall_ms) == 2)
		return 0;
	if (sscanf(env, "%15[a-z]:%llu", word, &f->hide_every) == 2 && f->hide_every)
		for (unsigned i = 1; i < 5; i++)
			if (!strcmp(word, names[i])) {
				f->hide = (enum hidden)i;
				return 0;
			}
	return -EINVAL;
}

static int fault_init(struct engine_io *w, unsigned depth)
{
	struct fault *f;
	int r = engine_sync.init(w, depth);

	if (r)
		return r;
	if (!(f = calloc(1, sizeof(*f))))
		return -ENOMEM;
	if (parse(getenv("IORATE_FAULT"), f)) {
		free(f);
		return -EINVAL;
	}
	w->eng = f;
	return 0;
}

/* A write the device "stored" wrongly, reported as done in full. */
static enum io_q hidden_fault(struct engine_io *w, struct fault *f, struct io_req *r)
{
	int fd = w->fds[r->file];
	unsigned char *b = r->buf;
	ssize_t n = 0;

	switch (f->hide) {
	case HIDE_BITFLIP:
		b[r->len / 2] ^= 0x10;
		n = pwrite(fd, b, r->len, (off_t)r->offset);
		b[r->len / 2] ^= 0x10;
		break;
	case HIDE_TORN:
		n = pwrite(fd, b, 512, (off_t)r->offset);
		break;
	case HIDE_MISDIRECT:
		n = pwrite(fd, b, r->len,
			   (off_t)(r->offset >= r->len ? r->offset - r->len : r->offset + r->len));
		break;
	default:
		break;
	}
	r->res = n < 0 ? -errno : (int32_t)r->len;
	return IO_Q_DONE;
}

static enum io_q fault_queue(struct engine_io *w, struct io_req *r)
{
	struct fault *f = w->eng;

	f->n++;
	if (f->fail_at && f->n == f->fail_at) {
		r->res = -EIO;
		return IO_Q_DONE;
	}
	if (f->every && f->n % f->every == 0) {
		struct timespec ts = {.tv_sec = (time_t)(f->stall_ms / 1000),
				      .tv_nsec = (long)(f->stall_ms % 1000) * 1000000};
		nanosleep(&ts, NULL);
	}
	if (f->hide && r->write && ++f->writes % f->hide_every == 0)
		return hidden_fault(w, f, r);
	return engine_sync.queue(w, r);
}

static void fault_cleanup(struct engine_io *w)
{
	free(w->eng);
	w->eng = NULL;
}

const struct engine_ops engine_fault = {
	.name = "fault",
	.flags = ENGINE_SYNC,
	.init = fault_init,
	.queue = fault_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
	.cleanup = fault_cleanup,
};
