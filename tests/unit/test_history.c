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

#include "result/result_json.h"
#include "report/history_fmt.h"
#include "report/html.h"
#include "report/report.h"
#include "result/result_set.h"
#include "store/history.h"
#include "util/jsonout.h"

/* The fixtures beside this file (the tests run from the top of the tree). */
#define FIXTURES "tests/unit/fixtures"

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
	/* The default path's directories are made as needed (IORATE_HISTORY names it). */
	snprintf(fx->path, sizeof(fx->path), "%s/sub/dir/h.db", fx->dir);
	setenv("IORATE_HISTORY", fx->path, 1);
	if (history_open(NULL, &fx->h, err, sizeof(err))) {
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
		dir_stats_init(&r->targets[i].trim);
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

/* history_list's callback: the ids, in the order listed. */
struct ids {
	int64_t id[16];
	size_t n;
};

static int collect(const struct history_entry *e, void *arg)
{
	struct ids *x = arg;

	assert_true(x->n < 16);
	x->id[x->n++] = e->id;
	return 0;
}

static size_t list(struct history *h, const struct history_filter *f, struct ids *x)
{
	char err[256] = "";

	memset(x, 0, sizeof(*x));
	if (history_list(h, f, collect, x, err, sizeof(err)))
		fail_msg("history_list: %s", err);
	return x->n;
}

/* The JSON the history keeps of r: compact, shortest exact reals. */
static char *text_of(const struct result *r)
{
	json_t *o = result_to_json(r);
	char *t = jsonout_dumps(o, JSON_COMPACT);

	json_decref(o);
	assert_non_null(t);
	return t;
}

static char *render_text(const struct result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_text.write(f, r, NULL), 0);
	fclose(f);
	return buf;
}

static void test_open_empty(void **state)
{
	struct fixture *fx = *state;
	struct ids x;

	assert_int_equal(history_schema_version(fx->h), HISTORY_SCHEMA);
	assert_string_equal(history_path(fx->h), fx->path);
	assert_int_equal(list(fx->h, NULL, &x), 0);
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

/* A run comes back whole: the same JSON, the same text report, its histograms included. */
static void test_save_and_get(void **state)
{
	struct fixture *fx = *state;
	struct history_entry e;
	struct result r;
	char *a, *b;
	int64_t id = 0;

	make_result(&r, "alpha", 1700000000000ull, 4096);
	assert_int_equal(history_save(fx->h, &r, &id, NULL, 0), 0);
	assert_int_equal(history_get(fx->h, id, &e, NULL, 0), 0);
	assert_int_equal(e.id, id);
	assert_null(e.label);
	assert_string_equal(e.run.jobs[0].host.hostname, "alpha");
	assert_int_equal(e.run.jobs[0].ntargets, 2);
	assert_non_null(e.run.jobs[0].targets[0].write.hist);
	assert_memory_equal(e.run.jobs[0].targets[0].write.hist->counts,
			    r.targets[0].write.hist->counts,
			    sizeof(r.targets[0].write.hist->counts));
	a = text_of(&r);
	b = text_of(&e.run.jobs[0]);
	assert_string_equal(a, b);
	free(a);
	free(b);
	a = render_text(&r);
	b = render_text(&e.run.jobs[0]);
	assert_string_equal(a, b);
	free(a);
	free(b);
	history_entry_release(&e);
	result_release(&r);
	assert_int_equal(history_get(fx->h, id + 1, &e, NULL, 0), -ENOENT);
	history_entry_release(&e);
}

/* The SQL columns are figures of the struct, for filtering and for sqlite3 users. */
static void test_columns(void **state)
{
	struct fixture *fx = *state;
	int64_t id = save(fx->h, "alpha", 1700000000000ull, 4096);
	sqlite3_stmt *st;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT host, bs, write_pct, targets, total_ios, "
		"total_iops, write_p99_us, read_mean_us FROM runs WHERE id = ?1", -1, &st, NULL),
		SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "alpha");
	assert_int_equal(sqlite3_column_int64(st, 1), 4096);
	assert_int_equal(sqlite3_column_int64(st, 2), 30);
	assert_string_equal((const char *)sqlite3_column_text(st, 3), "[\"/dev/zram0\",\"/data/t.dat\"]");
	/* 400 reads and 50 writes in 2 s */
	assert_int_equal(sqlite3_column_int64(st, 4), 450);
	assert_near(sqlite3_column_double(st, 5), 225, 1e-9);
	assert_near(sqlite3_column_double(st, 6), 200, 1);
	assert_near(sqlite3_column_double(st, 7), (100 * 100 + 300 * 50) / 400.0, 1e-9);
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*), sum(read_ios) FROM targets "
					    "WHERE run_id = ?1", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(st, 0), 2);
	assert_int_equal(sqlite3_column_int64(st, 1), 400);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* A run of three jobs: two of make_result() in group 0 (4 and 8 KiB), one in group 1. */
