/*
 * The format fio-json (src/report/fio_json.c, fio_opts.c): fio 3.33's JSON layout, each field
 * from the run as docs/fio-json.md says: rates as fio computes them from bytes and whole
 * milliseconds, latency in ns with fio's percentile keys and sample deviation, bandwidth
 * samples from the per-second series, the latency ranges from the histogram, disk_util from the
 * kernel's counts, the job as fio options, and the groups of a run of several jobs.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/fio_stats.h"
#include "report/report.h"
#include "result/result_set.h"

#define assert_near(a, b, eps) near_at((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double eps, const char *expr, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b,
			 eps);
}

/*
 * 10 s over a block device read 100 I/Os at 100 us and written 50 at 200 us, and a file read
 * 300 at 50 us; a series of a full second (40 reads, 10 writes) and a half (none).
 */
static void make_result(struct result *r, const char *name, unsigned group)
{
	struct target_result *t;

	result_init(r);
	r->job.name = name ? strdup(name) : NULL;
	r->job.group = group;
	r->job.bs = 4096;
	r->job.time_ns = 10000000000ull;
	r->job.warmup_ns = 2000000000ull;
	r->job.threads = 2;
	r->job.depth = 4;
	r->job.write_pct = 30;
	r->job.seed = 42;
	r->job.size = 1ull << 30;
	r->job.invalidate = true;
	assert_int_equal(job_add_target(&r->job, "/dev/zram0"), 0);
	assert_int_equal(job_add_target(&r->job, "/tmp/a:b"), 0);
	strcpy(r->engine, "uring");
	r->start_unix_ms = 1700000000123ull;
	r->seconds = 10.0;
	r->started = true;
	r->cpu.proc_user = 12.5;
	r->cpu.proc_system = 3.25;
	r->ntargets = 2;
	r->targets = calloc(2, sizeof(*r->targets));
	assert_non_null(r->targets);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_init(&r->targets[i].read);
		dir_stats_init(&r->targets[i].write);
		dir_stats_init(&r->targets[i].trim);
	}
	t = &r->targets[0];
	t->path = strdup("/dev/zram0");
	t->is_blockdev = true;
	for (unsigned i = 0; i < 100; i++)
		dir_stats_add(&t->read, 4096, 100000);
	for (unsigned i = 0; i < 50; i++)
		dir_stats_add(&t->write, 4096, 200000);
	t->kernel = (struct kernel_counts){.valid = true, .name = "zram0", .read_ios = 100,
		.write_ios = 52, .read_bytes = 100 * 4096, .write_bytes = 52 * 4096};
	t = &r->targets[1];
	t->path = strdup("/tmp/a:b");
	for (unsigned i = 0; i < 300; i++)
		dir_stats_add(&t->read, 4096, 50000);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_merge(&r->read, &r->targets[i].read);
		dir_stats_merge(&r->write, &r->targets[i].write);
	}
	r->nseries = 2;
	r->series = calloc(2, sizeof(*r->series));
	assert_non_null(r->series);
	r->series[0] = (struct series_point){.t = 1, .seconds = 1, .read_ios = 40, .write_ios = 10,
		.read_bytes = 40 * 4096, .write_bytes = 10 * 4096, .credit_iops = -1,
		.credit_mbps = -1};
	r->series[1] = (struct series_point){.t = 1.5, .seconds = 0.5, .credit_iops = -1,
		.credit_mbps = -1};
}

static json_t *render(const struct result_set *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t e;
	json_t *root;

	assert_non_null(f);
	assert_int_equal(report_write_set(&report_fio_json, f, s, NULL), 0);
	assert_int_equal(fclose(f), 0);
	root = json_loads(buf, 0, &e);
	if (!root)
		fail_msg("not JSON at line %d: %s", e.line, e.text);
	free(buf);
	return root;
}

