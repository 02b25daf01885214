/*
 * The worker over an asynchronous engine that fails or is full: a fake engine ("fake"), found
 * through engine_find() wrapped at link time (see the Makefile), queues I/Os, completes them
 * only when reaped, and fails a commit or refuses an I/O when a test arms it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/runner.h"
#include "engine/engine.h"

/*
 * What the tests arm. A commit with nothing new to hand over is one a wait makes (the worker's
 * own loop commits only what it queued): failing those alone fails the engine while a thread
 * waits. busy_every: every Nth queue() finds the engine full.
 */
static struct {
	int fail_empty_commit;     /* the -errno such a commit returns, 0: none fails */
	int fail_poll, fail_drain; /* the -errno a reap of at least 0 (a poll), or of at least 2
				    * (a drain: the loop's own waits for 1), returns */
	unsigned busy_every;
	unsigned long empty_commits, failed_reaps, busy;
} fx;

struct fake {
	struct io_req **q;         /* queued, then submitted: a FIFO of up to depth */
	unsigned head, n, pending; /* the last `pending` of the n were not committed yet */
	unsigned cap, queues;
};

static int fake_init(struct engine_io *w, unsigned depth)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f || !(f->q = calloc(depth, sizeof(*f->q)))) {
		free(f);
		return -ENOMEM;
	}
	f->cap = depth;
	w->eng = f;
	return 0;
}

static enum io_q fake_queue(struct engine_io *w, struct io_req *r)
{
	struct fake *f = w->eng;

	if (fx.busy_every && ++f->queues % fx.busy_every == 0) {
		__atomic_add_fetch(&fx.busy, 1, __ATOMIC_RELAXED);
		return IO_Q_BUSY;
	}
	if (f->n >= f->cap)
		abort(); /* queued past its depth (a worker thread: no cmocka assert) */
	f->q[(f->head + f->n++) % f->cap] = r;
	f->pending++;
	return IO_Q_QUEUED;
}

static int fake_commit(struct engine_io *w)
{
	struct fake *f = w->eng;

	if (!f->pending && fx.fail_empty_commit) {
		__atomic_add_fetch(&fx.empty_commits, 1, __ATOMIC_RELAXED);
		return fx.fail_empty_commit;
	}
	f->pending = 0;
	return 0;
}

/* Completes the oldest `min` submitted I/Os (one when polled), each with all its bytes. */
static int fake_reap(struct engine_io *w, unsigned min, struct io_req **done, unsigned max)
{
	struct fake *f = w->eng;
	unsigned want = min ? min : 1, n = 0;
	int fail = min == 0 ? fx.fail_poll : min >= 2 ? fx.fail_drain : 0;

	if (fail) {
		__atomic_add_fetch(&fx.failed_reaps, 1, __ATOMIC_RELAXED);
		return fail;
	}
	while (n < want && n < max && f->n > f->pending) {
		struct io_req *r = f->q[f->head];
		f->head = (f->head + 1) % f->cap;
		f->n--;
		r->res = (int32_t)r->len;
		done[n++] = r;
	}
	if (n < min)
		abort(); /* the worker waited for I/Os it had not committed */
	return (int)n;
}

static void fake_cleanup(struct engine_io *w)
{
	struct fake *f = w->eng;

	if (f)
		free(f->q);
	free(f);
	w->eng = NULL;
}

static const struct engine_ops engine_fake = {
	.name = "fake",
	.flags = ENGINE_NO_IO,
	.init = fake_init,
	.queue = fake_queue,
	.commit = fake_commit,
	.reap = fake_reap,
	.cleanup = fake_cleanup,
};

const struct engine_ops *__real_engine_find(const char *name);
const struct engine_ops *__wrap_engine_find(const char *name)
{
	return !strcmp(name, "fake") ? &engine_fake : __real_engine_find(name);
}

static int reset(void **state)
{
	memset(&fx, 0, sizeof(fx));
	return 0;
}

static void fake_job(struct job *j, unsigned threads, unsigned depth)
{
	job_init(j);
	strcpy(j->engine, "fake");
	j->threads = threads;
	j->depth = depth;
	j->time_ns = 2000000000ull; /* an upper bound: each test ends sooner */
	job_add_target(j, "a");
}

/* The run failed with the engine's error, which only a waiting thread's commit or reap gets. */
static void assert_failed_with(int rc, struct result *r, int err)
{
	assert_true(fx.empty_commits + fx.failed_reaps > 0);
	assert_int_equal(rc, err);
	assert_int_equal(r->error, err);
	assert_non_null(result_error(r));
	assert_non_null(strstr(result_error(r), strerror(-err)));
}

enum wait_kind { WAIT_FLOW_SLEEP, WAIT_FLOW, WAIT_LAT, WAIT_RATE };

/*
 * A job whose threads wait with I/Os in flight: held by their flow (with a sleep or not), by
 * the latency target's search, or by the schedule of --rate.
 */
