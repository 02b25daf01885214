#include "store/history.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/jpath.h"
#include "report/json.h"
#include "report/summary.h"
#include "store/history_int.h"

int history_fail(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* SQLite's result codes as the errno the rest of iorate speaks. */
static int sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return -EACCES;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EILSEQ;
	default:
		return -EIO;
	}
}

int history_sql_fail(struct history *h, char *err, size_t len, int rc, const char *what)
{
	return history_fail(err, len, sql_errno(rc), "%s: %s: %s", h->path, what,
			    sqlite3_errmsg(h->db));
}

int history_exec(struct history *h, const char *sql, char *err, size_t len)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : history_sql_fail(h, err, len, rc, "database");
}

void history_rollback(struct history *h)
{
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * Migrations: entry i takes a database from schema version i to i + 1. Never edit one that
 * has been released; append a new one (ALTER TABLE ... ADD COLUMN, new tables, new indexes).
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" start_unix_ms INTEGER NOT NULL, saved_unix_ms INTEGER NOT NULL, label TEXT,"
	" host TEXT NOT NULL, kernel TEXT, command_line TEXT, origin TEXT, version TEXT,"
	" bs INTEGER, threads INTEGER, depth INTEGER, write_pct INTEGER,"
	" pattern TEXT, cache TEXT, engine TEXT, time_s REAL, seconds REAL,"
	" interrupted INTEGER NOT NULL DEFAULT 0, error TEXT, ntargets INTEGER, targets TEXT,"
	" read_ios INTEGER, read_iops REAL, read_mibps REAL, read_mean_us REAL, read_p99_us REAL,"
	" write_ios INTEGER, write_iops REAL, write_mibps REAL, write_mean_us REAL,"
	" write_p99_us REAL,"
	" total_ios INTEGER, total_iops REAL, total_mibps REAL, total_mean_us REAL,"
	" total_p99_us REAL,"
	" result_json TEXT NOT NULL);"
	"CREATE INDEX runs_start ON runs(start_unix_ms);"
	"CREATE INDEX runs_host ON runs(host);"
	"CREATE TABLE targets ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, path TEXT NOT NULL, device TEXT,"
	" read_ios INTEGER, read_bytes INTEGER, read_iops REAL, read_mibps REAL,"
	" read_mean_us REAL, read_p50_us REAL, read_p99_us REAL, read_p99_9_us REAL,"
	" write_ios INTEGER, write_bytes INTEGER, write_iops REAL, write_mibps REAL,"
	" write_mean_us REAL, write_p50_us REAL, write_p99_us REAL, write_p99_9_us REAL,"
	" total_ios INTEGER, total_bytes INTEGER, total_iops REAL, total_mibps REAL,"
	" total_mean_us REAL, total_p50_us REAL, total_p99_us REAL, total_p99_9_us REAL,"
	" PRIMARY KEY (run_id, idx));"
	"CREATE INDEX targets_path ON targets(path);",
};
#define NMIGRATIONS (int)(sizeof(migrations) / sizeof(migrations[0]))

_Static_assert(NMIGRATIONS == HISTORY_SCHEMA, "one migration per schema version");

/* One integer from a query without parameters; *v = 0 for NULL. */
static int query_int(struct history *h, const char *sql, int64_t *v, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "query");
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return history_sql_fail(h, err, len, rc, "query");
	return 0;
}

int history_schema_version(struct history *h)
{
	int64_t v = 0;

	if (query_int(h, "SELECT max(version) FROM schema_version", &v, NULL, 0))
		return -EIO;
	return (int)v;
}

/*
 * Brings the schema up to HISTORY_SCHEMA, each step in its own transaction. BEGIN IMMEDIATE
 * takes the write lock first, so two iorate processes opening a new database do not both
 * migrate it.
 */
