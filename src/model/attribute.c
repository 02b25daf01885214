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

/* The prediction (a timed run's average) at a read-hit percentage. */
static int at_hits(const struct model_config *m, const struct model_workload *w, double dur,
		   double hit, struct model_result *r)
{
	struct model_config c = *m;
	int ret;

	c.read_hit = hit;
	if ((ret = model_predict(&c, w, dur, r)))
		return ret;
	if (r->duration_s > 0)
		r->iops = r->avg_iops;
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
		       double want, struct model_result *r)
{
	double lo = m->read_hit, hi = 100;

	for (int i = 0; i < 40 && hi - lo > 0.01; i++) {
		double mid = (lo + hi) / 2;

		at_hits(m, w, dur, mid, r);
		if (r->iops >= want)
			hi = mid;
		else
			lo = mid;
	}
	at_hits(m, w, dur, hi, r);
	return hi;
}

int model_attribute(const struct model_config *m, const struct model_workload *w,
		    double duration_s, double measured_iops, double tol,
		    struct model_attribution *a)
{
	struct model_result r;
	int ret;

	memset(a, 0, sizeof(*a));
	if ((ret = at_hits(m, w, duration_s, m->read_hit, &r)))
		return ret;
	a->predicted_iops = a->max_iops = r.iops;
	a->ratio = r.iops > 0 ? measured_iops / r.iops : NAN;
	a->limit = r.binding;
	if (measured_iops < r.iops * (1 - tol)) {
		a->origin = MODEL_BELOW;
		return 0;
	}
	if (measured_iops <= r.iops * (1 + tol)) {
		a->origin = MODEL_AT_LIMIT;
		return 0;
	}
	/* Above the prediction: only reads that never reach the disks can explain it. */
	if (cached(m) && w->write_pct < 100) {
		at_hits(m, w, duration_s, 100, &r);
		a->max_iops = r.iops;
		if (r.iops >= measured_iops * (1 - tol)) {
			a->origin = MODEL_HOST_CACHE;
			a->min_hit_pct = min_hits(m, w, duration_s, measured_iops * (1 - tol), &r);
			a->limit = r.binding;
			return 0;
		}
	}
	a->origin = MODEL_PAGE_CACHE;
	return 0;
}
