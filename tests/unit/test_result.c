/*
 * A run of several jobs (struct result_set): each group's figures are its jobs' merged (the
 * percentiles from the merged histograms), over the group's window; the total's over the
 * groups' windows added; the kernel's counts per device. Its JSON reads back to the same run
 * and the same text, and a document whose sums are not its jobs' is refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "result/result_json.h"
#include "result/result_set.h"
#include "util/jsonout.h"

#define NS 1000000000ull

/* A job that ran: n reads of 4 KiB at lat_ns each on path, measured for seconds. */
static void job_ran(struct result *r, const char *name, unsigned group, uint64_t delay_ns,
		    double seconds, const char *path, unsigned n, uint64_t lat_ns)
{
	struct target_result *t;

	result_init(r);
	r->job.name = strdup(name);
	r->job.group = group;
	r->job.startdelay_ns = delay_ns;
	r->job.bs = 4096;
	r->job.time_ns = 2 * NS;
	r->job.threads = r->job.depth = 1;
	assert_int_equal(job_add_target(&r->job, path), 0);
	strcpy(r->engine, "null");
	strcpy(r->host.hostname, "h");
	r->start_unix_ms = 1700000000000ull + group;
	r->seconds = seconds;
	r->started = true;
	r->ntargets = 1;
	r->targets = calloc(1, sizeof(*r->targets));
	assert_non_null(r->targets);
	t = &r->targets[0];
	t->path = strdup(path);
	dir_stats_init(&t->read);
	dir_stats_init(&t->write);
	dir_stats_init(&t->trim);
	for (unsigned i = 0; i < n; i++)
		dir_stats_add(&t->read, 4096, lat_ns);
	dir_stats_merge(&r->read, &t->read);
}

/* The device's own counts of a job on a block device. */
static void on_device(struct result *r, const char *dev, uint64_t kernel_reads)
{
	struct target_result *t = &r->targets[0];

	t->is_blockdev = true;
	snprintf(t->device, sizeof(t->device), "%s", dev);
	t->kernel = (struct kernel_counts){.valid = true, .read_ios = kernel_reads,
					   .read_bytes = kernel_reads * 4096};
	snprintf(t->kernel.name, sizeof(t->kernel.name), "%s", dev);
}

/*
 * Four jobs in three groups: a and b (b one second later) together on loop7; c alone, stopped
 * early, on loop7 too; d, whose group never started.
 */
static struct result *four_jobs(void)
{
	struct result *j = calloc(4, sizeof(*j));

	assert_non_null(j);
	job_ran(&j[0], "a", 0, 0, 2.0, "/dev/loop7", 100, 100000);
	job_ran(&j[1], "b", 0, 1 * NS, 2.0, "/dev/loop7", 100, 1000000);
	job_ran(&j[2], "c", 5, 0, 1.5, "/dev/loop7", 30, 50000);
	job_ran(&j[3], "d", 9, 0, 0, "/tmp/d", 0, 0);
	on_device(&j[0], "loop7", 150);
	on_device(&j[1], "loop7", 201);
	on_device(&j[2], "loop7", 31);
	j[0].cpu = j[1].cpu = (struct cpu_usage){.ncpus = 2, .user = 10, .proc_user = 40};
	j[2].cpu = (struct cpu_usage){.ncpus = 2, .user = 40, .proc_user = 70};
	j[2].interrupted = true;
	j[3].started = false;
	j[3].error = -ENOENT;
	return j;
}