/* o's member key, which must be there. */
static json_t *at(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("no \"%s\"", key);
	return v;
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(at(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(at(o, key));
}

static void test_one_job(void **state)
{
	struct result r;
	struct result_set s;
	json_t *doc, *job, *rd, *clat, *pct;

	make_result(&r, NULL, 0);
	assert_int_equal(result_set_view(&s, &r, 1), 0);
	doc = render(&s);
	assert_string_equal(str(doc, "fio version"), "fio-3.33");
	assert_int_equal(num(doc, "timestamp"), 1700000000);
	assert_int_equal(num(doc, "timestamp_ms"), 1700000000123);
	job = json_array_get(at(doc, "jobs"), 0);
	assert_string_equal(str(job, "jobname"), "job1");
	assert_int_equal(num(job, "groupid"), 0);
	assert_int_equal(num(job, "job_runtime"), 10000);
	assert_near(num(job, "usr_cpu"), 12.5, 0);
	assert_near(num(job, "sys_cpu"), 3.25, 0);
	rd = at(job, "read");
	/* 400 reads of 4 KiB in 10000 ms: fio's integer arithmetic. */
	assert_int_equal(num(rd, "io_bytes"), 400 * 4096);
	assert_int_equal(num(rd, "io_kbytes"), 1600);
	assert_int_equal(num(rd, "bw_bytes"), 400 * 4096 * 1000 / 10000);
	assert_int_equal(num(rd, "bw"), 400 * 4096 / 10 / 1024);
	assert_near(num(rd, "iops"), 40, 0);
	assert_int_equal(num(rd, "runtime"), 10000);
	assert_int_equal(num(rd, "total_ios"), 400);
	assert_int_equal(num(at(rd, "slat_ns"), "N"), 0);
	clat = at(rd, "clat_ns");
	assert_int_equal(num(clat, "min"), 50000);
	assert_int_equal(num(clat, "max"), 100000);
	assert_int_equal(num(clat, "N"), 400);
	assert_near(num(clat, "mean"), 62500, 1e-9);
	/* fio's deviation is a sample's: n - 1. */
	assert_near(num(clat, "stddev"),
		    sqrt((100 * 37500.0 * 37500 + 300 * 12500.0 * 12500) / 399), 1e-6);
	pct = at(clat, "percentile");
	assert_int_equal(json_object_size(pct), 17);
	assert_true(num(pct, "50.000000") >= 50000 && num(pct, "50.000000") <= 50000 * 1.004);
	assert_int_equal(num(pct, "99.990000"), 100000);
	assert_true(json_equal(at(at(rd, "lat_ns"), "mean"), at(clat, "mean")));
	assert_null(json_object_get(at(rd, "lat_ns"), "percentile"));
	/* Samples of the full second and the half (of no I/O): 160 and 0 KiB/s. */
	assert_int_equal(num(rd, "bw_samples"), 2);
	assert_int_equal(num(rd, "bw_min"), 0);
	assert_int_equal(num(rd, "bw_max"), 160);
	assert_near(num(rd, "bw_mean"), 80, 0);
	assert_near(num(rd, "bw_dev"), sqrt(2 * 80.0 * 80), 1e-9);
	assert_int_equal(num(rd, "iops_max"), 40);
	/* The group is this job: its mean is half the group's 160 KiB/s. */
	assert_near(num(rd, "bw_agg"), 50, 1e-9);
	assert_int_equal(num(at(job, "trim"), "io_bytes"), 0);
	assert_int_equal(num(at(job, "sync"), "total_ios"), 0);
	assert_int_equal(num(job, "latency_depth"), 4);
	json_decref(doc);
	result_set_release(&s);
	result_release(&r);
}

/* fio's ranges from the histogram: 300 I/Os at 50 us, 100 at 100 us and 50 at 200 us. */
static void test_latency_ranges(void **state)
{
	struct result r;
	struct result_set s;
	json_t *doc, *job;
	double sum = 0;
	const char *k;
	json_t *v;

	make_result(&r, "x", 0);
	assert_int_equal(result_set_view(&s, &r, 1), 0);
	doc = render(&s);
	job = json_array_get(at(doc, "jobs"), 0);
	assert_near(num(at(job, "latency_us"), "100"), 300 * 100.0 / 450, 1e-9);
	assert_near(num(at(job, "latency_us"), "250"), 150 * 100.0 / 450, 1e-9);
	json_object_foreach(at(job, "latency_ns"), k, v)
		sum += json_number_value(v);
	json_object_foreach(at(job, "latency_ms"), k, v)
		sum += json_number_value(v);
	assert_near(sum, 0, 0);
	assert_int_equal(json_object_size(at(job, "latency_ms")), 12);
	assert_non_null(json_object_get(at(job, "latency_ms"), ">=2000"));
	assert_near(num(at(job, "iodepth_level"), "1"), 0, 0);
	json_decref(doc);
	result_set_release(&s);
	result_release(&r);
}

static void test_options_and_disks(void **state)
{
	struct result r;
	struct result_set s;
	json_t *doc, *o, *d;

	make_result(&r, "db", 0);
	r.job.skip = 8192;
	r.job.pattern = PATTERN_SEQUENTIAL;
	r.job.thinktime_ns = 1500000;
	assert_int_equal(result_set_view(&s, &r, 1), 0);
	doc = render(&s);
	o = at(json_array_get(at(doc, "jobs"), 0), "job options");
	assert_string_equal(str(o, "name"), "db");
	assert_string_equal(str(o, "filename"), "/dev/zram0:/tmp/a\\:b");
	assert_string_equal(str(o, "rw"), "rw:8192");
	assert_string_equal(str(o, "rwmixwrite"), "30");
	assert_string_equal(str(o, "bs"), "4096");
	assert_string_equal(str(o, "ioengine"), "io_uring");
	assert_string_equal(str(o, "iodepth"), "4");
	assert_string_equal(str(o, "numjobs"), "2");
	assert_string_equal(str(o, "direct"), "1");
	assert_string_equal(str(o, "runtime"), "10s");
	assert_string_equal(str(o, "ramp_time"), "2s");
	assert_string_equal(str(o, "thinktime"), "1500us");
	assert_string_equal(str(o, "size"), "1073741824");
	assert_string_equal(str(o, "randseed"), "42");
	assert_null(json_object_get(o, "invalidate"));
	/* One job: every option but its name is one every job shares. */
	assert_int_equal(json_object_size(at(doc, "global options")), json_object_size(o) - 1);
	d = json_array_get(at(doc, "disk_util"), 0);
	assert_int_equal(json_array_size(at(doc, "disk_util")), 1);
	assert_string_equal(str(d, "name"), "zram0");
	assert_int_equal(num(d, "read_ios"), 100);
	assert_int_equal(num(d, "write_ios"), 52);
	assert_near(num(d, "util"), 0, 0);
	json_decref(doc);
	result_set_release(&s);
	result_release(&r);
}

/* Several jobs: groups numbered from 0 as they run, shared options, one device once. */
static void test_jobs(void **state)
{
	struct result *j = calloc(3, sizeof(*j));
	struct result_set s;
	json_t *doc, *jobs, *g;

	assert_non_null(j);
	make_result(&j[0], "a", 0);
	make_result(&j[1], "b", 0);
	make_result(&j[2], "c", 7);
	j[1].job.bs = 8192;
	j[2].seconds = 5;
	assert_int_equal(result_set_take(&s, j, 3), 0);
	doc = render(&s);
	jobs = at(doc, "jobs");
	assert_int_equal(num(json_array_get(jobs, 1), "groupid"), 0);
	assert_int_equal(num(json_array_get(jobs, 2), "groupid"), 1);
	assert_string_equal(str(json_array_get(jobs, 2), "jobname"), "c");
	assert_int_equal(num(at(json_array_get(jobs, 2), "read"), "runtime"), 5000);
	/* a and b share the group's 320 KiB/s of reads: each mean of 80 is a quarter. */
	assert_near(num(at(json_array_get(jobs, 0), "read"), "bw_agg"), 25, 1e-9);
	g = at(doc, "global options");
	assert_null(json_object_get(g, "bs"));
	assert_null(json_object_get(g, "name"));
	assert_string_equal(str(g, "iodepth"), "4");
	/* The run's 10 s + 5 s, rounded up. */
	assert_int_equal(num(json_array_get(jobs, 0), "elapsed"), 15);
	/* zram0 once: the group's largest count plus the other group's. */
	assert_int_equal(json_array_size(at(doc, "disk_util")), 1);
	assert_int_equal(num(json_array_get(at(doc, "disk_util"), 0), "read_ios"), 200);
	json_decref(doc);
	result_set_release(&s);
}

static void view(struct result *r, const char *name, enum device_role role, const char *of,
		 uint64_t reads, uint64_t busy_ms)
{
	struct device_view *v = realloc(r->devices, (r->ndevices + 1) * sizeof(*v));

	assert_non_null(v);
	r->devices = v;
	v = &v[r->ndevices++];
	*v = (struct device_view){.role = role, .seconds = 10,
		.disk = {.read_ios = reads, .read_merges = reads / 10, .read_ms = reads / 2,
			 .write_ios = 1, .write_ms = 3, .queue_ms = reads, .busy_ms = busy_ms}};
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->of, sizeof(v->of), "%s", of);
}

/*
 * The devices under the targets, as fio lists them: dm-1 on the partitions vdb1 and vdc1 of
 * two disks, listed by their disks (a partition stands for its disk), with dm-1's members'
 * counts averaged in its aggr_ keys and their highest util.
 */
static void test_disk_util_stack(void **state)
{
	struct result r;
	struct result_set s;
	json_t *doc, *a, *d;

	make_result(&r, NULL, 0);
	view(&r, "dm-1", DEVICE_TARGET, "", 400, 5000);
	view(&r, "vdb1", DEVICE_MEMBER, "dm-1", 200, 4000);
	view(&r, "vdc1", DEVICE_MEMBER, "dm-1", 100, 1000);
	view(&r, "vdb", DEVICE_DISK, "vdb1", 210, 4100);
	view(&r, "vdc", DEVICE_DISK, "vdc1", 101, 12000);
	assert_int_equal(result_set_view(&s, &r, 1), 0);
	doc = render(&s);
	a = at(doc, "disk_util");
	assert_int_equal(json_array_size(a), 3);
	assert_string_equal(str(json_array_get(a, 0), "name"), "dm-1");
	assert_string_equal(str(json_array_get(a, 1), "name"), "vdb");
	assert_string_equal(str(json_array_get(a, 2), "name"), "vdc");
	d = json_array_get(a, 0);
	assert_int_equal(num(d, "read_ios"), 400);
	assert_int_equal(num(d, "read_merges"), 40);
	assert_int_equal(num(d, "read_ticks"), 200);
	assert_int_equal(num(d, "write_ticks"), 3);
	assert_int_equal(num(d, "in_queue"), 400);
	assert_near(num(d, "util"), 50, 1e-9);
	assert_int_equal(num(d, "aggr_read_ios"), (210 + 101) / 2);
	assert_int_equal(num(d, "aggr_read_merges"), (21 + 10) / 2);
	assert_int_equal(num(d, "aggr_write_merge"), 0);
	assert_int_equal(num(d, "aggr_in_queue"), (210 + 101) / 2);
	assert_near(num(d, "aggr_util"), 100, 1e-9); /* vdc's 120 %, at most 100 */
	assert_null(json_object_get(json_array_get(a, 1), "aggr_read_ios"));
	json_decref(doc);
	result_set_release(&s);
	result_release(&r);
}

/*
 * group_reporting (fio's stat.c): consecutive jobs of one reporting group that have it are one
 * entry: I/Os and histograms added, the longest runtime, bandwidth samples added up (min, max,
 * mean), CPU weighted by runtime, runtimes added, the first name and failure, the last job's
 * options. A job of another reporting group (new_group) is an entry of its own.
 */
static void test_group_reporting(void **state)
{
	struct result *j = calloc(3, sizeof(*j));
	struct result_set s;
	json_t *doc, *jobs, *a, *rd;

	assert_non_null(j);
	make_result(&j[0], "a", 0);
	make_result(&j[1], "a", 0);
	make_result(&j[2], "b", 0);
	for (unsigned i = 0; i < 3; i++) {
		strcpy(j[i].job.origin, "fio");
		j[i].job.group_reporting = true;
	}
	j[2].job.report_group = 1;
	j[1].seconds = 5;
	j[1].cpu.proc_user = 25;
	j[1].job.bs = 8192;
	j[1].error = -EIO;
	assert_int_equal(result_set_take(&s, j, 3), 0);
	doc = render(&s);
	jobs = at(doc, "jobs");
	assert_int_equal(json_array_size(jobs), 2);
	a = json_array_get(jobs, 0);
	rd = at(a, "read");
	assert_string_equal(str(a, "jobname"), "a");
	assert_int_equal(num(a, "groupid"), 0);
	assert_int_equal(num(json_array_get(jobs, 1), "groupid"), 1);
	assert_int_equal(num(a, "error"), EIO);
	assert_int_equal(num(rd, "total_ios"), 800);
	assert_int_equal(num(at(rd, "clat_ns"), "N"), 800);
	assert_int_equal(num(rd, "runtime"), 10000);
	assert_int_equal(num(a, "job_runtime"), 15000);
	assert_near(num(a, "usr_cpu"), (12.5 * 10 + 25 * 5) / 15, 1e-9);
	/* each job's samples are 160 and 0 KiB/s: added, min 0, max 320, mean 160, 4 of them */
	assert_int_equal(num(rd, "bw_max"), 320);
	assert_near(num(rd, "bw_mean"), 160, 1e-9);
	assert_int_equal(num(rd, "bw_samples"), 4);
	/* the group's 800 reads of 4 KiB over its longest 10 s: 320 KiB/s, half the mean */
	assert_near(num(rd, "bw_agg"), 50, 1e-9);
	assert_string_equal(str(at(a, "job options"), "bs"), "8192");
	json_decref(doc);
	result_set_release(&s);
}

/*
 * fio's histogram buckets (stat.c's plat_val_to_idx, plat_idx_to_val): exact below 128 ns, 64
 * per power of two above, each keyed by its middle; each of iorate's buckets falls in one.
 */
static void test_fio_buckets(void **state)
{
	assert_int_equal(fio_plat_index(127), 127);
	assert_int_equal(fio_plat_index(128), 128);
	assert_int_equal(fio_plat_index(129), 128);
	assert_int_equal(fio_plat_index(130), 129);
	assert_int_equal(fio_plat_value(128), 129);
	assert_int_equal(fio_plat_value(129), 131);
	assert_int_equal(fio_plat_index(256), 192);
	assert_int_equal(fio_plat_value(192), 258);
	assert_int_equal(fio_plat_index(1ull << 50), FIO_PLAT_NR - 1);
	for (unsigned i = 0; i + 1 < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), hi = lo + hist_bucket_width(i) - 1;
		unsigned k = fio_plat_index(lo);

		assert_int_equal(fio_plat_index(hi), k);
	}
	/* and each key lies in its own bucket */
	for (unsigned k = 0; k < FIO_PLAT_NR; k++)
		assert_int_equal(fio_plat_index(fio_plat_value(k)), k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_job),
		cmocka_unit_test(test_latency_ranges),
		cmocka_unit_test(test_options_and_disks),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_disk_util_stack),
		cmocka_unit_test(test_group_reporting),
		cmocka_unit_test(test_fio_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
