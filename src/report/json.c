#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/report.h"
#include "report/summary.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

/*
 * Builders record the first allocation failure in *err and carry on, so a builder can be
 * written as a flat list of put() calls and checked once at the end.
 */
static void put(json_t *o, const char *key, json_t *v, int *err)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0) {
		json_decref(v);
		*err = -ENOMEM;
	}
}

static void append(json_t *a, json_t *v, int *err)
{
	if (!a || !v || json_array_append_new(a, v) < 0) {
		json_decref(v);
		*err = -ENOMEM;
	}
}

/* JSON has no NaN or infinity; a figure that came out so is unknown. */
json_t *report_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* jansson integers are signed 64-bit; a larger count (none is in practice) degrades to a real. */
static json_t *ju64(uint64_t v)
{
	return v <= INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v);
}

/* Paths and command lines are bytes, JSON strings are UTF-8: bytes that are not become '?'. */
json_t *report_json_str(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);

	if (v)
		return v;
	char *c = strdup(s);

	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(c);
	free(c);
	return v;
}

static json_t *lat_obj(const struct dir_summary *s, int *err)
{
	if (!s->has_lat)
		return json_null();
	json_t *o = json_object();

	put(o, "min", report_json_real(s->lat_min), err);
	put(o, "mean", report_json_real(s->lat_mean), err);
	put(o, "stdev", report_json_real(s->lat_stdev), err);
	put(o, "max", report_json_real(s->lat_max), err);
	for (unsigned i = 0; i < STATS_NPCT; i++)
		put(o, stats_pct_names[i], report_json_real(report_pct(s, i)), err);
	return o;
}

json_t *report_json_lat(const struct dir_summary *s)
{
	int err = 0;
	json_t *o = lat_obj(s, &err);

	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *dir_obj(const struct dir_summary *s, int *err)
{
	json_t *o = json_object();

	put(o, "ios", ju64(s->ios), err);
	put(o, "bytes", ju64(s->bytes), err);
	put(o, "errors", ju64(s->errors), err);
	put(o, "iops", report_json_real(s->iops), err);
	put(o, "mibps", report_json_real(s->mibps), err);
	put(o, "mbps", report_json_real(s->mbps), err);
	put(o, "lat_us", lat_obj(s, err), err);
	return o;
}

static json_t *caps_obj(const struct job_caps *c, int *err)
{
	json_t *o = json_object();

	put(o, "iops", report_json_real(c->iops), err);
	put(o, "mbps", report_json_real(c->mbps), err);
	put(o, "burst_iops", report_json_real(c->burst_iops), err);
	put(o, "burst_mbps", report_json_real(c->burst_mbps), err);
	put(o, "burst_seconds", report_json_real(c->burst_seconds), err);
	return o;
}

static json_t *params_obj(const struct result *r, int *err)
{
	const struct job *j = &r->job;
	json_t *o = json_object();

	put(o, "bs", ju64(j->bs), err);
	put(o, "time", report_json_real((double)j->time_ns / 1e9), err);
	put(o, "warmup", report_json_real((double)j->warmup_ns / 1e9), err);
	put(o, "cooldown", report_json_real((double)j->cooldown_ns / 1e9), err);
	put(o, "threads", json_integer(j->threads), err);
	put(o, "depth", json_integer(j->depth), err);
	put(o, "write", json_integer(j->write_pct), err);
	put(o, "pattern", json_string(job_pattern_name(j->pattern)), err);
	put(o, "cache", json_string(job_cache_name(j->cache)), err);
	put(o, "engine", report_json_str(r->engine[0] ? r->engine : j->engine), err);
	put(o, "engine_why", report_json_str(r->engine_why), err);
	put(o, "size", ju64(j->size), err);
	put(o, "offset", ju64(j->offset), err);
	put(o, "range", ju64(j->range), err);
	put(o, "align", ju64(j->align), err);
	put(o, "fsync_every", json_integer(j->fsync_every), err);
	/* A seed above 2^63 does not fit a jansson integer; it is written as a decimal string. */
	if (j->seed <= INT64_MAX) {
		put(o, "seed", json_integer((json_int_t)j->seed), err);
	} else {
		char buf[24];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)j->seed);
		put(o, "seed", json_string(buf), err);
	}
	put(o, "seed_set", json_boolean(j->seed_set), err);
	put(o, "fill", json_string(j->fill == FILL_ZERO ? "zero" : "random"), err);
	put(o, "rate_iops", report_json_real(j->rate_iops), err);
	put(o, "arrival", json_string(j->arrival == ARRIVAL_POISSON ? "poisson" : "fixed"), err);
	put(o, "batch", json_integer(j->batch), err);
	put(o, "cap_io_unit", ju64(j->cap_io_unit), err);
	put(o, "cap", caps_obj(&j->cap, err), err);
	put(o, "vm_cap", caps_obj(&j->vm_cap, err), err);
	return o;
}