static int migrate(struct history *h, char *err, size_t len)
{
	int64_t v, others;
	char set[64];
	int r;

	if ((r = history_exec(h, "BEGIN IMMEDIATE", err, len)))
		return r;
	if ((r = query_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'",
			   &v, err, len)))
		goto out;
	if (!v) {
		if ((r = query_int(h, "SELECT count(*) FROM sqlite_master", &others, err, len)))
			goto out;
		if (others) {
			r = history_fail(err, len, -EEXIST,
					 "%s: a database that is not an iorate history", h->path);
			goto out;
		}
		if ((r = history_exec(h, "CREATE TABLE schema_version (version INTEGER NOT NULL);"
				 "INSERT INTO schema_version VALUES (0)", err, len)))
			goto out;
	}
	if ((r = query_int(h, "SELECT max(version) FROM schema_version", &v, err, len)))
		goto out;
	if (v > HISTORY_SCHEMA) {
		r = history_fail(err, len, -EPROTO,
			 "%s: schema version %lld is newer than this iorate's (%d); upgrade iorate",
			 h->path, (long long)v, HISTORY_SCHEMA);
		goto out;
	}
	for (; v < HISTORY_SCHEMA; v++) {
		if ((r = history_exec(h, migrations[v], err, len)))
			goto out;
		snprintf(set, sizeof(set), "UPDATE schema_version SET version = %lld",
			 (long long)v + 1);
		if ((r = history_exec(h, set, err, len)))
			goto out;
	}
	r = history_exec(h, "COMMIT", err, len);
out:
	if (r)
		history_rollback(h);
	return r;
}

