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
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <sqlite3.h>

#include "core/result.h"
#include "report/html.h"
#include "report/json.h"
#include "store/history.h"

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) near_at((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double eps, const char *expr, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b,
			 eps);
}

/* Each test gets its own database in a fresh temporary directory. */
struct fixture {
	char dir[64];
	char path[128];
	struct history *h;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[256] = "";

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/iorate-test-history.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/sub/dir/h.db", fx->dir);
	if (history_open(fx->path, &fx->h, err, sizeof(err))) {
		fprintf(stderr, "history_open: %s\n", err);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	history_close(fx->h);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd))
		return -1;
	free(fx);
	return 0;
}

/*
 * A 2-second run over two targets: /dev/zram0 read 100 I/Os at 100 us and written 50 at
 * 200 us; /data/t.dat read 300 I/Os at 50 us.
 */
static void make_result(struct result *r, const char *host, uint64_t start_ms, uint64_t bs)
{
	result_init(r);
	r->job.bs = bs;
	r->job.time_ns = 2000000000ull;
	r->job.threads = 2;
	r->job.depth = 4;
	r->job.write_pct = 30;
	r->job.command_line = strdup("iorate run -b4k -d2 /dev/zram0 /data/t.dat");
	strcpy(r->job.origin, "run");
	strcpy(r->engine, "uring");
	strcpy(r->engine_why, "uring (probe succeeded)");
	r->start_unix_ms = start_ms;
	r->seconds = 2.0;
	snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", host);
	strcpy(r->host.kernel, "Linux 6.1.0");
	r->ntargets = 2;
	r->targets = calloc(2, sizeof(*r->targets));
	assert_non_null(r->targets);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_init(&r->targets[i].read);
		dir_stats_init(&r->targets[i].write);
	}
	r->targets[0].path = strdup("/dev/zram0");
	strcpy(r->targets[0].device, "zram0");
	for (unsigned i = 0; i < 100; i++)
		dir_stats_add(&r->targets[0].read, bs, 100000);
	for (unsigned i = 0; i < 50; i++)
		dir_stats_add(&r->targets[0].write, bs, 200000);
	r->targets[1].path = strdup("/data/t.dat");
	for (unsigned i = 0; i < 300; i++)
		dir_stats_add(&r->targets[1].read, bs, 50000);
	for (unsigned i = 0; i < 2; i++) {
		dir_stats_merge(&r->read, &r->targets[i].read);
		dir_stats_merge(&r->write, &r->targets[i].write);
	}
	r->nseries = 2;
	r->series = calloc(2, sizeof(*r->series));
	assert_non_null(r->series);
	r->series[0] = (struct series_point){.t = 1, .seconds = 1, .read_ios = 200,
		.write_ios = 25, .read_bytes = 200 * bs, .write_bytes = 25 * bs,
		.p99_ns = 200000, .credit_iops = -1, .credit_mbps = -1};
	r->series[1] = (struct series_point){.t = 2, .seconds = 1, .read_ios = 200,
		.write_ios = 25, .read_bytes = 200 * bs, .write_bytes = 25 * bs,
		.p99_ns = 200000, .credit_iops = -1, .credit_mbps = -1};
}

static int64_t save(struct history *h, const char *host, uint64_t start_ms, uint64_t bs)
{
	struct result r;
	char err[256] = "";
	int64_t id = 0;

	make_result(&r, host, start_ms, bs);
	if (history_save(h, &r, &id, err, sizeof(err)))
		fail_msg("history_save: %s", err);
	result_release(&r);
	assert_true(id > 0);
	return id;
}