static json_t *host_obj(const struct host_info *h, int *err)
{
	json_t *o = json_object();

	put(o, "hostname", report_json_str(h->hostname), err);
	put(o, "kernel", report_json_str(h->kernel), err);
	put(o, "cpu", report_json_str(h->cpu), err);
	put(o, "ncpus", json_integer(h->ncpus), err);
	put(o, "mem_bytes", ju64(h->mem_bytes), err);
	put(o, "clock", report_json_str(h->clock), err);
	return o;
}

static json_t *cpu_obj(const struct cpu_usage *c, int *err)
{
	json_t *o = json_object();

	put(o, "ncpus", json_integer(c->ncpus), err);
	put(o, "user", report_json_real(c->user), err);
	put(o, "system", report_json_real(c->system), err);
	put(o, "iowait", report_json_real(c->iowait), err);
	put(o, "idle", report_json_real(c->idle), err);
	put(o, "iorate_user", report_json_real(c->proc_user), err);
	put(o, "iorate_system", report_json_real(c->proc_system), err);
	return o;
}

static json_t *kernel_obj(const struct kernel_counts *k, int *err)
{
	if (!k->valid)
		return json_null();
	json_t *o = json_object();

	put(o, "device", report_json_str(k->name), err);
	put(o, "read_bytes", ju64(k->read_bytes), err);
	put(o, "write_bytes", ju64(k->write_bytes), err);
	put(o, "read_ios", ju64(k->read_ios), err);
	put(o, "write_ios", ju64(k->write_ios), err);
	return o;
}

static json_t *target_obj(const struct target_result *t, double seconds, int *err)
{
	struct dir_summary s[REPORT_NDIR];
	json_t *o = json_object();

	put(o, "path", report_json_str(t->path), err);
	put(o, "device", t->device[0] ? report_json_str(t->device) : json_null(), err);
	put(o, "blockdev", json_boolean(t->is_blockdev), err);
	put(o, "created", json_boolean(t->created), err);
	put(o, "size", ju64(t->size), err);
	if (report_summarize(&t->read, &t->write, seconds, s) < 0) {
		*err = -ENOMEM;
		return o;
	}
	for (unsigned d = 0; d < REPORT_NDIR; d++)
		put(o, report_dir_names[d], dir_obj(&s[d], err), err);
	put(o, "kernel", kernel_obj(&t->kernel, err), err);
	return o;
}

static json_t *total_obj(const struct result *r, int *err)
{
	struct dir_summary s[REPORT_NDIR];
	json_t *o = json_object();

	if (report_summarize(&r->read, &r->write, r->seconds, s) < 0) {
		*err = -ENOMEM;
		return o;
	}
	for (unsigned d = 0; d < REPORT_NDIR; d++)
		put(o, report_dir_names[d], dir_obj(&s[d], err), err);
	put(o, "iops", report_json_real(s[REPORT_TOTAL].iops), err);
	put(o, "mibps", report_json_real(s[REPORT_TOTAL].mibps), err);
	put(o, "mbps", report_json_real(s[REPORT_TOTAL].mbps), err);
	return o;
}

static json_t *point_obj(const struct series_point *p, int *err)
{
	struct report_rates k;
	json_t *o = json_object();

	report_point_rates(p, &k);
	put(o, "t", report_json_real(p->t), err);
	put(o, "seconds", report_json_real(p->seconds), err);
	put(o, "iops", report_json_real(k.iops), err);
	put(o, "read_iops", report_json_real(k.read_iops), err);
	put(o, "write_iops", report_json_real(k.write_iops), err);
	put(o, "mibps", report_json_real(k.mibps), err);
	put(o, "mbps", report_json_real(k.mbps), err);
	put(o, "p99_us", p->p99_ns ? report_json_real((double)p->p99_ns / 1e3) : json_null(), err);
	if (p->credit_iops >= 0)
		put(o, "credit_iops", report_json_real(p->credit_iops), err);
	if (p->credit_mbps >= 0)
		put(o, "credit_mbps", report_json_real(p->credit_mbps), err);
	return o;
}

