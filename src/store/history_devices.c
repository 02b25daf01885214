/*
 * The devices under each run's targets in the history (schema 4): a row per device of every
 * job, and of every group and the total of a run of several jobs, with what the kernel counted
 * over the window and iorate's I/O through it, for filtering with SQL. The run's JSON keeps them
 * too (its `diskstats`); these rows are drawn from it. The runs', jobs' and targets' rows are
 * history_save.c's.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>

#include "result/result_json.h"
#include "store/history_int.h"

#define DEVICE_SQL "INSERT INTO devices (run_id, scope, job, grp, device, role, of, seconds, " \
	"read_ios, read_merges, read_bytes, read_ms, write_ios, write_merges, write_bytes, " \
	"write_ms, in_flight, busy_ms, queue_ms, discard_ios, discard_merges, discard_bytes, " \
	"discard_ms, flush_ios, flush_ms, util_pct, await_ms, queue_depth, iorate_read_ios, " \
	"iorate_write_ios, iorate_read_bytes, iorate_write_bytes) " \
	"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

/* As the other tables: a count above 2^63 as a REAL, an unknown figure as NULL. */
static void bind_count(sqlite3_stmt *st, int i, bool has, uint64_t v)
{
	if (!has)
		sqlite3_bind_null(st, i);
	else if (v <= INT64_MAX)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_double(st, i, (double)v);
}

static void bind_fig(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* job and grp < 0: NULL (a group has no job, the total neither). */
static void bind_view(sqlite3_stmt *st, int64_t id, const char *scope, int64_t job, int64_t grp,
		      const struct device_view *v)
{
	const struct disk_counts *d = &v->disk;
	const uint64_t k[] = {d->read_ios, d->read_merges, d->read_bytes, d->read_ms,
			      d->write_ios, d->write_merges, d->write_bytes, d->write_ms,
			      d->in_flight, d->busy_ms, d->queue_ms};
	const uint64_t disc[] = {d->discard_ios, d->discard_merges, d->discard_bytes,
				 d->discard_ms};
	struct device_figures f;
	int c = 1;

	device_view_figures(v, &f);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_int64(st, c++, id);
	sqlite3_bind_text(st, c++, scope, -1, SQLITE_STATIC);
	job >= 0 ? sqlite3_bind_int64(st, c++, job) : sqlite3_bind_null(st, c++);
	grp >= 0 ? sqlite3_bind_int64(st, c++, grp) : sqlite3_bind_null(st, c++);
	sqlite3_bind_text(st, c++, v->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, c++, device_role_name(v->role), -1, SQLITE_STATIC);
	v->of[0] ? sqlite3_bind_text(st, c++, v->of, -1, SQLITE_TRANSIENT)
		 : sqlite3_bind_null(st, c++);
	bind_fig(st, c++, v->seconds);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		bind_count(st, c++, true, k[i]);
	for (size_t i = 0; i < sizeof(disc) / sizeof(disc[0]); i++)
		bind_count(st, c++, d->has_discard, disc[i]);
	bind_count(st, c++, d->has_flush, d->flush_ios);
	bind_count(st, c++, d->has_flush, d->flush_ms);
	bind_fig(st, c++, f.util_pct);
	bind_fig(st, c++, f.await_ms);
	bind_fig(st, c++, f.queue_depth);
	bind_count(st, c++, true, v->read_ios);
	bind_count(st, c++, true, v->write_ios);
	bind_count(st, c++, true, v->read_bytes);
	bind_count(st, c++, true, v->write_bytes);
}

static int insert_views(struct history *h, sqlite3_stmt *st, int64_t id, const char *scope,
			int64_t job, int64_t grp, const struct device_view *v, unsigned n,
			char *err, size_t len)
{
	for (unsigned i = 0; i < n; i++) {
		int rc;

		bind_view(st, id, scope, job, grp, &v[i]);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE)
			return history_sql_fail(h, err, len, rc, "saving a device");
	}
	return 0;
}

int history_insert_devices(struct history *h, int64_t id, const struct result_set *s,
			   char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(h->db, DEVICE_SQL, -1, &st, NULL), ret = 0;

	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "saving");
	for (unsigned i = 0; !ret && i < s->njobs; i++)
		ret = insert_views(h, st, id, "job", i, s->jobs[i].job.group, s->jobs[i].devices,
				   s->jobs[i].ndevices, err, len);
	for (unsigned g = 0; !ret && g < s->ngroups; g++)
		ret = insert_views(h, st, id, "group", -1, s->groups[g].group, s->groups[g].views,
				   s->groups[g].nviews, err, len);
	if (!ret && s->njobs > 1)
		ret = insert_views(h, st, id, "total", -1, -1, s->total.views, s->total.nviews,
				   err, len);
	sqlite3_finalize(st);
	return ret;
}

/*
 * Migration 3 -> 4: the rows of every stored run that has devices (none saved before this
 * schema has; an imported one may). A run that cannot be read gets none.
 */
int history_fill_devices(struct history *h, char *err, size_t len)
{
	sqlite3_stmt *sel = NULL;
	int rc = sqlite3_prepare_v2(h->db, "SELECT id, result_json FROM runs WHERE "
				    "instr(result_json, '\"diskstats\"') > 0", -1, &sel, NULL);
	int r = 0;

	while (rc == SQLITE_OK && !r && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(sel, 1);
		json_t *o = text ? json_loads(text, 0, NULL) : NULL;
		struct result_set s;

		rc = SQLITE_OK;
		if (o && !result_set_from_json(o, &s, NULL, 0))
			r = history_insert_devices(h, sqlite3_column_int64(sel, 0), &s, err, len);
		if (o)
			result_set_release(&s);
		json_decref(o);
	}
	sqlite3_finalize(sel);
	if (!r && rc != SQLITE_DONE)
		r = history_sql_fail(h, err, len, rc, "migrating");
	return r;
}
