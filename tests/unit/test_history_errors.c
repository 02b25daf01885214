/*
 * The history's failures: every SQLite call the store makes fails in turn (ld --wrap around
 * sqlite3_prepare_v2, sqlite3_step and sqlite3_exec, see the Makefile), and each open, save,
 * query and removal must say so with SQLite's result code as its -errno and change nothing; a
 * file-size limit makes a save fail as a full disk does, with the system's reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "result/result_set.h"
#include "store/history.h"

#define FIXTURES "tests/unit/fixtures"

/* The call to fail, counted over the three wrapped functions from when a test armed it. */
static struct {
	bool armed, fired;
	int at, calls, rc;
	char sql[128];             /* what the failed call would have run */
	bool ref;                  /* on a database in memory (the schema's reference) */
} fx;

static bool fail_now(sqlite3 *db, const char *sql)
{
	if (!fx.armed || fx.fired || fx.calls++ != fx.at)
		return false;
	fx.fired = true;
	fx.ref = !*sqlite3_db_filename(db, "main");
	snprintf(fx.sql, sizeof(fx.sql), "%s", sql ? sql : "?");
	return true;
}

static void arm(int at, int rc)
{
	fx = (typeof(fx)){.armed = true, .at = at, .rc = rc};
}

int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail);
int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail)
{
	if (fail_now(db, sql)) {
		*st = NULL;
		return fx.rc;
	}
	return __real_sqlite3_prepare_v2(db, sql, n, st, tail);
}

int __real_sqlite3_step(sqlite3_stmt *st);
int __wrap_sqlite3_step(sqlite3_stmt *st)
{
	return fail_now(sqlite3_db_handle(st), sqlite3_sql(st)) ? fx.rc : __real_sqlite3_step(st);
}

int __real_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **msg);
int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **msg)
{
	return fail_now(db, sql) ? fx.rc : __real_sqlite3_exec(db, sql, cb, arg, msg);
}

static char dir[] = "/tmp/iorate-test-history-errors.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* A one-second run of 10 reads of 4 KiB at 100 us from one target; released by the caller. */
static void make_run(struct result *r, uint64_t start_ms)
{
	result_init(r);
	r->job.bs = 4096;
	r->job.time_ns = 1000000000ull;
	r->job.threads = 1;
	r->job.depth = 1;
	strcpy(r->job.origin, "run");
	strcpy(r->engine, "sync");
	r->start_unix_ms = start_ms;
	r->seconds = 1.0;
	strcpy(r->host.hostname, "h");
	r->ntargets = 1;
	r->targets = calloc(1, sizeof(*r->targets));
	assert_non_null(r->targets);
	dir_stats_init(&r->targets[0].read);
	dir_stats_init(&r->targets[0].write);
	dir_stats_init(&r->targets[0].trim);
	r->targets[0].path = strdup("/data/t.dat");
	strcpy(r->targets[0].device, "sda");
	for (unsigned i = 0; i < 10; i++)
		dir_stats_add(&r->targets[0].read, 4096, 100000);
	dir_stats_merge(&r->read, &r->targets[0].read);
}

