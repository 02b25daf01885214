#include "store/history.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gate.h"
#include "result/result_json.h"
#include "store/history_int.h"
#include "util/jsonout.h"
#include "util/xdg.h"

static int convert_v1_runs(struct history *h, char *err, size_t len);
static int fill_jobs(struct history *h, char *err, size_t len);

/*
 * Migrations: entry i takes a database from schema version i to i + 1, with SQL and then, where
 * the stored JSON changes, C. Never edit one that has been released; append a new one.
 */
static const struct migration {
	const char *sql;
	int (*fn)(struct history *h, char *err, size_t len);
} migrations[] = {
	/* 0 -> 1 */
	{.sql = "CREATE TABLE runs ("
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
	"CREATE INDEX targets_path ON targets(path);"},
	/* 1 -> 2: runs get their histograms (JSON schema 2); schema 1's text is kept aside. */
	{.sql = "ALTER TABLE runs ADD COLUMN result_json_v1 TEXT;", .fn = convert_v1_runs},
	/* 2 -> 3: runs of several jobs: how many, whose a target is, and a row per job. */
	{.sql = "ALTER TABLE runs ADD COLUMN njobs INTEGER NOT NULL DEFAULT 1;"
	"ALTER TABLE targets ADD COLUMN job INTEGER NOT NULL DEFAULT 0;"
	"CREATE TABLE jobs ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, name TEXT, grp INTEGER NOT NULL,"
	" bs INTEGER, threads INTEGER, depth INTEGER, write_pct INTEGER, pattern TEXT, cache TEXT,"
	" engine TEXT, time_s REAL, seconds REAL, interrupted INTEGER NOT NULL DEFAULT 0,"
	" error TEXT,"
	" read_ios INTEGER, read_iops REAL, read_mibps REAL, read_mean_us REAL, read_p99_us REAL,"
	" write_ios INTEGER, write_iops REAL, write_mibps REAL, write_mean_us REAL,"
	" write_p99_us REAL,"
	" total_ios INTEGER, total_iops REAL, total_mibps REAL, total_mean_us REAL,"
	" total_p99_us REAL,"
	" PRIMARY KEY (run_id, idx));", .fn = fill_jobs},
	/* 3 -> 4: the devices under the targets: each job's, each group's, the total's. */
	{.sql = "CREATE TABLE devices ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" scope TEXT NOT NULL, job INTEGER, grp INTEGER,"
	" device TEXT NOT NULL, role TEXT NOT NULL, of TEXT, seconds REAL,"
	" read_ios INTEGER, read_merges INTEGER, read_bytes INTEGER, read_ms INTEGER,"
	" write_ios INTEGER, write_merges INTEGER, write_bytes INTEGER, write_ms INTEGER,"
	" in_flight INTEGER, busy_ms INTEGER, queue_ms INTEGER,"
	" discard_ios INTEGER, discard_merges INTEGER, discard_bytes INTEGER, discard_ms INTEGER,"
	" flush_ios INTEGER, flush_ms INTEGER, util_pct REAL, await_ms REAL, queue_depth REAL,"
	" iorate_read_ios INTEGER, iorate_write_ios INTEGER, iorate_read_bytes INTEGER,"
	" iorate_write_bytes INTEGER);"
	"CREATE INDEX devices_run ON devices(run_id);"
	"CREATE INDEX devices_device ON devices(device);", .fn = history_fill_devices},
	/* 4 -> 5: how the run printed its report (format, units, series, brief), as JSON text;
	 * NULL for the runs saved before, which 'history show' prints as default text. */
	{.sql = "ALTER TABLE runs ADD COLUMN output TEXT;"},
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
 * A crafted database runs nothing of its own: no trigger fires, no view is read, and its
 * schema (an index on an expression, a CHECK) may call no function with side effects.
 */
static void harden(sqlite3 *db)
{
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_exec(db, "PRAGMA cell_size_check = ON", NULL, NULL, NULL);
}

/* SQLite's own verdict on the file, before iorate reads a row of it: its first problem. */
static int check_intact(struct history *h, char *err, size_t len)
{
	sqlite3_stmt *st;
	const char *what;
	int rc = sqlite3_prepare_v2(h->db, "PRAGMA quick_check(1)", -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		if ((rc & 0xff) == SQLITE_NOTADB)
			return err_set(err, len, -EILSEQ, "%s: not an SQLite database", h->path);
		if ((rc & 0xff) == SQLITE_CORRUPT)
			return err_set(err, len, -EILSEQ, "%s: damaged: %s", h->path,
				       sqlite3_errmsg(h->db));
		return history_sql_fail(h, err, len, rc, "checking");
	}
	what = (const char *)sqlite3_column_text(st, 0);
	if (what && !strcmp(what, "ok")) {
		sqlite3_finalize(st);
		return 0;
	}
	rc = err_set(err, len, -EILSEQ, "%s: damaged: %s", h->path, what ? what : "?");
	sqlite3_finalize(st);
	return rc;
}

/*
 * The version schema_version holds: one row, an integer in 0..HISTORY_SCHEMA. It indexes the
 * migrations, so nothing else may pass. -EPROTO for a newer iorate's, -EILSEQ otherwise.
 */
static int read_version(struct history *h, int64_t *v, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, "SELECT version, typeof(version) FROM schema_version "
				    "LIMIT 2", -1, &st, NULL);
	char type[16] = "";
	int rows = 0;

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rows++) {
			*v = sqlite3_column_int64(st, 0);
			snprintf(type, sizeof(type), "%s", sqlite3_column_text(st, 1));
		}
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_sql_fail(h, err, len, rc, "reading the schema version");
	if (rows != 1)
		return err_set(err, len, -EILSEQ, "%s: schema_version holds %s: not an iorate "
			       "history", h->path, rows ? "several rows" : "no row");
	if (strcmp(type, "integer"))
		return err_set(err, len, -EILSEQ, "%s: the schema version is not an integer (%s): "
			       "not an iorate history", h->path, type);
	if (*v > HISTORY_SCHEMA)
		return err_set(err, len, -EPROTO, "%s: schema version %lld is newer than this "
			       "iorate's (%d); upgrade iorate", h->path, (long long)*v,
			       HISTORY_SCHEMA);
	if (*v < 0)
		return err_set(err, len, -EILSEQ, "%s: schema version %lld is not one iorate "
			       "writes (0..%d): not an iorate history", h->path, (long long)*v,
			       HISTORY_SCHEMA);
	return 0;
}