static void test_open_empty(void **state)
{
	struct fixture *fx = *state;
	struct history_run *runs;
	size_t n = 1;

	assert_int_equal(history_schema_version(fx->h), HISTORY_SCHEMA);
	assert_string_equal(history_path(fx->h), fx->path);
	assert_int_equal(history_list(fx->h, NULL, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 0);
	history_runs_free(runs, n);
	/* Reopening an up-to-date database migrates nothing and keeps the version. */
	history_close(fx->h);
	assert_int_equal(history_open(fx->path, &fx->h, NULL, 0), 0);
	assert_int_equal(history_schema_version(fx->h), HISTORY_SCHEMA);
}

static void test_newer_schema_refused(void **state)
{
	struct fixture *fx = *state;
	struct history *h2 = NULL;
	char err[256] = "";
	sqlite3 *db;

	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE schema_version SET version = 99", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history_open(fx->path, &h2, err, sizeof(err)), -EPROTO);
	assert_null(h2);
	assert_non_null(strstr(err, "99"));
}

static void test_foreign_db_refused(void **state)
{
	struct fixture *fx = *state;
	struct history *h2 = NULL;
	char path[160], err[256] = "";
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/other.db", fx->dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history_open(path, &h2, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "not an iorate history"));
}

static void test_save_and_get(void **state)
{
	struct fixture *fx = *state;
	struct history_run run;
	int64_t id = save(fx->h, "alpha", 1700000000000ull, 4096);

	assert_int_equal(history_get(fx->h, id, &run, NULL, 0), 0);
	assert_int_equal(run.id, id);
	assert_int_equal(run.start_unix_ms, 1700000000000ll);
	assert_string_equal(run.host, "alpha");
	assert_string_equal(run.kernel, "Linux 6.1.0");
	assert_int_equal(run.bs, 4096);
	assert_int_equal(run.threads, 2);
	assert_int_equal(run.depth, 4);
	assert_int_equal(run.write_pct, 30);
	assert_string_equal(run.pattern, "random");
	assert_string_equal(run.engine, "uring");
	assert_false(run.interrupted);
	assert_null(run.error);
	assert_null(run.label);
	assert_int_equal(run.ntargets, 2);
	assert_string_equal(run.targets[0], "/dev/zram0");
	assert_string_equal(run.targets[1], "/data/t.dat");
	/* 400 reads and 50 writes in 2 s */
	assert_int_equal(run.dir[0].ios, 400);
	assert_near(run.dir[0].iops, 200, 1e-9);
	assert_near(run.dir[1].iops, 25, 1e-9);
	assert_near(run.dir[2].iops, 225, 1e-9);
	assert_near(run.dir[2].mibps, 225 * 4096.0 / 1048576, 1e-9);
	assert_true(run.dir[1].has_lat);
	assert_near(run.dir[1].mean_us, 200, 1);
	assert_near(run.dir[1].p99_us, 200, 1);
	history_run_release(&run);
	assert_int_equal(history_get(fx->h, id + 1, &run, NULL, 0), -ENOENT);
}

/* The JSON kept is the run's own: printed again it is what 'iorate run --json' printed. */
static void test_json_identical(void **state)
{
	struct fixture *fx = *state;
	struct result r;
	json_t *orig, *back;
	char *text = NULL, *a, *b;
	int64_t id = 0;

	make_result(&r, "alpha", 1700000000000ull, 4096);
	assert_int_equal(history_save(fx->h, &r, &id, NULL, 0), 0);
	orig = report_json_result(&r);
	result_release(&r);
	assert_int_equal(history_get_json(fx->h, id, &text, NULL, 0), 0);
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	a = json_dumps(orig, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	b = json_dumps(back, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(text);
	json_decref(orig);
	json_decref(back);
	assert_int_equal(history_get_json(fx->h, 999, &text, NULL, 0), -ENOENT);
}

/* history_get_obj: the stored run parsed; a run whose text no longer parses is -EBADMSG. */
static void test_get_obj(void **state)
{
	struct fixture *fx = *state;
	int64_t id = save(fx->h, "alpha", 1700000000000ull, 4096);
	char err[256] = "", want[64];
	sqlite3 *db;
	json_t *run;

	assert_int_equal(history_get_obj(fx->h, id, &run, err, sizeof(err)), 0);
	assert_non_null(run);
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "host"),
							      "hostname")), "alpha");
	json_decref(run);
	assert_int_equal(history_get_obj(fx->h, id + 1, &run, err, sizeof(err)), -ENOENT);
	assert_null(run);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET result_json = '{'", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history_get_obj(fx->h, id, &run, err, sizeof(err)), -EBADMSG);
	assert_null(run);
	snprintf(want, sizeof(want), "run %lld: the stored JSON does not parse", (long long)id);
	assert_string_equal(err, want);
}