int history_default_path(char *buf, size_t len)
{
	const char *env = getenv("IORATE_HISTORY"), *home;
	int n;

	if (env && *env) {
		n = snprintf(buf, len, "%s", env);
	} else if ((env = getenv("XDG_DATA_HOME")) && env[0] == '/') {
		n = snprintf(buf, len, "%s/iorate/history.db", env);
	} else {
		home = getenv("HOME");
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home || !*home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/.local/share/iorate/history.db", home);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p of the directory holding path (private: the history holds command lines). */
static int make_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

int history_open(const char *path, struct history **hp, char *err, size_t len)
{
	char def[PATH_MAX];
	struct history *h;
	int r;

	*hp = NULL;
	if (!path) {
		if ((r = history_default_path(def, sizeof(def))))
			return history_fail(err, len, r,
					    "no history path: set IORATE_HISTORY or HOME");
		path = def;
	}
	if ((r = make_parent(path)))
		return history_fail(err, len, r, "%s: cannot create its directory: %s", path,
				    strerror(-r));
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		return history_fail(err, len, -ENOMEM, "out of memory");
	}
	r = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (r != SQLITE_OK) {
		r = history_fail(err, len, sql_errno(r), "%s: %s", path,
			 h->db ? sqlite3_errmsg(h->db) : "cannot open");
		goto out;
	}
	/* Another iorate may be saving a run: wait for it rather than fail. */
	sqlite3_busy_timeout(h->db, 5000);
	if ((r = history_exec(h, "PRAGMA foreign_keys = ON", err, len)) ||
	    (r = migrate(h, err, len)))
		goto out;
	*hp = h;
	return 0;
out:
	history_close(h);
	return r;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

const char *history_path(const struct history *h)
{
	return h->path;
}

static void bind_json(sqlite3_stmt *st, int i, json_t *v)
{
	if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else if (json_is_real(v))
		sqlite3_bind_double(st, i, json_real_value(v));
	else if (json_is_string(v))
		sqlite3_bind_text(st, i, json_string_value(v), -1, SQLITE_TRANSIENT);
	else if (json_is_boolean(v))
		sqlite3_bind_int(st, i, json_is_true(v));
	else
		sqlite3_bind_null(st, i);
}

#define RUN_SQL "INSERT INTO runs (start_unix_ms, saved_unix_ms, label, host, kernel, " \
	"command_line, origin, version, bs, threads, depth, write_pct, pattern, cache, engine, " \
	"time_s, seconds, interrupted, error, ntargets, targets, " \
	"read_ios, read_iops, read_mibps, read_mean_us, read_p99_us, " \
	"write_ios, write_iops, write_mibps, write_mean_us, write_p99_us, " \
	"total_ios, total_iops, total_mibps, total_mean_us, total_p99_us, result_json) VALUES " \
	"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
#define TARGET_SQL "INSERT INTO targets VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?," \
	"?,?,?,?,?,?,?,?)"

static int bind_run(sqlite3_stmt *st, json_t *o, const char *label, const char *text)
{
	static const char *const params[] = {"bs", "threads", "depth", "write", "pattern",
					     "cache", "engine", "time"};
	json_t *targets = json_object_get(o, "targets"), *t, *paths = json_array();
	char *ptext;
	size_t i;
	int c = 1;

	json_array_foreach(targets, i, t)
		json_array_append(paths, json_object_get(t, "path"));
	ptext = json_dumps(paths, JSON_COMPACT);
	json_decref(paths);
	if (!ptext)
		return -ENOMEM;
	bind_json(st, c++, json_object_get(o, "start_unix_ms"));
	sqlite3_bind_int64(st, c++, (int64_t)time(NULL) * 1000);
	if (label)
		sqlite3_bind_text(st, c++, label, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, c++);
	sqlite3_bind_text(st, c++, jpath_str(o, "host.hostname") ?: "", -1, SQLITE_TRANSIENT);
	bind_json(st, c++, jpath(o, "host.kernel"));
	bind_json(st, c++, json_object_get(o, "command_line"));
	bind_json(st, c++, json_object_get(o, "origin"));
	bind_json(st, c++, json_object_get(o, "version"));
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		bind_json(st, c++, json_object_get(json_object_get(o, "params"), params[i]));
	bind_json(st, c++, json_object_get(o, "seconds"));
	sqlite3_bind_int(st, c++, json_is_true(json_object_get(o, "interrupted")));
	bind_json(st, c++, json_object_get(o, "error"));
	sqlite3_bind_int64(st, c++, (int64_t)json_array_size(targets));
	sqlite3_bind_text(st, c++, ptext, -1, free);
	for (int d = 0; d < REPORT_NDIR; d++) {
		json_t *x = json_object_get(json_object_get(o, "total"), report_dir_names[d]);

		bind_json(st, c++, json_object_get(x, "ios"));
		bind_json(st, c++, json_object_get(x, "iops"));
		bind_json(st, c++, json_object_get(x, "mibps"));
		bind_json(st, c++, jpath(x, "lat_us.mean"));
		bind_json(st, c++, jpath(x, "lat_us.p99"));
	}
	sqlite3_bind_text(st, c++, text, -1, SQLITE_TRANSIENT);
	return 0;
}

static void bind_target(sqlite3_stmt *st, int64_t id, size_t idx, json_t *t)
{
	static const char *const figs[] = {"ios", "bytes", "iops", "mibps", "lat_us.mean",
					   "lat_us.p50", "lat_us.p99", "lat_us.p99_9"};
	int c = 1;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_int64(st, c++, id);
	sqlite3_bind_int64(st, c++, (int64_t)idx);
	bind_json(st, c++, json_object_get(t, "path"));
	bind_json(st, c++, json_object_get(t, "device"));
	for (int d = 0; d < REPORT_NDIR; d++)
		for (size_t k = 0; k < sizeof(figs) / sizeof(figs[0]); k++)
			bind_json(st, c++, jpath(json_object_get(t, report_dir_names[d]), figs[k]));
}

/* What a JSON object needs to be kept as a run; NULL when it has it all. */
static const char *not_a_run(json_t *o)
{
	json_t *s = json_object_get(o, "schema"), *t;
	size_t i;

	if (!json_is_object(o))
		return "is not a JSON object";
	if (!json_is_integer(s))
		return "has no \"schema\": it is not the JSON of 'iorate run --json'";
	if (json_integer_value(s) != REPORT_JSON_SCHEMA)
		return "has a schema this iorate does not know";
	if (!json_is_object(json_object_get(o, "params")) ||
	    !json_is_array(json_object_get(o, "targets")) ||
	    !json_is_object(json_object_get(o, "total")))
		return "is not a run (no \"params\", \"targets\" or \"total\")";
	if (!json_is_integer(json_object_get(o, "start_unix_ms")))
		return "has no \"start_unix_ms\"";
	json_array_foreach(json_object_get(o, "targets"), i, t)
		if (!json_is_string(json_object_get(t, "path")))
			return "has a target without a \"path\"";
	return NULL;
}

/* The id of a run saved with exactly this JSON, or 0. */
static int64_t find_same(struct history *h, json_t *o, const char *text)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(h->db, "SELECT id FROM runs WHERE start_unix_ms = ?1 AND "
			       "result_json = ?2", -1, &st, NULL) != SQLITE_OK)
		return 0;
	bind_json(st, 1, json_object_get(o, "start_unix_ms"));
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* Saves one run object in one transaction: the run, then its targets. */
int history_save_obj(struct history *h, json_t *o, const char *label, int64_t *id, char *err,
		     size_t len)
{
	sqlite3_stmt *run = NULL, *tgt = NULL;
	const char *why = not_a_run(o);
	char *text = NULL;
	json_t *t;
	size_t i;
	int r, rc;
	int64_t rid;

	if (why)
		return history_fail(err, len, -EINVAL, "%s", why);
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12));
	if (!text)
		return history_fail(err, len, -ENOMEM, "out of memory");
	if ((r = history_exec(h, "BEGIN IMMEDIATE", err, len))) {
		free(text);
		return r;
	}
	if ((rid = find_same(h, o, text))) {
		if (id)
			*id = rid;
		r = history_fail(err, len, -EEXIST, "already saved as run %lld", (long long)rid);
		goto out;
	}
	rc = sqlite3_prepare_v2(h->db, RUN_SQL, -1, &run, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, TARGET_SQL, -1, &tgt, NULL);
	if (rc != SQLITE_OK) {
		r = history_sql_fail(h, err, len, rc, "saving");
		goto out;
	}
	if ((r = bind_run(run, o, label, text))) {
		history_fail(err, len, r, "out of memory");
		goto out;
	}
	if ((rc = sqlite3_step(run)) != SQLITE_DONE) {
		r = history_sql_fail(h, err, len, rc, "saving the run");
		goto out;
	}
	rid = sqlite3_last_insert_rowid(h->db);
	json_array_foreach(json_object_get(o, "targets"), i, t) {
		bind_target(tgt, rid, i, t);
		if ((rc = sqlite3_step(tgt)) != SQLITE_DONE) {
			r = history_sql_fail(h, err, len, rc, "saving a target");
			goto out;
		}
	}
	if ((r = history_exec(h, "COMMIT", err, len)))
		goto out;
	if (id)
		*id = rid;