/* One column as pragma_table_info gives it. */
struct column {
	char name[64], type[32];
	int notnull, pk;
};

static int column_at(sqlite3_stmt *st, struct column *c)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW)
		return rc;
	snprintf(c->name, sizeof(c->name), "%s", sqlite3_column_text(st, 0));
	snprintf(c->type, sizeof(c->type), "%s", sqlite3_column_text(st, 1));
	c->notnull = sqlite3_column_int(st, 2);
	c->pk = sqlite3_column_int(st, 3);
	return SQLITE_ROW;
}

/*
 * Table name of the reference (the schema iorate makes) against h's: a table, not a view, with
 * the reference's columns first, each of the same name, type, NOT NULL and key. Columns a user
 * added after them are left alone.
 */
static int same_table(struct history *h, sqlite3 *ref, const char *name, char *err, size_t len)
{
	static const char sql[] = "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)";
	sqlite3_stmt *a = NULL, *b = NULL, *t = NULL;
	struct column ca, cb;
	int rc, r = 0, i = 0;

	rc = sqlite3_prepare_v2(h->db, "SELECT type FROM sqlite_master WHERE name = ?1 "
				"COLLATE NOCASE", -1, &t, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(t, 1, name, -1, SQLITE_STATIC);
		rc = sqlite3_step(t);
	}
	if (rc == SQLITE_DONE) {
		r = err_set(err, len, -EILSEQ, "%s: the table %s is missing: not an iorate history",
			    h->path, name);
		goto out;
	}
	if (rc != SQLITE_ROW)
		goto fail;
	if (strcmp((const char *)sqlite3_column_text(t, 0), "table")) {
		r = err_set(err, len, -EILSEQ, "%s: %s is a %s, not a table: not an iorate history",
			    h->path, name, sqlite3_column_text(t, 0));
		goto out;
	}
	/* The reference is in memory: its only failure is running out of it. */
	if (sqlite3_prepare_v2(ref, sql, -1, &a, NULL) != SQLITE_OK) {
		r = err_set(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = sqlite3_prepare_v2(h->db, sql, -1, &b, NULL)) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(a, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(b, 1, name, -1, SQLITE_STATIC);
	for (i = 1; (rc = column_at(a, &ca)) == SQLITE_ROW; i++) {
		if ((rc = column_at(b, &cb)) != SQLITE_ROW && rc != SQLITE_DONE)
			goto fail;
		if (rc == SQLITE_ROW && !strcasecmp(ca.name, cb.name) &&
		    !strcasecmp(ca.type, cb.type) && ca.notnull == cb.notnull && ca.pk == cb.pk)
			continue;
		if (rc == SQLITE_DONE)
			r = err_set(err, len, -EILSEQ, "%s: the table %s has no column %s: not an "
				    "iorate history", h->path, name, ca.name);
		else
			r = err_set(err, len, -EILSEQ, "%s: the table %s's column %d is %s %s%s, "
				    "not %s %s%s: not an iorate history", h->path, name, i, cb.name,
				    cb.type, cb.notnull ? " NOT NULL" : "", ca.name, ca.type,
				    ca.notnull ? " NOT NULL" : "");
		goto out;
	}
	/* A reference column not read is one not compared: the check has not passed. */
	if (rc != SQLITE_DONE)
		r = err_set(err, len, -ENOMEM, "out of memory");
	goto out;
fail:
	r = history_sql_fail(h, err, len, rc, "checking the tables");
out:
	sqlite3_finalize(t);
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	return r;
}

/*
 * The tables of schema version v are those iorate makes: the migrations up to v are run on an
 * empty database in memory and each of its tables is compared with h's (same_table). A
 * trigger is refused too: iorate makes none, and one would run SQL of the file's choosing.
 */
static int check_shape(struct history *h, int64_t v, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *ref = NULL;
	int rc, r = 0;

	rc = sqlite3_prepare_v2(h->db, "SELECT name FROM sqlite_master WHERE type = 'trigger'",
				-1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r = err_set(err, len, -EILSEQ, "%s: holds a trigger (%s), which iorate never makes: "
			    "not an iorate history", h->path, sqlite3_column_text(st, 0));
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		r = history_sql_fail(h, err, len, rc, "checking the tables");
		goto out;
	}
	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) ||
	    sqlite3_exec(ref, "CREATE TABLE schema_version (version INTEGER NOT NULL)", NULL, NULL,
			 NULL)) {
		r = err_set(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (int64_t i = 0; i < v; i++)
		if (sqlite3_exec(ref, migrations[i].sql, NULL, NULL, NULL)) {
			r = err_set(err, len, -ENOMEM, "out of memory");
			goto out;
		}
	rc = sqlite3_prepare_v2(ref, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
				"name NOT LIKE 'sqlite%'", -1, &st, NULL);
	while (!r && rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r = same_table(h, ref, (const char *)sqlite3_column_text(st, 0), err, len);
		rc = SQLITE_OK;
	}
	/* A table of the reference not listed is one not compared: not a pass either. */
	if (!r && rc != SQLITE_DONE)
		r = err_set(err, len, -ENOMEM, "out of memory");
out:
	sqlite3_finalize(st);
	sqlite3_close(ref);
	return r;
}

/*
 * What the file holds, before a row is read or written, once SQLite found it intact
 * (check_intact): an iorate history (schema_version: one version this iorate knows; the
 * tables of that version), or a new empty database (*v = -1). Writes nothing.
 */
static int check_schema(struct history *h, int64_t *v, char *err, size_t len)
{
	int64_t n;
	int r;

	if ((r = query_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'",
			   &n, err, len)))
		return r;
	if (!n) {
		if ((r = query_int(h, "SELECT count(*) FROM sqlite_master", &n, err, len)))
			return r;
		if (n)
			return err_set(err, len, -EEXIST,
				       "%s: a database that is not an iorate history", h->path);
		*v = h->version = -1;
		return 0;
	}
	if ((r = check_shape(h, 0, err, len)) || (r = read_version(h, v, err, len)) ||
	    (r = check_shape(h, *v, err, len)))
		return r;
	h->version = (int)*v;
	return 0;
}

int history_check_schema(struct history *h, char *err, size_t len)
{
	int64_t v;
	int r;

	return (r = check_intact(h, err, len)) ? r : check_schema(h, &v, err, len);
}

/*
 * Brings the schema up to HISTORY_SCHEMA in one transaction, so a failed step leaves the
 * database as it was. BEGIN IMMEDIATE takes the write lock first, so two iorate processes
 * opening an old database do not both migrate it. What the file holds is checked first
 * (check_schema): a refused database is not written.
 */
static int migrate(struct history *h, char *err, size_t len)
{
	char set[64];
	int64_t v;
	int r;

	if ((r = check_intact(h, err, len)) || (r = history_exec(h, "BEGIN IMMEDIATE", err, len)))
		return r;
	if ((r = check_schema(h, &v, err, len)))
		goto out;
	if (v < 0) {
		if ((r = history_exec(h, "CREATE TABLE schema_version (version INTEGER NOT NULL);"
				 "INSERT INTO schema_version VALUES (0)", err, len)))
			goto out;
		v = 0;
	}
	for (; v < HISTORY_SCHEMA; v++) {
		if ((r = history_exec(h, migrations[v].sql, err, len)) ||
		    (migrations[v].fn && (r = migrations[v].fn(h, err, len))))
			goto out;
		snprintf(set, sizeof(set), "UPDATE schema_version SET version = %lld",
			 (long long)v + 1);
		if ((r = history_exec(h, set, err, len)))
			goto out;
	}
	h->version = HISTORY_SCHEMA;
	r = history_exec(h, "COMMIT", err, len);
out:
	if (r)
		history_rollback(h);
	return r;
}

int history_default_path(char *buf, size_t len)
{
	const char *env = getenv("IORATE_HISTORY");
	int n;

	if (!env || !*env)
		return xdg_path(XDG_DATA, "history.db", buf, len);
	n = snprintf(buf, len, "%s", env);
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

static int (*sqlite_open)(const char *, int, int);

/*
 * Every file SQLite opens for writing (the database, its journal and WAL) goes through this:
 * never through a link, and never anything but a regular file, so no name swapped in after
 * history_open() checked it can send SQLite's pages to a device.
 */
/*
 * While history_open() opens the database, the first file made (O_EXCL: made here, not found)
 * is the database itself: a history that was new and kept no run is removed at close.
 */
static struct {
	bool opening, made;
	struct gate_id id;
} creating;

static int gated_open(const char *path, int flags, int mode)
{
	struct stat st;
	bool made = false;
	int fd = sqlite_open(path, (flags & ~O_CREAT) | O_NOFOLLOW, mode);

	if (fd < 0 && errno == ENOENT && (flags & O_CREAT)) {
		fd = sqlite_open(path, flags | O_EXCL | O_NOFOLLOW, mode);
		made = fd >= 0;
		if (fd < 0 && errno == EEXIST) /* another process made it meanwhile */
			fd = sqlite_open(path, (flags & ~O_CREAT) | O_NOFOLLOW, mode);
	}
	if (fd < 0 || (flags & O_ACCMODE) == O_RDONLY)
		return fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (made && creating.opening && !creating.made) {
			creating.made = true;
			creating.id = (struct gate_id){.dev = st.st_dev, .ino = st.st_ino};
		}
		return fd;
	}
	close(fd);
	errno = EINVAL;
	return -1;
}

static int gate_sqlite(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");

	if (sqlite_open)
		return 0;
	if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall ||
	    !(sqlite_open = (int (*)(const char *, int, int))vfs->xGetSystemCall(vfs, "open")))
		return -ENOSYS;
	if (vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)gated_open) != SQLITE_OK) {
		sqlite_open = NULL;
		return -ENOSYS;
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
			return err_set(err, len, r,
					    "no history path: set IORATE_HISTORY or HOME");
		path = def;
		if ((r = make_parent(path)))
			return err_set(err, len, r, "%s: cannot create its directory: %s",
					    path, strerror(-r));
	}
	if ((r = gate_check_db("--db", path, err, len)))
		return r;
	if (!strcmp(path, "-"))
		return err_set(err, len, -EINVAL, "--db -: the history is a file, not stdout");
	if ((r = gate_sqlite()))
		return err_set(err, len, r, "%s: cannot guard SQLite's file access", path);
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		return err_set(err, len, -ENOMEM, "out of memory");
	}
	/* No output of the command (--trace, --output) may replace the history. */
	if (gate_use(path, "the --db history", "--db")) {
		free(h->path);
		free(h);
		return err_set(err, len, -ENOMEM, "out of memory");
	}
	creating.opening = true;
	creating.made = false;
	r = sqlite3_open_v2(path, &h->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
	creating.opening = false;
	h->created = creating.made;
	h->made = creating.id;
	if (r != SQLITE_OK) {
		r = err_set(err, len, history_sql_errno(r), "%s: %s", path,
			 h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(r));
		goto out;
	}
	/* Another iorate may be saving a run: wait for it rather than fail. */
	sqlite3_busy_timeout(h->db, 5000);
	harden(h->db);
	if ((r = migrate(h, err, len)) ||
	    (r = history_exec(h, "PRAGMA foreign_keys = ON", err, len)))
		goto out;
	*hp = h;
	return 0;
out:
	history_close_unused(h); /* a database made here that could not be set up is removed */
	return r;
}

