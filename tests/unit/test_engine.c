/* Each engine moves the right bytes to the right offsets: write a pattern, read it back. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/worker.h"
#include "engine/engine.h"
#include "util/fio_names.h"

#define DEPTH 8
#define BS 4096
#define BLOCKS 64

static char path[] = "/var/tmp/iorate-test-engine-XXXXXX";

static int setup(void **state)
{
	int fd = mkstemp(path);

	if (fd < 0 || ftruncate(fd, BLOCKS * BS) < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void worker_setup(struct worker *w, const struct engine_ops *ops, int fd, unsigned depth)
{
	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->io.fd = fd;
	w->io.fds = &w->io.fd;
	w->io.nfds = 1;
	w->depth = depth;
	w->io.bs = BS;
	assert_int_equal(posix_memalign(&w->bufmem, 4096, (size_t)BS * depth), 0);
	w->io.reqs = calloc(depth, sizeof(*w->io.reqs));
	w->done = calloc(depth, sizeof(*w->done));
	for (unsigned i = 0; i < depth; i++) {
		w->io.reqs[i].buf = (char *)w->bufmem + (size_t)i * BS;
		w->io.reqs[i].len = BS;
		w->io.reqs[i].idx = (uint16_t)i;
	}
	assert_int_equal(ops->init(&w->io, depth), 0);
	if (ops->start)
		ops->start(&w->io);
}

static void worker_teardown(struct worker *w)
{
	if (w->ops->cleanup)
		w->ops->cleanup(&w->io);
	free(w->bufmem);
	free(w->io.reqs);
	free(w->done);
}

/* Issues blocks [first, first+n) in one batch (or one by one for sync engines); all succeed. */
static void batch(struct worker *w, unsigned first, unsigned n, int write)
{
	unsigned queued = 0, got = 0;

	for (unsigned i = 0; i < n; i++) {
		struct io_req *r = &w->io.reqs[i];
		r->offset = (uint64_t)(first + i) * BS;
		r->write = (uint8_t)write;
		r->res = -1;
		if (write)
			memset(r->buf, (int)(first + i + 1), BS);
		else
			memset(r->buf, 0, BS);
		enum io_q q = w->ops->queue(&w->io, r);
		assert_int_not_equal(q, IO_Q_BUSY);
		if (q == IO_Q_QUEUED)
			queued++;
		else
			assert_int_equal(r->res, BS);
	}
	if (!queued)
		return;
	assert_int_equal(w->ops->commit(&w->io), 0);
	while (got < queued) {
		int k = w->ops->reap(&w->io, 1, w->done, w->depth);
		assert_true(k > 0);
		for (int i = 0; i < k; i++)
			assert_int_equal(w->done[i]->res, BS);
		got += (unsigned)k;
	}
	assert_int_equal(got, queued);
}

static void roundtrip(const char *name, unsigned depth)
{
	const struct engine_ops *ops = engine_find(name);
	struct worker w;

	if (!ops || engine_probe(ops)) {
		print_message("engine %s is not usable here\n", name);
		skip();
	}
	int fd = open(path, O_RDWR | O_DIRECT);
	assert_true(fd >= 0);
	worker_setup(&w, ops, fd, depth);
	for (unsigned b = 0; b < BLOCKS; b += depth)
		batch(&w, b, depth, 1);
	for (unsigned b = 0; b < BLOCKS; b += depth) {
		batch(&w, b, depth, 0);
		for (unsigned i = 0; i < depth; i++) {
			const unsigned char *p = w.io.reqs[i].buf;
			assert_int_equal(p[0], (b + i + 1) & 0xff);
			assert_int_equal(p[BS - 1], (b + i + 1) & 0xff);
		}
	}
	worker_teardown(&w);
	close(fd);
}

static void sync_engine(void **state)
{
	roundtrip("sync", 1);
}

static void uring_engine(void **state)
{
	roundtrip("uring", DEPTH);
}

static void aio_engine(void **state)
{
	roundtrip("aio", DEPTH);
}

static void posixaio_engine(void **state)
{
	roundtrip("posixaio", DEPTH);
	roundtrip("posixaio", 1);
}

static void pvsync_engines(void **state)
{
	roundtrip("pvsync", 1);
	roundtrip("pvsync2", 1);
}

