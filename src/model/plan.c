/*
 * The planner: every VM size x disk type x disk count of the catalogs in scope, per-GiB and
 * provisioned types sized at their cheapest for the count, scored by the same model as 'iorate
 * model' and priced by the same code as 'iorate cost config'. Pruning uses only bounds that
 * cannot skip a cheaper answer (docs/model.md, "plan").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "model/plan.h"
#include "model/prices.h"
#include "util/field.h"

#define HOURS 730
#define GIB 1073741824.0
#define MAX_COUNT 128 /* when a VM states no maximum */

struct met { bool iops, mbps, cap, lat; };

struct search {
	const struct catalog *c;
	const struct plan_target *t;
	struct model_workload w;
	struct plan_result *r;
	struct met met;
	double need;            /* the workload's IOPS that meet both --iops and --mbps */
	double disk_room;       /* the most IOPS the disks' own caps allowed in the last tries */
	bool prune;             /* skip counts the disks' caps cannot reach (unset: try all) */
	bool pruned;            /* some were skipped */
	const char *controller; /* the VM's disk controller tried; NULL: its default */
	unsigned keep;
	struct cost_query q;    /* every answer priced in the same currency */
};

/* One VM size and its monthly price (NAN: none in the catalog). */
struct vm_price {
	const struct cat_vm *vm;
	double month;
};

static bool in_scope(const struct plan_target *t, const char *cat, const char *prov)
{
	return !t->provider || !strcmp(t->provider, cat) || !strcmp(t->provider, prov);
}

/* Requests per I/O at a disk of a stripe of n (as predict.c splits it: pieces, I/O unit). */
static double disk_ops(const struct cat_disk *t, double bs, unsigned n)
{
	double pieces = n > 1 && bs > MODEL_INTERLEAVE ? ceil(bs / MODEL_INTERLEAVE) : 1;
	double piece = pieces > 1 ? MODEL_INTERLEAVE : bs;

	return pieces * model_ops_per_io(piece, t->io_unit_kib * 1024);
}

/* The least provisioned IOPS whose throughput rule allows mbps (MB/s); -1 when none does. */
static double iops_for_mbps(const struct cat_disk *t, double iops, double mbps)
{
	double hi = t->iops_max > 0 ? t->iops_max : 1e7;

	if (model_rule_max_mbps(t, iops) >= mbps * (1 - 1e-12))
		return iops;
	if (model_rule_max_mbps(t, hi) < mbps * (1 - 1e-12))
		return -1;
	while (hi - iops > 0.5) {
		double mid = floor((iops + hi) / 2);

		if (model_rule_max_mbps(t, mid) >= mbps * (1 - 1e-12))
			hi = mid;
		else
			iops = mid + 1;
	}
	return hi;
}

/*
 * A provisioned type for n disks at its cheapest: each disk's IOPS and MB/s at what the target
 * needs of it (or the free baseline), IOPS raised when the throughput rule asks for more, and
 * the least size that allows them and holds its share of the capacity. 0, or -1 when no size
 * of the type can.
 */
static int size_provisioned(const struct search *s, const struct cat_vm *vm,
			    const struct cat_disk *t, unsigned n, char *spec, size_t len)
{
	double bs = (double)s->w.bs, need_m = s->need * bs / 1e6 / n;
	double iops = fmax(fmax(t->iops, t->iops_min), ceil(s->need * disk_ops(t, bs, n) / n));
	double mbps = t->throughput_follows_iops ? need_m : fmax(fmax(t->mbps, t->mbps_min), need_m);
	double gib;

	if ((iops = iops_for_mbps(t, iops, mbps)) < 0)
		return -1;
	/* Hyperdisk Balanced: so many IOPS need some throughput (at least IOPS / 256 MiB/s). */
	mbps = fmax(mbps, t->mbps_min_per_iops * iops);
	gib = fmax(t->min_gib > 0 ? t->min_gib : 1, ceil((double)s->t->capacity / n / GIB));
	gib = fmax(gib, model_rule_min_gib(t, vm, iops));
	if (model_rule_min_gib(t, vm, iops) < 0 || (t->max_gib > 0 && gib > t->max_gib))
		return -1;
	snprintf(spec, len, "%s:%s:%.0fGiB:iops=%.0f", t->catalog, t->name, gib, iops);
	if (!t->throughput_follows_iops)
		snprintf(spec + strlen(spec), len - strlen(spec), ":mbps=%.0f",
			 ceil(model_mbps_in_unit(t, mbps) - 1e-9));
	return 0;
}