int history_open_memory(const void *data, size_t size, struct history **hp, char *err,
			size_t len)
{
	struct history *h = calloc(1, sizeof(*h));
	unsigned char *copy = sqlite3_malloc64(size ? size : 1);
	int r;

	*hp = NULL;
	if (!h || !copy || !(h->path = strdup(":memory:")) ||
	    sqlite3_open_v2(":memory:", &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL)) {
		sqlite3_free(copy);
		history_close(h);
		return err_set(err, len, -ENOMEM, "out of memory");
	}
	memcpy(copy, data, size);
	/* SQLite owns copy from here, even when this fails. */
	if ((r = sqlite3_deserialize(h->db, "main", copy, (sqlite3_int64)size,
				     (sqlite3_int64)size, SQLITE_DESERIALIZE_FREEONCLOSE |
				     SQLITE_DESERIALIZE_RESIZEABLE)) != SQLITE_OK) {
		r = history_sql_fail(h, err, len, r, "opening");
		history_close(h);
		return r;
	}
	harden(h->db);
	if ((r = migrate(h, err, len)) ||
	    (r = history_exec(h, "PRAGMA foreign_keys = ON", err, len))) {
		history_close(h);
		return r;
	}
	*hp = h;
	return 0;
}

int history_open_readonly(const char *path, struct history **hp, char *err, size_t len)
{
	struct history *h;
	int r;

	*hp = NULL;
	if ((r = gate_check_db("--db", path, err, len)))
		return r;
	if (!(h = calloc(1, sizeof(*h))) || !(h->path = strdup(path))) {
		free(h);
		return err_set(err, len, -ENOMEM, "out of memory");
	}
	r = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL);
	if (r != SQLITE_OK) {
		r = err_set(err, len, history_sql_errno(r), "%s: %s", path,
			    h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(r));
		history_close(h);
		return r;
	}
	sqlite3_busy_timeout(h->db, 5000);
	harden(h->db);
	*hp = h;
	return 0;
}

