/*
 * The worker over an asynchronous engine that fails or is full: a fake engine ("fake"), found
 * through engine_find() wrapped at link time (see the Makefile), queues I/Os, completes them
 * only when reaped, and fails a commit or refuses an I/O when a test arms it. "fakeio" is the
 * same, moving the bytes (pread and pwrite when reaped).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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
	unsigned fail_io_engine;   /* 1 + the engine (in the order they start) whose I/Os fail */
	unsigned poll_every;       /* > 1: a poll completes I/Os only every poll_every-th time */
	unsigned long empty_commits, failed_reaps, busy, engines, polls, waits;
	unsigned long idle_commits; /* commits with nothing new: a thread about to wait */
	/* The slot of the last I/O a wait for one completed, when a drain (a wait for two or
	 * more) followed; and the slot of the first I/O queued after that drain (-1: none). */
	int single_before_drain, first_after_drain, last_single;
	bool drained;
} fx;

struct fake {
	struct io_req **q;         /* queued, then submitted: a FIFO of up to depth */
	unsigned head, n, pending; /* the last `pending` of the n were not committed yet */
	unsigned cap, queues;
	bool fails;                /* its I/Os complete with EIO */
	bool io;                   /* "fakeio": reads and writes the target */
};

static int fake_init(struct engine_io *w, unsigned depth)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f || !(f->q = calloc(depth, sizeof(*f->q)))) {
		free(f);
		return -ENOMEM;
	}
	f->cap = depth;
	f->fails = __atomic_add_fetch(&fx.engines, 1, __ATOMIC_RELAXED) == fx.fail_io_engine;
	w->eng = f;
	return 0;
}

static int fakeio_init(struct engine_io *w, unsigned depth)
{
	int r = fake_init(w, depth);

	if (!r)
		((struct fake *)w->eng)->io = true;
	return r;
}

/* What a completed I/O moved: all its bytes, or what the fake or the system failed. */
static int32_t fake_res(struct engine_io *w, struct fake *f, struct io_req *r)
{
	ssize_t n;

	if (f->fails)
		return -EIO;
	if (!f->io)
		return (int32_t)r->len;
	n = r->write ? pwrite(w->fds[r->file], r->buf, r->len, (off_t)r->offset)
		     : pread(w->fds[r->file], r->buf, r->len, (off_t)r->offset);
	return n < 0 ? -errno : (int32_t)n;
}

static enum io_q fake_queue(struct engine_io *w, struct io_req *r)
{
	struct fake *f = w->eng;

	if (fx.drained) {
		fx.drained = false;
		fx.first_after_drain = r->idx;
	}
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

