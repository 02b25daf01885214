/* The runner end to end through the null engine and small files: totals, series, limits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pthread.h>
#include <sys/syscall.h>

#include "core/runner.h"
#include "core/worker_extra.h"

static void null_job(struct job *j, unsigned threads)
{
	job_init(j);
	strcpy(j->engine, "null");
	j->threads = threads;
	j->time_ns = 1500000000ull; /* 1.5 s: one full second and a partial one */
	job_add_target(j, "a");
	job_add_target(j, "b");
}

/* The series adds up to the totals, and the per-target results add up to the run's. */
static void series_adds_up(void **state)
{
	struct job j;
	struct result r;

	null_job(&j, 2);
	j.write_pct = 25;
	j.ios_per_thread = 3000000; /* bounded, in case the machine is very fast */
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_true(r.started);
	assert_false(r.interrupted);
	assert_int_equal(r.ntargets, 2);
	uint64_t rd = 0, wr = 0, rb = 0, wb = 0;
	for (unsigned i = 0; i < r.nseries; i++) {
		rd += r.series[i].read_ios;
		wr += r.series[i].write_ios;
		rb += r.series[i].read_bytes;
		wb += r.series[i].write_bytes;
		assert_true(r.series[i].seconds > 0);
	}
	assert_int_equal(rd, r.read.ios);
	assert_int_equal(wr, r.write.ios);
	assert_int_equal(rb, r.read.bytes);
	assert_int_equal(wb, r.write.bytes);
	assert_int_equal(r.read.bytes, r.read.ios * 4096);
	assert_int_equal(r.targets[0].read.ios + r.targets[1].read.ios, r.read.ios);
	assert_int_equal(r.targets[0].write.ios + r.targets[1].write.ios, r.write.ios);
	assert_int_equal(r.read.lat_n, r.read.ios);
	assert_true(r.read.ios > 0 && r.write.ios > 0);
	assert_true(r.seconds > 0 && r.seconds <= 1.5001);
	assert_string_equal(r.engine, "null");
	result_release(&r);
	job_release(&j);
}

/*
 * A reading job's threads make no write histogram, and a target's only thread hands its read
 * one over: the targets' histograms still add up to the job's, I/O for I/O.
 */
static void histograms_where_needed(void **state)
{
	struct job j;
	struct result r;

	null_job(&j, 1);
	j.time_ns = 60ull * 1000000000ull;
	j.ios_per_thread = 5000;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_null(r.write.hist);
	assert_non_null(r.read.hist);
	assert_int_equal(hist_count(r.read.hist), 2 * 5000);
	uint64_t sum = 0;
	for (unsigned t = 0; t < 2; t++) {
		assert_null(r.targets[t].write.hist);
		assert_non_null(r.targets[t].read.hist);
		assert_int_equal(r.targets[t].read.lat_n, 5000);
		assert_int_equal(hist_count(r.targets[t].read.hist), 5000);
		sum += hist_count(r.targets[t].read.hist);
	}
	assert_ptr_not_equal(r.targets[0].read.hist, r.read.hist);
	assert_int_equal(sum, r.read.lat_n);
	result_release(&r);
	job_release(&j);
}

/* --ios bounds every thread exactly; --no-latency counts without latency. */
static void io_limit_and_no_latency(void **state)
{
	struct job j;
	struct result r;

	null_job(&j, 3);
	j.time_ns = 60ull * 1000000000ull;
	j.ios_per_thread = 1234;
	j.no_latency = true;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 2 * 3 * 1234);
	assert_int_equal(r.targets[1].read.ios, 3 * 1234);
	assert_int_equal(r.read.lat_n, 0);
	result_release(&r);
	job_release(&j);
}

/* A stop request that is already set ends the run before any I/O, as interrupted. */
static void stop_before_start(void **state)
{
	struct job j;
	struct result r;
	volatile sig_atomic_t stop = 1;
	struct runner_hooks h = {.stop = &stop};

	null_job(&j, 1);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, &h), 0);
	assert_true(r.interrupted);
	assert_int_equal(r.read.ios, 0);
	result_release(&r);
	job_release(&j);
}