out:
	sqlite3_finalize(run);
	sqlite3_finalize(tgt);
	free(text);
	if (r)
		history_rollback(h);
	return r;
}

int history_save(struct history *h, const struct result *res, int64_t *id, char *err,
		 size_t len)
{
	json_t *o = report_json_result(res);
	int r;

	if (!o)
		return history_fail(err, len, -ENOMEM, "out of memory");
	r = history_save_obj(h, o, NULL, id, err, len);
	json_decref(o);
	return r;
}

int history_save_json(struct history *h, const char *text, const char *label, int64_t *id,
		      char *err, size_t len)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	int r;

	if (!o)
		return history_fail(err, len, -EINVAL, "not JSON: line %d: %s", je.line, je.text);
	r = history_save_obj(h, o, label, id, err, len);
	json_decref(o);
	return r;
}

static void add_if_run(json_t *runs, json_t *o)
{
	if (!not_a_run(o))
		json_array_append(runs, o);
}

json_t *history_runs_in(json_t *doc)
{
	json_t *runs = json_array(), *x;
	size_t i;

	if (!runs)
		return NULL;
	if (!not_a_run(doc))
		json_array_append(runs, doc);
	json_array_foreach(json_object_get(doc, "rows"), i, x)
		add_if_run(runs, json_object_get(x, "run"));
	json_array_foreach(json_object_get(doc, "tests"), i, x) {
		add_if_run(runs, jpath(x, "read.result"));
		add_if_run(runs, jpath(x, "write.result"));
	}
	return runs;
}

int history_runs_in_file(const char *path, json_t **runs, char *err, size_t len)
{
	json_error_t je;
	json_t *doc;

	*runs = NULL;
	doc = strcmp(path, "-") ? json_load_file(path, 0, &je) : json_loadf(stdin, 0, &je);
	/* jansson sets a line only when it read text that is not JSON, not when reading failed. */
	if (!doc)
		return history_fail(err, len, je.line > 0 ? -EINVAL : -EIO, "%s: %s%s", path,
				    je.line > 0 ? "not JSON: " : "", je.text);
	/* The array holds its own references to the runs, so the document can go now. */
	*runs = history_runs_in(doc);
	json_decref(doc);
	if (!*runs)
		return history_fail(err, len, -ENOMEM, "out of memory");
	if (!json_array_size(*runs)) {
		json_decref(*runs);
		*runs = NULL;
		return history_fail(err, len, -ENODATA, "%s: holds no run (expected the JSON of "
				    "'iorate run --json', 'sweep --json' or 'mark --json')", path);
	}
	return 0;
}