	if (!f->pending)
		__atomic_add_fetch(&fx.idle_commits, 1, __ATOMIC_RELAXED);
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
	if (min >= 2 && fx.first_after_drain < 0) {
		fx.single_before_drain = fx.last_single;
		fx.drained = true;
	}
	/* A wait for at least one (the loop's own with every slot busy) gets it at once. */
	if (min)
		__atomic_add_fetch(&fx.waits, 1, __ATOMIC_RELAXED);
	else if (fx.poll_every > 1 &&
		 __atomic_add_fetch(&fx.polls, 1, __ATOMIC_RELAXED) % fx.poll_every)
		return 0;
	while (n < want && n < max && f->n > f->pending) {
		struct io_req *r = f->q[f->head];
		f->head = (f->head + 1) % f->cap;
		f->n--;
		r->res = fake_res(w, f, r);
		done[n++] = r;
		if (min == 1)
			fx.last_single = r->idx;
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

static const struct engine_ops engine_fakeio = {
	.name = "fakeio",
	.init = fakeio_init,
	.queue = fake_queue,
	.commit = fake_commit,
	.reap = fake_reap,
	.cleanup = fake_cleanup,
};

const struct engine_ops *__real_engine_find(const char *name);
const struct engine_ops *__wrap_engine_find(const char *name)
{
	return !strcmp(name, "fake")	 ? &engine_fake
	       : !strcmp(name, "fakeio") ? &engine_fakeio
					 : __real_engine_find(name);
}

static int reset(void **state)
{
	memset(&fx, 0, sizeof(fx));
	fx.single_before_drain = fx.first_after_drain = -1;
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

/*
 * A verifying job's I/O the engine did not take gives its blocks back (their generations as
 * before, none left in flight): with an I/O refused every third time, a slice of 64 blocks and
 * 5,000 I/Os, blocks kept would soon leave none to draw (the thread would draw for ever; the
 * alarm ends that), and what was read back must match what was written.
 */
static void busy_engine_gives_verified_blocks_back(void **state)
{
	char dir[] = "/var/tmp/iorate-test-async-XXXXXX", path[64];
	struct job j;
	struct result r;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.dat", dir);
	job_init(&j);
	strcpy(j.engine, "fakeio");
	j.depth = 4;
	j.size = 64 * 4096;
	j.write_pct = 50;
	j.verify = VERIFY_CRC32C;
	j.ios_per_thread = 5000;
	job_add_target(&j, path);
	fx.busy_every = 3;
	alarm(30);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	alarm(0);
	assert_int_equal(r.read.ios + r.write.ios, 5000);
	assert_true(r.verify.checked > 0);
	assert_int_equal(r.verify.bad, 0);
	assert_int_equal(r.verify.unknown, 0);
	assert_true(fx.busy > 64);
	result_release(&r);
	job_release(&j);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * --latency-target's final window starts after a drain; the slots come back in the order they
 * came free, so the first I/O after it goes in the slot the loop's own wait freed just before
 * (its latency counting from then), not in one the drain freed.
 */
static void drain_keeps_the_slots_order(void **state)
{
	struct job j;
	struct result r;

	waiting_job(&j, WAIT_LAT);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_true(fx.single_before_drain >= 0);
	assert_int_equal(fx.first_after_drain, fx.single_before_drain);
	result_release(&r);
	job_release(&j);
}

/*
 * fio's thinktime: a pause after every thinktime_blocks completions, not after each once the
 * first pause came. Each pause here starts with an I/O in flight, which the thread hands to the
 * engine first: 200 I/Os in blocks of 10 make about 20 such commits, not 190.
 */
static void think_after_every_block(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 2);
	j.thinktime_ns = 1000000;
	j.thinktime_blocks = 10;
	j.ios_per_thread = 200;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 200);
	assert_true(fx.idle_commits >= 10 && fx.idle_commits <= 30);
	result_release(&r);
	job_release(&j);
}

/*
 * A block of one pauses after each completion. Polls complete nothing here, so each pause
 * starts with the other I/O in flight and ends before it completes: 100 I/Os make about 100
 * such commits, not 50 (a pause after every second one).
 */
static void think_after_each_io(void **state)
{
	struct job j;
	struct result r;

	fx.poll_every = 1u << 30;
	fake_job(&j, 1, 2);
	j.thinktime_ns = 100000;
	j.thinktime_blocks = 1;
	j.ios_per_thread = 100;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 100);
	assert_true(fx.idle_commits >= 90 && fx.idle_commits <= 110);
	result_release(&r);
	job_release(&j);
}

/*
 * Every slot's first I/O counts its latency from the run's start, not from 0: no latency can
 * be longer than the run that measured it.
 */
static void first_ios_count_from_the_start(void **state)
{
	struct job j;
	struct result r;
	struct timespec a, b;

	fake_job(&j, 1, 4);
	j.ios_per_thread = 8;
	result_init(&r);
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_int_equal(r.read.ios, 8);
	assert_true(r.read.lat_max <=
		    (uint64_t)((b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec)));
	result_release(&r);
	job_release(&j);
}

/*
 * --io-size with a mix of sizes counts bytes: the thread stops once it has issued them (the
 * last I/O may go past by less than its size). Were the count never to reach 0, the job would
 * not end (it has no time bound); the alarm ends that.
 */
static void io_size_with_a_size_mix(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 4);
	j.time_ns = 0;
	j.io_bytes = 1 << 20;
	j.nbs_read = 2;
	j.bs_read[0] = (struct job_bs){.bs = 4096, .pct = 50};
	j.bs_read[1] = (struct job_bs){.bs = 8192, .pct = 50};
	alarm(30);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	alarm(0);
	assert_true(r.read.bytes >= 1 << 20 && r.read.bytes < (1 << 20) + 8192);
	result_release(&r);
	job_release(&j);
}

/* The held thread's flow-sleep: see flow_sleep_sleeps(). */
static void flow_pair(struct job *j)
{
	fake_job(&j[0], 1, 1);
	j[0].flow = j[0].flow_id = 1;
	j[0].flow_sleep_ns = 10000000;
	j[0].ios_per_thread = 10;
	/* after the other's weight is in its flow, so it cannot run its 10 I/Os unheld */
	j[0].startdelay_ns = 50000000;
	fake_job(&j[1], 1, 1);
	j[1].flow = j[1].flow_id = 1;
	j[1].rate_iops = 10;
	j[1].ios_per_thread = 10;
}

/*
 * --flow-sleep: a thread ahead of its share sleeps that long before it asks again. Here one
 * job runs free and the other issues 10 I/Os a second: the first is held most of a second,
 * asleep, so iorate uses well under 3 % of a CPU (about 0.5 %; load only lowers it). A held
 * thread that asked again at once would spin all that while: a third of a CPU or more, and
 * still above 3 % on a machine loaded ten times over.
 */