static int count(const struct history_entry *e, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

/* The runs a history holds, read with nothing armed. */
static int runs(struct history *h)
{
	int n = 0;

	fx.armed = false;
	assert_int_equal(history_list(h, NULL, count, &n, NULL, 0), 0);
	return n;
}

/* The schema version of the file at path, read with SQLite alone. */
static int file_version(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	fx.armed = false;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (__real_sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &st, NULL) ==
	    SQLITE_OK && __real_sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/*
 * The one call whose failure is meant to pass unseen: the hardening's page check, an extra
 * that only fails out of memory (and the next call then fails too).
 */
static bool ignored(int r)
{
	return r == 0 && !strcmp(fx.sql, "PRAGMA cell_size_check = ON");
}

/*
 * "PATH: " starts the message of every failure of a history at path; a failure on the
 * reference schema, in memory, is out of memory.
 */
static void names_path(const char *err, const char *path)
{
	if (fx.ref) {
		assert_string_equal(err, "out of memory");
		return;
	}
	if (strncmp(err, path, strlen(path)) || strncmp(err + strlen(path), ": ", 2))
		fail_msg("\"%s\" does not start with \"%s: \"", err, path);
}

/*
 * The armed call failed and so did the function, with the right -errno: SQLite's FULL as
 * -ENOSPC, naming the file; the reference's failure as -ENOMEM.
 */
static void failed(int r, const char *err, const char *path, const char *what, int n)
{
	int want = fx.ref ? -ENOMEM : -ENOSPC;

	if (r != want)
		fail_msg("%s: call %d (%s) failed: returned %d, not %d (%s)", what, n, fx.sql, r,
			 want, err);
	names_path(err, path);
}

/*
 * Opening a new history: each of its SQLite calls failing fails the open with -ENOSPC (the
 * SQLITE_FULL armed), the message naming the file, and the file made is removed.
 */
static void open_new_fails(void **state)
{
	char path[128], err[256];
	struct history *h;
	struct stat st;
	int n;

	snprintf(path, sizeof(path), "%s/new.db", dir);
	for (n = 0;; n++) {
		arm(n, SQLITE_FULL);
		err[0] = '\0';
		int r = history_open(path, &h, err, sizeof(err));
		if (!fx.fired) {
			assert_int_equal(r, 0);
			fx.armed = false;
			break;
		}
		if (ignored(r)) {
			history_close(h);
			unlink(path);
			continue;
		}
		failed(r, err, path, "history_open", n);
		assert_null(h);
		if (stat(path, &st) == 0)
			fail_msg("call %d failed: %s was left behind", n, path);
	}
	/* The store makes more than 20 calls to set up a history: each one was tried. */
	assert_true(n > 20);
	assert_int_equal(history_schema_version(h), HISTORY_SCHEMA);
	history_close(h);
	assert_int_equal(unlink(path), 0);
}

/* A schema 1 history with three runs at path (tests/unit/fixtures/history-v1.sql). */
static void make_v1(const char *path)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = fopen(FIXTURES "/history-v1.sql", "r");
	sqlite3 *db;

	assert_non_null(f);
	assert_true(getdelim(&sql, &len, '\0', f) > 0);
	fclose(f);
	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(__real_sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	free(sql);
}

/*
 * Migrating a schema 1 history: each failing call fails the open with -ENOSPC and leaves the
 * file at schema 1 (one transaction); the last open migrates its three runs to schema 5.
 */
static void migration_fails(void **state)
{
	char path[128], err[256];
	struct history *h;
	int n;

	snprintf(path, sizeof(path), "%s/v1.db", dir);
	make_v1(path);
	for (n = 0;; n++) {
		arm(n, SQLITE_FULL);
		err[0] = '\0';
		int r = history_open(path, &h, err, sizeof(err));
		if (!fx.fired) {
			assert_int_equal(r, 0);
			fx.armed = false;
			break;
		}
		if (ignored(r)) {
			history_close(h);
			make_v1(path);
			continue;
		}
		failed(r, err, path, "history_open", n);
		assert_null(h);
		/* The last call, after the migration's commit, switches foreign keys on. */
		if (strcmp(fx.sql, "PRAGMA foreign_keys = ON")) {
			assert_int_equal(file_version(path), 1);
		} else {
			assert_int_equal(file_version(path), HISTORY_SCHEMA);
			make_v1(path);
		}
	}
	assert_true(n > 40);
	assert_int_equal(file_version(path), HISTORY_SCHEMA);
	assert_int_equal(runs(h), 3);
	history_close(h);
}

/* A history at path holding one run (its id in *id), open. */
static struct history *one_run(const char *path, int64_t *id)
{
	struct history *h;
	struct result r;

	fx.armed = false;
	unlink(path);
	assert_int_equal(history_open(path, &h, NULL, 0), 0);
	make_run(&r, 1000);
	assert_int_equal(history_save(h, &r, id, NULL, 0), 0);
	result_release(&r);
	return h;
}

/*
 * Saving: each failing call fails the save with -ENOSPC and saves nothing (no run, no job, no
 * target row half written: the next save's run is the second).
 */
static void save_fails(void **state)
{
	char path[128], err[256];
	struct result r;
	int64_t id = 0, first;
	struct history *h = one_run(strcat(strcpy(path, dir), "/save.db"), &first);
	int n;

	make_run(&r, 2000);
	for (n = 0;; n++) {
		arm(n, SQLITE_FULL);
		err[0] = '\0';
		int ret = history_save_labeled(h, &r, "two", &id, err, sizeof(err));
		if (!fx.fired) {
			assert_int_equal(ret, 0);
			fx.armed = false;
			break;
		}
		failed(ret, err, path, "history_save", n);
		assert_int_equal(runs(h), 1);
	}
	assert_true(n > 5);
	assert_int_equal(id, first + 1);
	assert_int_equal(runs(h), 2);
	result_release(&r);
	history_close(h);
}

/* Reading and removing: each failing call is the function's -ENOSPC, naming the file. */
static void queries_fail(void **state)
{
	char path[128], err[256];
	int64_t id;
	struct history *h = one_run(strcat(strcpy(path, dir), "/query.db"), &id);
	struct history_entry e;
	struct history_filter f = {.host = "h", .target = "t.dat", .since_unix_ms = 1, .limit = 5};
	static const char *const names[] = {"history_get", "history_list", "history_integrity",
					    "history_check_runs", "history_remove"};
	int n, ret, got;

	for (int op = 0; op < 5; op++) {
		for (n = 0;; n++) {
			arm(n, SQLITE_FULL);
			err[0] = '\0';
			got = 0;
			switch (op) {
			case 0:
				ret = history_get(h, id, &e, err, sizeof(err));
				history_entry_release(&e);
				break;
			case 1:
				ret = history_list(h, &f, count, &got, err, sizeof(err));
				break;
			case 2:
				ret = history_integrity(h, NULL, NULL, err, sizeof(err));
				break;
			case 3:
				ret = history_check_runs(h, NULL, NULL, err, sizeof(err));
				break;
			default:
				ret = history_remove(h, id, err, sizeof(err));
				break;
			}
			if (!fx.fired) {
				fx.armed = false;
				break;
			}
			failed(ret, err, path, names[op], n);
		}
		assert_true(n > 0);
		assert_int_equal(ret, 0);
		if (op == 1)
			assert_int_equal(got, 1);
	}
	assert_int_equal(runs(h), 0);
	history_close(h);
}

/* Opened read-only and checked as 'history check' does: each failing call fails it. */
static void readonly_check_fails(void **state)
{
	char path[128], err[256];
	int64_t id;
	struct history *h = one_run(strcat(strcpy(path, dir), "/ro.db"), &id);
	int n, ret;

	history_close(h);
	for (n = 0;; n++) {
		arm(n, SQLITE_FULL);
		err[0] = '\0';
		ret = history_open_readonly(path, &h, err, sizeof(err));
		if (!ret)
			ret = history_check_schema(h, err, sizeof(err));
		history_close(h);
		if (!fx.fired) {
			fx.armed = false;
			break;
		}
		if (ignored(ret))
			continue;
		failed(ret, err, path, "history_check_schema", n);
	}
	assert_int_equal(ret, 0);
	assert_true(n > 10);
}

/* SQLite's result codes as the errno iorate speaks, in the message's place. */
static void result_codes(void **state)
{
	static const struct {
		int rc, err;
	} map[] = {
		{SQLITE_NOMEM, -ENOMEM}, {SQLITE_BUSY, -EBUSY}, {SQLITE_LOCKED, -EBUSY},
		{SQLITE_READONLY, -EACCES}, {SQLITE_PERM, -EACCES}, {SQLITE_FULL, -ENOSPC},
		{SQLITE_CANTOPEN, -ENOENT}, {SQLITE_NOTADB, -EILSEQ}, {SQLITE_CORRUPT, -EILSEQ},
		{SQLITE_IOERR, -EIO}, {SQLITE_IOERR_WRITE, -EIO}, {SQLITE_BUSY_SNAPSHOT, -EBUSY},
		{SQLITE_ERROR, -EIO},
	};
	char path[128], err[256];
	int64_t id;
	struct history *h = one_run(strcat(strcpy(path, dir), "/codes.db"), &id);
	struct history_entry e;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		arm(0, map[i].rc);
		assert_int_equal(history_get(h, id, &e, err, sizeof(err)), map[i].err);
		assert_true(fx.fired);
		history_entry_release(&e);
	}
	history_close(h);
}

/*
 * A full disk, as a file-size limit makes one: the save fails with the system's reason
 * (EFBIG, in the message too), and the history still holds what it held.
 */
static void full_disk(void **state)
{
	char path[128], err[256] = "";
	int64_t id;
	struct history *h = one_run(strcat(strcpy(path, dir), "/full.db"), &id);
	struct rlimit old, lim;
	struct result r;
	struct stat st;
	int ret;

	assert_int_equal(stat(path, &st), 0);
	make_run(&r, 3000);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = (struct rlimit){.rlim_cur = (rlim_t)st.st_size, .rlim_max = old.rlim_max};
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ret = history_save(h, &r, &id, err, sizeof(err));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(ret, -EFBIG);
	names_path(err, path);
	assert_non_null(strstr(err, strerror(EFBIG)));
	assert_int_equal(runs(h), 1);
	result_release(&r);
	history_close(h);
}

/* The default path's fallbacks: an empty $IORATE_HISTORY and a relative $XDG_DATA_HOME are
 * not set; without $HOME, the password database's home directory. */
static void default_paths(void **state)
{
	char buf[PATH_MAX], want[PATH_MAX], *home = getenv("HOME");
	struct passwd *pw = getpwuid(getuid());

	home = home ? strdup(home) : NULL;
	setenv("IORATE_HISTORY", "", 1);
	setenv("XDG_DATA_HOME", "relative/data", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(history_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/iorate/history.db");
	setenv("HOME", "", 1);
	if (pw && pw->pw_dir[0]) {
		snprintf(want, sizeof(want), "%s/.local/share/iorate/history.db", pw->pw_dir);
		assert_int_equal(history_default_path(buf, sizeof(buf)), 0);
		assert_string_equal(buf, want);
	}
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	unsetenv("XDG_DATA_HOME");
	free(home);
}

/* history_open(NULL) makes the default path's directories: where one is a file, or the path
 * is too long for one, it fails saying so; a missing file opened read-only is -ENOENT. */
static void default_path_fails(void **state)
{
	char path[PATH_MAX + 16], err[PATH_MAX + 256], want[PATH_MAX + 256];
	struct history *h;
	int fd;

	snprintf(path, sizeof(path), "%s/file", dir);
	assert_true((fd = open(path, O_CREAT | O_WRONLY, 0600)) >= 0);
	close(fd);
	strcat(path, "/sub/h.db");
	setenv("IORATE_HISTORY", path, 1);
	assert_int_equal(history_open(NULL, &h, err, sizeof(err)), -ENOTDIR);
	assert_null(h);
	snprintf(want, sizeof(want), "%s: cannot create its directory: %s", path,
		 strerror(ENOTDIR));
	assert_string_equal(err, want);
	memset(path, 'a', PATH_MAX + 8);
	path[0] = '/';
	path[PATH_MAX + 8] = '\0';
	setenv("IORATE_HISTORY", path, 1);
	assert_int_equal(history_open(NULL, &h, err, sizeof(err)), -ENAMETOOLONG);
	assert_string_equal(err, "no history path: set IORATE_HISTORY or HOME");
	unsetenv("IORATE_HISTORY");

	snprintf(path, sizeof(path), "%s/missing.db", dir);
	assert_int_equal(history_open_readonly(path, &h, err, sizeof(err)), -ENOENT);
	assert_null(h);
	names_path(err, path);
	assert_int_equal(access(path, F_OK), -1);
}

/*
 * A run of two jobs that differ in everything a column shows: each workload column is NULL,
 * what they share (bs) is kept. A run without a job is refused.
 */
static void jobs_differ(void **state)
{
	static const char *const cols[] = {"threads", "depth", "write_pct", "pattern", "cache",
					   "engine", "time_s"};
	char path[128], err[256], sql[96];
	int64_t id;
	struct history *h = one_run(strcat(strcpy(path, dir), "/jobs.db"), &id);
	struct result jobs[2];
	struct result_set s;
	sqlite3 *db;
	sqlite3_stmt *st;

	make_run(&jobs[0], 5000);
	make_run(&jobs[1], 5000);
	jobs[1].job.threads = 2;
	jobs[1].job.depth = 8;
	jobs[1].job.write_pct = 50;
	jobs[1].job.pattern = PATTERN_SEQUENTIAL;
	jobs[1].job.cache = CACHE_BUFFERED;
	strcpy(jobs[1].engine, "uring");
	jobs[1].job.time_ns = 2000000000ull;
	assert_int_equal(result_set_view(&s, jobs, 2), 0);
	assert_int_equal(history_save_set(h, &s, NULL, &id, err, sizeof(err)), 0);
	result_set_release(&s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT %s IS NULL, bs, njobs FROM runs WHERE id = %lld",
			 cols[i], (long long)id);
		assert_int_equal(__real_sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
		assert_int_equal(__real_sqlite3_step(st), SQLITE_ROW);
		if (sqlite3_column_int(st, 0) != 1)
			fail_msg("runs.%s is not NULL for jobs that differ in it", cols[i]);
		assert_int_equal(sqlite3_column_int(st, 1), 4096);
		assert_int_equal(sqlite3_column_int(st, 2), 2);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	assert_int_equal(result_set_view(&s, jobs, 0), 0);
	assert_int_equal(history_save_set(h, &s, NULL, &id, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a run without a job");
	result_set_release(&s);
	result_release(&jobs[0]);
	result_release(&jobs[1]);
	assert_int_equal(runs(h), 2);
	history_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_new_fails),
		cmocka_unit_test(migration_fails),
		cmocka_unit_test(save_fails),
		cmocka_unit_test(queries_fail),
		cmocka_unit_test(readonly_check_fails),
		cmocka_unit_test(result_codes),
		cmocka_unit_test(full_disk),
		cmocka_unit_test(default_paths),
		cmocka_unit_test(default_path_fails),
		cmocka_unit_test(jobs_differ),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