static void make_set(struct result_set *s)
{
	struct result *j = calloc(3, sizeof(*j));
	static const char *const names[] = {"a", "b", "c"};

	assert_non_null(j);
	for (unsigned i = 0; i < 3; i++) {
		make_result(&j[i], "alpha", 1700000000000ull + i, i == 1 ? 8192 : 4096);
		j[i].job.name = strdup(names[i]);
		j[i].job.group = i == 2;
		j[i].started = true;
	}
	assert_int_equal(result_set_take(s, j, 3), 0);
}

/* One integer of an SQL query on the database at path. */
static int64_t sql_int(const char *path, const char *sql)
{
	sqlite3_stmt *st;
	sqlite3 *db;
	int64_t v;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* A run of several jobs is one entry: its JSON, its row, a row per job and per target. */
static void test_save_set(void **state)
{
	struct fixture *fx = *state;
	struct result_set s;
	struct history_entry e;
	char err[256] = "";
	int64_t id = 0;
	json_t *a, *b;

	make_set(&s);
	assert_int_equal(history_save_set(fx->h, &s, "three", &id, err, sizeof(err)), 0);
	assert_int_equal(history_save_set(fx->h, &s, NULL, NULL, err, sizeof(err)), -EEXIST);
	assert_int_equal(history_get(fx->h, id, &e, err, sizeof(err)), 0);
	assert_int_equal(e.run.njobs, 3);
	assert_int_equal(e.run.ngroups, 2);
	assert_string_equal(e.run.jobs[2].job.name, "c");
	a = result_set_to_json(&s);
	b = result_set_to_json(&e.run);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	/* The row: the jobs' count, what they share (threads), NULL where they differ (bs). */
	assert_int_equal(sql_int(fx->path, "SELECT njobs FROM runs"), 3);
	assert_int_equal(sql_int(fx->path, "SELECT bs FROM runs"), -1);
	assert_int_equal(sql_int(fx->path, "SELECT threads FROM runs"), 2);
	assert_int_equal(sql_int(fx->path, "SELECT total_ios FROM runs"), 3 * 450);
	assert_int_equal(sql_int(fx->path, "SELECT start_unix_ms FROM runs"), 1700000000000);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM jobs WHERE grp = 0"), 2);
	assert_int_equal(sql_int(fx->path, "SELECT bs FROM jobs WHERE name = 'b'"), 8192);
	assert_int_equal(sql_int(fx->path, "SELECT total_ios FROM jobs WHERE idx = 2"), 450);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM targets"), 6);
	assert_int_equal(sql_int(fx->path, "SELECT job FROM targets WHERE idx = 5"), 2);
	history_entry_release(&e);
	assert_int_equal(history_remove(fx->h, id, NULL, 0), 0);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM jobs"), 0);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM targets"), 0);
	result_set_release(&s);
}

/* How the listings show a run of several jobs: its total, how many jobs, "*" where they differ. */
static void test_list_set(void **state)
{
	struct history_row row = {.id = 7};
	struct result_set s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	make_set(&s);
	row.run = &s;
	assert_non_null(f);
	report_history_list_row(f, &row);
	report_history_csv_row(f, &row);
	fclose(f);
	assert_non_null(strstr(buf, "alpha              *      2x4   30 rand uring "));
	assert_non_null(strstr(buf, "/dev/zram0 /data/t.dat (+4) [3 jobs]"));
	assert_non_null(strstr(buf, ",iorate run -b4k -d2 /dev/zram0 /data/t.dat,3,"
				    "0,0,0,0,0,0,0,0,0,0,0,closed,\n"));
	o = report_history_run_json(&row);
	assert_int_equal(json_integer_value(json_object_get(o, "jobs")), 3);
	assert_true(json_is_null(json_object_get(json_object_get(o, "params"), "bs")));
	/* Three jobs of 450 I/Os over the groups' 2 s + 2 s. */
	assert_near(json_number_value(json_object_get(json_object_get(o, "total"), "iops")),
		    3 * 450 / 4.0, 1e-9);
	json_decref(o);
	free(buf);
	result_set_release(&s);
}