/* A warm-up is not counted: with --ios smaller than what the warm-up issues, nothing is. */
static void warmup_not_counted(void **state)
{
	struct job j;
	struct result r;

	null_job(&j, 1);
	j.warmup_ns = 200000000ull;
	j.ios_per_thread = 10;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 0);
	result_release(&r);
	job_release(&j);
}

/* A real file: created, measured, removed; an unknown engine and a bad fit are refused. */
static void file_target_and_refusals(void **state)
{
	char dir[] = "/var/tmp/iorate-test-runner-XXXXXX", path[64];
	struct job j;
	struct result r;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.dat", dir);
	job_init(&j);
	strcpy(j.engine, "sync");
	j.size = 1 << 20;
	j.ios_per_thread = 100;
	j.write_pct = 50;
	job_add_target(&j, path);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios + r.write.ios, 100);
	assert_true(r.targets[0].created);
	assert_int_equal(access(path, F_OK), -1);
	result_release(&r);

	j.bs = 2 << 20;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), -EDOM);
	assert_false(r.started);
	assert_non_null(strstr(r.errmsg, "larger than the target"));
	assert_int_equal(access(path, F_OK), -1);
	result_release(&r);

	j.bs = 4096;
	strcpy(j.engine, "nosuch");
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), -EINVAL);
	result_release(&r);
	job_release(&j);
	rmdir(dir);
}

/* Jobs of one group run together, each with its own shape; the next group after them. */
static void groups_run_in_order(void **state)
{
	struct job j[3];
	struct result r[3];

	for (unsigned i = 0; i < 3; i++) {
		null_job(&j[i], 1 + i);
		result_init(&r[i]);
	}
	j[0].time_ns = j[1].time_ns = 300000000ull;
	j[1].bs = 65536;
	j[1].write_pct = 100;
	j[1].depth = 4;
	j[2].group = 1;
	j[2].ios_per_thread = 1000;
	assert_int_equal(runner_run_jobs(j, 3, r, NULL), 0);
	for (unsigned i = 0; i < 3; i++)
		assert_true(r[i].started);
	assert_int_equal(r[0].read.bytes, r[0].read.ios * 4096);
	assert_int_equal(r[0].write.ios, 0);
	assert_int_equal(r[1].write.bytes, r[1].write.ios * 65536);
	assert_int_equal(r[1].read.ios, 0);
	assert_int_equal(r[1].job.depth, 4);
	assert_int_equal(r[2].read.ios, 2 * 3 * 1000);
	/* The second group was set up after the first one's 300 ms window had ended. */
	assert_true(r[2].start_unix_ms >= r[0].start_unix_ms + 300);
	assert_true(r[1].start_unix_ms < r[0].start_unix_ms + 300);
	for (unsigned i = 0; i < 3; i++) {
		result_release(&r[i]);
		job_release(&j[i]);
	}
}

/* A group that fails ends the run: the groups after it do not start. */
static void failed_group_ends_the_run(void **state)
{
	struct job j[2];
	struct result r[2];

	for (unsigned i = 0; i < 2; i++) {
		null_job(&j[i], 1);
		j[i].ios_per_thread = 10;
		j[i].group = i;
		result_init(&r[i]);
	}
	strcpy(j[0].engine, "nosuch");
	assert_int_equal(runner_run_jobs(j, 2, r, NULL), -EINVAL);
	assert_false(r[0].started);
	assert_false(r[1].started);
	assert_int_equal(r[1].read.ios, 0);
	for (unsigned i = 0; i < 2; i++) {
		result_release(&r[i]);
		job_release(&j[i]);
	}
}

/*
 * --exit-all: a job that ends ends the others of its group (not interrupted: noted), and with
 * all, no later group starts; fio's reporting groups narrow "group" to their own jobs.
 */
