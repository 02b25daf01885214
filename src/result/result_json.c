/*
 * struct result as JSON (docs/json.md, schema 2): every field the struct holds, with the derived
 * figures readers want beside the counters they come from. Reading it back is
 * result_json_read.c; schema 1 is result_json_v1.c.
 */
#include "result/result_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_json_int.h"

/*
 * Builders record the first allocation failure in *err and carry on, so a builder can be
 * written as a flat list of put() calls and checked once at the end.
 */

/* Their short names in this file. */
#define put result_json_put
#define append result_json_append

/* "" is written as null: an empty fixed-size field means "none". */
static json_t *str_or_null(const char *s)
{
	return s && s[0] ? result_json_str(s) : json_null();
}

json_t *result_json_lat(const struct dir_summary *s)
{
	int err = 0;
	json_t *o = result_json_put_lat(s, &err);

	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* What readers want of one direction (result_fields_fig); `total` directions hold only this. */
json_t *result_json_figures(const struct dir_summary *s, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_fig, s, 0, err);
	return o;
}

/* read or write: the figures, then the counters and histogram behind them (result_fields_dir). */
static json_t *dir_obj(const struct dir_stats *d, double seconds, int *err)
{
	struct dir_summary s;
	json_t *o;

	dir_stats_summarize(d, seconds, &s);
	o = result_json_figures(&s, err);
	result_fields_put(o, &result_fields_dir, d, FIELD_FIGURE, err);
	return o;
}

/*
 * "read", "write", "trim" (only where there were trims) and "total" (all three) of rd, wr
 * and tr into o; *tot (may be NULL) gets the total's.
 */
static void dirs_put(json_t *o, const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, double seconds, struct dir_summary *tot, int *err)
{
	struct dir_stats t;
	struct dir_summary s;

	if (result_dir_total(rd, wr, tr, &t)) {
		*err = -ENOMEM;
		return;
	}
	dir_stats_summarize(&t, seconds, &s);
	dir_stats_release(&t);
	put(o, "read", dir_obj(rd, seconds, err), err);
	put(o, "write", dir_obj(wr, seconds, err), err);
	if (dir_stats_any(tr))
		put(o, "trim", dir_obj(tr, seconds, err), err);
	put(o, "total", result_json_figures(&s, err), err);
	if (tot)
		*tot = s;
}

/* The job as run: the rows of result_fields_params (fields.c), in their order. */
static json_t *params_obj(const struct result *r, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_params, r, 0, err);
	return o;
}

static json_t *host_obj(const struct host_info *h, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_host, h, 0, err);
	return o;
}

json_t *result_json_cpu(const struct cpu_usage *c, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_cpu, c, 0, err);
	return o;
}

static json_t *kernel_obj(const struct kernel_counts *k, int *err)
{
	if (!k->valid)
		return json_null();
	json_t *o = json_object();

	put(o, "device", result_json_str(k->name), err);
	put(o, "read_bytes", result_json_u64(k->read_bytes), err);
	put(o, "write_bytes", result_json_u64(k->write_bytes), err);
	put(o, "read_ios", result_json_u64(k->read_ios), err);
	put(o, "write_ios", result_json_u64(k->write_ios), err);
	if (k->discard_ios) {
		put(o, "discard_bytes", result_json_u64(k->discard_bytes), err);
		put(o, "discard_ios", result_json_u64(k->discard_ios), err);
	}
	return o;
}

/* A target's scalars (result_fields_target), then its directions and the kernel's counts. */
static json_t *target_obj(const struct target_result *t, double seconds, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_target, t, 0, err);
	dirs_put(o, &t->read, &t->write, &t->trim, seconds, NULL, err);
	put(o, "kernel", kernel_obj(&t->kernel, err), err);
	return o;
}

static json_t *total_obj(const struct result *r, int *err)
{
	struct dir_summary s = {0};
	json_t *o = json_object();

	dirs_put(o, &r->read, &r->write, &r->trim, r->seconds, &s, err);
	put(o, "iops", result_json_real(s.iops), err);
	put(o, "mibps", result_json_real(s.mibps), err);
	put(o, "mbps", result_json_real(s.mbps), err);
	return o;
}

/* A point's counts as rates; one of zero length has rates of 0 (as every report shows it). */
static double per_s(double v, double seconds)
{
	return seconds > 0 ? v / seconds : 0;
}

