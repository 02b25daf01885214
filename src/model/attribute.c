/*
 * A measured figure against the model: at a limit, below every limit, or above them, and then
 * whether host-cache hits (how many) or only a page cache could have given it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "model/attribute.h"

const char *model_origin_name(enum model_origin o)
{
	static const char *const names[] = {"at_limit", "below", "host_cache", "page_cache"};

	return o <= MODEL_PAGE_CACHE ? names[o] : "below";
}

const char *model_window_name(enum model_window w)
{
	static const char *const names[] = {"sustained", "burst", "average"};

	return w <= MODEL_AVERAGE ? names[w] : "sustained";
}

/* A phase of the timeline runs above the sustained figure: credits were being spent. */
static bool bursting(const struct model_result *r, const struct model_phase *p)
{
	return p->iops > r->iops * 1.0001;
}

/*
 * Which figure a run of dur seconds is set against: the sustained one, the burst when the
 * whole run lies within the first (burst) phase, else the timeline's average.
 */
static enum model_window window_of(const struct model_result *r)
{
	if (!r->bursts || r->duration_s <= 0 || !r->nphases)
		return MODEL_SUSTAINED;
	if (r->nphases == 1 && bursting(r, &r->phases[0]))
		return MODEL_BURST;
	return bursting(r, &r->phases[0]) ? MODEL_AVERAGE : MODEL_SUSTAINED;
}

/*
 * The limit a run held all through its burst sits at: a VM column's cap is named "VM burst"
 * (its credits let the VM above its sustained caps for the whole run).
 */
static const char *burst_limit(const char *binding)
{
	if (!strcmp(binding, "vm_uncached_iops"))
		return "VM burst (vm_uncached_iops)";
	if (!strcmp(binding, "vm_uncached_mbps"))
		return "VM burst (vm_uncached_mbps)";
	return binding;
}

/* The prediction at a read-hit percentage; *fig is the figure of its window, *limit its limit. */
static int at_hits(const struct model_config *m, const struct model_workload *w, double dur,
		   double hit, struct model_result *r, double *fig, const char **limit)
{
	struct model_config c = *m;
	int ret;

	c.read_hit = hit;
	c.read_hit_set = true;
	if ((ret = model_predict(&c, w, dur, r)))
		return ret;
	switch (window_of(r)) {
	case MODEL_BURST:
		*fig = r->phases[0].iops;
		*limit = burst_limit(r->phases[0].binding);
		break;
	case MODEL_AVERAGE:
		*fig = r->avg_iops;
		*limit = r->binding;
		break;
	default:
		*fig = r->iops;
		*limit = r->binding;
	}
	return 0;
}

static bool cached(const struct model_config *m)
{
	for (unsigned i = 0; i < m->ngroups; i++)
		if (!m->disks[i].local && m->disks[i].cache != MODEL_CACHE_NONE &&
		    m->disks[i].cache != MODEL_CACHE_DEFAULT)
			return true;
	return false;
}

/* The fewest read hits (percent) whose prediction reaches want: more hits never predict less. */
static double min_hits(const struct model_config *m, const struct model_workload *w, double dur,
		       double want, struct model_result *r, const char **limit)
{
	struct model_hit h;

	model_read_hit(m, w, &h);
	double lo = h.pct, hi = 100, fig;

	for (int i = 0; i < 40 && hi - lo > 0.01; i++) {
		double mid = (lo + hi) / 2;

		at_hits(m, w, dur, mid, r, &fig, limit);
		if (fig >= want)
			hi = mid;
		else
			lo = mid;
	}
	at_hits(m, w, dur, hi, r, &fig, limit);
	return hi;
}

int model_attribute(const struct model_config *m, const struct model_workload *w,
		    double duration_s, double measured_iops, double tol,
		    struct model_attribution *a)
{
	struct model_result r;
	double fig;
	int ret;

	struct model_hit h;

	memset(a, 0, sizeof(*a));
	/* From the ratio the configuration gives (or its working set does). */
	model_read_hit(m, w, &h);
	if ((ret = at_hits(m, w, duration_s, h.pct, &r, &fig, &a->limit)))
		return ret;
	a->window = window_of(&r);
	a->predicted_iops = a->max_iops = fig;
	a->ratio = fig > 0 ? measured_iops / fig : NAN;
	if (measured_iops < fig * (1 - tol)) {
		a->origin = MODEL_BELOW;
		return 0;
	}
	if (measured_iops <= fig * (1 + tol)) {
		a->origin = MODEL_AT_LIMIT;
		return 0;
	}
	/* Above the prediction: only reads that never reach the disks can explain it. */
	if (cached(m) && w->write_pct < 100) {
		const char *limit;

		at_hits(m, w, duration_s, 100, &r, &fig, &limit);
		a->max_iops = fig;
		if (fig >= measured_iops * (1 - tol)) {
			a->origin = MODEL_HOST_CACHE;
			a->min_hit_pct = min_hits(m, w, duration_s, measured_iops * (1 - tol), &r,
						  &a->limit);
			return 0;
		}
	}
	a->origin = MODEL_PAGE_CACHE;
	return 0;
}