/*
 * Whether a history holds no run: the file is empty (nothing was written: the disk was full),
 * it has no table of runs yet, or that table has no row. Any other failure (busy, locked, out
 * of memory, corrupt) counts as holding runs: another process may have saved into it.
 */
static bool holds_no_run(struct history *h)
{
	sqlite3_stmt *st;
	struct stat sb;
	bool none;

	/* Before the handle: SQLite gives none back when it ran out of memory, file made or not. */
	if (!stat(h->path, &sb) && S_ISREG(sb.st_mode) && sb.st_size == 0)
		return true;
	if (!h->db)
		return false;
	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM runs LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errcode(h->db) == SQLITE_ERROR &&
		       strstr(sqlite3_errmsg(h->db), "no such table");
	none = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return none;
}

void history_close_unused(struct history *h)
{
	if (!h)
		return;
	bool drop = h->created && holds_no_run(h);
	sqlite3_close(h->db);
	h->db = NULL;
	if (drop)
		(void)gate_unlink_created(h->path, &h->made);
	history_close(h);
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


/* Schema 1 text as schema 2 text; NULL when it is not schema 1 or cannot be read as a run. */
static char *v1_to_v2(const char *text)
{
	json_t *o = text ? json_loads(text, 0, NULL) : NULL, *n;
	struct result *r = malloc(sizeof(*r));
	char *out = NULL;

	if (r && json_integer_value(json_object_get(o, "schema")) == 1 &&
	    !result_from_json(o, r, NULL, 0)) {
		n = result_to_json(r);
		out = n ? jsonout_dumps(n, JSON_COMPACT) : NULL;
		json_decref(n);
		result_release(r);
	}
	free(r);
	json_decref(o);
	return out;
}

/* Every run's id, so that rows are rewritten after, not under, the SELECT reading them; on a
 * failure *ids is NULL (what was read is freed). */
static int run_ids(struct history *h, int64_t **ids, size_t *n, char *err, size_t len)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc = sqlite3_prepare_v2(h->db, "SELECT id FROM runs", -1, &st, NULL), r = 0;

	*ids = NULL;
	*n = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			int64_t *g = realloc(*ids, (cap = cap ? cap * 2 : 64) * sizeof(*g));

			if (!g) {
				r = err_set(err, len, -ENOMEM, "out of memory");
				goto out;
			}
			*ids = g;
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "migrating");
out:
	sqlite3_finalize(st);
	if (r) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return r;
}