static void test_groups_and_total(void **state)
{
	struct result_set s;
	struct dir_summary d;

	assert_int_equal(result_set_take(&s, four_jobs(), 4), 0);
	assert_int_equal(s.ngroups, 3);
	assert_int_equal(s.groups[0].group, 0);
	assert_int_equal(s.groups[1].group, 5);
	assert_int_equal(s.groups[2].group, 9);
	assert_true(result_set_in_group(&s, 1, 0) && !result_set_in_group(&s, 2, 0));
	/* a measured [0, 2] s, b [1, 3] s: the group's window is 3 s, not 2 and not 4. */
	assert_true(s.groups[0].seconds == 3.0);
	assert_int_equal(s.groups[0].njobs, 2);
	assert_int_equal(s.groups[0].read.ios, 200);
	assert_true(s.groups[1].seconds == 1.5 && s.groups[1].interrupted);
	assert_int_equal(s.groups[2].nstarted, 0);
	assert_true(s.groups[2].seconds == 0);
	/* The run's time is the groups' one after another. */
	assert_true(s.total.seconds == 4.5);
	assert_int_equal(s.total.read.ios, 230);
	assert_int_equal(s.total.njobs, 4);
	assert_int_equal(s.total.nstarted, 3);
	assert_true(s.total.interrupted);
	dir_stats_summarize(&s.groups[0].read, s.groups[0].seconds, &d);
	assert_true(fabs(d.iops - 200.0 / 3) < 1e-9);
	/*
	 * Half the I/Os at 100 us, half at 1 ms: the merged histogram's median is 100 us and its
	 * p90 1 ms. Averaging the jobs' percentiles would say 550 us for both.
	 */
	assert_true(fabs(d.p50 - 100) <= 0.4 && fabs(d.p90 - 1000) <= 4);
	assert_string_equal(result_set_error(&s), "No such file or directory");
	result_set_release(&s);
}

static void test_devices_and_cpu(void **state)
{
	struct result_set s;
	const struct device_counts *d;

	assert_int_equal(result_set_take(&s, four_jobs(), 4), 0);
	/* a and b each saw the other's I/O to loop7: the group keeps the larger count. */
	assert_int_equal(s.groups[0].ndevices, 1);
	d = &s.groups[0].devices[0];
	assert_string_equal(d->kernel.name, "loop7");
	assert_int_equal(d->kernel.read_ios, 201);
	assert_int_equal(d->read_ios, 200);
	assert_int_equal(d->read_bytes, 200 * 4096);
	/* The groups ran apart: the run adds them. */
	assert_int_equal(s.total.ndevices, 1);
	assert_int_equal(s.total.devices[0].kernel.read_ios, 232);
	assert_int_equal(s.total.devices[0].kernel.read_bytes, 232 * 4096);
	assert_int_equal(s.total.devices[0].read_ios, 230);
	assert_int_equal(s.groups[2].ndevices, 0);
	/* CPU: the group's own; the run's weighted by the groups' seconds (3 s and 1.5 s). */
	assert_true(s.groups[0].cpu.user == 10 && s.groups[1].cpu.user == 40);
	assert_true(fabs(s.total.cpu.user - (10 * 3 + 40 * 1.5) / 4.5) < 1e-9);
	assert_true(fabs(s.total.cpu.proc_user - (40 * 3 + 70 * 1.5) / 4.5) < 1e-9);
	assert_int_equal(s.total.cpu.ncpus, 2);
	result_set_release(&s);
}

/* One job is its own result: no groups, no total, and its JSON is the run's own. */
static void test_one_job(void **state)
{
	struct result_set s;
	struct result *j = calloc(1, sizeof(*j));
	json_t *a, *b;

	assert_non_null(j);
	job_ran(j, "only", 3, 0, 1.0, "x", 10, 1000);
	assert_int_equal(result_set_take(&s, j, 1), 0);
	assert_int_equal(s.ngroups, 0);
	assert_int_equal(s.total.read.ios, 0);
	a = result_set_to_json(&s);
	b = result_to_json(&s.jobs[0]);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	result_set_release(&s);
}

/* A view sums the caller's results and leaves them to the caller. */
static void test_view(void **state)
{
	struct result *j = four_jobs();
	struct result_set s;

	assert_int_equal(result_set_view(&s, j, 2), 0);
	assert_int_equal(s.ngroups, 1);
	assert_int_equal(s.total.read.ios, 200);
	result_set_release(&s);
	assert_string_equal(j[0].job.name, "a");
	for (unsigned i = 0; i < 4; i++)
		result_release(&j[i]);
	free(j);
}

static char *text_of_set(const struct result_set *s)
{
	json_t *o = result_set_to_json(s);
	char *t = o ? jsonout_dumps(o, JSON_COMPACT) : NULL;

	assert_non_null(t);
	json_decref(o);
	return t;
}