static void exit_all_ends_others(void **state)
{
	struct job j[4];
	struct result r[4];

	for (unsigned i = 0; i < 4; i++) {
		null_job(&j[i], 1);
		j[i].time_ns = 60 * 1000000000ull; /* ended by the first job long before */
		result_init(&r[i]);
	}
	j[0].time_ns = 0;
	j[0].ios_per_thread = 1000;
	j[0].exit_what = EXIT_REPORT_GROUP;
	j[1].report_group = 0;
	j[2].report_group = 1;   /* another reporting group: the first job's end leaves it */
	j[2].ios_per_thread = 2000;
	j[2].exit_what = EXIT_ALL;
	j[3].group = 1;          /* after the group that j[2] ended the run in */
	assert_int_equal(runner_run_jobs(j, 4, r, NULL), 0);
	assert_int_equal(r[0].read.ios, 2 * 1000);
	assert_true(r[1].read.ios > 0 && r[1].seconds < 60);
	assert_false(r[1].interrupted);
	assert_non_null(strstr(r[1].notes[0], "ended early: job"));
	assert_int_equal(r[2].read.ios, 2 * 2000);
	assert_false(r[3].started);
	assert_int_equal(r[3].read.ios, 0);
	for (unsigned i = 0; i < 4; i++) {
		result_release(&r[i]);
		job_release(&j[i]);
	}
}

static void *read_ioprio(void *arg)
{
	*(long *)arg = syscall(SYS_ioprio_get, 1, 0);
	return NULL;
}

/* --ioprio: threads created while the main thread holds the job's priority inherit it; the
 * main thread has its own back afterwards. */
static void ioprio_is_inherited(void **state)
{
	struct job j;
	pthread_t t;
	long seen = -1, before = syscall(SYS_ioprio_get, 1, 0);
	int saved;
	char err[128];

	job_init(&j);
	j.ioprio_class = JOB_IOPRIO_IDLE;
	j.ioprio_level = 0;
	assert_int_equal(run_ioprio_enter(&j, &saved, err, sizeof(err)), 0);
	assert_int_equal(pthread_create(&t, NULL, read_ioprio, &seen), 0);
	run_ioprio_leave(saved);
	pthread_join(t, NULL);
	assert_int_equal(seen, JOB_IOPRIO_IDLE << 13);
	assert_int_equal(syscall(SYS_ioprio_get, 1, 0), before);
	/* No priority asked: nothing changes, nothing to give back. */
	j.ioprio_class = 0;
	assert_int_equal(run_ioprio_enter(&j, &saved, err, sizeof(err)), 0);
	assert_int_equal(saved, -1);
	job_release(&j);
}

/* A block-size mix on a real file: every I/O one of its sizes, both sizes issued. */
static void size_mix_on_a_file(void **state)
{
	char dir[] = "/var/tmp/iorate-test-runner-XXXXXX", path[64];
	struct job j;
	struct result r;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.dat", dir);
	job_init(&j);
	strcpy(j.engine, "sync");
	j.size = 4 << 20;
	j.ios_per_thread = 400;
	j.bs_read[0] = (struct job_bs){4096, 50};
	j.bs_read[1] = (struct job_bs){65536, 50};
	j.nbs_read = 2;
	job_add_target(&j, path);
	result_init(&r);
	assert_int_equal(job_validate(&j, r.errmsg, sizeof(r.errmsg)), 0);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 400);
	/* n small and 400 - n large ones: the bytes say how many of each. */
	uint64_t big = (r.read.bytes - 400 * 4096) / (65536 - 4096);
	assert_int_equal(r.read.bytes, big * 65536 + (400 - big) * 4096);
	assert_true(big > 100 && big < 300);
	result_release(&r);
	job_release(&j);
	rmdir(dir);
}

/* A write job with fdatasync, thinktime and end_fsync runs and counts every write. */
static void syncs_and_thinktime(void **state)
{
	char dir[] = "/var/tmp/iorate-test-runner-XXXXXX", path[64];
	struct job j;
	struct result r;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f.dat", dir);
	job_init(&j);
	strcpy(j.engine, "sync");
	j.size = 1 << 20;
	j.ios_per_thread = 100;
	j.write_pct = 100;
	j.fdatasync_every = 10;
	j.end_fsync = true;
	j.invalidate = true;
	j.thinktime_ns = 1000000;
	j.thinktime_blocks = 10;
	job_add_target(&j, path);
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.write.ios, 100);
	assert_int_equal(r.write.errors, 0);
	/* Nine pauses of 1 ms between the ten bursts of ten. */
	assert_true(r.seconds >= 0.009);
	result_release(&r);
	job_release(&j);
	rmdir(dir);
}