/* trims: the job trims, and every point says how many (0 too). */
static json_t *point_obj(const struct series_point *p, bool trims, int *err)
{
	double bytes = (double)(p->read_bytes + p->write_bytes + p->trim_bytes);
	json_t *o = json_object();

	put(o, "t", result_json_real(p->t), err);
	put(o, "seconds", result_json_real(p->seconds), err);
	put(o, "iops", result_json_real(per_s((double)(p->read_ios + p->write_ios + p->trim_ios),
					      p->seconds)), err);
	put(o, "read_iops", result_json_real(per_s((double)p->read_ios, p->seconds)), err);
	put(o, "write_iops", result_json_real(per_s((double)p->write_ios, p->seconds)), err);
	put(o, "mibps", result_json_real(per_s(bytes / 1048576.0, p->seconds)), err);
	put(o, "mbps", result_json_real(per_s(bytes / 1e6, p->seconds)), err);
	put(o, "p99_us", p->p99_ns ? result_json_real((double)p->p99_ns / 1e3) : json_null(), err);
	if (p->credit_iops >= 0)
		put(o, "credit_iops", result_json_real(p->credit_iops), err);
	if (p->credit_mbps >= 0)
		put(o, "credit_mbps", result_json_real(p->credit_mbps), err);
	put(o, "read_ios", result_json_u64(p->read_ios), err);
	put(o, "write_ios", result_json_u64(p->write_ios), err);
	put(o, "read_bytes", result_json_u64(p->read_bytes), err);
	put(o, "write_bytes", result_json_u64(p->write_bytes), err);
	if (trims) {
		put(o, "trim_iops", result_json_real(per_s((double)p->trim_ios, p->seconds)), err);
		put(o, "trim_ios", result_json_u64(p->trim_ios), err);
		put(o, "trim_bytes", result_json_u64(p->trim_bytes), err);
	}
	put(o, "p99_ns", result_json_u64(p->p99_ns), err);
	put(o, "lat_mean_ns", result_json_u64(p->lat_mean_ns), err);
	return o;
}

/* iorate-mpi: each rank's own figures, its targets named and counted from first_target. */
static json_t *rank_obj(const struct result *r, const struct rank_result *k, int *err)
{
	json_t *o = json_object(), *a = json_array();

	put(o, "rank", json_integer(k->rank), err);
	put(o, "host", result_json_str(k->host), err);
	put(o, "first_target", json_integer(k->first_target), err);
	for (unsigned t = 0; t < k->ntargets; t++) {
		unsigned i = k->first_target + t;

		append(a, result_json_str(i < r->ntargets ? r->targets[i].path : NULL), err);
	}
	put(o, "targets", a, err);
	put(o, "seconds", result_json_real(k->seconds), err);
	put(o, "interrupted", json_boolean(k->interrupted), err);
	put(o, "error", str_or_null(k->error), err);
	dirs_put(o, &k->read, &k->write, &k->trim, k->seconds, NULL, err);
	put(o, "cpu", result_json_cpu(&k->cpu, err), err);
	return o;
}

static void mpi_put(json_t *o, const struct result *r, int *err)
{
	json_t *a = json_array(), *m = json_object();

	for (unsigned i = 0; i < r->nranks; i++)
		append(a, rank_obj(r, &r->ranks[i], err), err);
	put(o, "ranks", a, err);
	put(m, "ranks", json_integer(r->nranks), err);
	put(m, "hosts", json_integer(r->nhosts), err);
	put(m, "start_skew_us", result_json_real(r->start_skew_us), err);
	put(o, "mpi", m, err);
}

static json_t *schedule_obj(const struct result *r, int *err)
{
	json_t *s = json_object();

	put(s, "late_ios", result_json_u64(r->sched_ios_late), err);
	put(s, "max_lag_s", result_json_real(r->sched_max_lag_s), err);
	put(s, "behind_s", result_json_real(r->sched_behind_s), err);
	return s;
}

/* {"held_s": {"disk_iops": s, ...}}: which emulated bucket the I/Os waited for. */
static json_t *throttle_obj(const struct result *r, int *err)
{
	json_t *o = json_object(), *h = json_object();

	for (unsigned b = 0; b < CAP_BUCKETS; b++)
		put(h, job_cap_bucket_name(b), result_json_real(r->held_s[b]), err);
	put(o, "held_s", h, err);
	return o;
}

static json_t *verify_found(const struct verify_id *f, int *err)
{
	json_t *o = json_object();

	put(o, "seed", result_json_u64(f->seed), err);
	put(o, "offset", result_json_u64(f->offset), err);
	put(o, "gen", json_integer(f->gen), err);
	put(o, "target", json_integer(f->target), err);
	put(o, "thread", json_integer(f->thread), err);
	put(o, "block", json_integer(f->block), err);
	return o;
}

/* What a verifying run wrote of each target: [{target, blocks, truncated, extents: [[offset,
 * len], ...]}, ...], a few KiB at most (VERIFY_EXTENTS_MAX ranges a target). */
static json_t *written_arr(const struct verify_result *v, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < v->nwritten; i++) {
		const struct verify_written *w = &v->written[i];
		json_t *x = json_object(), *e = json_array();
		put(x, "target", json_integer(w->target), err);
		put(x, "blocks", result_json_u64(w->blocks), err);
		put(x, "truncated", json_boolean(w->truncated), err);
		for (unsigned k = 0; k < w->n; k++) {
			json_t *p = json_array();
			append(p, result_json_u64(w->ext[k].offset), err);
			append(p, result_json_u64(w->ext[k].len), err);
			append(e, p, err);
		}
		put(x, "extents", e, err);
		append(a, x, err);
	}
	return a;
}