/* A stored run that cannot be read back is named with why; the others still list. */
static void test_bad_stored_json(void **state)
{
	struct fixture *fx = *state;
	int64_t id = save(fx->h, "alpha", 1700000000000ull, 4096);
	struct history_entry e;
	char err[256] = "", want[64];
	struct ids x;
	sqlite3 *db;

	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET result_json = '{'", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(history_get(fx->h, id, &e, err, sizeof(err)), -EBADMSG);
	history_entry_release(&e);
	snprintf(want, sizeof(want), "run %lld: the stored JSON does not parse", (long long)id);
	assert_string_equal(err, want);
	assert_int_equal(sqlite3_exec(db, "UPDATE runs SET result_json = '{\"schema\":2}'", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history_get(fx->h, id, &e, err, sizeof(err)), -EBADMSG);
	history_entry_release(&e);
	snprintf(want, sizeof(want), "run %lld: version: missing", (long long)id);
	assert_string_equal(err, want);
	memset(&x, 0, sizeof(x));
	assert_int_equal(history_list(fx->h, NULL, collect, &x, err, sizeof(err)), -EBADMSG);
	assert_string_equal(err, want);
}

static void test_list_filters(void **state)
{
	struct fixture *fx = *state;
	struct history_filter f = {0};
	struct ids x;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "beta", 1700000100000ull, 8192);
	int64_t c = save(fx->h, "alpha", 1700000200000ull, 65536);

	assert_int_equal(list(fx->h, NULL, &x), 3);
	assert_int_equal(x.id[0], c); /* newest first */
	assert_int_equal(x.id[2], a);
	f.host = "alpha";
	assert_int_equal(list(fx->h, &f, &x), 2);
	f.host = NULL;
	f.since_unix_ms = 1700000100000ll;
	assert_int_equal(list(fx->h, &f, &x), 2);
	assert_int_equal(x.id[1], b);
	f.since_unix_ms = 0;
	f.limit = 1;
	assert_int_equal(list(fx->h, &f, &x), 1);
	assert_int_equal(x.id[0], c);
	f.limit = 0;
	f.target = "zram"; /* a part of the path */
	assert_int_equal(list(fx->h, &f, &x), 3);
	f.target = "/data/%.dat"; /* a LIKE pattern */
	assert_int_equal(list(fx->h, &f, &x), 3);
	f.target = "/nowhere";
	assert_int_equal(list(fx->h, &f, &x), 0);
}

static int stop_at_first(const struct history_entry *e, void *arg)
{
	++*(int *)arg;
	return 42;
}

/* A callback that returns non-zero ends the listing with that value. */
static void test_list_stops(void **state)
{
	struct fixture *fx = *state;
	int calls = 0;

	save(fx->h, "alpha", 1700000000000ull, 4096);
	save(fx->h, "alpha", 1700000001000ull, 4096);
	assert_int_equal(history_list(fx->h, NULL, stop_at_first, &calls, NULL, 0), 42);
	assert_int_equal(calls, 1);
}

/* What 'history compare' sets side by side: the same figures from two runs. */
static void test_compare(void **state)
{
	struct fixture *fx = *state;
	struct history_entry x, y;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "alpha", 1700086400000ull, 8192);
	json_t *c, *fig;
	size_t i;

	assert_int_equal(history_get(fx->h, a, &x, NULL, 0), 0);
	assert_int_equal(history_get(fx->h, b, &y, NULL, 0), 0);
	struct history_row rx = {.id = x.id, .label = x.label, .run = &x.run};
	struct history_row ry = {.id = y.id, .label = y.label, .run = &y.run};
	c = report_history_compare_json(&rx, &ry);
	/* Same I/O counts, twice the block size: the same IOPS, twice the MiB/s. */
	json_array_foreach(json_object_get(c, "figures"), i, fig) {
		const char *d = json_string_value(json_object_get(fig, "direction"));
		const char *m = json_string_value(json_object_get(fig, "metric"));
		double q = json_real_value(json_object_get(fig, "ratio"));

		double x = json_number_value(json_object_get(fig, "a"));

		/* Each direction its own: 400 reads and 50 writes in 2 s. */
		if (!strcmp(m, "iops"))
			assert_near(x, !strcmp(d, "read") ? 200 : !strcmp(d, "write") ? 25 : 225,
				    1e-9);
		if (!strcmp(d, "total") && !strcmp(m, "iops"))
			assert_near(q, 1, 1e-12);
		if (!strcmp(d, "total") && !strcmp(m, "mibps"))
			assert_near(q, 2, 1e-12);
		if (!strcmp(d, "read") && !strcmp(m, "p99_us"))
			assert_near(q, 1, 1e-12);
	}
	assert_string_equal(json_string_value(json_array_get(json_object_get(c, "differences"),
							     0)), "--bs: 4KiB -> 8KiB");
	json_decref(c);
	history_entry_release(&x);
	history_entry_release(&y);
}

/* A label is kept; the same run again is not a second run. */
static void test_save_labeled(void **state)
{
	struct fixture *fx = *state;
	struct history_entry e;
	struct result r;
	char err[256] = "";
	int64_t id = 0, id2 = 0;

	make_result(&r, "gamma", 1700000000000ull, 4096);
	r.interrupted = true;
	strcpy(r.errmsg, "I/O error on /dev/zram0");
	assert_int_equal(history_save_labeled(fx->h, &r, "day 1", &id, err, sizeof(err)), 0);
	assert_int_equal(history_get(fx->h, id, &e, NULL, 0), 0);
	assert_string_equal(e.label, "day 1");
	assert_true(e.run.jobs[0].interrupted);
	assert_string_equal(e.run.jobs[0].errmsg, "I/O error on /dev/zram0");
	history_entry_release(&e);
	assert_int_equal(history_save_labeled(fx->h, &r, NULL, &id2, err, sizeof(err)), -EEXIST);
	assert_int_equal(id2, id);
	assert_string_equal(err, "already saved as run 1");
	result_release(&r);
}

static void test_remove(void **state)
{
	struct fixture *fx = *state;
	struct ids x;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "alpha", 1700000001000ull, 4096);

	assert_int_equal(history_remove(fx->h, a, NULL, 0), 0);
	assert_int_equal(history_remove(fx->h, a, NULL, 0), -ENOENT);
	assert_int_equal(list(fx->h, NULL, &x), 1);
	assert_int_equal(x.id[0], b);
}

