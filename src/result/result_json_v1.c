/*
 * Schema 1: the run JSON of iorate before it kept histograms, as older histories and saved files
 * hold it. Its counts are exact; latency it gave only as figures (min, mean, stdev, max and six
 * percentiles), from which a histogram is rebuilt that gives those percentiles back. What the
 * run did not store (percentiles of read and write together) then comes from the rebuilt
 * histograms and is approximate; a note on the result says so.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result/result_json_int.h"

/* A number that must be there; NaN (recorded) when it is not. */
static double need_num(struct rd *rd, const json_t *o, const char *key)
{
	json_t *x = json_object_get(o, key);

	if (json_is_number(x))
		return json_number_value(x);
	rd_fail(rd, key, x ? "not a number" : "missing");
	return NAN;
}

/* A count from a figure (rate x seconds), rounded; 0 (recorded) when it cannot be one. */
static uint64_t to_count(struct rd *rd, const char *key, double v)
{
	if (v >= 0 && v < 1.8e19)
		return (uint64_t)(v + 0.5);
	if (!rd->rc)
		rd_fail(rd, key, "%g is not a count", v);
	return 0;
}

void result_json_v1_check(struct rd *rd, const json_t *o)
{
	static const char *const top[] = {"start_unix_ms", "seconds", "params", "targets", "total"};
	static const char *const params[] = {"bs", "time", "threads", "depth", "write", "pattern",
					     "cache"};
	json_t *p = json_object_get(o, "params"), *t = json_object_get(o, "total"), *x;
	size_t i, m;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!json_object_get(o, top[i]))
			rd_fail(rd, top[i], "missing");
	/* Each named, as every other check names its key. */
	if (!json_is_object(p))
		rd_fail(rd, "params", "not an object");
	if (!json_is_object(t))
		rd_fail(rd, "total", "not an object");
	if (!json_is_array(json_object_get(o, "targets")))
		rd_fail(rd, "targets", "not an array");
	m = rd_enter(rd, "params", 0);
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		if (!json_object_get(p, params[i]))
			rd_fail(rd, params[i], "missing");
	rd_leave(rd, m);
	m = rd_enter(rd, "total", 0);
	if (!json_is_object(json_object_get(t, "read")) || !json_is_object(json_object_get(t, "write")))
		rd_fail(rd, NULL, "needs read and write objects");
	rd_leave(rd, m);
	json_array_foreach(json_object_get(o, "targets"), i, x) {
		m = rd_enter(rd, "targets", 0);
		rd_enter(rd, NULL, i);
		if (!json_is_string(json_object_get(x, "path")))
			rd_fail(rd, "path", "missing or not a string");
		rd_leave(rd, m);
	}
}

/*
 * A histogram of n values from min to max whose percentiles are v[]: the bucket of each gets the
 * values of its rank since the one before, so hist_percentile() walks to that bucket for that
 * rank and returns its midpoint (clamped to [min, max]), as the original histogram did.
 */
static void rebuild_hist(struct hist *h, uint64_t n, uint64_t lo, uint64_t hi,
			 const uint64_t v[STATS_NPCT])
{
	uint64_t done = 1, at = lo;

	h->counts[hist_index(lo)] = 1;
	for (unsigned k = 0; k < STATS_NPCT; k++) {
		uint64_t rank = hist_rank(stats_pcts[k], n);

		/* Kept in order and within [min, max], whatever the file says. */
		at = v[k] < at ? at : v[k] > hi ? hi : v[k];
		if (rank > done) {
			h->counts[hist_index(at)] += rank - done;
			done = rank;
		}
	}
	h->counts[hist_index(hi)] += n - done;
}

/* lat_us of a direction with I/Os: exact-ish sums, and the histogram rebuilt. */
static void v1_lat(struct rd *rd, const json_t *lat, struct dir_stats *d)
{
	static const char *const fig[4] = {"min", "mean", "stdev", "max"};
	double f[4], us[STATS_NPCT];
	uint64_t ns[STATS_NPCT + 2];
	size_t m = rd_enter(rd, "lat_us", 0);
	double n = (double)d->ios;

	for (unsigned i = 0; i < 4; i++)
		f[i] = need_num(rd, lat, fig[i]);
	for (unsigned k = 0; k < STATS_NPCT; k++)
		us[k] = need_num(rd, lat, stats_pct_names[k]);
	for (unsigned k = 0; k < STATS_NPCT + 2 && !rd->rc; k++) {
		double v = k < STATS_NPCT ? us[k] : f[k == STATS_NPCT ? 0 : 3];

		if (!(v >= 0 && v < 9e15)) {
			rd_fail(rd, k < STATS_NPCT ? stats_pct_names[k] : fig[k == STATS_NPCT ? 0 : 3],
				"not a latency in microseconds");
			break;
		}
		ns[k] = (uint64_t)llround(v * 1e3);
	}
	if (!rd->rc && !(f[1] >= 0 && f[1] * 1e3 * n < 9e18 && f[2] >= 0 && isfinite(f[2])))
		rd_fail(rd, NULL, "mean or stdev out of range");
	if (!rd->rc) {
		double mean = f[1] * 1e3, sd = f[2] * 1e3;

		d->lat_n = d->ios;
		d->lat_min = ns[STATS_NPCT];
		d->lat_max = ns[STATS_NPCT + 1] > d->lat_min ? ns[STATS_NPCT + 1] : d->lat_min;
		d->lat_sum = (uint64_t)llround(mean * n);
		d->lat_sumsq = n * (sd * sd + mean * mean);
		if (!(d->hist = calloc(1, sizeof(*d->hist))))
			rd_fail(rd, NULL, "out of memory");
		else
			rebuild_hist(d->hist, d->lat_n, d->lat_min, d->lat_max, ns);
	}
	rd_leave(rd, m);
}