/* pvsync2 passes a job's flags to the kernel and moves the same bytes with them. */
static void pvsync2_flags(void **state)
{
	const struct engine_ops *ops = engine_find("pvsync2");
	struct worker w;
	int fd = open(path, O_RDWR);

	assert_true(ops && (ops->flags & ENGINE_RWF));
	assert_true(fd >= 0);
	worker_setup(&w, ops, fd, 1);
	w.io.opts = ENGINE_OPT_HIPRI;
	batch(&w, 3, 1, 1);
	memset(w.io.reqs[0].buf, 0, BS);
	batch(&w, 3, 1, 0);
	assert_int_equal(((unsigned char *)w.io.reqs[0].buf)[0], 4);
	/* The data was just written through the page cache: RWF_NOWAIT finds it there. */
	w.io.opts = ENGINE_OPT_NOWAIT;
	batch(&w, 3, 1, 0);
	assert_int_equal(((unsigned char *)w.io.reqs[0].buf)[BS - 1], 4);
	/* RWF_DONTCACHE: the bytes, or the kernel's refusal of the flag as the I/O's result. */
	w.io.opts = ENGINE_OPT_DONTCACHE;
	memset(w.io.reqs[0].buf, 0, BS);
	w.io.reqs[0].offset = 3 * BS;
	assert_int_equal(ops->queue(&w.io, &w.io.reqs[0]), IO_Q_DONE);
	if (w.io.reqs[0].res != -EOPNOTSUPP) {
		assert_int_equal(w.io.reqs[0].res, BS);
		assert_int_equal(((unsigned char *)w.io.reqs[0].buf)[0], 4);
	}
	worker_teardown(&w);
	close(fd);
}

/* posixaio: a reap that may return nothing does not wait, a blocking one waits for what is in
 * flight, and every request comes back once with its own result. */