/* A database of schema 1 (tests/unit/fixtures/history-v1.sql: three runs as iorate saved them
 * before it kept histograms, and one broken run added here) opened by this iorate. */
static struct history *open_v1(struct fixture *fx, char *path, size_t len)
{
	char *sql = NULL, err[256] = "";
	struct history *h = NULL;
	size_t n = 0;
	FILE *f = fopen(FIXTURES "/history-v1.sql", "r");
	sqlite3 *db;

	assert_non_null(f);
	assert_int_equal(getdelim(&sql, &n, '\0', f) > 0, 1);
	fclose(f);
	snprintf(path, len, "%s/v1.db", fx->dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	/* A run whose JSON lacks what schema 1 always held stays as it is. */
	assert_int_equal(sqlite3_exec(db, "INSERT INTO runs (start_unix_ms, saved_unix_ms, host, "
		"result_json) VALUES (1, 1, 'x', '{\"schema\":1,\"params\":{}}')", NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
	free(sql);
	if (history_open(path, &h, err, sizeof(err)))
		fail_msg("history_open: %s", err);
	return h;
}

/* The stored figure of a schema 1 run's direction, and the same from its struct. */
static void same_p99(const char *v1, const char *dir, const struct dir_stats *d, double secs)
{
	json_t *o = json_loads(v1, 0, NULL);
	json_t *lat = json_object_get(json_object_get(json_object_get(o, "total"), dir), "lat_us");
	struct dir_summary s;

	dir_stats_summarize(d, secs, &s);
	if (json_is_null(lat))
		assert_false(s.has_lat);
	else
		assert_true(json_number_value(json_object_get(lat, "p99")) == s.p99 &&
			    json_number_value(json_object_get(lat, "p99_9")) == s.p99_9 &&
			    json_number_value(json_object_get(lat, "max")) == s.lat_max);
	json_decref(o);
}

static void test_migrate_v1(void **state)
{
	struct fixture *fx = *state;
	char path[160], err[256] = "", *v1[5] = {0};
	struct history_entry e;
	struct history *h = open_v1(fx, path, sizeof(path));
	struct ids x;
	sqlite3_stmt *st;
	sqlite3 *db;

	assert_int_equal(history_schema_version(h), HISTORY_SCHEMA);
	/* The old text is kept beside the new; the broken run was left alone. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT id, result_json_v1, "
		"substr(result_json, 1, 11) FROM runs ORDER BY id", -1, &st, NULL), SQLITE_OK);
	for (int i = 1; i <= 4; i++) {
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 2),
				    i < 4 ? "{\"schema\":2" : "{\"schema\":1");
		if (i < 4)
			v1[i] = strdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(history_get(h, i, &e, err, sizeof(err)), 0);
		const struct result *j = &e.run.jobs[0];

		assert_non_null(strstr(j->notes[j->nnotes - 1], "without latency histograms"));
		same_p99(v1[i], "read", &e.run.jobs[0].read, e.run.jobs[0].seconds);
		same_p99(v1[i], "write", &e.run.jobs[0].write, e.run.jobs[0].seconds);
		history_entry_release(&e);
		free(v1[i]);
	}
	assert_int_equal(history_get(h, 2, &e, err, sizeof(err)), 0);
	assert_string_equal(e.label, "day 2");
	assert_int_equal(e.run.jobs[0].job.arrival, ARRIVAL_FIXED);
	assert_true(e.run.jobs[0].sched_ios_late > 0);
	assert_true(e.run.jobs[0].series[0].credit_iops >= 0);
	/* Saving the migrated run again finds it: the conversion is the one import makes. */
	assert_int_equal(history_save(h, &e.run.jobs[0], NULL, err, sizeof(err)), -EEXIST);
	history_entry_release(&e);
	assert_int_equal(history_get(h, 4, &e, err, sizeof(err)), -EBADMSG);
	assert_string_equal(err, "run 4: start_unix_ms: missing");
	history_entry_release(&e);
	assert_int_equal(history_remove(h, 4, NULL, 0), 0);
	assert_int_equal(list(h, NULL, &x), 3);
	history_close(h);
}

/*
 * A database of schema 2 (made here: this build's, taken back to schema 2) migrates to 3: a
 * row per stored run's job, its targets the job's.
 */
static void test_migrate_v2(void **state)
{
	struct fixture *fx = *state;
	char err[256] = "";
	struct history *h = NULL;
	sqlite3 *db;

	save(fx->h, "alpha", 1700000000000ull, 4096);
	save(fx->h, "beta", 1700000001000ull, 8192);
	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE jobs; ALTER TABLE runs DROP COLUMN njobs;"
				      "ALTER TABLE targets DROP COLUMN job; DROP TABLE devices;"
				      "ALTER TABLE runs DROP COLUMN output;"
				      "UPDATE schema_version SET version = 2", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	if (history_open(fx->path, &h, err, sizeof(err)))
		fail_msg("history_open: %s", err);
	fx->h = h;
	assert_int_equal(history_schema_version(h), HISTORY_SCHEMA);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM jobs"), 2);
	assert_int_equal(sql_int(fx->path, "SELECT bs FROM jobs WHERE run_id = 2"), 8192);
	assert_int_equal(sql_int(fx->path, "SELECT total_ios FROM jobs WHERE run_id = 1"), 450);
	assert_int_equal(sql_int(fx->path, "SELECT min(njobs) FROM runs"), 1);
	assert_int_equal(sql_int(fx->path, "SELECT max(job) FROM targets"), 0);
}

/* Job r's view of a device: the group's counts (reads), iorate's through its targets (ours). */
static void add_view(struct result *r, const char *name, uint64_t reads, uint64_t ours)
{
	struct device_view *v = realloc(r->devices, (r->ndevices + 1) * sizeof(*v));

	assert_non_null(v);
	r->devices = v;
	v = &v[r->ndevices++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->seconds = 2;
	v->disk = (struct disk_counts){.read_ios = reads, .read_bytes = reads * 4096,
				       .read_ms = reads / 10, .busy_ms = 1500, .queue_ms = 3000,
				       .has_flush = true, .flush_ios = 7};
	v->read_ios = ours;
	v->read_bytes = ours * 4096;
}

/* make_set()'s jobs with zram0 under them: a row per job, per group and for the total. */
static void save_set_with_devices(struct fixture *fx, int64_t *id)
{
	struct result_set s;
	char err[256] = "";

	make_set(&s);
	add_view(&s.jobs[0], "zram0", 1000, 400);
	add_view(&s.jobs[1], "zram0", 1000, 600);
	add_view(&s.jobs[2], "zram0", 300, 300);
	add_view(&s.jobs[2], "loop7", 5, 0);
	assert_int_equal(result_set_sum(&s), 0);
	assert_int_equal(history_save_set(fx->h, &s, NULL, id, err, sizeof(err)), 0);
	result_set_release(&s);
}

static void test_devices(void **state)
{
	struct fixture *fx = *state;
	int64_t id = 0;

	save_set_with_devices(fx, &id);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM devices WHERE scope = 'job'"), 4);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM devices WHERE scope = 'group'"),
			 3);
	/* The group counts the kernel once and adds iorate's jobs; the total adds the groups. */
	assert_int_equal(sql_int(fx->path, "SELECT read_ios FROM devices WHERE scope = 'group' "
				 "AND grp = 0"), 1000);
	assert_int_equal(sql_int(fx->path, "SELECT iorate_read_ios FROM devices WHERE "
				 "scope = 'group' AND grp = 0"), 1000);
	assert_int_equal(sql_int(fx->path, "SELECT read_ios FROM devices WHERE scope = 'total' "
				 "AND device = 'zram0'"), 1300);
	assert_int_equal(sql_int(fx->path, "SELECT read_bytes FROM devices WHERE job = 2 AND "
				 "device = 'zram0'"), 300 * 4096);
	assert_int_equal(sql_int(fx->path, "SELECT grp IS NULL AND job IS NULL FROM devices "
				 "WHERE scope = 'total' AND device = 'loop7'"), 1);
	/* What the kernel does not count is NULL, not 0. */
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM devices WHERE discard_ios IS "
				 "NULL AND flush_ios >= 7"), 4 + 3 + 2);
	assert_int_equal(sql_int(fx->path, "SELECT flush_ios FROM devices WHERE scope = 'total' "
				 "AND device = 'zram0'"), 14);
	assert_int_equal(sql_int(fx->path, "SELECT CAST(util_pct AS INTEGER) FROM devices WHERE "
				 "scope = 'total' AND device = 'zram0'"), 75);
	assert_int_equal(history_remove(fx->h, id, NULL, 0), 0);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM devices"), 0);
}

