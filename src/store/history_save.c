/*
 * Saving a run into the history: its JSON (result_set_to_json, compact) in the runs row with
 * the columns people filter by, a row per job and a row per target with their figures, all in
 * one transaction. Opening and migrations are history.c; queries history_query.c.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "result/result_json.h"
#include "store/history.h"
#include "store/history_int.h"
#include "util/jsonout.h"

/* Columns are for SQL: an unknown figure (not finite) is NULL, a count above 2^63 a REAL. */
static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
	if (v <= INT64_MAX)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_double(st, i, (double)v);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

#define RUN_SQL "INSERT INTO runs (start_unix_ms, saved_unix_ms, label, host, kernel, " \
	"command_line, origin, version, bs, threads, depth, write_pct, pattern, cache, engine, " \
	"time_s, seconds, interrupted, error, ntargets, targets, " \
	"read_ios, read_iops, read_mibps, read_mean_us, read_p99_us, " \
	"write_ios, write_iops, write_mibps, write_mean_us, write_p99_us, " \
	"total_ios, total_iops, total_mibps, total_mean_us, total_p99_us, result_json, njobs, " \
	"output) " \
	"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
#define TARGET_SQL "INSERT INTO targets (run_id, idx, path, device, " \
	"read_ios, read_bytes, read_iops, read_mibps, read_mean_us, read_p50_us, read_p99_us, " \
	"read_p99_9_us, write_ios, write_bytes, write_iops, write_mibps, write_mean_us, " \
	"write_p50_us, write_p99_us, write_p99_9_us, total_ios, total_bytes, total_iops, " \
	"total_mibps, total_mean_us, total_p50_us, total_p99_us, total_p99_9_us, job) " \
	"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
#define JOB_SQL "INSERT INTO jobs (run_id, idx, name, grp, bs, threads, depth, write_pct, " \
	"pattern, cache, engine, time_s, seconds, interrupted, error, " \
	"read_ios, read_iops, read_mibps, read_mean_us, read_p99_us, " \
	"write_ios, write_iops, write_mibps, write_mean_us, write_p99_us, " \
	"total_ios, total_iops, total_mibps, total_mean_us, total_p99_us) " \
	"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

static const char *engine_of(const struct result *r)
{
	return r->engine[0] ? r->engine : r->job.engine;
}

/* The runs.targets column: every job's paths as one JSON array. */
static char *targets_text(const struct result_set *s)
{
	json_t *a = json_array();
	char *text;

	for (unsigned j = 0; j < s->njobs; j++)
		for (unsigned i = 0; i < s->jobs[j].ntargets; i++)
			json_array_append_new(a, result_json_str(s->jobs[j].targets[i].path ?: ""));
	text = a ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return text;
}

/* Whether every job has the same value in the job's field at off (of size bytes). */
static bool same(const struct result_set *s, size_t off, size_t size)
{
	for (unsigned i = 1; i < s->njobs; i++)
		if (memcmp((const char *)&s->jobs[i].job + off, (const char *)&s->jobs[0].job + off,
			   size))
			return false;
	return true;
}

#define SAME(s, f) same((s), offsetof(struct job, f), sizeof(((struct job *)0)->f))

/*
 * read, write and total (trims counted in it; the run's JSON keeps them apart): ios, iops,
 * MiB/s, mean and p99 (NULL without latency).
 */
static int bind_figures(sqlite3_stmt *st, int c, const struct dir_stats *rd,
			const struct dir_stats *wr, const struct dir_stats *tr, double seconds)
{
	struct dir_summary s[3];

	if (result_summarize(rd, wr, tr, seconds, s))
		return -ENOMEM;
	for (int d = 0; d < 3; d++) {
		bind_u64(st, c++, s[d].ios);
		bind_real(st, c++, s[d].iops);
		bind_real(st, c++, s[d].mibps);
		bind_real(st, c++, s[d].has_lat ? s[d].lat_mean : NAN);
		bind_real(st, c++, s[d].has_lat ? s[d].p99 : NAN);
	}
	return 0;
}

/*
 * The workload columns: a run of several jobs has a value where all its jobs agree, NULL
 * where they differ. c is the first column's number.
 */
static void bind_workload(sqlite3_stmt *st, int c, const struct result_set *s)
{
	const struct job *j = &s->jobs[0].job;
	bool eng = true;

	for (unsigned i = 1; i < s->njobs; i++)
		eng = eng && !strcmp(engine_of(&s->jobs[i]), engine_of(&s->jobs[0]));
	SAME(s, bs) ? bind_u64(st, c, j->bs) : sqlite3_bind_null(st, c);
	SAME(s, threads) ? sqlite3_bind_int64(st, c + 1, j->threads) : sqlite3_bind_null(st, c + 1);
	SAME(s, depth) ? sqlite3_bind_int64(st, c + 2, j->depth) : sqlite3_bind_null(st, c + 2);
	SAME(s, write_pct) ? sqlite3_bind_int64(st, c + 3, j->write_pct)
			   : sqlite3_bind_null(st, c + 3);
	bind_text(st, c + 4, SAME(s, pattern) ? job_pattern_name(j->pattern) : NULL);
	bind_text(st, c + 5, SAME(s, cache) ? job_cache_name(j->cache) : NULL);
	bind_text(st, c + 6, eng ? engine_of(&s->jobs[0]) : NULL);
	SAME(s, time_ns) ? bind_real(st, c + 7, (double)j->time_ns / 1e9)
			 : sqlite3_bind_null(st, c + 7);
}

