/*
 * The history's queries: list with filters, one run, removal; runs come back as struct
 * result_set (result/result_json.h). Opening and migrations are history.c, saving
 * history_save.c; they share struct history through history_int.h.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_json.h"
#include "store/history.h"
#include "store/history_int.h"

/*
 * Column i of a run's row as text, its length in *n: NULL stays NULL; anything else that is
 * not text (a number, a blob) or text holding a NUL byte is refused, naming the run and what.
 */
static int column_text(sqlite3_stmt *st, int i, const char **s, size_t *n, int64_t id,
		       const char *what, char *err, size_t len)
{
	int type = sqlite3_column_type(st, i);

	*s = NULL;
	*n = 0;
	if (type == SQLITE_NULL)
		return 0;
	if (type != SQLITE_TEXT)
		return err_set(err, len, -EBADMSG, "run %lld: %s is not text but %s", (long long)id,
			       what, type == SQLITE_BLOB ? "a blob" : "a number");
	if (!(*s = (const char *)sqlite3_column_text(st, i)))
		return err_set(err, len, -ENOMEM, "out of memory");
	*n = (size_t)sqlite3_column_bytes(st, i);
	if (memchr(*s, '\0', *n))
		return err_set(err, len, -EBADMSG, "run %lld: %s holds a NUL byte", (long long)id,
			       what);
	return 0;
}

/*
 * The runs.output column (history_save.c) as e->output; NULL (a run saved before schema 5 or
 * imported) leaves the format "". -EBADMSG naming the run when it cannot be read.
 */
static int load_output(sqlite3_stmt *st, struct history_entry *e, char *err, size_t len)
{
	const char *text, *format = NULL, *units = NULL;
	int series = 0, brief = 0;
	size_t n;
	json_t *o;
	int r;

	if ((r = column_text(st, 3, &text, &n, e->id, "the stored output settings", err, len)) ||
	    !text)
		return r;
	o = json_loadb(text, n, 0, NULL);
	if (!o || json_unpack(o, "{s:s, s:s, s:b, s:b}", "format", &format, "units", &units,
			      "series", &series, "brief", &brief) ||
	    !*format || strlen(format) >= sizeof(e->output.format) ||
	    (strcmp(units, "iec") && strcmp(units, "si"))) {
		json_decref(o);
		return err_set(err, len, -EBADMSG, "run %lld: the stored output settings are not "
			       "{\"format\", \"units\", \"series\", \"brief\"}", (long long)e->id);
	}
	snprintf(e->output.format, sizeof(e->output.format), "%s", format);
	e->output.units = strcmp(units, "si") ? UNITS_IEC : UNITS_SI;
	e->output.series = series;
	e->output.brief = brief;
	json_decref(o);
	return 0;
}

/*
 * A stored run's JSON as struct result; -EBADMSG naming the run when it cannot be: every
 * column is checked before use, the JSON by result_set_from_json() as a file's would be.
 */
static int load_entry(sqlite3_stmt *st, struct history_entry *e, char *err, size_t len)
{
	const char *text, *label;
	char why[256] = "";
	size_t n, nlabel;
	json_t *o;
	int r;

	memset(e, 0, sizeof(*e));
	result_set_init(&e->run);
	e->id = sqlite3_column_int64(st, 0);
	if ((r = column_text(st, 1, &label, &nlabel, e->id, "the label", err, len)) ||
	    (r = column_text(st, 2, &text, &n, e->id, "the stored JSON", err, len)))
		return r;
	if (!text)
		return err_set(err, len, -EBADMSG, "run %lld: the stored JSON is missing",
			       (long long)e->id);
	if (!(o = json_loadb(text, n, 0, NULL)))
		return err_set(err, len, -EBADMSG, "run %lld: the stored JSON does not parse",
				    (long long)e->id);
	r = result_set_from_json(o, &e->run, why, sizeof(why));
	json_decref(o);
	if (!r && (r = load_output(st, e, err, len)))
		return r;
	if (!r && label && !(e->label = strdup(label)))
		r = -ENOMEM;
	if (r == -ENOMEM)
		return err_set(err, len, r, "out of memory");
	if (r)
		return err_set(err, len, -EBADMSG, "run %lld: %s", (long long)e->id, why);
	return 0;
}

void history_entry_release(struct history_entry *e)
{
	if (!e)
		return;
	free(e->label);
	e->label = NULL;
	result_set_release(&e->run);
}

/* Binds the filter: ?1 host, ?2 a LIKE pattern (*like owns a made one), ?3 since, ?4 limit. */
static int bind_filter(sqlite3_stmt *st, const struct history_filter *f, char **like)
{
	*like = NULL;
	if (f->target && !strpbrk(f->target, "%_") && asprintf(like, "%%%s%%", f->target) < 0) {
		*like = NULL;
		return -ENOMEM;
	}
	if (f->host)
		sqlite3_bind_text(st, 1, f->host, -1, SQLITE_STATIC);
	if (f->target)
		sqlite3_bind_text(st, 2, *like ? *like : f->target, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, f->since_unix_ms);
	sqlite3_bind_int64(st, 4, f->limit ? (int64_t)f->limit : -1);
	return 0;
}