/* A database of schema 3 migrates to 4: the device rows of the runs it holds, from their JSON. */
static void test_migrate_v3(void **state)
{
	struct fixture *fx = *state;
	char err[256] = "";
	struct history *h = NULL;
	sqlite3 *db;

	save_set_with_devices(fx, NULL);
	save(fx->h, "beta", 1700000001000ull, 8192);
	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE devices; ALTER TABLE runs DROP COLUMN "
				      "output; UPDATE schema_version SET version = 3", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	if (history_open(fx->path, &h, err, sizeof(err)))
		fail_msg("history_open: %s", err);
	fx->h = h;
	assert_int_equal(history_schema_version(h), HISTORY_SCHEMA);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM devices"), 4 + 3 + 2);
	assert_int_equal(sql_int(fx->path, "SELECT count(DISTINCT run_id) FROM devices"), 1);
}

/* How a run was printed comes back with it; a run saved without it has format "". */
static void test_output(void **state)
{
	struct fixture *fx = *state;
	struct history_output out = {.format = "csv", .units = UNITS_SI, .series = true};
	struct history_entry e;
	struct result_set s;
	char err[256] = "";
	int64_t id = 0, plain;

	make_set(&s);
	assert_int_equal(history_save_printed(fx->h, &s, &out, &id, err, sizeof(err)), 0);
	plain = save(fx->h, "beta", 1700000001000ull, 8192);
	assert_int_equal(history_get(fx->h, id, &e, err, sizeof(err)), 0);
	assert_string_equal(e.output.format, "csv");
	assert_int_equal(e.output.units, UNITS_SI);
	assert_true(e.output.series);
	assert_false(e.output.brief);
	assert_int_equal(e.run.njobs, 3);
	history_entry_release(&e);
	assert_int_equal(history_get(fx->h, plain, &e, err, sizeof(err)), 0);
	assert_string_equal(e.output.format, "");
	history_entry_release(&e);
	assert_int_equal(sql_int(fx->path, "SELECT count(*) FROM runs WHERE output = "
				 "'{\"format\":\"csv\",\"units\":\"si\",\"series\":true,"
				 "\"brief\":false}'"), 1);
	result_set_release(&s);
}