static int bind_run(sqlite3_stmt *st, const struct result_set *s, const char *label,
		    const char *text, const char *output)
{
	const struct result *r = &s->jobs[0];
	bool one = s->njobs == 1;
	char *paths = targets_text(s);
	unsigned ntargets = 0;
	int c = 1;

	if (!paths)
		return -ENOMEM;
	for (unsigned i = 0; i < s->njobs; i++)
		ntargets += s->jobs[i].ntargets;
	bind_u64(st, c++, result_set_start_ms(s));
	sqlite3_bind_int64(st, c++, (int64_t)time(NULL) * 1000);
	bind_text(st, c++, label);
	bind_text(st, c++, r->host.hostname);
	bind_text(st, c++, r->host.kernel);
	bind_text(st, c++, r->job.command_line);
	bind_text(st, c++, r->job.origin);
	bind_text(st, c++, r->version);
	bind_workload(st, c, s);
	c += 8;
	bind_real(st, c++, one ? r->seconds : s->total.seconds);
	sqlite3_bind_int(st, c++, one ? r->interrupted : s->total.interrupted);
	bind_text(st, c++, result_set_error(s));
	sqlite3_bind_int64(st, c++, ntargets);
	sqlite3_bind_text(st, c++, paths, -1, free);
	if (one ? bind_figures(st, c, &r->read, &r->write, &r->trim, r->seconds)
		: bind_figures(st, c, &s->total.read, &s->total.write, &s->total.trim,
			       s->total.seconds))
		return -ENOMEM;
	c += 15;
	sqlite3_bind_text(st, c++, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, c++, s->njobs);
	bind_text(st, c++, output);
	return 0;
}

static int bind_target(sqlite3_stmt *st, int64_t id, unsigned idx, unsigned job,
		       const struct target_result *t, double seconds)
{
	struct dir_summary s[3];
	int c = 1;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (result_summarize(&t->read, &t->write, &t->trim, seconds, s))
		return -ENOMEM;
	sqlite3_bind_int64(st, c++, id);
	sqlite3_bind_int64(st, c++, idx);
	bind_text(st, c++, t->path ?: "");
	bind_text(st, c++, t->device[0] ? t->device : NULL);
	for (int d = 0; d < 3; d++) {
		bool l = s[d].has_lat;

		bind_u64(st, c++, s[d].ios);
		bind_u64(st, c++, s[d].bytes);
		bind_real(st, c++, s[d].iops);
		bind_real(st, c++, s[d].mibps);
		bind_real(st, c++, l ? s[d].lat_mean : NAN);
		bind_real(st, c++, l ? s[d].p50 : NAN);
		bind_real(st, c++, l ? s[d].p99 : NAN);
		bind_real(st, c++, l ? s[d].p99_9 : NAN);
	}
	sqlite3_bind_int64(st, c++, job);
	return 0;
}

static int bind_job(sqlite3_stmt *st, int64_t id, unsigned idx, const struct result *r)
{
	const struct job *j = &r->job;
	int c = 1;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_int64(st, c++, id);
	sqlite3_bind_int64(st, c++, idx);
	bind_text(st, c++, j->name);
	sqlite3_bind_int64(st, c++, j->group);
	bind_u64(st, c++, j->bs);
	sqlite3_bind_int64(st, c++, j->threads);
	sqlite3_bind_int64(st, c++, j->depth);
	sqlite3_bind_int64(st, c++, j->write_pct);
	bind_text(st, c++, job_pattern_name(j->pattern));
	bind_text(st, c++, job_cache_name(j->cache));
	bind_text(st, c++, engine_of(r));
	bind_real(st, c++, (double)j->time_ns / 1e9);
	bind_real(st, c++, r->seconds);
	sqlite3_bind_int(st, c++, r->interrupted);
	bind_text(st, c++, result_error(r));
	return bind_figures(st, c, &r->read, &r->write, &r->trim, r->seconds);
}