int history_list(struct history *h, const struct history_filter *f,
		 int (*fn)(const struct history_entry *e, void *arg), void *arg, char *err,
		 size_t len)
{
	static const char sql[] = "SELECT id, label, result_json, output FROM runs r"
		" WHERE (?1 IS NULL OR host = ?1)"
		" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM targets t WHERE t.run_id = r.id"
		" AND t.path LIKE ?2)) AND start_unix_ms >= ?3"
		" ORDER BY start_unix_ms DESC, id DESC LIMIT ?4";
	struct history_filter none = {0};
	struct history_entry e;
	sqlite3_stmt *st;
	char *like = NULL, bad[512];
	int rc, r = 0;

	rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "listing");
	if (bind_filter(st, f ? f : &none, &like)) {
		sqlite3_finalize(st);
		return err_set(err, len, -ENOMEM, "out of memory");
	}
	/* One run at a time: a result with its histograms is tens of KiB. */
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!(r = load_entry(st, &e, bad, sizeof(bad))))
			r = fn(&e, arg);
		else if (r == -EBADMSG && f && f->skipped) /* one bad run costs only itself */
			f->skipped(e.id, bad, arg), r = 0;
		else
			r = err_set(err, len, r, "%s", bad);
		history_entry_release(&e);
	}
	if (!r && rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "listing");
	sqlite3_finalize(st);
	free(like);
	return r;
}

int history_get(struct history *h, int64_t id, struct history_entry *e, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, "SELECT id, label, result_json, output FROM runs WHERE id = ?1",
				    -1, &st, NULL);
	int r;

	memset(e, 0, sizeof(*e));
	result_set_init(&e->run);
	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "reading");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		r = load_entry(st, e, err, len);
	else if (rc == SQLITE_DONE)
		r = err_set(err, len, -ENOENT, "no run %lld in %s", (long long)id, h->path);
	else
		r = history_sql_fail(h, err, len, rc, "reading");
	sqlite3_finalize(st);
	if (r)
		history_entry_release(e);
	return r;
}

int history_check_runs(struct history *h, void (*fn)(int64_t id, const char *what, void *arg),
		       void *arg, char *err, size_t len)
{
	struct history_entry e;
	sqlite3_stmt *st;
	char why[512];
	int rc, r = 0, bad = 0;

	if (h->version < 1) /* a new database: no table of runs yet */
		return 0;
	/* A database of schema 4 or older read as it is has no output settings. */
	rc = sqlite3_prepare_v2(h->db, h->version >= 5 ?
				"SELECT id, label, result_json, output FROM runs ORDER BY id" :
				"SELECT id, label, result_json, NULL FROM runs ORDER BY id",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "checking");
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = load_entry(st, &e, why, sizeof(why))) == -EBADMSG) {
			fn(e.id, why, arg);
			bad++;
			r = 0;
		} else if (r) {
			r = err_set(err, len, r, "%s", why);
		}
		history_entry_release(&e);
	}
	if (!r && rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "checking");
	sqlite3_finalize(st);
	return r ? r : bad;
}

/* A row of table (jobs, targets, devices) whose run is missing, named by that run's id. */
static void orphan_line(struct history *h, const char *table, int64_t rowid, char *line,
			size_t len)
{
	char *sql = sqlite3_mprintf("SELECT run_id FROM \"%w\" WHERE rowid = ?1", table ? table : "");
	sqlite3_stmt *st = NULL;

	if (sql && sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    !sqlite3_bind_int64(st, 1, rowid) && sqlite3_step(st) == SQLITE_ROW)
		snprintf(line, len, "%s: a row of run %lld, which is missing", table,
			 (long long)sqlite3_column_int64(st, 0));
	else
		snprintf(line, len, "%s: row %lld belongs to a missing row", table ? table : "?",
			 (long long)rowid);
	sqlite3_finalize(st);
	sqlite3_free(sql);
}

/* Each row of a PRAGMA, its columns joined, to fn; how many rows, or -errno. */
static int pragma_rows(struct history *h, const char *sql, const char *skip,
		       void (*fn)(const char *what, void *arg), void *arg, char *err, size_t len)
{
	sqlite3_stmt *st;
	char line[512];
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL), n = 0;

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(st, 0);

		rc = SQLITE_OK;
		if (skip && a && !strcmp(a, skip))
			continue;
		if (sqlite3_column_count(st) == 4) /* foreign_key_check: table, rowid, parent */
			orphan_line(h, a, sqlite3_column_int64(st, 1), line, sizeof(line));
		else
			snprintf(line, sizeof(line), "%s", a ? a : "?");
		fn(line, arg);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT) {
			fn(sqlite3_errmsg(h->db), arg);
			return n + 1;
		}
		return history_sql_fail(h, err, len, rc, "checking");
	}
	return n;
}

int history_integrity(struct history *h, void (*fn)(const char *what, void *arg), void *arg,
		      char *err, size_t len)
{
	int a = pragma_rows(h, "PRAGMA integrity_check", "ok", fn, arg, err, len), b;

	/* A file SQLite cannot read at all has nothing more to tell. */
	if (a)
		return a;
	b = pragma_rows(h, "PRAGMA foreign_key_check", NULL, fn, arg, err, len);
	return b;
}

int history_remove(struct history *h, int64_t id, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	int r, rc;

	if ((r = history_exec(h, "BEGIN IMMEDIATE", err, len)))
		return r;
	/* Targets and jobs first, so databases without the cascade lose nothing half-way. */
	static const char *const sql[] = {"DELETE FROM targets WHERE run_id = ?1",
					  "DELETE FROM jobs WHERE run_id = ?1",
					  "DELETE FROM runs WHERE id = ?1"};

	rc = SQLITE_DONE;
	for (size_t i = 0; i < 3 && rc == SQLITE_DONE; i++) {
		if ((rc = sqlite3_prepare_v2(h->db, sql[i], -1, &st, NULL)) != SQLITE_OK)
			break;
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "removing");
	else if (sqlite3_changes(h->db) == 0)
		r = err_set(err, len, -ENOENT, "no run %lld in %s", (long long)id, h->path);
	else
		r = history_exec(h, "COMMIT", err, len);
	if (r)
		history_rollback(h);
	return r;
}