/* A database of schema 4 migrates to 5: its runs have no output settings (format ""). */
static void test_migrate_v4(void **state)
{
	struct fixture *fx = *state;
	struct history_entry e;
	struct history *h = NULL;
	char err[256] = "";
	int64_t id = save(fx->h, "alpha", 1700000000000ull, 4096);
	sqlite3 *db;

	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN output; UPDATE "
				      "schema_version SET version = 4", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	if (history_open(fx->path, &h, err, sizeof(err)))
		fail_msg("history_open: %s", err);
	fx->h = h;
	assert_int_equal(history_schema_version(h), HISTORY_SCHEMA);
	assert_int_equal(history_get(h, id, &e, err, sizeof(err)), 0);
	assert_string_equal(e.output.format, "");
	assert_string_equal(e.run.jobs[0].host.hostname, "alpha");
	history_entry_release(&e);
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

/*
 * The HTML page escapes what came from the run: a target path cannot inject markup. A run's
 * devices are in their table, busy 1500 ms of the 2 s window.
 */
static void test_html_escapes(void **state)
{
	struct result r;
	struct result_set set;
	struct html_input in;
	struct html_opts o = {.title = "a \"title\""};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	make_result(&r, "<b>host</b>", 1700000000000ull, 4096);
	free(r.targets[1].path);
	r.targets[1].path = strdup("<script>alert(1)</script>");
	add_view(&r, "loop<7>", 1000, 400);
	assert_int_equal(result_set_view(&set, &r, 1), 0);
	html_input_init(&in);
	assert_int_equal(html_input_add(&in, &set, "run & <1>", "r.json"), 0);
	assert_non_null(f);
	assert_int_equal(report_html_write(f, &in, &o), 0);
	fclose(f);
	assert_null(strstr(buf, "<script>"));
	assert_null(strstr(buf, "<b>host"));
	assert_non_null(strstr(buf, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(buf, "run &amp; &lt;1&gt;"));
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "225.0")); /* total IOPS in the targets table */
	assert_non_null(strstr(buf, "Devices under the targets"));
	assert_null(strstr(buf, "loop<7>"));
	assert_non_null(strstr(buf, "<td class=\"l\">loop&lt;7&gt;</td><td class=\"l\">target"
				    "</td><td>2.000</td><td>1000</td><td>4096000</td>"));
	assert_non_null(strstr(buf, "<td>75.00</td>"));
	free(buf);
	html_input_release(&in);
	result_set_release(&set);
	result_release(&r);
}

/* The bytes of a file (the tests' own), malloc'd; *n its length. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((len = ftell(f)) >= 0);
	rewind(f);
	assert_non_null(buf = malloc((size_t)len + 1));
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

static void sql_at(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_close(db);
}

/*
 * The history with sql run on it is refused by history_open() with rc, naming the path and
 * why, and is not written; history_check_schema() on a read-only connection says the same.
 */