/*
 * Migration 1 -> 2: each run saved as JSON schema 1 is rewritten as schema 2, histograms rebuilt
 * from its percentiles (result/result_json_v1.c), the old text kept in result_json_v1. A run
 * that cannot be read is left as it was: reading it later names what is wrong with it.
 */
static int convert_v1_runs(struct history *h, char *err, size_t len)
{
	sqlite3_stmt *sel = NULL, *upd = NULL;
	int64_t *ids;
	size_t n;
	int rc, r = run_ids(h, &ids, &n, err, len);

	if (r)
		return r;
	rc = sqlite3_prepare_v2(h->db, "SELECT result_json FROM runs WHERE id = ?1", -1, &sel, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, "UPDATE runs SET result_json_v1 = result_json, "
					"result_json = ?1 WHERE id = ?2", -1, &upd, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		char *text = NULL;

		sqlite3_reset(sel);
		sqlite3_bind_int64(sel, 1, ids[i]);
		if ((rc = sqlite3_step(sel)) == SQLITE_ROW)
			text = v1_to_v2((const char *)sqlite3_column_text(sel, 0));
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
		if (text) {
			sqlite3_reset(upd);
			sqlite3_bind_text(upd, 1, text, -1, free);
			sqlite3_bind_int64(upd, 2, ids[i]);
			rc = sqlite3_step(upd);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		}
	}
	if (rc != SQLITE_OK)
		r = history_sql_fail(h, err, len, rc, "migrating");
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	free(ids);
	return r;
}