int history_insert_jobs(struct history *h, int64_t id, const struct result_set *s, bool targets,
			char *err, size_t len)
{
	sqlite3_stmt *job = NULL, *tgt = NULL;
	int rc, ret = 0;
	unsigned idx = 0;

	rc = sqlite3_prepare_v2(h->db, JOB_SQL, -1, &job, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(h->db, TARGET_SQL, -1, &tgt, NULL);
	if (rc != SQLITE_OK)
		ret = history_sql_fail(h, err, len, rc, "saving");
	for (unsigned i = 0; !ret && i < s->njobs; i++) {
		const struct result *r = &s->jobs[i];

		if (bind_job(job, id, i, r))
			ret = err_set(err, len, -ENOMEM, "out of memory");
		else if ((rc = sqlite3_step(job)) != SQLITE_DONE)
			ret = history_sql_fail(h, err, len, rc, "saving a job");
		for (unsigned t = 0; !ret && targets && t < r->ntargets; t++) {
			if (bind_target(tgt, id, idx++, i, &r->targets[t], r->seconds))
				ret = err_set(err, len, -ENOMEM, "out of memory");
			else if ((rc = sqlite3_step(tgt)) != SQLITE_DONE)
				ret = history_sql_fail(h, err, len, rc, "saving a target");
		}
	}
	sqlite3_finalize(job);
	sqlite3_finalize(tgt);
	return ret;
}

/*
 * The id of a run saved with exactly this JSON in *id, or 0. A failed query fails the save:
 * SQLite may have rolled the transaction back, and the rows would then be written one by one.
 */
static int find_same(struct history *h, uint64_t start_ms, const char *text, int64_t *id,
		     char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, "SELECT id FROM runs WHERE start_unix_ms = ?1 AND "
				    "result_json = ?2", -1, &st, NULL);

	*id = 0;
	if (rc != SQLITE_OK)
		return history_sql_fail(h, err, len, rc, "saving");
	bind_u64(st, 1, start_ms);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		rc = history_sql_fail(h, err, len, rc, "saving");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : rc;
}

/* The run's row, then its jobs' and targets' (in the transaction store() holds). */
static int insert(struct history *h, const struct result_set *s, const char *label,
		  const char *text, const char *output, int64_t *rid, char *err, size_t len)
{
	sqlite3_stmt *run = NULL;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(h->db, RUN_SQL, -1, &run, NULL);
	if (rc != SQLITE_OK)
		ret = history_sql_fail(h, err, len, rc, "saving");
	else if (bind_run(run, s, label, text, output))
		ret = err_set(err, len, -ENOMEM, "out of memory");
	else if ((rc = sqlite3_step(run)) != SQLITE_DONE)
		ret = history_sql_fail(h, err, len, rc, "saving the run");
	sqlite3_finalize(run);
	if (!ret)
		*rid = sqlite3_last_insert_rowid(h->db);
	if (!ret)
		ret = history_insert_jobs(h, *rid, s, true, err, len);
	return ret ? ret : history_insert_devices(h, *rid, s, err, len);
}

/* Saves one run in one transaction; the same JSON saved before is -EEXIST, its id in *id. */
static int store(struct history *h, const struct result_set *s, const char *label,
		 const char *text, const char *output, int64_t *id, char *err, size_t len)
{
	int64_t rid = 0;
	int ret;

	if ((ret = history_exec(h, "BEGIN IMMEDIATE", err, len)))
		return ret;
	ret = find_same(h, result_set_start_ms(s), text, &rid, err, len);
	if (!ret && rid)
		ret = err_set(err, len, -EEXIST, "already saved as run %lld", (long long)rid);
	else if (!ret && !(ret = insert(h, s, label, text, output, &rid, err, len)))
		ret = history_exec(h, "COMMIT", err, len);
	if (ret)
		history_rollback(h);
	if ((!ret || ret == -EEXIST) && id)
		*id = rid;
	return ret;
}

/* The runs.output column: {"format":"csv","units":"si","series":false,"brief":false}. */
static char *output_text(const struct history_output *out)
{
	json_t *o = json_pack("{s:s, s:s, s:b, s:b}", "format", out->format, "units",
			      out->units == UNITS_SI ? "si" : "iec", "series", out->series,
			      "brief", out->brief);
	char *text = o ? jsonout_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return text;
}

static int save(struct history *h, const struct result_set *s, const char *label,
		const struct history_output *out, int64_t *id, char *err, size_t len)
{
	json_t *o = s->njobs ? result_set_to_json(s) : NULL;
	char *text = o ? jsonout_dumps(o, JSON_COMPACT) : NULL;
	char *otext = out && out->format[0] ? output_text(out) : NULL;
	int ret;

	json_decref(o);
	if (!s->njobs)
		ret = err_set(err, len, -EINVAL, "a run without a job");
	else if (!text || (out && out->format[0] && !otext))
		ret = err_set(err, len, -ENOMEM, "out of memory");
	else
		ret = store(h, s, label, text, otext, id, err, len);
	free(text);
	free(otext);
	return ret;
}

int history_save_set(struct history *h, const struct result_set *s, const char *label,
		     int64_t *id, char *err, size_t len)
{
	return save(h, s, label, NULL, id, err, len);
}

int history_save_printed(struct history *h, const struct result_set *s,
			 const struct history_output *out, int64_t *id, char *err, size_t len)
{
	return save(h, s, NULL, out, id, err, len);
}

int history_save_labeled(struct history *h, const struct result *r, const char *label,
			 int64_t *id, char *err, size_t len)
{
	struct result_set s;
	int ret = result_set_view(&s, r, 1);

	if (!ret)
		ret = history_save_set(h, &s, label, id, err, len);
	else
		ret = err_set(err, len, ret, "out of memory");
	result_set_release(&s);
	return ret;
}

int history_save(struct history *h, const struct result *r, int64_t *id, char *err,
		 size_t len)
{
	return history_save_labeled(h, r, NULL, id, err, len);
}