/* ---- explain: the statements, as codes and figures (attribute.h) ---- */

static struct explain_item *item(struct explanation *x, const char *code, const char *name)
{
	if (x->nitem >= EXPLAIN_ITEMS)
		return NULL; /* the table is sized for every item model_explain adds */
	struct explain_item *it = &x->item[x->nitem++];
	*it = (struct explain_item){.code = code, .name = name};
	return it;
}

static void fig(struct explain_item *it, const char *key, double v, enum explain_unit unit)
{
	if (it && it->nfig < EXPLAIN_FIGS)
		it->fig[it->nfig++] = (struct explain_fig){.key = key, .v = v, .unit = unit};
}

static bool near(double measured, double limit, double tol)
{
	return limit > 0 && fabs(measured / limit - 1) <= tol;
}

/* Each emulated bucket's rate over the run: IOPS or MB/s (a disk's over every target). */
static double bucket_rate(const struct explain_run *run, enum cap_bucket b)
{
	const struct job_caps *c = b >= CAP_VM_IOPS ? &run->vm_cap : &run->cap;
	double n = b >= CAP_VM_IOPS ? 1 : (run->ntargets ? run->ntargets : 1);
	double base = (b % 4) < 2 ? c->iops : c->mbps, burst = (b % 4) < 2 ? c->burst_iops
								: c->burst_mbps;

	if (b % 2 == 0)
		return base * n;
	/* A burst bucket exists only above its base, with a window (throttle.c). */
	return burst > base && base > 0 && c->burst_seconds > 0 ? burst * n : 0;
}

static bool bucket_mbps(enum cap_bucket b)
{
	return (b % 4) >= 2;
}

static bool emulated(const struct explain_run *run)
{
	return run->cap.iops > 0 || run->cap.mbps > 0 || run->vm_cap.iops > 0 ||
	       run->vm_cap.mbps > 0;
}

/*
 * The emulated bucket the run sits at, or -1. With the waits recorded, the bucket the I/Os
 * waited for longest, when the measurement is within tol of its rate; without them (runs
 * written before), the bucket whose rate is nearest the measurement, within tol.
 */
static int emulated_at(const struct explain_run *run, double tol)
{
	double most = 0, best = INFINITY;
	int at = -1;

	if (!emulated(run))
		return -1;
	if (run->has_held) {
		for (int b = 0; b < CAP_BUCKETS; b++)
			if (run->held_s[b] > most) {
				most = run->held_s[b];
				at = b;
			}
		if (at >= 0 && !near(bucket_mbps(at) ? run->mbps : run->iops, bucket_rate(run, at),
				     tol))
			at = -1;
		return at;
	}
	for (int b = 0; b < CAP_BUCKETS; b++) {
		double rate = bucket_rate(run, b), m = bucket_mbps(b) ? run->mbps : run->iops;

		if (near(m, rate, tol) && fabs(m / rate - 1) < best) {
			best = fabs(m / rate - 1);
			at = b;
		}
	}
	return at;
}

/* What the emulation applied: the disk's caps and the VM's, each with its burst window. */
static void explain_emulation(const struct explain_run *run, struct explanation *x)
{
	static const char *const who[2] = {"disk", "vm"};

	if (!emulated(run))
		return;
	item(x, "emulated_caps", run->emulate);
	for (int v = 0; v < 2; v++) {
		const struct job_caps *c = v ? &run->vm_cap : &run->cap;
		enum cap_bucket b = v ? CAP_VM_IOPS : CAP_DISK_IOPS;

		if (c->iops <= 0 && c->mbps <= 0)
			continue;
		struct explain_item *it = item(x, v ? "emulated_vm" : "emulated_disk", who[v]);
		if (bucket_rate(run, b))
			fig(it, "iops", bucket_rate(run, b), EXPLAIN_IOPS);
		if (bucket_rate(run, b + 1))
			fig(it, "burst_iops", bucket_rate(run, b + 1), EXPLAIN_IOPS);
		if (bucket_rate(run, b + 2))
			fig(it, "mbps", bucket_rate(run, b + 2), EXPLAIN_MBPS);
		if (bucket_rate(run, b + 3))
			fig(it, "burst_mbps", bucket_rate(run, b + 3), EXPLAIN_MBPS);
		if (bucket_rate(run, b + 1) || bucket_rate(run, b + 3))
			fig(it, "burst_seconds", c->burst_seconds, EXPLAIN_SECONDS);
		if (!v)
			fig(it, "targets", run->ntargets ? run->ntargets : 1, EXPLAIN_COUNT);
	}
	if (run->has_held) {
		int at = -1;
		struct explain_item *it = item(x, "held", NULL);

		for (int b = 0; b < CAP_BUCKETS; b++) {
			if (!(run->held_s[b] > 0))
				continue;
			fig(it, job_cap_bucket_name(b), run->held_s[b], EXPLAIN_SECONDS);
			if (at < 0 || run->held_s[b] > run->held_s[at])
				at = b;
		}
		if (it)
			it->name = at >= 0 ? job_cap_bucket_name(at) : NULL;
	}
}