/* --verify: the counts, and the bad blocks kept (each with what its header said, if any). */
static json_t *verify_obj(const struct result *r, int *err)
{
	const struct verify_result *v = &r->verify;
	json_t *o = json_object(), *a = json_array();

	put(o, "sum", json_string(verify_sum_name(v->sum)), err);
	put(o, "block", json_integer(v->block), err);
	put(o, "checked", result_json_u64(v->checked), err);
	put(o, "bad", result_json_u64(v->bad), err);
	put(o, "unknown", result_json_u64(v->unknown), err);
	for (unsigned i = 0; i < v->nbads; i++) {
		const struct verify_bad *b = &v->bads[i];
		json_t *x = json_object();
		put(x, "target", json_integer(b->target), err);
		put(x, "path", result_json_str(b->target < r->ntargets ? r->targets[b->target].path
									 : NULL), err);
		put(x, "offset", result_json_u64(b->offset), err);
		put(x, "why", json_string(verify_why_name(b->why)), err);
		put(x, "text", json_string(verify_why_text(b->why)), err);
		put(x, "expected_gen", json_integer(b->want_gen), err);
		put(x, "found", b->has_found ? verify_found(&b->found, err) : json_null(), err);
		if (b->sum) {
			char h[65], d[65];
			verify_sum_hex(b->sum_header, b->sum, h);
			verify_sum_hex(b->sum_data, b->sum, d);
			put(x, "sum", json_pack("{s:s, s:s}", "header", h, "data", d), err);
		}
		append(a, x, err);
	}
	put(o, "bad_blocks", a, err);
	if (v->nwritten)
		put(o, "written", written_arr(v, err), err);
	return o;
}

json_t *result_to_json(const struct result *r)
{
	json_t *o = json_object(), *a;
	int err = 0;

	put(o, "schema", json_integer(RESULT_JSON_SCHEMA), &err);
	put(o, "version", result_json_str(r->version), &err);
	put(o, "command_line", result_json_str(r->job.command_line), &err);
	put(o, "origin", result_json_str(r->job.origin), &err);
	put(o, "start_unix_ms", result_json_u64(r->start_unix_ms), &err);
	put(o, "interrupted", json_boolean(r->interrupted), &err);
	put(o, "error", result_json_str(result_error(r)), &err);
	put(o, "error_code", json_integer(r->error), &err);
	put(o, "started", json_boolean(r->started), &err);
	a = json_array();
	for (unsigned i = 0; i < r->nnotes; i++)
		append(a, result_json_str(r->notes[i]), &err);
	put(o, "notes", a, &err);
	put(o, "params", params_obj(r, &err), &err);
	put(o, "host", host_obj(&r->host, &err), &err);
	put(o, "cpu", result_json_cpu(&r->cpu, &err), &err);
	put(o, "seconds", result_json_real(r->seconds), &err);
	put(o, "schedule", schedule_obj(r, &err), &err);
	if (r->has_held)
		put(o, "throttle", throttle_obj(r, &err), &err);
	if (r->job.zbd)
		put(o, "zone_resets", result_json_u64(r->zone_resets), &err);
	a = json_array();
	for (unsigned i = 0; i < r->ntargets; i++)
		append(a, target_obj(&r->targets[i], r->seconds, &err), &err);
	put(o, "targets", a, &err);
	put(o, "total", total_obj(r, &err), &err);
	if (r->job.lat_target_ns) {
		const struct result_lat *l = &r->lat;
		json_t *x = json_object();
		put(x, "threads", json_integer(l->threads), &err);
		put(x, "finished", json_integer(l->finished), &err);
		put(x, "depth_min", json_integer(l->depth_min), &err);
		put(x, "depth_max", json_integer(l->depth_max), &err);
		put(x, "seconds", result_json_real(l->seconds), &err);
		put(x, "worst_ns", result_json_u64(l->worst_ns), &err);
		put(x, "final", dir_obj(&l->fin, l->seconds, &err), &err);
		put(o, "latency_target", x, &err);
	}
	if (r->job.cmdprio.on) {
		json_t *p = json_object();
		put(p, "read", dir_obj(&r->prio[0], r->seconds, &err), &err);
		put(p, "write", dir_obj(&r->prio[1], r->seconds, &err), &err);
		put(o, "prio", p, &err);
	}
	put(o, "interval", result_json_real((double)r->interval_ns / 1e9), &err);
	put(o, "interval_ns", result_json_u64(r->interval_ns), &err);
	a = json_array();
	for (unsigned i = 0; i < r->nseries; i++)
		append(a, point_obj(&r->series[i], job_trims(&r->job), &err), &err);
	put(o, "series", a, &err);
	if (r->ndevices)
		put(o, "diskstats", result_json_views(r->devices, r->ndevices, &err), &err);
	put(o, "errnos", result_json_errnos(r, &err), &err);
	if (r->verify.sum != VERIFY_NONE)
		put(o, "verify", verify_obj(r, &err), &err);
	if (r->nranks)
		mpi_put(o, r, &err);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}
