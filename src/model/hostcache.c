/*
 * The host cache's read-hit ratio from the working set (docs/model.md, "Host caching"): a
 * working set that fits is served from the cache once it has been read; a larger one hits in
 * the share of reads that fall in its hottest cache-sized part, computed from the spread of
 * random offsets the run draws (src/core/workload.c).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "model/hostcache.h"
#include "model/predict.h"
#include "util/parse.h"

#define GIB 1073741824.0

/* sum of i^-theta for i = 1..n: exact to 4096 terms, then Euler-Maclaurin (error ~1e-9). */
static double harmonic(double n, double theta)
{
	const double m = 64;
	double s = 0;

	n = floor(n);
	if (n <= 4096) {
		for (double i = 1; i <= n; i++)
			s += pow(i, -theta);
		return s;
	}
	for (double i = 1; i < m; i++)
		s += pow(i, -theta);
	double integral = theta == 1 ? log(n / m) :
			  (pow(n, 1 - theta) - pow(m, 1 - theta)) / (1 - theta);
	double ends = (pow(m, -theta) + pow(n, -theta)) / 2;
	double slopes = (-theta * pow(n, -theta - 1) + theta * pow(m, -theta - 1)) / 12;

	return s + integral + ends + slopes;
}

/* Zoned: the densest zones fill the cache first; within a zone offsets are uniform. */
static double zoned_share(const struct model_skew *s, double frac, double whole_bytes)
{
	double size[JOB_MAX_ZONES], acc[JOB_MAX_ZONES], cum = 0, share = 0;
	bool used[JOB_MAX_ZONES] = {false};

	for (unsigned i = 0; i < s->nzones; i++) {
		acc[i] = s->zones[i].access_pct / 100;
		if (s->dist == DIST_ZONED) {
			size[i] = s->zones[i].size_pct / 100;
		} else {
			/* Bytes from the region's start, cut at its end; a last 0 runs to it. */
			double b = s->zones[i].size_bytes ? (double)s->zones[i].size_bytes / whole_bytes
							  : 1 - cum;
			size[i] = fmax(0, fmin(b, 1 - cum));
		}
		cum += size[i];
	}
	for (unsigned k = 0; k < s->nzones && frac > 0; k++) {
		int best = -1;

		for (unsigned i = 0; i < s->nzones; i++)
			if (!used[i] && (best < 0 || acc[i] * size[best] > acc[best] * size[i]))
				best = (int)i;
		used[best] = true;
		share += size[best] <= frac ? acc[best] : acc[best] * frac / size[best];
		frac -= size[best];
	}
	return fmin(share, 1);
}

double model_hot_share(const struct model_skew *s, double part, double whole, double bs)
{
	double f = part / whole;

	if (!(part > 0) || !(whole > 0))
		return 0;
	if (f >= 1)
		return 1;
	switch (s->dist) {
	case DIST_UNIFORM:
		return f;
	case DIST_ZIPF: {
		/* Ranks are I/O-sized slots; the hottest part holds the first ranks. */
		double k = floor(part / bs), n = fmax(1, ceil(whole / bs));
		return k < 1 ? 0 : harmonic(k, s->param) / harmonic(n, s->param);
	}
	case DIST_PARETO:
		/* A slot's rank is n * u^(log h / log(1 - h)): P(rank < f n) = f^(log(1-h)/log h). */
		return pow(f, log(1 - s->param) / log(s->param));
	case DIST_NORMAL: {
		/* A bell around the middle, cut at the region's ends: its central f is hottest. */
		double k = 1 / (2 * (s->param / 100) * sqrt(2));
		return erf(f * k) / erf(k);
	}
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return zoned_share(s, f, whole);
	default:
		return NAN;
	}
}

int model_skew_check(const struct model_skew *s, const char **why)
{
	double acc = 0, size = 0;

	*why = NULL;
	if (s->dist == DIST_SEQUENCE)
		*why = "is not one the model takes (uniform, zipf, pareto, normal, zoned, zoned_abs)";
	else if (s->dist == DIST_ZIPF && (!(s->param > 0) || s->param == 1))
		*why = "has a zipf theta that is not above 0 and other than 1";
	else if (s->dist == DIST_PARETO && !(s->param > 0 && s->param < 1))
		*why = "has a pareto h that is not between 0 and 1";
	else if (s->dist == DIST_NORMAL && !(s->param > 0 && s->param <= 100))
		*why = "has a normal deviation that is not from 0 to 100%";
	for (unsigned i = 0; !*why && i < s->nzones; i++) {
		acc += s->zones[i].access_pct;
		size += s->zones[i].size_pct;
		if (s->dist == DIST_ZONED_ABS && !s->zones[i].size_bytes && i + 1 < s->nzones)
			*why = "runs a zone other than the last to the end (size 0)";
	}
	if (!*why && (s->dist == DIST_ZONED || s->dist == DIST_ZONED_ABS) &&
	    (fabs(acc - 100) > 1e-9 ||
	     (s->dist == DIST_ZONED && fabs(size - 100) > 1e-9)))
		*why = s->dist == DIST_ZONED ? "has zones whose accesses or sizes do not add up to 100%"
					     : "has zones whose accesses do not add up to 100%";
	return *why ? -EINVAL : 0;
}

static bool any_cached(const struct model_config *m)
{
	for (unsigned i = 0; i < m->ngroups; i++)
		if (!m->disks[i].local && m->disks[i].cache != MODEL_CACHE_NONE &&
		    m->disks[i].cache != MODEL_CACHE_DEFAULT)
			return true;
	return false;
}

void model_read_hit(const struct model_config *m, const struct model_workload *w,
		    struct model_hit *h)
{
	double cache = m->vm ? m->vm->cache_gib * GIB : 0, ws = m->working_set;

	memset(h, 0, sizeof(*h));
	h->known = true;
	h->pct = m->read_hit;
	h->set = m->read_hit_set;
	h->vm = m->vm ? m->vm->name : NULL;
	h->working_set = ws > 0 ? ws : 0;
	h->cache = cache > 0 ? cache : 0;
	h->dist = m->skew.dist;
	h->param = m->skew.param;
	if (m->read_hit_set || (!(ws > 0) && m->read_hit > 0)) {
		h->basis = MODEL_HIT_GIVEN;
		return;
	}
	if (!any_cached(m)) {
		h->basis = MODEL_HIT_NO_WS;
		h->uncached = true;
		h->pct = 0;
		return;
	}
	if (!(ws > 0)) {
		h->basis = MODEL_HIT_NO_WS;
		return;
	}
	h->pct = 0;
	if (m->cache_state == MODEL_STATE_COLD) {
		h->basis = MODEL_HIT_COLD;
		return;
	}
	if (!(cache > 0)) {
		h->basis = MODEL_HIT_UNKNOWN;
		h->known = false;
		return;
	}
	if (ws <= cache) {
		h->basis = MODEL_HIT_FITS;
		h->pct = 100;
		return;
	}
	if (w->sequential) {
		/* A scan longer than an LRU or FIFO cache evicts each block before it comes back. */
		h->basis = MODEL_HIT_SEQ_LARGER;
		return;
	}
	double share = model_hot_share(&m->skew, cache, ws, (double)w->bs);

	if (!isfinite(share)) {
		h->basis = MODEL_HIT_UNKNOWN;
		h->known = false;
		return;
	}
	h->basis = MODEL_HIT_SHARE;
	h->pct = share * 100;
}