/* A job of n null targets named t0, t1, ... served by shared threads. */
static void shared_job(struct job *j, unsigned n, unsigned threads)
{
	char name[32];

	job_init(j);
	strcpy(j->engine, "null");
	j->threads = threads;
	j->shared_threads = true;
	j->time_ns = 60ull * 1000000000ull;
	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i);
		job_add_target(j, name);
	}
}

/*
 * Shared threads: `threads` in all, each serving every target in turn. Round robin from its own
 * starting target, so 2 threads x 5000 I/Os over 1000 targets is exactly 10 per target; the
 * targets keep counts, the job its latencies.
 */
static void shared_threads_round_robin(void **state)
{
	struct job j;
	struct result r;

	shared_job(&j, 1000, 2);
	j.ios_per_thread = 5000;
	result_init(&r);
	assert_int_equal(runner_run(&j, &r, NULL), 0);
	assert_int_equal(r.read.ios, 10000);
	assert_int_equal(r.read.lat_n, 10000);
	assert_non_null(r.read.hist);
	assert_int_equal(r.ntargets, 1000);
	for (unsigned i = 0; i < r.ntargets; i++) {
		assert_int_equal(r.targets[i].read.ios, 10);
		assert_int_equal(r.targets[i].read.bytes, 10 * 4096);
		assert_int_equal(r.targets[i].read.lat_n, 0);
		assert_null(r.targets[i].read.hist);
	}
	result_release(&r);
	/* roundrobin:N stays N I/Os on a target; sequential:N the same; random spreads. */
	for (unsigned mode = 0; mode < 3; mode++) {
		j.file_service = (enum job_file_service)mode;
		j.file_service_n = mode == FILES_RANDOM ? 0 : 5;
		result_init(&r);
		assert_int_equal(runner_run(&j, &r, NULL), 0);
		uint64_t sum = 0, most = 0;
		for (unsigned i = 0; i < r.ntargets; i++) {
			uint64_t n = r.targets[i].read.ios;
			sum += n;
			most = n > most ? n : most;
			if (mode != FILES_RANDOM)
				assert_int_equal(n % 5, 0);
		}
		assert_int_equal(sum, 10000);
		/* Random: 10 per target on average; 40 would be beyond any fair draw. */
		assert_true(mode != FILES_RANDOM || (most > 10 && most < 40));
		result_release(&r);
	}
	job_release(&j);
}

/* On real files: every write reaches the file the result says, through every engine. */
static void shared_threads_on_files(void **state)
{
	char dir[] = "/var/tmp/iorate-test-runner-XXXXXX", path[64];
	static const char *const engines[] = {"sync", "aio", "uring"};
	struct job j;
	struct result r;

	assert_non_null(mkdtemp(dir));
	for (unsigned e = 0; e < 3; e++) {
		if (!runner_has_engine(engines[e]))
			continue;
		job_init(&j);
		strcpy(j.engine, engines[e]);
		j.depth = e ? 4 : 1;
		j.size = 1 << 20;
		j.write_pct = 100;
		j.threads = 2;
		j.shared_threads = true;
		j.ios_per_thread = 300;
		for (unsigned i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/f%u", dir, i);
			job_add_target(&j, path);
		}
		result_init(&r);
		assert_int_equal(runner_run(&j, &r, NULL), 0);
		assert_int_equal(r.write.ios, 600);
		assert_int_equal(r.write.errors, 0);
		for (unsigned i = 0; i < 3; i++)
			assert_int_equal(r.targets[i].write.ios, 200);
		result_release(&r);
		job_release(&j);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_adds_up),
		cmocka_unit_test(io_limit_and_no_latency),
		cmocka_unit_test(histograms_where_needed),
		cmocka_unit_test(stop_before_start),
		cmocka_unit_test(warmup_not_counted),
		cmocka_unit_test(groups_run_in_order),
		cmocka_unit_test(failed_group_ends_the_run),
		cmocka_unit_test(exit_all_ends_others),
		cmocka_unit_test(ioprio_is_inherited),
		cmocka_unit_test(size_mix_on_a_file),
		cmocka_unit_test(syncs_and_thinktime),
		cmocka_unit_test(shared_threads_round_robin),
		cmocka_unit_test(shared_threads_on_files),
		cmocka_unit_test(file_target_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