static void waiting_job(struct job *j, enum wait_kind k)
{
	fake_job(j, k == WAIT_FLOW_SLEEP || k == WAIT_FLOW ? 2 : 1, 4);
	if (k == WAIT_FLOW_SLEEP || k == WAIT_FLOW) {
		j->flow = 1;
		j->flow_id = 1;
		j->flow_sleep_ns = k == WAIT_FLOW_SLEEP ? 1000 : 0;
	} else if (k == WAIT_LAT) {
		j->lat_target_ns = 1000000000ull;
		j->lat_window_ns = 1000000;
	} else {
		j->rate_iops = 20000;
	}
}

/* The job of kind k, the engine failing as armed: the run fails with err. */
static void run_fails(enum wait_kind k, int err)
{
	struct job j;
	struct result r;

	waiting_job(&j, k);
	result_init(&r);
	int rc = runner_run(&j, &r, NULL);
	assert_failed_with(rc, &r, err);
	result_release(&r);
	job_release(&j);
}

/* --rate: a thread waiting for its next I/O's due time commits, then polls, with I/Os in
 * flight; either failing fails the run. */
static void rate_commit_fails(void **state)
{
	fx.fail_empty_commit = -ENXIO;
	run_fails(WAIT_RATE, -ENXIO);
}

static void rate_poll_fails(void **state)
{
	fx.fail_poll = -EBADF;
	run_fails(WAIT_RATE, -EBADF);
}

/* --flow with --flow-sleep drains what is in flight before it sleeps; without, it polls. */
static void flow_drain_fails(void **state)
{
	fx.fail_drain = -EBADF;
	run_fails(WAIT_FLOW_SLEEP, -EBADF);
}

static void flow_poll_fails(void **state)
{
	fx.fail_poll = -EBADF;
	run_fails(WAIT_FLOW, -EBADF);
}

/* --latency-target drains what is in flight before the final window. */
static void latency_target_drain_fails(void **state)
{
	fx.fail_drain = -EBADF;
	run_fails(WAIT_LAT, -EBADF);
}

/*
 * --flow with --flow-sleep: a thread ahead of its share hands what is queued to the engine
 * before it drains; that commit failing fails the run (it once ended the thread as if the run
 * were over, and the run looked successful).
 */
static void flow_commit_fails(void **state)
{
	fx.fail_empty_commit = -ENXIO;
	run_fails(WAIT_FLOW_SLEEP, -ENXIO);
}

/*
 * --latency-target: before a shallower queue or the final window, what is in flight drains,
 * queued I/Os handed over first; that commit failing fails the run too. With I/Os far within
 * the target, the search doubles the depth to 4 and goes to its final window there, with I/Os
 * in flight.
 */
static void latency_target_commit_fails(void **state)
{
	fx.fail_empty_commit = -ENXIO;
	run_fails(WAIT_LAT, -ENXIO);
}

/* The same jobs with nothing failing end well: it is the engine's failure that fails them. */
static void waiting_jobs_succeed(void **state)
{
	for (enum wait_kind k = WAIT_FLOW_SLEEP; k <= WAIT_RATE; k++) {
		struct job j;
		struct result r;

		waiting_job(&j, k);
		j.ios_per_thread = 5000;
		result_init(&r);
		assert_int_equal(runner_run(&j, &r, NULL), 0);
		assert_null(result_error(&r));
		/* the latency target's search ends the job when its final window does */
		if (k == WAIT_LAT)
			assert_true(r.read.ios > 0);
		else
			assert_int_equal(r.read.ios, 5000 * j.threads);
		result_release(&r);
		job_release(&j);
	}
}

/*
 * An I/O the engine did not take (it was full) gives its slot back: every I/O of the job is
 * still issued and completes. A slot kept would leave the thread, once all its slots were
 * lost, with nothing to issue and nothing to reap, turning for ever; the alarm ends that.
 */
static void busy_engine_gives_slots_back(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 4);
	j.ios_per_thread = 5000;
	fx.busy_every = 3;
	alarm(30);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	alarm(0);
	assert_int_equal(r.read.ios, 5000);
	assert_true(fx.busy >= 4); /* more than the depth: each slot was refused at least once */
	result_release(&r);
	job_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(flow_commit_fails, reset),
		cmocka_unit_test_setup(latency_target_commit_fails, reset),
		cmocka_unit_test_setup(rate_commit_fails, reset),
		cmocka_unit_test_setup(rate_poll_fails, reset),
		cmocka_unit_test_setup(flow_drain_fails, reset),
		cmocka_unit_test_setup(flow_poll_fails, reset),
		cmocka_unit_test_setup(latency_target_drain_fails, reset),
		cmocka_unit_test_setup(waiting_jobs_succeed, reset),
		cmocka_unit_test_setup(busy_engine_gives_slots_back, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
