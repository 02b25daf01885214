/* src/core/worker_trim.c: which I/Os are trims, and a trim punching a hole in a file. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/job.h"
#include "core/worker.h"
#include "core/worker_trim.h"
#include "engine/engine.h"

/* A worker with the sync engine over fd, and the trims of job (its trim fields set). */
static struct worker *trim_worker(struct job *j, int fd)
{
	struct worker *w = aligned_alloc(64, sizeof(*w));
	bool blk = false;

	assert_non_null(w);
	memset(w, 0, sizeof(*w));
	w->ops = &engine_sync;
	w->io.fd = fd;
	w->io.fds = &w->io.fd;
	w->io.nfds = 1;
	w->t_meas_end = UINT64_MAX;
	assert_int_equal(worker_trim_new(w, j, 42, &blk, 1), 0);
	return w;
}

static void trim_worker_free(struct worker *w)
{
	dir_stats_release(&w->st[IO_TRIM]);
	worker_trim_free(w);
	free(w);
}

/* How many of n drawn I/Os (reads, or writes 1 in every `every`) become trims. */
static unsigned draws(struct worker *w, unsigned n, unsigned every)
{
	unsigned trims = 0;

	for (unsigned i = 0; i < n; i++) {
		struct io_req r = {.write = every && i % every == 0};
		bool was_write = r.write;
		worker_trim_draw(w, &r);
		assert_true(!was_write || r.write == 1); /* a write stays a write */
		trims += r.write == IO_TRIM;
	}
	return trims;
}

static void no_trims_no_state(void **state)
{
	struct job j;
	struct worker w = {0};
	bool blk = false;

	job_init(&j);
	w.ops = &engine_sync;
	assert_int_equal(worker_trim_new(&w, &j, 1, &blk, 1), 0);
	assert_null(w.trim);
	assert_ptr_equal(w.ops, &engine_sync);
	assert_false(job_trims(&j));
	assert_false(job_writes(&j));
	job_release(&j);
}

static void share_of_reads(void **state)
{
	struct job j;
	struct worker *w;
	unsigned n = 100000, t;

	job_init(&j);
	/* 30 % trims and 20 % writes: the workload draws 80 % reads, of which 3/8 become trims. */
	j.write_pct = 20;
	j.trim_pct = 30;
	assert_true(job_trims(&j) && job_writes(&j));
	w = trim_worker(&j, -1);
	assert_ptr_not_equal(w->ops, &engine_sync);
	t = draws(w, n, 0);
	assert_true(t > n * 3 / 8 - n / 100 && t < n * 3 / 8 + n / 100);
	trim_worker_free(w);
	/* All the reads: every one is a trim, no write is. */
	j.trim_pct = 80;
	w = trim_worker(&j, -1);
	assert_int_equal(draws(w, 1000, 0), 1000);
	assert_int_equal(draws(w, 1000, 5), 800);
	trim_worker_free(w);
	job_release(&j);
}

static void punches_a_hole(void **state)
{
	char path[] = "/tmp/iorate-test-trim-XXXXXX";
	int fd = mkstemp(path);
	static char buf[65536];
	struct stat st;
	struct job j;
	struct worker *w;

	assert_true(fd >= 0);
	unlink(path);
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(fstat(fd, &st), 0);
	if (worker_trim_probe(fd, false, (uint64_t)st.st_size)) {
		close(fd);
		skip(); /* /tmp's filesystem cannot punch holes */
	}
	blkcnt_t before = st.st_blocks;
	job_init(&j);
	j.trim_pct = 100;
	w = trim_worker(&j, fd);
	struct io_req r = {.offset = 0, .len = 32768, .buf = buf, .write = 0, .counted = 1};
	worker_trim_draw(w, &r);
	assert_int_equal(r.write, IO_TRIM);
	assert_int_equal(w->ops->queue(&w->io, &r), IO_Q_DONE);
	assert_int_equal(r.res, 32768);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 65536);       /* the size is kept */
	assert_true(st.st_blocks < before);
	/* The hole reads back as zeros, the rest as written. */
	assert_int_equal(pread(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[32767], 0);
	assert_int_equal(buf[32768], 0x5a);
	/* Past the end nothing changes: what the probe relies on. */
	assert_int_equal(worker_trim_probe(fd, false, 65536), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 65536);
	trim_worker_free(w);
	job_release(&j);
	close(fd);
}

/* A pipe is no file to punch: the probe says so rather than succeed. */
static void probe_refuses_a_pipe(void **state)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_true(worker_trim_probe(p[1], false, 0) < 0);
	close(p[0]);
	close(p[1]);
}

static void validate(void **state)
{
	struct job j;
	char err[256];

	job_init(&j);
	assert_int_equal(job_add_target(&j, "x"), 0);
	j.write_pct = 30;
	j.trim_pct = 71;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "trim"));
	j.trim_pct = 70;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.trim_pct = 0;
	j.write_pct = 0;
	j.trim_write = true;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	j.write_pct = 100;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	job_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_trims_no_state),
		cmocka_unit_test(share_of_reads),
		cmocka_unit_test(punches_a_hole),
		cmocka_unit_test(probe_refuses_a_pipe),
		cmocka_unit_test(validate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