/* iorate-mpi: each rank's own figures, its targets named by index into "targets". */
static json_t *rank_obj(const struct result *r, const struct rank_result *k, int *err)
{
	struct dir_summary s[REPORT_NDIR];
	json_t *o = json_object(), *a = json_array();

	put(o, "rank", json_integer(k->rank), err);
	put(o, "host", report_json_str(k->host), err);
	for (unsigned t = 0; t < k->ntargets && k->first_target + t < r->ntargets; t++)
		append(a, report_json_str(r->targets[k->first_target + t].path), err);
	put(o, "targets", a, err);
	put(o, "seconds", report_json_real(k->seconds), err);
	put(o, "interrupted", json_boolean(k->interrupted), err);
	put(o, "error", k->error[0] ? report_json_str(k->error) : json_null(), err);
	if (report_summarize(&k->read, &k->write, k->seconds, s) < 0) {
		*err = -ENOMEM;
		return o;
	}
	for (unsigned d = 0; d < REPORT_NDIR; d++)
		put(o, report_dir_names[d], dir_obj(&s[d], err), err);
	put(o, "cpu", cpu_obj(&k->cpu, err), err);
	return o;
}

json_t *report_json_result(const struct result *r)
{
	const char *error = report_error(r);
	json_t *o = json_object();
	json_t *a;
	int err = 0;

	put(o, "schema", json_integer(REPORT_JSON_SCHEMA), &err);
	put(o, "version", json_string(IORATE_VERSION), &err);
	put(o, "command_line", report_json_str(r->job.command_line), &err);
	put(o, "origin", report_json_str(r->job.origin), &err);
	put(o, "start_unix_ms", ju64(r->start_unix_ms), &err);
	put(o, "interrupted", json_boolean(r->interrupted), &err);
	put(o, "error", error ? report_json_str(error) : json_null(), &err);
	a = json_array();
	for (unsigned i = 0; i < r->nnotes; i++)
		append(a, report_json_str(r->notes[i]), &err);
	put(o, "notes", a, &err);
	put(o, "params", params_obj(r, &err), &err);
	put(o, "host", host_obj(&r->host, &err), &err);
	put(o, "cpu", cpu_obj(&r->cpu, &err), &err);
	put(o, "seconds", report_json_real(r->seconds), &err);
	if (r->job.rate_iops > 0) {
		json_t *s = json_object();
		put(s, "late_ios", ju64(r->sched_ios_late), &err);
		put(s, "max_lag_s", report_json_real(r->sched_max_lag_s), &err);
		put(s, "behind_s", report_json_real(r->sched_behind_s), &err);
		put(o, "schedule", s, &err);
	} else {
		put(o, "schedule", json_null(), &err);
	}
	a = json_array();
	for (unsigned i = 0; i < r->ntargets; i++)
		append(a, target_obj(&r->targets[i], r->seconds, &err), &err);
	put(o, "targets", a, &err);
	put(o, "total", total_obj(r, &err), &err);
	a = json_array();
	for (unsigned i = 0; i < r->nseries; i++)
		append(a, point_obj(&r->series[i], &err), &err);
	put(o, "series", a, &err);
	if (r->nranks) {
		json_t *m = json_object();

		a = json_array();
		for (unsigned i = 0; i < r->nranks; i++)
			append(a, rank_obj(r, &r->ranks[i], &err), &err);
		put(o, "ranks", a, &err);
		put(m, "ranks", json_integer(r->nranks), &err);
		put(m, "hosts", json_integer(r->nhosts), &err);
		put(m, "start_skew_us", report_json_real(r->start_skew_us), &err);
		put(o, "mpi", m, &err);
	}
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Twelve significant digits keep nanoseconds in latencies given in microseconds. */
static int json_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	json_t *root = report_json_result(r);
	int ret = 0;

	if (!root)
		return -ENOMEM;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) < 0)
		ret = -EIO;
	else if (fputc('\n', f) == EOF || ferror(f))
		ret = -EIO;
	json_decref(root);
	return ret;
}

const struct report_ops report_json = {
	.name = "json",
	.write = json_write,
};