static void refused_after(struct fixture *fx, const char *sql, int rc, const char *why)
{
	char copy[192], err[512] = "", err2[512] = "", cmd[512];
	struct history *h = NULL;
	size_t n0, n1;
	char *before, *after;

	snprintf(copy, sizeof(copy), "%s/copy.db", fx->dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fx->path, copy);
	assert_int_equal(system(cmd), 0);
	sql_at(copy, sql);
	before = slurp(copy, &n0);
	if (history_open(copy, &h, err, sizeof(err)) != rc)
		fail_msg("after %s: %s", sql, err);
	assert_null(h);
	if (!strstr(err, copy) || !strstr(err, why))
		fail_msg("after %s: '%s' does not name %s and '%s'", sql, err, copy, why);
	after = slurp(copy, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	assert_int_equal(history_open_readonly(copy, &h, err2, sizeof(err2)), 0);
	assert_int_equal(history_check_schema(h, err2, sizeof(err2)), rc);
	assert_string_equal(err, err2);
	history_close(h);
	free(before);
	free(after);
	unlink(copy);
}

/* schema_version indexes the migrations: only one integer in 0..HISTORY_SCHEMA passes. */
static void test_schema_version_range(void **state)
{
	struct fixture *fx = *state;

	save(fx->h, "alpha", 1700000000000ull, 4096);
	history_close(fx->h);
	fx->h = NULL;
	refused_after(fx, "UPDATE schema_version SET version = -1", -EILSEQ,
		      "schema version -1 is not one iorate writes (0..5)");
	refused_after(fx, "UPDATE schema_version SET version = -100", -EILSEQ,
		      "schema version -100 is not");
	refused_after(fx, "UPDATE schema_version SET version = 9223372036854775807", -EPROTO,
		      "schema version 9223372036854775807 is newer than this iorate's");
	refused_after(fx, "UPDATE schema_version SET version = 6", -EPROTO, "newer");
	refused_after(fx, "UPDATE schema_version SET version = 'text'", -EILSEQ,
		      "the schema version is not an integer (text)");
	refused_after(fx, "UPDATE schema_version SET version = 4.5", -EILSEQ,
		      "not an integer (real)");
	refused_after(fx, "INSERT INTO schema_version VALUES (5)", -EILSEQ,
		      "schema_version holds several rows");
	refused_after(fx, "DELETE FROM schema_version", -EILSEQ, "schema_version holds no row");
	/* Every version in the range opens (an older one is migrated). */
	assert_int_equal(history_open(fx->path, &fx->h, NULL, 0), 0);
	assert_int_equal(history_schema_version(fx->h), HISTORY_SCHEMA);
}

/* The tables of the database's version are those iorate makes, and no trigger is there. */
static void test_schema_shape(void **state)
{
	struct fixture *fx = *state;

	history_close(fx->h);
	fx->h = NULL;
	refused_after(fx, "DROP TABLE devices", -EILSEQ, "the table devices is missing");
	refused_after(fx, "ALTER TABLE runs DROP COLUMN output", -EILSEQ,
		      "the table runs has no column output");
	/* Of an older version, the column that version has not yet is not asked for. */
	refused_after(fx, "ALTER TABLE runs DROP COLUMN output; ALTER TABLE runs DROP COLUMN njobs;"
		      "UPDATE schema_version SET version = 4", -EILSEQ, "no column njobs");
	refused_after(fx, "ALTER TABLE jobs RENAME TO j; CREATE VIEW jobs AS SELECT * FROM j",
		      -EILSEQ, "jobs is a view, not a table");
	refused_after(fx, "CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM jobs; END",
		      -EILSEQ, "holds a trigger (t)");
	refused_after(fx, "ALTER TABLE schema_version RENAME COLUMN version TO v", -EILSEQ,
		      "the table schema_version's column 1 is v INTEGER NOT NULL, not version");
	refused_after(fx, "DROP TABLE targets; CREATE TABLE targets (run_id TEXT)", -EILSEQ,
		      "the table targets's column 1 is run_id TEXT, not run_id INTEGER NOT NULL");
	/* A column a user added after iorate's is left alone. */
	sql_at(fx->path, "ALTER TABLE runs ADD COLUMN mine TEXT");
	assert_int_equal(history_open(fx->path, &fx->h, NULL, 0), 0);
}

/* What SQLite itself cannot read is refused before a row is: not SQLite, cut short. */
static void test_not_intact(void **state)
{
	struct fixture *fx = *state;
	struct history *h = NULL;
	char err[512] = "", *db;
	size_t n;

	save(fx->h, "alpha", 1700000000000ull, 4096);
	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(history_open_memory("hello, not a database", 21, &h, err, sizeof(err)),
			 -EILSEQ);
	assert_string_equal(err, ":memory:: not an SQLite database");
	db = slurp(fx->path, &n);
	assert_true(n > 8192);
	assert_int_equal(history_open_memory(db, n / 2, &h, err, sizeof(err)), -EILSEQ);
	assert_non_null(strstr(err, ":memory:: damaged: "));
	db[16] = 0, db[17] = 3; /* a page size that is no power of two */
	assert_int_equal(history_open_memory(db, n, &h, err, sizeof(err)), -EILSEQ);
	db[16] = (char)(n > 0 ? 0x40 : 0), db[17] = 0;
	assert_int_not_equal(history_open_memory(db, n, &h, err, sizeof(err)), 0);
	assert_null(h);
	free(db);
}

struct skips {
	int64_t id[8];
	char why[8][256];
	size_t n;
};

static void skipped(int64_t id, const char *why, void *arg)
{
	struct skips *k = ((struct skips **)arg)[1];

	assert_true(k->n < 8);
	k->id[k->n] = id;
	snprintf(k->why[k->n++], sizeof(k->why[0]), "%s", why);
}

static int collect2(const struct history_entry *e, void *arg)
{
	return collect(e, ((void **)arg)[0]);
}

static void check_run(int64_t id, const char *what, void *arg)
{
	skipped(id, what, arg);
}

/*
 * Each column of a run is checked before use: a label or JSON that is not text or holds a NUL
 * byte, JSON that does not parse or is of another shape. The listing skips such a run,
 * naming it and why, and history_check_runs() finds the same.
 */
static void test_row_checks(void **state)
{
	static const struct {
		const char *sql, *why;
	} bad[] = {
		{"UPDATE runs SET label = x'6100' WHERE id = ?", "the label is not text but a blob"},
		{"UPDATE runs SET label = CAST(x'610062' AS TEXT) WHERE id = ?",
		 "the label holds a NUL byte"},
		{"UPDATE runs SET result_json = x'7b7d' WHERE id = ?",
		 "the stored JSON is not text but a blob"},
		{"UPDATE runs SET result_json = CAST(x'7b00' AS TEXT) WHERE id = ?",
		 "the stored JSON holds a NUL byte"},
		{"UPDATE runs SET result_json = '[1' WHERE id = ?",
		 "the stored JSON does not parse"},
		{"UPDATE runs SET result_json = json_set(result_json, '$.params', json('[]')) "
		 "WHERE id = ?", "params: not an object"},
		{"UPDATE runs SET result_json = json_set(result_json, '$.params.bs', -1) WHERE id = ?",
		 "params.bs: not an integer"},
		{"UPDATE runs SET output = '{\"format\": 1}' WHERE id = ?",
		 "the stored output settings are not"},
	};
	struct fixture *fx = *state;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	int64_t b = save(fx->h, "beta", 1700000001000ull, 8192);
	int64_t c = save(fx->h, "gamma", 1700000002000ull, 16384);
	struct history_filter f = {.skipped = skipped};
	char sql[256], err[256], want[256];
	struct history_entry e;
	struct skips k;
	struct ids x;
	void *args[2] = {&x, &k};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char copy[192], cmd[512];
		struct history *h = NULL;

		snprintf(copy, sizeof(copy), "%s/row.db", fx->dir);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fx->path, copy);
		assert_int_equal(system(cmd), 0);
		snprintf(sql, sizeof(sql), "%s", bad[i].sql);
		*strchr(sql, '?') = '\0';
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), "%lld", (long long)b);
		sql_at(copy, sql);
		assert_int_equal(history_open(copy, &h, err, sizeof(err)), 0);
		snprintf(want, sizeof(want), "run %lld: %s", (long long)b, bad[i].why);
		assert_int_equal(history_get(h, b, &e, err, sizeof(err)), -EBADMSG);
		history_entry_release(&e);
		if (strncmp(err, want, strlen(want)))
			fail_msg("%s: '%s', not '%s'", sql, err, want);
		/* The listing goes on past it: the other two, newest first. */
		memset(&x, 0, sizeof(x));
		memset(&k, 0, sizeof(k));
		assert_int_equal(history_list(h, &f, collect2, args, err, sizeof(err)), 0);
		assert_int_equal(x.n, 2);
		assert_true(x.id[0] == c && x.id[1] == a);
		assert_int_equal(k.n, 1);
		assert_true(k.id[0] == b);
		assert_string_equal(k.why[0], err[0] ? k.why[0] : "");
		assert_int_equal(strncmp(k.why[0], want, strlen(want)), 0);
		/* Without skipped(), it stops there. */
		assert_int_equal(history_list(h, NULL, collect2, args, err, sizeof(err)), -EBADMSG);
		memset(&k, 0, sizeof(k));
		assert_int_equal(history_check_runs(h, check_run, args, err, sizeof(err)), 1);
		assert_int_equal(k.n, 1);
		assert_int_equal(strncmp(k.why[0], want, strlen(want)), 0);
		history_close(h);
		unlink(copy);
	}
	memset(&k, 0, sizeof(k));
	assert_int_equal(history_check_runs(fx->h, check_run, args, err, sizeof(err)), 0);
	assert_int_equal(k.n, 0);
}