/* JSON -> struct -> JSON is the same text; the jobs, groups and total come back. */
static void test_json_round_trip(void **state)
{
	struct result_set s, back;
	char *a, *b, err[256] = "";
	json_t *o;

	assert_int_equal(result_set_take(&s, four_jobs(), 4), 0);
	a = text_of_set(&s);
	o = json_loads(a, 0, NULL);
	assert_non_null(o);
	assert_int_equal(json_array_size(json_object_get(o, "jobs")), 4);
	assert_int_equal(json_array_size(json_object_get(o, "groups")), 3);
	json_t *members = json_pack("[i,i]", 0, 1);
	assert_true(json_equal(json_object_get(json_array_get(json_object_get(o, "groups"), 0),
					       "jobs"), members));
	json_decref(members);
	assert_int_equal(result_set_from_json(o, &back, err, sizeof(err)), 0);
	assert_int_equal(back.njobs, 4);
	assert_string_equal(back.jobs[1].job.name, "b");
	assert_true(back.total.seconds == 4.5);
	assert_int_equal(back.groups[0].devices[0].kernel.read_ios, 201);
	b = text_of_set(&back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	json_decref(o);
	result_set_release(&s);
	result_set_release(&back);
}

/* The document of s, changed by mutate, is refused with want. */
static void refused(void (*mutate)(json_t *o), const char *want)
{
	struct result_set s, back;
	char err[256] = "";
	json_t *o;

	assert_int_equal(result_set_take(&s, four_jobs(), 4), 0);
	o = result_set_to_json(&s);
	assert_non_null(o);
	mutate(o);
	assert_int_equal(result_set_from_json(o, &back, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
	result_set_release(&back);
	result_set_release(&s);
	json_decref(o);
}

static json_t *group0(json_t *o)
{
	return json_array_get(json_object_get(o, "groups"), 0);
}

static void more_ios(json_t *o)
{
	json_object_set_new(json_object_get(group0(o), "read"), "ios", json_integer(201));
}

static void fewer_groups(json_t *o)
{
	json_array_remove(json_object_get(o, "groups"), 2);
}

static void no_total(json_t *o)
{
	json_object_del(o, "total");
}

static void one_job(json_t *o)
{
	json_t *j = json_object_get(o, "jobs");

	while (json_array_size(j) > 1)
		json_array_remove(j, 1);
}

static void old_job(json_t *o)
{
	json_object_set_new(json_array_get(json_object_get(o, "jobs"), 1), "schema",
			    json_integer(1));
}

static void bad_job(json_t *o)
{
	json_object_del(json_object_get(json_array_get(json_object_get(o, "jobs"), 2), "params"),
			"bs");
}

/* Job r's view of a device over its group's window (reads: the kernel's; ours: iorate's). */
static void add_view(struct result *r, const char *name, double seconds, uint64_t reads,
		     uint64_t ours, bool flush)
{
	struct device_view *v = realloc(r->devices, (r->ndevices + 1) * sizeof(*v));

	assert_non_null(v);
	r->devices = v;
	v = &v[r->ndevices++];
	/* Writes and trims of ours apart from reads, so a count left out of a sum shows. */
	*v = (struct device_view){.seconds = seconds, .read_ios = ours, .read_bytes = ours * 4096,
		.write_ios = ours + 1, .write_bytes = (ours + 1) * 8192, .trim_ios = ours + 2,
		.trim_bytes = (ours + 2) * 512,
		.disk = {.read_ios = reads, .read_bytes = reads * 4096, .busy_ms = 900,
			 .in_flight = reads % 3, .has_discard = true, .has_flush = flush}};
	snprintf(v->name, sizeof(v->name), "%s", name);
}

/* four_jobs() with what each job's devices saw, over its group's window. */
static struct result *four_jobs_viewed(void)
{
	struct result *j = four_jobs();

	add_view(&j[0], "loop7", 3.0, 201, 100, true);
	add_view(&j[1], "loop7", 3.0, 201, 100, true);
	add_view(&j[1], "vdb", 3.0, 7, 0, true);
	add_view(&j[2], "loop7", 1.5, 31, 30, false);
	return j;
}

/*
 * The jobs of a group hold the group's counts: a device they share is counted once, with
 * iorate's I/O added over them; the run adds the groups' counts and windows.
 */
static void test_device_views(void **state)
{
	struct result_set s, back;
	char *a, *b, err[256] = "";
	const struct device_view *v;
	json_t *o;

	assert_int_equal(result_set_take(&s, four_jobs_viewed(), 4), 0);
	assert_int_equal(s.groups[0].nviews, 2);
	v = &s.groups[0].views[0];
	assert_string_equal(v->name, "loop7");
	assert_true(v->disk.read_ios == 201 && v->read_ios == 200 && v->seconds == 3.0);
	assert_true(v->disk.has_flush && v->disk.busy_ms == 900);
	assert_true(v->read_bytes == 200 * 4096 && v->write_ios == 202);
	assert_true(v->write_bytes == 202 * 8192);
	assert_true(v->trim_ios == 204 && v->trim_bytes == 204 * 512);
	assert_string_equal(s.groups[0].views[1].name, "vdb");
	assert_int_equal(s.groups[1].nviews, 1);
	assert_int_equal(s.groups[2].nviews, 0);
	assert_int_equal(s.total.nviews, 2);
	v = &s.total.views[0];
	assert_true(v->disk.read_ios == 232 && v->disk.read_bytes == 232 * 4096);
	assert_true(v->read_ios == 230 && v->seconds == 4.5 && v->disk.busy_ms == 1800);
	assert_true(v->write_ios == 233 && v->write_bytes == 233 * 8192);
	assert_true(v->trim_ios == 236 && v->trim_bytes == 236 * 512);
	/* In flight at the end of the run: the last group's; flushes known in every group only. */
	assert_true(v->disk.in_flight == 31 % 3 && !v->disk.has_flush && v->disk.has_discard);
	assert_true(s.total.views[1].seconds == 3.0 && s.total.views[1].disk.read_ios == 7);
	/* The document reads back to the same text, groups and total computed again. */
	a = text_of_set(&s);
	o = json_loads(a, 0, NULL);
	assert_non_null(o);
	assert_int_equal(json_array_size(json_object_get(json_object_get(o, "total"),
							 "diskstats")), 2);
	assert_int_equal(result_set_from_json(o, &back, err, sizeof(err)), 0);
	b = text_of_set(&back);
	assert_string_equal(a, b);
	/* A group's devices that are not what its jobs hold are refused. */
	json_object_set_new(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(o, "groups"), 0), "diskstats"), 0), "iorate"), "read_ios",
		json_integer(100));
	result_set_release(&back);
	assert_int_equal(result_set_from_json(o, &back, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "groups[0].diskstats[0].iorate.read_ios: not what the jobs add "
			    "up to (groups and total are computed from jobs[])");
	free(a);
	free(b);
	json_decref(o);
	result_set_release(&s);
	result_set_release(&back);
}

