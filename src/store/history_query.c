/*
 * The history's queries: list with filters, one run's columns or JSON, removal. Opening,
 * migrations and saving are in history.c; both share struct history through history_int.h.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/history.h"
#include "store/history_int.h"

#define RUN_COLS "id, start_unix_ms, label, host, kernel, command_line, origin, bs, threads, " \
	"depth, write_pct, pattern, cache, engine, time_s, seconds, interrupted, " \
	"error, ntargets, targets, " \
	"read_ios, read_iops, read_mibps, read_mean_us, read_p99_us, " \
	"write_ios, write_iops, write_mibps, write_mean_us, write_p99_us, " \
	"total_ios, total_iops, total_mibps, total_mean_us, total_p99_us"

static char *col_str(sqlite3_stmt *st, int c, int *oom)
{
	const unsigned char *s = sqlite3_column_text(st, c);
	char *d;

	if (!s)
		return NULL;
	if (!(d = strdup((const char *)s)))
		*oom = 1;
	return d;
}

static double col_num(sqlite3_stmt *st, int c)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st, c);
}

/* The runs.targets column: a JSON array of paths. */
static int read_targets(sqlite3_stmt *st, int c, struct history_run *r)
{
	const char *text = (const char *)sqlite3_column_text(st, c);
	json_t *a = text ? json_loads(text, 0, NULL) : NULL, *v;
	size_t i;

	r->targets = calloc(json_array_size(a) + 1, sizeof(char *));
	if (!r->targets) {
		json_decref(a);
		return -ENOMEM;
	}
	json_array_foreach(a, i, v) {
		if (!(r->targets[r->ntargets] = strdup(json_string_value(v) ?: ""))) {
			json_decref(a);
			return -ENOMEM;
		}
		r->ntargets++;
	}
	json_decref(a);
	return 0;
}

static int read_run(sqlite3_stmt *st, struct history_run *r)
{
	int c = 0, oom = 0;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, c++);
	r->start_unix_ms = sqlite3_column_int64(st, c++);
	r->label = col_str(st, c++, &oom);
	r->host = col_str(st, c++, &oom);
	r->kernel = col_str(st, c++, &oom);
	r->command_line = col_str(st, c++, &oom);
	r->origin = col_str(st, c++, &oom);
	r->bs = (uint64_t)sqlite3_column_int64(st, c++);
	r->threads = (unsigned)sqlite3_column_int(st, c++);
	r->depth = (unsigned)sqlite3_column_int(st, c++);
	r->write_pct = (unsigned)sqlite3_column_int(st, c++);
	r->pattern = col_str(st, c++, &oom);
	r->cache = col_str(st, c++, &oom);
	r->engine = col_str(st, c++, &oom);
	r->time_s = col_num(st, c++);
	r->seconds = col_num(st, c++);
	r->interrupted = sqlite3_column_int(st, c++) != 0;
	r->error = col_str(st, c++, &oom);
	c++; /* ntargets: counted from the array */
	if (read_targets(st, c++, r))
		oom = 1;
	for (int d = 0; d < 3; d++) {
		struct history_dir *x = &r->dir[d];

		x->ios = (uint64_t)sqlite3_column_int64(st, c++);
		x->iops = col_num(st, c++);
		x->mibps = col_num(st, c++);
		x->has_lat = sqlite3_column_type(st, c) != SQLITE_NULL;
		x->mean_us = col_num(st, c++);
		x->p99_us = col_num(st, c++);
	}
	if (oom) {
		history_run_release(r);
		return -ENOMEM;
	}
	return 0;
}

void history_run_release(struct history_run *r)
{
	if (!r)
		return;
	free(r->label);
	free(r->host);
	free(r->kernel);
	free(r->command_line);
	free(r->origin);
	free(r->pattern);
	free(r->cache);
	free(r->engine);
	free(r->error);
	for (unsigned i = 0; r->targets && i < r->ntargets; i++)
		free(r->targets[i]);
	free(r->targets);
	memset(r, 0, sizeof(*r));
}

void history_runs_free(struct history_run *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		history_run_release(&runs[i]);
	free(runs);
}