static void integrity_line(const char *what, void *arg)
{
	struct skips *k = arg;

	assert_true(k->n < 8);
	snprintf(k->why[k->n++], sizeof(k->why[0]), "%s", what);
}

/* history_integrity(): rows whose run is missing, named by the run; a clean file has none. */
static void test_integrity(void **state)
{
	struct fixture *fx = *state;
	int64_t a = save(fx->h, "alpha", 1700000000000ull, 4096);
	struct history *h = NULL;
	char err[256], want[128];
	struct skips k = {0};

	history_close(fx->h);
	fx->h = NULL;
	assert_int_equal(history_open_readonly(fx->path, &h, err, sizeof(err)), 0);
	assert_int_equal(history_integrity(h, integrity_line, &k, err, sizeof(err)), 0);
	history_close(h);
	sql_at(fx->path, "PRAGMA foreign_keys = OFF; DELETE FROM runs");
	assert_int_equal(history_open_readonly(fx->path, &h, err, sizeof(err)), 0);
	assert_int_equal(history_integrity(h, integrity_line, &k, err, sizeof(err)), 3);
	snprintf(want, sizeof(want), "jobs: a row of run %lld, which is missing", (long long)a);
	assert_string_equal(k.why[0], want);
	snprintf(want, sizeof(want), "targets: a row of run %lld, which is missing", (long long)a);
	assert_string_equal(k.why[1], want);
	assert_string_equal(k.why[2], want); /* its second target */
	history_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_db_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_and_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_stored_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_labeled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_schema_version_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_schema_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_intact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_integrity, setup, teardown),
		cmocka_unit_test(test_list_set),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_html_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