/* history_runs_in_file: the runs of a file, or why there are none, starting with its path. */
static void test_runs_in_file(void **state)
{
	struct fixture *fx = *state;
	char path[160], err[512] = "";
	struct result r;
	json_t *run, *runs;
	FILE *f;

	make_result(&r, "delta", 1700000000000ull, 4096);
	run = report_json_result(&r);
	result_release(&r);
	snprintf(path, sizeof(path), "%s/run.json", fx->dir);
	assert_int_equal(json_dump_file(run, path, 0), 0);
	json_decref(run);
	assert_int_equal(history_runs_in_file(path, &runs, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(runs), 1);
	json_decref(runs);

	snprintf(path, sizeof(path), "%s/empty.json", fx->dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"schema\": 1}", f);
	fclose(f);
	assert_int_equal(history_runs_in_file(path, &runs, err, sizeof(err)), -ENODATA);
	assert_null(runs);
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	assert_non_null(strstr(err, ": holds no run (expected the JSON of 'iorate run --json'"));

	assert_non_null(f = fopen(path, "w"));
	fputs("{", f);
	fclose(f);
	assert_int_equal(history_runs_in_file(path, &runs, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ": not JSON: "));

	snprintf(path, sizeof(path), "%s/missing.json", fx->dir);
	assert_int_equal(history_runs_in_file(path, &runs, err, sizeof(err)), -EIO);
	assert_null(strstr(err, "not JSON"));
}

static void test_list_filters(void **state)
{
	struct fixture *fx = *state;
	struct history_filter f = {0};
	struct history_run *runs;
	size_t n;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "beta", 1700000100000ull, 8192);
	int64_t c = save(fx->h, "alpha", 1700000200000ull, 65536);

	assert_int_equal(history_list(fx->h, NULL, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 3);
	assert_int_equal(runs[0].id, c); /* newest first */
	assert_int_equal(runs[2].id, a);
	history_runs_free(runs, n);

	f.host = "alpha";
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	history_runs_free(runs, n);

	f.host = NULL;
	f.since_unix_ms = 1700000100000ll;
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_int_equal(runs[1].id, b);
	history_runs_free(runs, n);

	f.since_unix_ms = 0;
	f.limit = 1;
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, c);
	history_runs_free(runs, n);

	f.limit = 0;
	f.target = "zram"; /* a part of the path */
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 3);
	history_runs_free(runs, n);
	f.target = "/data/%.dat"; /* a LIKE pattern */
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 3);
	history_runs_free(runs, n);
	f.target = "/nowhere";
	assert_int_equal(history_list(fx->h, &f, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 0);
	history_runs_free(runs, n);
}

/* What 'history compare' sets side by side: the same figures from two runs. */
static void test_compare(void **state)
{
	struct fixture *fx = *state;
	struct history_run x, y;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "alpha", 1700086400000ull, 8192);

	assert_int_equal(history_get(fx->h, a, &x, NULL, 0), 0);
	assert_int_equal(history_get(fx->h, b, &y, NULL, 0), 0);
	/* Same I/O counts, twice the block size: the same IOPS, twice the MiB/s. */
	assert_near(y.dir[2].iops / x.dir[2].iops, 1, 1e-12);
	assert_near(y.dir[2].mibps / x.dir[2].mibps, 2, 1e-12);
	assert_near(y.dir[0].p99_us / x.dir[0].p99_us, 1, 1e-12);
	assert_int_not_equal(x.bs, y.bs);
	history_run_release(&x);
	history_run_release(&y);
}