void result_json_v1_dir(struct rd *rd, const json_t *x, struct dir_stats *d)
{
	json_t *lat = json_object_get(x, "lat_us");

	if (!json_object_get(x, "ios") || !json_object_get(x, "bytes"))
		rd_fail(rd, json_object_get(x, "ios") ? "bytes" : "ios", "missing");
	rd_u64(rd, x, "ios", &d->ios);
	rd_u64(rd, x, "bytes", &d->bytes);
	rd_u64(rd, x, "errors", &d->errors);
	if (lat && !json_is_null(lat) && !json_is_object(lat))
		rd_fail(rd, "lat_us", "not an object or null");
	if (!rd->rc && json_is_object(lat) && d->ios)
		v1_lat(rd, lat, d);
}

/* A point's counts from its rates; the bytes split as reads of bs and the rest written. */
void result_json_v1_point(struct rd *rd, const json_t *x, uint64_t bs, struct series_point *p)
{
	double ri = need_num(rd, x, "read_iops"), wi = need_num(rd, x, "write_iops");
	double mib = need_num(rd, x, "mibps"), p99 = NAN;
	uint64_t bytes;

	rd_double(rd, x, "t", &p->t);
	rd_double(rd, x, "seconds", &p->seconds);
	rd_double(rd, x, "p99_us", &p99);
	if (json_object_get(x, "credit_iops"))
		rd_double(rd, x, "credit_iops", &p->credit_iops);
	if (json_object_get(x, "credit_mbps"))
		rd_double(rd, x, "credit_mbps", &p->credit_mbps);
	if (rd->rc)
		return;
	p->read_ios = to_count(rd, "read_iops", ri * p->seconds);
	p->write_ios = to_count(rd, "write_iops", wi * p->seconds);
	bytes = to_count(rd, "mibps", mib * 1048576.0 * p->seconds);
	p->read_bytes = bs && p->read_ios <= bytes / bs ? p->read_ios * bs : bytes;
	p->write_bytes = bytes - p->read_bytes;
	p->p99_ns = isfinite(p99) ? to_count(rd, "p99_us", p99 * 1e3) : 0;
}

/* Seconds as nanoseconds: schema 1 gave durations in seconds only. */
static void secs(struct rd *rd, const json_t *p, const char *key, uint64_t *ns)
{
	json_t *x = json_object_get(p, key);

	if (!x)
		return;
	if (!json_is_number(x) || !(json_number_value(x) >= 0 && json_number_value(x) < 9e9))
		rd_fail(rd, key, "not a duration in seconds");
	else
		*ns = (uint64_t)llround(json_number_value(x) * 1e9);
}

void result_json_v1_finish(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *p = json_object_get(o, "params");
	size_t m = rd_enter(rd, "params", 0);
	unsigned first = 0;

	secs(rd, p, "time", &r->job.time_ns);
	secs(rd, p, "warmup", &r->job.warmup_ns);
	secs(rd, p, "cooldown", &r->job.cooldown_ns);
	rd_leave(rd, m);
	/* Schema 1 said "fixed" for a closed loop too. */
	if (r->job.arrival == ARRIVAL_FIXED && !(r->job.rate_iops > 0))
		r->job.arrival = ARRIVAL_CLOSED;
	if (!r->job.ntargets)
		for (unsigned i = 0; i < r->ntargets && !rd->rc; i++)
			if (job_add_target(&r->job, r->targets[i].path ? r->targets[i].path : ""))
				rd_nomem(rd);
	/* Ranks named their targets, rank 0's first. */
	for (unsigned i = 0; i < r->nranks && !rd->rc; i++) {
		r->ranks[i].first_target = first;
		first += r->ranks[i].ntargets;
		if (first > r->ntargets)
			rd_fail(rd, "ranks", "name more targets than targets holds");
	}
	if (!rd->rc)
		result_add_note(r, "saved by iorate %s without latency histograms: they were rebuilt "
				"from its percentiles, so percentiles of read and write together are "
				"approximate", r->version[0] ? r->version : "?");
}