enum verdict { FAILS, MEETS, VM_BOUND, INVALID };

/* The IOPS the disks' own caps allow (disk_iops and disk_mbps, the least of them). */
static double disks_allow(const struct model_result *r)
{
	double v = INFINITY;

	for (unsigned i = 0; i < r->nlimits; i++)
		if (!strcmp(r->limits[i].name, "disk_iops") || !strcmp(r->limits[i].name, "disk_mbps"))
			v = fmin(v, r->limits[i].iops);
	return v;
}

/*
 * The next count worth trying after n disks of a fixed-size type fell short. From two disks
 * on, a stripe's request shape no longer changes with the count, so what the disks' own caps
 * allow grows exactly as the count (n' / n of it, predict.c's disk_limits): a count whose
 * disks allow less than the target cannot meet it, whatever the VM, and is skipped. The most
 * the cache modes tried allowed at n is s->disk_room (hits spare the disks: the larger).
 */
static unsigned next_count(struct search *s, const struct cat_disk *t, unsigned n)
{
	double want = s->need * (1 - 1e-6), reach;

	if (!s->prune || t->rule || t->baseline_per_vm || n < 2 || !(s->disk_room > 0) ||
	    !isfinite(s->disk_room) || s->disk_room >= want)
		return n + 1;
	/* Counts below reach allow less than want; floor keeps the first that may not. */
	reach = floor((double)n * want / s->disk_room);
	if (reach <= n + 1)
		return n + 1;
	s->pruned = true;
	return reach > 1e6 ? 1000000 : (unsigned)reach;
}

/* Builds, checks and predicts one configuration; *o gets it when it meets every target. */
static enum verdict evaluate(struct search *s, const struct cat_vm *vm, const char *spec,
			     unsigned n, enum model_cache cache, struct plan_option *o)
{
	struct model_config *m = &o->config;
	const struct plan_target *t = s->t;
	char err[256];

	memset(m, 0, sizeof(*m));
	m->vm = vm;
	m->ngroups = 1;
	m->cache = MODEL_CACHE_DEFAULT;
	m->read_hit = t->read_hit;
	m->read_hit_set = t->read_hit_set;
	m->working_set = t->working_set;
	m->cache_state = t->cache_state;
	m->skew = t->skew;
	m->controller = s->controller;
	if (model_parse_disk(s->c, vm, spec, &m->disks[0], err, sizeof(err)))
		return INVALID;
	m->disks[0].count = n;
	m->disks[0].cache = cache;
	if (model_check(s->c, m, err, sizeof(err)))
		return INVALID;
	s->r->considered++;
	model_predict(m, &s->w, 0, &o->result);
	s->disk_room = fmax(s->disk_room, disks_allow(&o->result));
	bool ok_i = o->result.iops >= t->iops * (1 - 1e-9);
	bool ok_m = o->result.mbps >= t->mbps * (1 - 1e-9);
	bool ok_c = m->disks[0].gib * n * GIB >= (double)t->capacity || m->disks[0].type->rule;
	bool ok_l = !t->latency_ms || o->result.service_ms <= t->latency_ms;

	s->met.iops |= ok_i, s->met.mbps |= ok_m, s->met.cap |= ok_c, s->met.lat |= ok_l;
	if (ok_i && ok_m && ok_c && ok_l)
		return MEETS;
	/* More disks of the type cannot raise the VM's or the account's limits. */
	return !strncmp(o->result.binding, "vm_", 3) || !strcmp(o->result.binding, "account_iops") ?
		VM_BOUND : FAILS;
}