static void posixaio_reaps(void **state)
{
	const struct engine_ops *ops = engine_find("posixaio");
	struct worker w;
	unsigned seen[DEPTH] = {0};
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	worker_setup(&w, ops, fd, DEPTH);
	assert_int_equal(ops->reap(&w.io, 0, w.done, DEPTH), 0);
	for (unsigned i = 0; i < DEPTH; i++) {
		w.io.reqs[i].offset = (uint64_t)i * BS;
		w.io.reqs[i].write = 0;
		/* The last one reads past the end of the file: a short read, zero bytes. */
		if (i == DEPTH - 1)
			w.io.reqs[i].offset = (uint64_t)BLOCKS * BS;
		assert_int_equal(ops->queue(&w.io, &w.io.reqs[i]), IO_Q_QUEUED);
	}
	assert_int_equal(ops->commit(&w.io), 0);
	for (unsigned got = 0; got < DEPTH;) {
		int k = ops->reap(&w.io, DEPTH - got, w.done, DEPTH);
		assert_int_equal(k, DEPTH - got);
		for (int i = 0; i < k; i++) {
			seen[w.done[i]->idx]++;
			assert_int_equal(w.done[i]->res, w.done[i]->idx == DEPTH - 1 ? 0 : BS);
		}
		got += (unsigned)k;
	}
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(seen[i], 1);
	/* A request that the kernel refuses: a write to a descriptor opened read-only. */
	w.io.reqs[0].write = 1;
	w.io.reqs[0].offset = 0;
	assert_int_equal(ops->queue(&w.io, &w.io.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->reap(&w.io, 1, w.done, DEPTH), 1);
	assert_int_equal(w.done[0]->res, -EBADF);
	worker_teardown(&w);
	close(fd);
}

/*
 * A thread that serves several targets names each I/O's target by its index in fds: a write to
 * file 1 lands in the second file, not the first, whatever the engine.
 */
static void two_files(const char *name, unsigned depth)
{
	const struct engine_ops *ops = engine_find(name);
	char other[] = "/var/tmp/iorate-test-engine-XXXXXX";
	unsigned char got[BS];
	struct worker w;
	int fds[2];

	if (!ops || engine_probe(ops)) {
		print_message("engine %s is not usable here\n", name);
		skip();
	}
	fds[1] = mkstemp(other);
	assert_true(fds[1] >= 0 && ftruncate(fds[1], BLOCKS * BS) == 0);
	fds[0] = open(path, O_RDWR);
	assert_true(fds[0] >= 0);
	/* Block 5 of the first file is known, so a write that lands there shows. */
	memset(got, 0x11, BS);
	assert_int_equal(pwrite(fds[0], got, BS, 5 * BS), BS);
	worker_setup(&w, ops, fds[0], depth);
	w.io.fds = fds;
	w.io.nfds = 2;
	/* worker_setup() initialised the engine with one file: again, with both. */
	if (ops->cleanup)
		ops->cleanup(&w.io);
	assert_int_equal(ops->init(&w.io, depth), 0);
	if (ops->start)
		ops->start(&w.io);
	for (unsigned i = 0; i < depth; i++)
		w.io.reqs[i].file = 1;
	batch(&w, 5, depth, 1);
	assert_int_equal(pread(fds[1], got, BS, 5 * BS), BS);
	assert_int_equal(got[0], 6);
	assert_int_equal(pread(fds[0], got, BS, 5 * BS), BS);
	assert_int_equal(got[0], 0x11);
	worker_teardown(&w);
	close(fds[0]);
	close(fds[1]);
	unlink(other);
}

static void several_targets(void **state)
{
	two_files("sync", 1);
	two_files("aio", DEPTH);
	two_files("uring", DEPTH);
	two_files("posixaio", DEPTH);
	two_files("pvsync2", 1);
}

/* An I/O beyond the end of a file is a short read, an error past EOF for direct I/O. */
static void error_is_reported_in_res(void **state)
{
	const struct engine_ops *ops = engine_find("sync");
	struct worker w;
	int fd = open(path, O_RDONLY);

	worker_setup(&w, ops, fd, 1);
	w.io.reqs[0].offset = (uint64_t)BLOCKS * BS - BS / 2;
	w.io.reqs[0].write = 1;
	assert_int_equal(ops->queue(&w.io, &w.io.reqs[0]), IO_Q_DONE);
	assert_int_equal(w.io.reqs[0].res, -EBADF);
	w.io.reqs[0].write = 0;
	ops->queue(&w.io, &w.io.reqs[0]);
	assert_int_equal(w.io.reqs[0].res, BS / 2);
	worker_teardown(&w);
	close(fd);
}

static void null_engine_moves_nothing(void **state)
{
	const struct engine_ops *ops = engine_find("null");
	struct worker w;

	assert_non_null(ops);
	assert_true(ops->flags & ENGINE_NO_IO);
	worker_setup(&w, ops, -1, 1);
	memset(w.io.reqs[0].buf, 0xab, BS);
	assert_int_equal(ops->queue(&w.io, &w.io.reqs[0]), IO_Q_DONE);
	assert_int_equal(w.io.reqs[0].res, BS);
	assert_int_equal(((unsigned char *)w.io.reqs[0].buf)[0], 0xab);
	worker_teardown(&w);
}

static void lookup(void **state)
{
	assert_non_null(engine_find("sync"));
	assert_non_null(engine_find("null"));
	assert_non_null(engine_find("posixaio"));
	assert_non_null(engine_find("pvsync2"));
	assert_null(engine_find("psync"));
	assert_non_null(strstr(engine_names(), "sync"));
}

/*
 * fio's names, read and written from one table: each of ours that fio knows is written as fio's
 * name and read back as ours; a name whose calls differ (fio's sync) is read, never written.
 */
static void fio_names(void **state)
{
	static const char *const ours[] = {"uring", "aio", "sync", "null", "pvsync", "pvsync2",
					   "posixaio"};

	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		const char *fio = fio_engine_of(ours[i]);

		assert_non_null(fio_engine_lookup(fio));
		assert_string_equal(fio_engine_lookup(fio)->ours, ours[i]);
		assert_string_equal(engine_canonical(fio), ours[i]);
	}
	assert_string_equal(fio_engine_of("uring"), "io_uring");
	assert_string_equal(fio_engine_of("aio"), "libaio");
	assert_string_equal(fio_engine_of("sync"), "psync");
	assert_string_equal(fio_engine_of("fault"), "fault");
	assert_non_null(fio_engine_lookup("vsync")->differs);
	assert_null(engine_canonical("vsync"));
	assert_null(fio_engine_lookup("mmap"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sync_engine),
		cmocka_unit_test(uring_engine),
		cmocka_unit_test(aio_engine),
		cmocka_unit_test(posixaio_engine),
		cmocka_unit_test(posixaio_reaps),
		cmocka_unit_test(pvsync_engines),
		cmocka_unit_test(pvsync2_flags),
		cmocka_unit_test(several_targets),
		cmocka_unit_test(error_is_reported_in_res),
		cmocka_unit_test(null_engine_moves_nothing),
		cmocka_unit_test(lookup),
		cmocka_unit_test(fio_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