/* Percent of what the run did that the device counted, or NAN. */
static double share(double dev, double run)
{
	return run > 0 ? 100 * dev / run : NAN;
}

/*
 * Whether the device counts show that less than EXPLAIN_MEMORY_PCT of the run's I/Os and of
 * its bytes reached the device: a page cache served it. Never without the counts.
 */
static bool reached_memory(const struct explain_run *run)
{
	double ios = run->run_ios[0] + run->run_ios[1], bytes = run->run_bytes[0] +
								 run->run_bytes[1];

	return !run->no_io && run->has_devices && ios > 0 &&
	       share(run->dev_ios[0] + run->dev_ios[1], ios) < EXPLAIN_MEMORY_PCT &&
	       share(run->dev_bytes[0] + run->dev_bytes[1], bytes) < EXPLAIN_MEMORY_PCT;
}

/* What reached the devices, from diskstats only: the share of reads and of writes, or unknown. */
static void explain_device(const struct explain_run *run, struct explanation *x)
{
	static const char *const codes[2] = {"device_reads", "device_writes"};

	if (run->no_io)
		return;
	if (!run->has_devices) {
		item(x, "device_unknown", NULL);
		return;
	}
	for (int d = 0; d < 2; d++) {
		if (!(run->run_ios[d] > 0))
			continue;
		struct explain_item *it = item(x, codes[d], run->devices);
		fig(it, "ios_pct", share(run->dev_ios[d], run->run_ios[d]), EXPLAIN_PCT);
		fig(it, "bytes_pct", share(run->dev_bytes[d], run->run_bytes[d]), EXPLAIN_PCT);
	}
	if (isfinite(run->dev_util_pct))
		fig(item(x, "device_busy", run->devices), "util_pct", run->dev_util_pct,
		    EXPLAIN_PCT);
}

/* The prediction: sustained, burst with its window, and the average over a timed run. */
static void explain_prediction(const struct model_result *r, struct explanation *x)
{
	struct explain_item *it = item(x, "sustained", r->binding);

	fig(it, "iops", r->iops, EXPLAIN_IOPS);
	fig(it, "mbps", r->mbps, EXPLAIN_MBPS);
	fig(it, "latency_ms", r->latency_ms, EXPLAIN_MS);
	if (r->bursts) {
		it = item(x, "burst", r->burst_binding);
		fig(it, "iops", r->burst_iops, EXPLAIN_IOPS);
		fig(it, "mbps", r->burst_mbps, EXPLAIN_MBPS);
		fig(it, "seconds", r->burst_seconds, EXPLAIN_SECONDS);
	}
	if (r->bursts && r->duration_s > 0) {
		it = item(x, "average", NULL);
		fig(it, "seconds", r->duration_s, EXPLAIN_SECONDS);
		fig(it, "iops", r->avg_iops, EXPLAIN_IOPS);
		fig(it, "mbps", r->avg_mbps, EXPLAIN_MBPS);
	}
}

int model_explain(const struct model_config *m, const struct explain_run *run, double tol,
		  struct model_result *r, struct explanation *x)
{
	struct model_attribution a;
	struct explain_item *it;
	bool reads = run->w.write_pct < 100, memory;
	int at, ret;

	memset(x, 0, sizeof(*x));
	x->tolerance = tol;
	if ((ret = model_attribute(m, &run->w, run->secs, run->iops, tol, &a)) ||
	    (ret = model_predict(m, &run->w, run->secs, r)))
		return ret;
	it = item(x, "measured", NULL);
	fig(it, "iops", run->iops, EXPLAIN_IOPS);
	fig(it, "mbps", run->mbps, EXPLAIN_MBPS);
	fig(it, "latency_ms", run->lat_ms, EXPLAIN_MS);
	explain_prediction(r, x);
	x->window = model_window_name(a.window);
	it = item(x, "compared", x->window);
	fig(it, "iops", a.predicted_iops, EXPLAIN_IOPS);
	fig(it, "ratio", a.ratio, EXPLAIN_RATIO);