/* Uncached first; a host cache only when hits are assumed and the uncached one falls short. */
static enum verdict try_both(struct search *s, const struct cat_vm *vm, const struct cat_disk *t,
			     const char *spec, unsigned n, struct plan_option *o)
{
	enum verdict v = evaluate(s, vm, spec, n, MODEL_CACHE_NONE, o);

	if (v == MEETS || v == INVALID || (s->t->read_hit <= 0 && !(s->t->working_set > 0)) ||
	    !vm->cache || !t->cache)
		return v;
	enum verdict c = evaluate(s, vm, spec, n, MODEL_CACHE_READONLY, o);

	return c == MEETS ? c : v;
}

/* A size-derived type (gp2, st1, sc1, PD): the least whole GiB per disk that meets the target. */
static enum verdict size_derived(struct search *s, const struct cat_vm *vm,
				 const struct cat_disk *t, unsigned n, struct plan_option *o)
{
	double lo = fmax(t->min_gib > 0 ? t->min_gib : 1, ceil((double)s->t->capacity / n / GIB));
	double hi = t->max_gib > 0 ? t->max_gib : 65536;
	char spec[96];
	enum verdict v;

	if (lo > hi)
		return INVALID;
	snprintf(spec, sizeof(spec), "%s:%s:%.0fGiB", t->catalog, t->name, hi);
	if ((v = try_both(s, vm, t, spec, n, o)) != MEETS)
		return v;
	/* Every rule rises with size, so meeting the target does too. */
	while (hi - lo > 0.5) {
		double mid = floor((lo + hi) / 2);

		snprintf(spec, sizeof(spec), "%s:%s:%.0fGiB", t->catalog, t->name, mid);
		if (try_both(s, vm, t, spec, n, o) == MEETS)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(spec, sizeof(spec), "%s:%s:%.0fGiB", t->catalog, t->name, hi);
	return try_both(s, vm, t, spec, n, o);
}

static enum verdict configure(struct search *s, const struct cat_vm *vm, const struct cat_disk *t,
			      unsigned n, struct plan_option *o)
{
	char spec[128];

	if (!t->rule) {
		snprintf(spec, sizeof(spec), "%s:%s", t->catalog, t->name);
		return try_both(s, vm, t, spec, n, o);
	}
	if (!t->provisioned)
		return size_derived(s, vm, t, n, o);
	if (size_provisioned(s, vm, t, n, spec, sizeof(spec)))
		return INVALID;
	return try_both(s, vm, t, spec, n, o);
}

/* The cheapest so far, kept in order; returns -ENOMEM. */
static int keep(struct search *s, const struct plan_option *o)
{
	struct plan_result *r = s->r;
	unsigned i;

	if (r->n == s->keep && o->cost.total >= r->options[r->n - 1].cost.total)
		return 0;
	if (r->n < s->keep)
		r->n++;
	for (i = r->n - 1; i > 0 && r->options[i - 1].cost.total > o->cost.total; i--)
		r->options[i] = r->options[i - 1];
	r->options[i] = *o;
	return 0;
}

static double kth(const struct search *s)
{
	return s->r->n == s->keep ? s->r->options[s->r->n - 1].cost.total : INFINITY;
}

/* The least a disk of the type costs a month, for n of them holding the capacity. */
static double disk_floor(const struct search *s, const struct cat_disk *t, unsigned n)
{
	const struct cat_price *p = catalog_find_price(s->c, t->catalog, "disk", t->name,
						       s->t->region, s->r->currency);
	double gib = t->rule ? fmax(t->min_gib > 0 ? t->min_gib : 1,
				    (double)s->t->capacity / n / GIB) : t->gib;

	if (!p)
		return NAN;
	return n * (p->per_month + p->per_gib_month * gib);
}

/*
 * Whether the VM bounds the disk type: a VM whose catalog gives caps by disk family (GCP) but
 * none for this family (Hyperdisk, whose per-VM tables were not found) would leave it
 * unbounded, and an answer with it could promise what the VM does not deliver. A GCP VM has
 * caps by family or none at all (N4, C4: Hyperdisk only, no per-VM figure found).
 */
static bool vm_bounds(const struct cat_vm *vm, const struct cat_disk *t)
{
	bool gcp = vm->provider && !strcmp(vm->provider, "gcp");

	return vm->uncached_iops > 0 || (!vm->nfcaps && !gcp) ||
	       catalog_vm_family_caps(vm, t->family);
}

/* A disk type left out for want of a per-VM limit, named once in the result. */
static void left_out(struct plan_result *r, const char *type)
{
	size_t n = strlen(r->no_vm_limit), k = strlen(type);
	const char *p = r->no_vm_limit;

	while ((p = strstr(p, type)))
		if ((p == r->no_vm_limit || p[-1] == ' ') && (p[k] == ',' || !p[k]))
			return;
		else
			p += k;
	if (n + k + 3 < sizeof(r->no_vm_limit))
		snprintf(r->no_vm_limit + n, sizeof(r->no_vm_limit) - n, "%s%s", n ? ", " : "",
			 type);
}

/*
 * Every count of one disk type on one VM behind one controller (s->controller); *best gets
 * the cheapest that meets the target.
 */
static void search_counts(struct search *s, const struct vm_price *vp, const struct cat_disk *t,
			  unsigned first, unsigned maxn, bool priced, struct plan_option *best)
{
	const struct cat_vm *vm = vp->vm;
	struct plan_option o;
	char err[256];

	for (unsigned n = first, next; n <= maxn; n = next) {
		/* n disks cost at least this much; more only more. */
		if (priced && vp->month + disk_floor(s, t, n) >= fmin(kth(s), best->cost.total))
			break;
		s->disk_room = 0;
		enum verdict v = configure(s, vm, t, n, &o);

		next = n + 1;
		if (v == VM_BOUND)
			break;
		if (v == FAILS)
			next = next_count(s, t, n);
		if (v != MEETS)
			continue;
		if (!priced || cost_config(s->c, &o.config, &s->q, &o.cost, err, sizeof(err))) {
			if (!s->r->unpriced++)
				s->r->unpriced_provider = vm->provider;
			break;
		}
		if (o.cost.total < best->cost.total)
			*best = o;
		if (!t->rule)
			break; /* a fixed size: n + 1 of them cost more */
	}
}

/*
 * Every count of one disk type on one VM; keeps the cheapest that meets the target. A size
 * with caps per disk controller (Ebsv5) is tried with each: its default first, so another
 * is kept only when it is cheaper.
 */
static int search_pair(struct search *s, const struct vm_price *vp, const struct cat_disk *t)
{
	const struct cat_vm *vm = vp->vm;
	unsigned maxn = vm->max_disks ? vm->max_disks : MAX_COUNT, first = 1;
	unsigned type_max = catalog_vm_type_max(vm, t->name); /* 0: the VM takes none */
	struct plan_option best = {.cost.total = INFINITY};
	bool priced = !isnan(vp->month) && !isnan(disk_floor(s, t, 1));
	const json_t *ctl = vm->controllers;

	if (!s->t->uncapped && !vm_bounds(vm, t)) {
		if (type_max)
			left_out(s->r, t->name);
		return 0;
	}
	if (type_max < maxn)
		maxn = type_max;
	if (!t->rule && t->gib > 0)
		first = (unsigned)fmax(1, ceil((double)s->t->capacity / GIB / t->gib - 1e-9));
	s->controller = NULL;
	search_counts(s, vp, t, first, maxn, priced, &best);
	for (size_t k = 0; k < json_array_size(ctl); k++) {
		s->controller = json_string_value(json_array_get(ctl, k));
		if (strcasecmp(s->controller, vm->controller))
			search_counts(s, vp, t, first, maxn, priced, &best);
	}
	s->controller = NULL;
	return isfinite(best.cost.total) ? keep(s, &best) : 0;
}

static int by_month(const void *a, const void *b)
{
	const struct vm_price *x = a, *y = b;

	if (isnan(x->month) || isnan(y->month))
		return isnan(x->month) - isnan(y->month);
	return (x->month > y->month) - (x->month < y->month);
}

/*
 * The currency of the answers: the one asked for, else that of the first price of a catalog
 * in scope (and of the region asked for), so that downloaded prices (loaded first) set it.
 */
static const char *plan_currency(const struct catalog *c, const struct plan_target *t)
{
	if (t->currency)
		return t->currency;
	for (size_t i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];
		bool scope = false;

		for (size_t k = 0; k < c->nvms && !scope && p->catalog; k++)
			scope = !strcmp(c->vms[k].catalog, p->catalog) &&
				in_scope(t, c->vms[k].catalog, c->vms[k].provider);
		if (scope && p->currency && (!t->region || (p->region &&
		    !strcasecmp(p->region, t->region))))
			return p->currency;
	}
	return "USD";
}