int history_list(struct history *h, const struct history_filter *f, struct history_run **out,
		 size_t *n, char *err, size_t len)
{
	static const char sql[] = "SELECT " RUN_COLS " FROM runs r WHERE (?1 IS NULL OR host = ?1)"
		" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM targets t WHERE t.run_id = r.id"
		" AND t.path LIKE ?2)) AND start_unix_ms >= ?3"
		" ORDER BY start_unix_ms DESC, id DESC LIMIT ?4";
	struct history_filter none = {0};
	struct history_run *runs = NULL;
	size_t cap = 0, cnt = 0;
	sqlite3_stmt *st;
	char *like = NULL;
	int rc, r = 0;

	*out = NULL;
	*n = 0;
	if (!f)
		f = &none;
	if (f->target && !strpbrk(f->target, "%_")) {
		if (asprintf(&like, "%%%s%%", f->target) < 0)
			return history_fail(err, len, -ENOMEM, "out of memory");
	}
	rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		free(like);
		return history_sql_fail(h, err, len, rc, "listing");
	}
	if (f->host)
		sqlite3_bind_text(st, 1, f->host, -1, SQLITE_STATIC);
	if (f->target)
		sqlite3_bind_text(st, 2, like ? like : f->target, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, f->since_unix_ms);
	sqlite3_bind_int64(st, 4, f->limit ? (int64_t)f->limit : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct history_run *g = realloc(runs, nc * sizeof(*g));

			if (!g) {
				r = -ENOMEM;
				break;
			}
			runs = g;
			cap = nc;
		}
		if ((r = read_run(st, &runs[cnt])))
			break;
		cnt++;
	}
	if (!r && rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "listing");
	else if (r)
		history_fail(err, len, r, "out of memory");
	sqlite3_finalize(st);
	free(like);
	if (r) {
		history_runs_free(runs, cnt);
		return r;
	}
	*out = runs;
	*n = cnt;
	return 0;
}

/* Prepares sql with ?1 = id and steps to its row; -ENOENT when there is none. */
static int step_id(struct history *h, const char *sql, int64_t id, sqlite3_stmt **st,
		   char *err, size_t len)
{
	int rc = sqlite3_prepare_v2(h->db, sql, -1, st, NULL);

	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "reading");
	sqlite3_bind_int64(*st, 1, id);
	rc = sqlite3_step(*st);
	if (rc == SQLITE_ROW)
		return 0;
	sqlite3_finalize(*st);
	*st = NULL;
	if (rc == SQLITE_DONE)
		return history_fail(err, len, -ENOENT, "no run %lld in %s", (long long)id, h->path);
	return history_sql_fail(h, err, len, rc, "reading");
}

int history_get(struct history *h, int64_t id, struct history_run *run, char *err, size_t len)
{
	sqlite3_stmt *st;
	int r = step_id(h, "SELECT " RUN_COLS " FROM runs WHERE id = ?1", id, &st, err, len);

	if (r)
		return r;
	r = read_run(st, run);
	sqlite3_finalize(st);
	return r ? history_fail(err, len, r, "out of memory") : 0;
}

int history_get_json(struct history *h, int64_t id, char **json, char *err, size_t len)
{
	sqlite3_stmt *st;
	int r = step_id(h, "SELECT result_json FROM runs WHERE id = ?1", id, &st, err, len);

	*json = NULL;
	if (r)
		return r;
	*json = strdup((const char *)sqlite3_column_text(st, 0) ?: "null");
	sqlite3_finalize(st);
	return *json ? 0 : history_fail(err, len, -ENOMEM, "out of memory");
}

int history_get_obj(struct history *h, int64_t id, json_t **run, char *err, size_t len)
{
	char *text;
	int r = history_get_json(h, id, &text, err, len);

	*run = NULL;
	if (r)
		return r;
	*run = json_loads(text, 0, NULL);
	free(text);
	return *run ? 0 : history_fail(err, len, -EBADMSG, "run %lld: the stored JSON does not "
				       "parse", (long long)id);
}

int history_remove(struct history *h, int64_t id, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	int r, rc;

	if ((r = history_exec(h, "BEGIN IMMEDIATE", err, len)))
		return r;
	/* Targets first, so older databases without the cascade lose nothing half-way. */
	rc = sqlite3_prepare_v2(h->db, "DELETE FROM targets WHERE run_id = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc == SQLITE_DONE)
		rc = sqlite3_prepare_v2(h->db, "DELETE FROM runs WHERE id = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "removing");
	else if (sqlite3_changes(h->db) == 0)
		r = history_fail(err, len, -ENOENT, "no run %lld in %s", (long long)id, h->path);
	else
		r = history_exec(h, "COMMIT", err, len);
	if (r)
		history_rollback(h);
	return r;
}