/*
 * Migration 2 -> 3: every run saved until then was one job, whose row is made from its JSON. A
 * run that cannot be read gets no row: reading it later names what is wrong with it.
 */
static int fill_jobs(struct history *h, char *err, size_t len)
{
	sqlite3_stmt *sel = NULL;
	int64_t *ids;
	size_t n;
	int rc, r = run_ids(h, &ids, &n, err, len);

	if (r)
		return r;
	rc = sqlite3_prepare_v2(h->db, "SELECT result_json FROM runs WHERE id = ?1", -1, &sel,
				NULL);
	for (size_t i = 0; rc == SQLITE_OK && !r && i < n; i++) {
		const char *text;
		json_t *o = NULL;
		struct result_set s;

		sqlite3_reset(sel);
		sqlite3_bind_int64(sel, 1, ids[i]);
		if ((rc = sqlite3_step(sel)) != SQLITE_ROW)
			break;
		rc = SQLITE_OK;
		text = (const char *)sqlite3_column_text(sel, 0);
		if (text && (o = json_loads(text, 0, NULL)) &&
		    !result_set_from_json(o, &s, NULL, 0))
			r = history_insert_jobs(h, ids[i], &s, false, err, len);
		if (o)
			result_set_release(&s);
		json_decref(o);
	}
	if (!r && rc != SQLITE_OK && rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "migrating");
	sqlite3_finalize(sel);
	free(ids);
	return r;
}