/* The VM sizes in scope, cheapest first (unpriced last). */
static struct vm_price *vms_by_price(const struct catalog *c, const struct plan_target *t,
				     const char *currency, size_t *n)
{
	struct vm_price *v = calloc(c->nvms ? c->nvms : 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < c->nvms; i++) {
		const struct cat_vm *vm = &c->vms[i];
		const struct cat_price *p;

		if (!in_scope(t, vm->catalog, vm->provider))
			continue;
		p = catalog_find_price(c, vm->catalog, "vm", vm->name, t->region, currency);
		v[(*n)++] = (struct vm_price){.vm = vm,
			.month = p && p->per_hour > 0 ? p->per_hour * HOURS : NAN};
	}
	if (v)
		qsort(v, *n, sizeof(*v), by_month);
	return v;
}

/*
 * Configurations meet the target but none is priced for the region and currency: say how
 * many, for what, and the command that downloads the prices (Azure and AWS publish theirs).
 */
static void unpriced(const struct catalog *c, struct plan_result *r,
		     const struct plan_target *t)
{
	const char *prov = r->unpriced_provider;
	bool dl = prov && (!strncmp(prov, "azure", 5) || !strncmp(prov, "aws", 3));
	char fix[200] = "";

	if (dl)
		snprintf(fix, sizeof(fix), "download them with 'iorate catalog prices --provider %s "
			 "--region %s%s%s', or ", !strncmp(prov, "aws", 3) ? "aws" : "azure",
			 t->region ? t->region : "REGION", t->currency ? " --currency " : "",
			 t->currency ? t->currency : "");
	char near[300] = "";
	size_t at = 0;

	/* A region or currency the provider's list lacks is likely a typo of one it has. */
	for (int k = 0; k < 2; k++) {
		const char *want = k ? t->currency : t->region;
		char list[120];

		if (want && *prices_near(prov, k, want, list, sizeof(list)) && at < sizeof(near))
			at += (size_t)snprintf(near + at, sizeof(near) - at, "; '%s' is no %s of "
					       "%s's price list (did you mean %s?)", want,
					       k ? "currency" : "region",
					       prov && !strncmp(prov, "aws", 3) ? "AWS" : "Azure",
					       list);
	}
	r->only_unpriced = true;
	/* Cut at the buffer's end when a region, a currency and a suggestion are all long. */
	(void)!snprintf(r->unmet, sizeof(r->unmet), "%u configuration%s meet%s it, but none has "
		 "a price %s%s%s in %s%s%s; %sgive prices with " FIELD("catalog") " FILE", r->unpriced,
		 r->unpriced == 1 ? "" : "s", r->unpriced == 1 ? "s" : "",
		 t->region ? "for region '" : "in the catalog", t->region ? t->region : "",
		 t->region ? "'" : "", r->currency, t->currency ? "" : " (the default currency)",
		 near, fix);
}