static void test_refused(void **state)
{
	refused(more_ios, "groups[0].read.ios: not what the jobs add up to (groups and total are "
		"computed from jobs[])");
	refused(fewer_groups, "groups: not what the jobs add up to (groups and total are computed "
		"from jobs[])");
	refused(no_total, "total: missing");
	refused(one_job, "jobs: not an array of two runs or more (a run of one job is written as "
		"the run itself)");
	refused(old_job, "jobs[1].schema: not 2 (the jobs of a run are written in the current "
		"schema)");
	refused(bad_job, "jobs[2].params.bs: missing");
}

/* Documents: a run of several jobs is one set, or its jobs each a run. */
static void test_documents(void **state)
{
	struct result_set s, *sets;
	struct result *runs;
	size_t n;
	char err[256];
	json_t *o;

	assert_int_equal(result_set_take(&s, four_jobs(), 4), 0);
	o = result_set_to_json(&s);
	assert_int_equal(result_json_sets(o, &sets, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sets[0].njobs, 4);
	result_sets_free(sets, n);
	assert_int_equal(result_json_runs(o, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(runs[3].job.name, "d");
	result_array_free(runs, n);
	/* In a sweep's row, a bad run is named where it is. */
	json_t *doc = json_pack("{s:[{s:O}]}", "rows", "run", o);
	json_t *run = json_object_get(json_array_get(json_object_get(doc, "rows"), 0), "run");
	json_object_del(json_object_get(json_array_get(json_object_get(run, "jobs"), 0), "params"),
			"depth");
	assert_int_equal(result_json_sets(doc, &sets, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rows[0].run.jobs[0].params.depth: missing");
	assert_null(sets);
	json_decref(doc);
	json_decref(o);
	result_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_and_total),
		cmocka_unit_test(test_devices_and_cpu),
		cmocka_unit_test(test_device_views),
		cmocka_unit_test(test_one_job),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_documents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
