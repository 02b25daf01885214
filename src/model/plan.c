/*
 * The planner: brute force over the catalog (a few thousand configurations), scored by the same
 * model as 'iorate model' and priced by the same cost code as 'iorate cost config'.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model/plan.h"

#define MAX_COUNT 16 /* wider stripes than this are rarely worth their management cost */

struct met { bool iops, mbps, cap, lat; };

static bool in_scope(const struct plan_target *t, const char *cat, const char *prov)
{
	return !t->provider || !strcmp(t->provider, cat) || !strcmp(t->provider, prov);
}

/*
 * Size of one disk of a per-GiB type for n disks to meet the target, into md->gib, from which the
 * caller writes the spec that model_parse_disk() reads (and that sets the rest of md).
 */
static void size_rule(const struct cat_disk *d, const struct plan_target *t, unsigned n,
		      double ops, struct model_disk *md)
{
	double gib = fmax(d->min_gib > 0 ? d->min_gib : 1, ceil((double)t->capacity / n / (1 << 30)));
	double need_i = ceil(t->iops * ops / n), need_m = t->mbps / n;

	if (!d->provisioned && d->iops_per_gib > 0 && need_i > d->iops)
		gib = fmax(gib, ceil((need_i - d->iops) / d->iops_per_gib));
	if (!d->provisioned && d->mbps_per_gib > 0 && need_m > d->mbps)
		gib = fmax(gib, ceil((need_m - d->mbps) / d->mbps_per_gib));
	if (d->provisioned && d->iops_per_gib > 0 && need_i > d->iops)
		gib = fmax(gib, ceil((need_i - d->iops) / d->iops_per_gib + d->iops_free_gib));
	if (d->max_gib > 0 && gib > d->max_gib)
		gib = d->max_gib;
	md->gib = gib;
}

static int try_config(const struct catalog *c, const struct plan_target *t,
		      const struct model_workload *w, struct model_config *m, struct met *met,
		      struct plan_result *r, unsigned *cap)
{
	struct plan_option o;
	char err[256];
	unsigned n = m->disks[0].count;
	double gib = m->disks[0].gib * n;

	if (model_check(c, m, err, sizeof(err)))
		return 0;
	r->considered++;
	o.config = *m;
	model_predict(m, w, 0, &o.result);
	bool ok_i = o.result.iops >= t->iops * 0.9999;
	bool ok_m = o.result.mbps >= t->mbps * 0.9999;
	bool ok_c = gib * (1 << 30) >= (double)t->capacity;
	bool ok_l = !t->latency_ms || o.result.service_ms <= t->latency_ms;

	met->iops |= ok_i, met->mbps |= ok_m, met->cap |= ok_c, met->lat |= ok_l;
	if (!(ok_i && ok_m && ok_c && ok_l))
		return 0;
	if (cost_config(c, m, 730, t->region, -1, -1, &o.cost, err, sizeof(err))) {
		r->unpriced++;
		return 0;
	}
	if (r->n == *cap) {
		struct plan_option *p = realloc(r->options, (*cap ? *cap * 2 : 64) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->options = p;
		*cap = *cap ? *cap * 2 : 64;
	}
	r->options[r->n++] = o;
	return 1; /* more disks of this kind would only cost more */
}

static int by_cost(const void *a, const void *b)
{
	const struct plan_option *x = a, *y = b;

	return (x->cost.total > y->cost.total) - (x->cost.total < y->cost.total);
}

int plan_search(const struct catalog *c, const struct plan_target *t, struct plan_result *r)
{
	struct model_workload w = {t->bs ? t->bs : 4096, t->write_pct, false, 1, 1024};
	struct met met = {0};
	unsigned cap = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	for (size_t v = 0; v < c->nvms; v++) {
		const struct cat_vm *vm = &c->vms[v];

		if (!in_scope(t, vm->catalog, vm->provider))
			continue;
		for (size_t k = 0; k < c->ndisks; k++) {
			const struct cat_disk *d = &c->disks[k];

			if (strcmp(d->catalog, vm->catalog))
				continue;
			for (int cache = 0; cache < 2; cache++) {
				if (cache && (!vm->cache || !d->cache || t->write_pct == 100))
					continue;
				unsigned maxn = vm->max_disks ? vm->max_disks : MAX_COUNT;

				for (unsigned n = 1; n <= maxn && n <= MAX_COUNT; n++) {
					struct model_config m = {0};
					struct model_disk *md = &m.disks[0];
					char err[256], spec[80];
					double ops = d->io_unit_kib > 0 ?
						ceil(w.bs / (d->io_unit_kib * 1024)) : 1;

					m.vm = vm;
					m.ngroups = 1;
					m.cache = cache ? MODEL_CACHE_READONLY : MODEL_CACHE_NONE;
					if (d->rule) {
						size_rule(d, t, n, ops, md);
						snprintf(spec, sizeof(spec), "%s:%s:%.0fGiB", d->catalog,
							 d->name, md->gib);
						if (d->provisioned) {
							double pi = fmax(d->iops, ceil(t->iops * ops / n));
							double pm = fmax(d->mbps, t->mbps / n);

							snprintf(spec + strlen(spec),
								 sizeof(spec) - strlen(spec),
								 ":iops=%.0f:mbps=%.0f", pi, ceil(pm));
						}
					} else {
						snprintf(spec, sizeof(spec), "%s:%s", d->catalog, d->name);
					}
					/* Cannot provision n of them (say, each would need more IOPS
					 * than one disk takes): more disks may split the load. */
					if (model_parse_disk(c, vm, spec, md, err, sizeof(err)))
						continue;
					md->count = n;
					ret = try_config(c, t, &w, &m, &met, r, &cap);
					if (ret < 0)
						return ret;
					if (ret)
						break;
				}
			}
		}
	}
	if (!r->n) {
		snprintf(r->unmet, sizeof(r->unmet), "%s",
			 !met.iops ? "--iops: no configuration reaches that many IOPS" :
			 !met.mbps ? "--mbps: no configuration reaches that throughput" :
			 !met.cap ? "--capacity: no configuration holds that much" :
			 !met.lat ? "--latency-ms: no disk type is that fast" :
			 r->unpriced ? "configurations meet it, but none has a price in the catalog "
				       "(give prices with --catalog)" :
				       "no single configuration meets every target together");
		return 0;
	}
	qsort(r->options, r->n, sizeof(*r->options), by_cost);
	if (r->n > (t->top ? t->top : 5))
		r->n = t->top ? t->top : 5;
	return 0;
}

void plan_result_free(struct plan_result *r)
{
	if (!r)
		return;
	free(r->options);
	r->options = NULL;
	r->n = 0;
}