static void unmet(const struct catalog *c, struct plan_result *r, const struct plan_target *t,
		  const struct met *met)
{
	if (met->iops && met->mbps && met->cap && met->lat && r->unpriced)
		unpriced(c, r, t);
	else
		snprintf(r->unmet, sizeof(r->unmet), "%s",
			 !met->iops ? FIELD("iops") ": no configuration reaches that many IOPS" :
			 !met->mbps ? FIELD("mbps") ": no configuration reaches that throughput" :
			 !met->cap ? FIELD("capacity") ": no configuration holds that much" :
			 !met->lat ? FIELD("latency-ms") ": no disk type is that fast" :
				     "no single configuration meets every target together");
	if (r->no_vm_limit[0]) {
		size_t n = strlen(r->unmet);

		snprintf(r->unmet + n, sizeof(r->unmet) - n, " (left out: %s, whose per-VM limits "
			 "the catalog lacks; " FIELD("uncapped") " includes them)", r->no_vm_limit);
	}
}

static int search(const struct catalog *c, const struct plan_target *t, struct plan_result *r,
		  bool prune, bool *pruned)
{
	struct search s = {.c = c, .t = t, .r = r, .keep = t->top ? t->top : 5, .prune = prune};
	struct vm_price *vms;
	size_t nvms;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->currency = plan_currency(c, t);
	s.q = (struct cost_query){.hours = HOURS, .region = t->region, .currency = r->currency,
				  .vm_hour = -1, .disk_month = -1, .now = cost_now(t->now)};
	s.w = (struct model_workload){.bs = t->bs ? t->bs : 4096, .write_pct = t->write_pct,
		.sequential = false, .threads = 1, .depth = 1024};
	s.need = fmax(t->iops, t->mbps * 1e6 / (double)s.w.bs);
	s.q.iops = s.need; /* disks priced per operation do the target's I/Os all month */
	s.q.io_bytes = s.w.bs;
	if (!(r->options = calloc(s.keep, sizeof(*r->options))) ||
	    !(vms = vms_by_price(c, t, r->currency, &nvms))) {
		free(r->options);
		r->options = NULL;
		return -ENOMEM;
	}
	for (size_t v = 0; v < nvms && !ret; v++) {
		/* The VM alone costs more than the last answer kept (so do the priced ones after
		 * it): only the unpriced ones remain, searched to count what meets the target. */
		if (!isnan(vms[v].month) && vms[v].month >= kth(&s))
			continue;
		for (size_t k = 0; k < c->ndisks && !ret; k++)
			if (!strcmp(c->disks[k].catalog, vms[v].vm->catalog) && !c->disks[k].os)
				ret = search_pair(&s, &vms[v], &c->disks[k]);
	}
	free(vms);
	*pruned = s.pruned;
	if (!r->n)
		unmet(c, r, t, &s.met);
	return ret;
}

int plan_search(const struct catalog *c, const struct plan_target *want, struct plan_result *r)
{
	struct plan_target cap = *want, *t = &cap;
	bool pruned = false;

	/* The data a working set reads must be stored: the volume holds at least that much. */
	if (want->working_set > (double)want->capacity)
		cap.capacity = (uint64_t)ceil(want->working_set);
	int ret = search(c, t, r, true, &pruned);

	/* Nothing meets the target: which requirement none meets is said from every count. */
	if (!ret && !r->n && pruned) {
		plan_result_free(r);
		ret = search(c, t, r, false, &pruned);
	}
	return ret;
}

void plan_result_free(struct plan_result *r)
{
	if (!r)
		return;
	free(r->options);
	r->options = NULL;
	r->n = 0;
}