static void flow_sleep_sleeps(void **state)
{
	struct job j[2];
	struct result r[2];

	flow_pair(j);
	result_init(&r[0]);
	result_init(&r[1]);
	assert_int_equal(runner_run_jobs(j, 2, r, NULL), 0);
	assert_int_equal(r[0].read.ios, 10);
	assert_int_equal(r[1].read.ios, 10);
	assert_true(r[0].cpu.proc_user + r[0].cpu.proc_system < 3);
	for (int i = 0; i < 2; i++) {
		result_release(&r[i]);
		job_release(&j[i]);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An I/O that fails is reported with the target it went to, here the second. */
static void failed_io_names_its_target(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 2);
	job_add_target(&j, "b");
	j.ios_per_thread = 1000;
	fx.fail_io_engine = 2;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), -EIO);
	assert_non_null(result_error(&r));
	assert_non_null(strstr(result_error(&r), "b: read failed at offset "));
	result_release(&r);
	job_release(&j);
}

/*
 * Waiting for its next I/O's due time, a thread polls for completions every 100 us, so an I/O
 * is timed when it completes and its slot comes free: with completions seen every third poll
 * and 50 ms between I/Os, no I/O is left for the loop's own wait but the last (and, on a
 * machine loaded enough to miss due times, one or two). Polling only at due times, the loop
 * would wait for nearly every I/O.
 */
static void waits_poll_for_completions(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 2);
	j.rate_iops = 20;
	j.ios_per_thread = 15;
	fx.poll_every = 3;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 15);
	assert_true(fx.waits <= 3);
	result_release(&r);
	job_release(&j);
}

/*
 * Poisson arrivals keep their mean rate: 1,000 I/Os at 2,000 a second take 0.5 s (the sum of
 * 999 exponential gaps: within 5 % but one time in a million), never less than 0.4 s, however
 * loaded the machine.
 */
static void poisson_arrivals_keep_their_rate(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 4);
	j.rate_iops = 2000;
	j.arrival = ARRIVAL_POISSON;
	j.ios_per_thread = 1000;
	result_init(&r);
	double t0 = now_s();
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_true(now_s() - t0 >= 0.4);
	assert_int_equal(r.read.ios, 1000);
	result_release(&r);
	job_release(&j);
}

/*
 * An I/O that fails while its thread waits for the next one's due time (one each 100 s) ends
 * the thread then, and the other thread with it: the run fails long before its 20 s.
 */
static void a_failure_while_waiting_ends_the_run(void **state)
{
	struct job j;
	struct result r;

	fake_job(&j, 1, 2);
	job_add_target(&j, "b");
	j.rate_iops = 0.01;
	j.time_ns = 20000000000ull;
	fx.fail_io_engine = 2;
	result_init(&r);
	double t0 = now_s();
	assert_int_equal(runner_run(&j, &r, NULL), -EIO);
	assert_true(now_s() - t0 < 10);
	assert_non_null(strstr(result_error(&r), "b: read failed at offset "));
	result_release(&r);
	job_release(&j);
}

/* The runner's progress tick asks the run to stop once it is half a second in. */
static void stop_after_half_a_second(void *arg, const struct runner_progress *p)
{
	if (p->elapsed_s >= 0.5)
		*(volatile sig_atomic_t *)arg = 1;
}

/*
 * A thread waiting long for its next I/O (one each 100 s), with none in flight, notices a
 * stop request within 100 ms: the run ends long before its 20 s.
 */
static void a_long_wait_notices_a_stop(void **state)
{
	static volatile sig_atomic_t stop;
	struct runner_hooks hooks = {.tick = stop_after_half_a_second, .arg = (void *)&stop,
				     .stop = &stop};
	struct job j;
	struct result r;

	stop = 0;
	fake_job(&j, 1, 2);
	j.rate_iops = 0.01;
	j.time_ns = 20000000000ull;
	result_init(&r);
	double t0 = now_s();
	assert_int_equal(runner_run(&j, &r, &hooks), 0);
	assert_true(now_s() - t0 < 10);
	assert_true(r.interrupted);
	assert_int_equal(r.read.ios, 1);
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
		cmocka_unit_test_setup(busy_engine_gives_verified_blocks_back, reset),
		cmocka_unit_test_setup(drain_keeps_the_slots_order, reset),
		cmocka_unit_test_setup(think_after_every_block, reset),
		cmocka_unit_test_setup(think_after_each_io, reset),
		cmocka_unit_test_setup(first_ios_count_from_the_start, reset),
		cmocka_unit_test_setup(io_size_with_a_size_mix, reset),
		cmocka_unit_test_setup(flow_sleep_sleeps, reset),
		cmocka_unit_test_setup(failed_io_names_its_target, reset),
		cmocka_unit_test_setup(waits_poll_for_completions, reset),
		cmocka_unit_test_setup(poisson_arrivals_keep_their_rate, reset),
		cmocka_unit_test_setup(a_failure_while_waiting_ends_the_run, reset),
		cmocka_unit_test_setup(a_long_wait_notices_a_stop, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
