/* The dry run's report from its view alone: text and JSON, as src/report/dry_run_fmt.c writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/job.h"
#include "report/dry_run_fmt.h"

typedef int (*writer)(FILE *f, const struct dry_run_report *d);

/* What w wrote for d, in a new string; rc what it returned. */
static char *written(writer w, const struct dry_run_report *d, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	*rc = w(m, d);
	assert_int_equal(fclose(m), 0);
	return text;
}

/*
 * Two sections: the first with numjobs=2 (its clone points at it), an option longer than the
 * column's bound, a note with a control byte; the second in run group 1.
 */
static const struct dry_run_item items_a[] = {
	{.where = "a.fio:2", .option = "bs=4k", .became = "--bs 4KiB", .note = NULL},
	{.where = "a.fio:3", .option = "description=far longer than the column of options",
	 .became = "(no effect)", .note = "a\tb"},
	{.where = "default", .option = "iodepth=1", .became = "--depth 1", .note = ""},
};
static const struct dry_run_item items_b[] = {
	{.where = "a.fio:9", .option = "stonewall", .became = "group 1", .note = "after"},
};

struct fixture {
	struct job jobs[3];
	struct dry_run_job view[3];
};

static void fixture_init(struct fixture *x)
{
	for (int i = 0; i < 3; i++)
		job_init(&x->jobs[i]);
	x->jobs[2].group = 1;
	x->jobs[0].bs = x->jobs[1].bs = 4096;
	x->view[0] = (struct dry_run_job){.name = "seq", .where = "a.fio:1", .clone = 0,
					  .clones = 2, .items = items_a, .nitems = 3,
					  .equivalent = "--bs 4KiB f", .job = &x->jobs[0]};
	x->view[1] = x->view[0];
	x->view[1].clone = 1;
	x->view[1].equivalent = "--bs 4KiB --seed 1 f";
	x->view[1].job = &x->jobs[1];
	x->view[2] = (struct dry_run_job){.name = "r", .where = "a.fio:8", .clone = 0,
					  .clones = 1, .items = items_b, .nitems = 1,
					  .equivalent = "--random f", .job = &x->jobs[2]};
}

static void fixture_release(struct fixture *x)
{
	for (int i = 0; i < 3; i++)
		job_release(&x->jobs[i]);
}

static void translation_text(void **state)
{
	struct fixture x;
	int rc;

	fixture_init(&x);
	struct dry_run_report d = {.jobs = x.view, .njobs = 3, .then = "iorate run --job a.fio"};
	char *t = written(dry_run_fmt_text, &d, &rc);

	assert_int_equal(rc, 0);
	/* Columns as wide as the widest within their bounds; the long option pushes its line. */
	assert_string_equal(
		t, "job 'seq', 1 of 2 (a.fio:1), run group 0:\n"
		   "  a.fio:2 bs=4k     --bs 4KiB\n"
		   "  a.fio:3 description=far longer than the column of options (no effect): a\\tb\n"
		   "  default iodepth=1 --depth 1\n"
		   "  = iorate run --bs 4KiB f\n"
		   "\n"
		   "job 'seq', 2 of 2 (a.fio:1), run group 0: as the first\n"
		   "  = iorate run --bs 4KiB --seed 1 f\n"
		   "\n"
		   "job 'r' (a.fio:8), run group 1:\n"
		   "  a.fio:9 stonewall group 1: after\n"
		   "  = iorate run --random f\n"
		   "\n"
		   "then, over every job, the options of: iorate run --job a.fio\n");
	free(t);
	fixture_release(&x);
}

static void translation_json(void **state)
{
	struct fixture x;
	json_error_t e;
	int rc;

	fixture_init(&x);
	struct dry_run_report d = {.jobs = x.view, .njobs = 3, .then = "not in JSON"};
	char *t = written(dry_run_fmt_json, &d, &rc);
	json_t *o = json_loads(t, 0, &e), *jobs, *j;

	assert_int_equal(rc, 0);
	assert_null(strstr(t, "not in JSON"));
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "translation")), "fio");
	jobs = json_object_get(o, "jobs");
	assert_int_equal(json_array_size(jobs), 3);
	j = json_array_get(jobs, 1);
	assert_string_equal(json_string_value(json_object_get(j, "name")), "seq");
	assert_int_equal(json_integer_value(json_object_get(j, "job")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "numjobs")), 2);
	/* A clone's options are listed in JSON too; its params are its own job's. */
	assert_int_equal(json_array_size(json_object_get(j, "options")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "params"), "bs")),
			 4096);
	j = json_array_get(jobs, 2);
	assert_int_equal(json_integer_value(json_object_get(j, "group")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "equivalent")), "--random f");
	j = json_array_get(json_object_get(json_array_get(jobs, 0), "options"), 0);
	assert_true(json_is_null(json_object_get(j, "note")));
	assert_string_equal(json_string_value(json_object_get(j, "became")), "--bs 4KiB");
	json_decref(o);
	free(t);
	fixture_release(&x);
}

/* One job: its 'iorate run' line in text, its params in JSON. */
static void one_job(void **state)
{
	struct job j;
	json_error_t e;
	int rc;

	job_init(&j);
	j.bs = 8192;
	struct dry_run_report d = {.job = &j, .equivalent = "iorate run --bs 8KiB x.dat"};
	char *t = written(dry_run_fmt_text, &d, &rc);

	assert_int_equal(rc, 0);
	assert_string_equal(t, "iorate run --bs 8KiB x.dat\n");
	free(t);
	t = written(dry_run_fmt_json, &d, &rc);
	assert_int_equal(rc, 0);
	json_t *o = json_loads(t, 0, &e);
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "bs")), 8192);
	json_decref(o);
	free(t);
	job_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(translation_text),
		cmocka_unit_test(translation_json),
		cmocka_unit_test(one_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