	/* Where it sits: an emulated cap the model does not place it at, else the model's word. */
	at = emulated_at(run, tol);
	memory = reached_memory(run);
	x->origin = model_origin_name(a.origin);
	x->limit = a.origin == MODEL_AT_LIMIT || a.origin == MODEL_HOST_CACHE ? a.limit : NULL;
	if (at >= 0 && a.origin != MODEL_AT_LIMIT) {
		x->origin = "emulated";
		x->limit = job_cap_bucket_name(at);
	} else if (a.origin == MODEL_PAGE_CACHE && (run->no_io || run->direct || !memory)) {
		/* No page cache on the path, or the device counts say the device served it. */
		x->origin = "above_limits";
	}
	/* Below every limit with the device, else the CPUs, busy the whole window: it held it. */
	if (a.origin == MODEL_BELOW && at < 0 && !run->no_io && run->has_devices &&
	    run->dev_util_pct >= EXPLAIN_BUSY_PCT)
		x->limit = "device";
	else if (a.origin == MODEL_BELOW && at < 0 && run->cpu_pct >= EXPLAIN_BUSY_PCT)
		x->limit = "cpu";
	const char *code = x->origin;

	if (!strcmp(code, "below") && x->limit)
		code = !strcmp(x->limit, "cpu") ? "below_cpu" : "below_device";
	it = item(x, code, x->limit);
	if (!strcmp(code, "below_cpu"))
		fig(it, "cpu_pct", run->cpu_pct, EXPLAIN_PCT);
	if (!strcmp(x->origin, "emulated")) {
		fig(it, bucket_mbps(at) ? "mbps" : "iops", bucket_rate(run, at),
		    bucket_mbps(at) ? EXPLAIN_MBPS : EXPLAIN_IOPS);
		fig(it, "within_pct", tol * 100, EXPLAIN_PCT);
	} else if (a.origin == MODEL_AT_LIMIT) {
		fig(it, "iops", a.predicted_iops, EXPLAIN_IOPS);
		fig(it, "within_pct", tol * 100, EXPLAIN_PCT);
	} else if (a.origin == MODEL_HOST_CACHE) {
		fig(it, "min_hit_pct", a.min_hit_pct, EXPLAIN_PCT);
	}
	explain_device(run, x);
	explain_emulation(run, x);
	if (at >= 0)
		fig(item(x, "note_emulated_at", job_cap_bucket_name(at)),
		    bucket_mbps(at) ? "mbps" : "iops", bucket_rate(run, at),
		    bucket_mbps(at) ? EXPLAIN_MBPS : EXPLAIN_IOPS);

	/* The notes: what the reader should know, from the run's own settings and counts. */
	if (run->no_io) {
		item(x, "note_null_engine", NULL);
	} else if (!strcmp(x->origin, "emulated")) {
		; /* the emulated cap explains the figure: no cache is to thank or to blame */
	} else if (a.origin == MODEL_HOST_CACHE) {
		/* What gave the hits is worded by report/ from x->hit: the item's name. */
		model_read_hit(m, &run->w, &x->hit);
		it = item(x, "note_host_cache_hits", NULL);
		fig(it, "min_hit_pct", a.min_hit_pct, EXPLAIN_PCT);
		fig(it, "assumed_pct", x->hit.pct, EXPLAIN_PCT);
	} else if (a.origin == MODEL_PAGE_CACHE) {
		if (run->direct)
			item(x, "note_direct", NULL);
		else if (memory)
			fig(item(x, "note_memory", NULL), "under_pct", EXPLAIN_MEMORY_PCT,
			    EXPLAIN_PCT);
		else if (!run->has_devices)
			item(x, "note_cache_unknown", NULL);
		else
			item(x, "note_device_served", NULL);
	} else if (a.origin == MODEL_BELOW && a.ratio < 1 - tol) {
		fig(item(x, "note_below", NULL), "pct", a.ratio * 100, EXPLAIN_PCT);
	}
	if (m->cache != MODEL_CACHE_NONE && m->vm->cache_gib > 0 && run->ws > 0 && reads &&
	    run->ws <= m->vm->cache_gib * (1 << 30)) {
		it = item(x, "note_host_cache_fits", m->vm->name);
		fig(it, "working_set_gib", run->ws / (1 << 30), EXPLAIN_GIB);
		fig(it, "cache_gib", m->vm->cache_gib, EXPLAIN_GIB);
	}
	return 0;
}
