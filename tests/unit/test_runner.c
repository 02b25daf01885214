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

#include "core/runner.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_adds_up),
		cmocka_unit_test(io_limit_and_no_latency),
		cmocka_unit_test(stop_before_start),
		cmocka_unit_test(warmup_not_counted),
		cmocka_unit_test(file_target_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