static void test_import_json(void **state)
{
	struct fixture *fx = *state;
	struct history_run run;
	struct result r;
	json_t *o;
	char *text, err[256] = "";
	int64_t id = 0, id2 = 0;

	make_result(&r, "gamma", 1700000000000ull, 4096);
	o = report_json_result(&r);
	result_release(&r);
	json_object_set_new(o, "interrupted", json_true());
	json_object_set_new(o, "error", json_string("I/O error on /dev/zram0"));
	text = json_dumps(o, JSON_INDENT(2));
	assert_int_equal(history_save_json(fx->h, text, "day 1", &id, err, sizeof(err)), 0);
	assert_int_equal(history_get(fx->h, id, &run, NULL, 0), 0);
	assert_string_equal(run.label, "day 1");
	assert_string_equal(run.host, "gamma");
	assert_true(run.interrupted);
	assert_string_equal(run.error, "I/O error on /dev/zram0");
	history_run_release(&run);
	/* The same file again is not a second run. */
	assert_int_equal(history_save_json(fx->h, text, NULL, &id2, err, sizeof(err)), -EEXIST);
	assert_int_equal(id2, id);
	free(text);
	json_decref(o);

	assert_int_equal(history_save_json(fx->h, "{", NULL, &id, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not JSON"));
	assert_int_equal(history_save_json(fx->h, "{\"schema\":1}", NULL, &id, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "not a run"));
	assert_int_equal(history_save_json(fx->h, "{\"schema\":2}", NULL, &id, err, sizeof(err)),
			 -EINVAL);
}

/* A sweep's rows and a mark's tests hold runs; history_runs_in finds them. */
static void test_runs_in(void **state)
{
	struct result r;
	json_t *run, *doc, *runs;

	make_result(&r, "delta", 1700000000000ull, 4096);
	run = report_json_result(&r);
	result_release(&r);
	runs = history_runs_in(run);
	assert_int_equal(json_array_size(runs), 1);
	json_decref(runs);
	doc = json_pack("{s:i,s:[{s:i,s:O},{s:i,s:O}]}", "schema", 1, "rows", "value", 1, "run",
			run, "value", 2, "run", run);
	runs = history_runs_in(doc);
	assert_int_equal(json_array_size(runs), 2);
	json_decref(runs);
	json_decref(doc);
	doc = json_pack("{s:i,s:[{s:{s:O},s:n}]}", "schema", 1, "tests", "read", "result", run,
			"write");
	runs = history_runs_in(doc);
	assert_int_equal(json_array_size(runs), 1);
	json_decref(runs);
	json_decref(doc);
	json_decref(run);
}

static void test_remove(void **state)
{
	struct fixture *fx = *state;
	struct history_run *runs;
	size_t n;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "alpha", 1700000001000ull, 4096);

	assert_int_equal(history_remove(fx->h, a, NULL, 0), 0);
	assert_int_equal(history_remove(fx->h, a, NULL, 0), -ENOENT);
	assert_int_equal(history_list(fx->h, NULL, &runs, &n, NULL, 0), 0);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].id, b);
	history_runs_free(runs, n);
}

static void test_default_path(void **state)
{
	char buf[512];

	setenv("IORATE_HISTORY", "/x/h.db", 1);
	assert_int_equal(history_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/h.db");
	unsetenv("IORATE_HISTORY");
	setenv("XDG_DATA_HOME", "/xdg", 1);
	assert_int_equal(history_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/xdg/iorate/history.db");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(history_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/iorate/history.db");
	assert_int_equal(history_default_path(buf, 8), -ENAMETOOLONG);
}

/* The HTML page escapes what came from the run: a target path cannot inject markup. */
static void test_html_escapes(void **state)
{
	struct result r;
	struct html_run hr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	make_result(&r, "<b>host</b>", 1700000000000ull, 4096);
	free(r.targets[1].path);
	r.targets[1].path = strdup("<script>alert(1)</script>");
	hr.run = report_json_result(&r);
	hr.label = "run & <1>";
	result_release(&r);
	assert_non_null(f);
	assert_int_equal(report_html_write(f, "a \"title\"", &hr, 1), 0);
	fclose(f);
	assert_null(strstr(buf, "<script>"));
	assert_null(strstr(buf, "<b>host"));
	assert_non_null(strstr(buf, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(buf, "run &amp; &lt;1&gt;"));
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "225.0")); /* total IOPS in the targets table */
	free(buf);
	json_decref(hr.run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_db_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_and_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_identical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_obj, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_in_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_json, setup, teardown),
		cmocka_unit_test(test_runs_in),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_html_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
