/*
 * The configuration part of the calculator page's data (calc_data.c): each catalog with VMs is
 * a provider; its disk choices are resolved on each of its VMs with model_parse_disk() and
 * model_check(), as 'cost config' resolves a group, and priced per market with
 * catalog_find_price(), as cost_config() finds prices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/cost.h"
#include "report/calc_int.h"
#include "util/field.h"
#include "util/parse.h"

/* Sizes offered for a disk type priced by the GiB (within its bounds), in GiB. */
static const unsigned rule_sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
/* One disk choice of a provider: a SPEC without a count, and what the pull-down shows. */
struct choice {
	char spec[96], label[128];
};

/* How a choice resolves on one VM: kind 0 resolved, 1 a SPEC error, 2 a configuration error. */
struct outcome {
	int kind;
	const struct cat_disk *type;        /* NULL: the local disk */
	double gib, iops, mbps;
	json_int_t msg;
	bool prefixed;                      /* msg follows "--disk SPEC" */
};

/* A provider being built: its VMs, its disk choices and the disk types they resolve to. */
struct prov {
	const char *name;
	const struct cat_vm **vms;
	size_t nvms;
	struct choice *choices;
	size_t nchoices, cap;
	const struct cat_disk **types;
	size_t ntypes, tcap;
};

static int add_choice(struct prov *pv, const char *spec, const char *label)
{
	for (size_t i = 0; i < pv->nchoices; i++)
		if (!strcasecmp(pv->choices[i].spec, spec))
			return 0;
	if (pv->nchoices == pv->cap) {
		size_t n = pv->cap ? pv->cap * 2 : 64;
		struct choice *g = realloc(pv->choices, n * sizeof(*g));

		if (!g)
			return -ENOMEM;
		pv->choices = g;
		pv->cap = n;
	}
	snprintf(pv->choices[pv->nchoices].spec, sizeof(pv->choices[0].spec), "%s", spec);
	snprintf(pv->choices[pv->nchoices].label, sizeof(pv->choices[0].label), "%s", label);
	pv->nchoices++;
	return 0;
}

/* The index of a disk type in the provider's table, added when new; -1 for the local disk. */
static json_int_t type_index(struct pool *pl, struct prov *pv, const struct cat_disk *t)
{
	if (!t)
		return -1;
	for (size_t i = 0; i < pv->ntypes; i++)
		if (pv->types[i] == t)
			return (json_int_t)i;
	if (pv->ntypes == pv->tcap) {
		size_t n = pv->tcap ? pv->tcap * 2 : 32;
		const struct cat_disk **g = realloc(pv->types, n * sizeof(*g));

		if (!g) {
			pl->oom = true;
			return -1;
		}
		pv->types = g;
		pv->tcap = n;
	}
	pv->types[pv->ntypes] = t;
	return (json_int_t)pv->ntypes++;
}

/*
 * "2xP30" -> "P30", "azure-2015:2xP30" -> "azure-2015:P30": a group's SPEC without its count
 * (the page keeps the count apart), as model_parse_disk reads one.
 */
static void spec_without_count(const struct catalog *c, const char *spec, char *out, size_t len)
{
	const char *colon = strchr(spec, ':'), *s = spec, *x;
	size_t pre = 0;

	if (colon && colon - spec < 64) {
		char first[64];

		snprintf(first, sizeof(first), "%.*s", (int)(colon - spec), spec);
		if (catalog_has(c, first)) {
			pre = (size_t)(colon - spec) + 1;
			s = colon + 1;
		}
	}
	x = s + strspn(s, "0123456789");
	if (x > s && (*x == 'x' || *x == 'X') && x[1] && x[1] != ':')
		snprintf(out, len, "%.*s%s", (int)pre, spec, x + 1);
	else
		snprintf(out, len, "%s", spec);
}

/* The provider's VMs: each of its catalog, the first of a name (the one lookups find). */
static int prov_vms(const struct catalog *c, struct prov *pv)
{
	if (!(pv->vms = calloc(c->nvms ? c->nvms : 1, sizeof(*pv->vms))))
		return -ENOMEM;
	for (size_t i = 0; i < c->nvms; i++)
		if (!strcmp(c->vms[i].catalog, pv->name) &&
		    catalog_find_vm(c, pv->name, c->vms[i].name) == &c->vms[i])
			pv->vms[pv->nvms++] = &c->vms[i];
	return 0;
}

/* Its disk choices: each fixed size, each per-GiB type at sizes it takes, the local disk. */
static int prov_choices(const struct catalog *c, struct prov *pv, const struct model_config *m)
{
	char spec[96], label[128], size[32];
	int ret = 0;

	for (size_t i = 0; i < c->ndisks && !ret; i++) {
		const struct cat_disk *t = &c->disks[i];

		if (strcmp(t->catalog, pv->name) || catalog_find_disk(c, pv->name, t->name) != t)
			continue;
		if (!t->rule) {
			snprintf(label, sizeof(label), "%.80s (%g GiB)", t->name, t->gib);
			ret = add_choice(pv, t->name, t->gib > 0 ? label : t->name);
			continue;
		}
		for (unsigned k = 0; k < sizeof(rule_sizes) / sizeof(rule_sizes[0]) && !ret; k++) {
			if (rule_sizes[k] < t->min_gib || (t->max_gib > 0 && rule_sizes[k] > t->max_gib))
				continue;
			snprintf(spec, sizeof(spec), "%.60s:%s", t->name,
				 fmt_size((uint64_t)rule_sizes[k] << 30, size, sizeof(size)));
			ret = add_choice(pv, spec, spec);
		}
	}
	if (!ret)
		ret = add_choice(pv, "local", "local (the VM's temp disk, no charge)");
	/* The command line's groups, when their VM is of this provider. */
	for (unsigned g = 0; m && !ret && !strcmp(m->vm->catalog, pv->name) && g < m->ngroups; g++) {
		spec_without_count(c, m->disks[g].spec, spec, sizeof(spec));
		ret = add_choice(pv, spec, spec);
	}
	return ret;
}

/* A model message as the command line prints it: fields spelled as options ("--disk"). */
static json_int_t message(struct pool *pl, const char *msg, const char *spec, bool *prefixed)
{
	char spelled[640], head[128];
	size_t n;

	field_expand(spelled, sizeof(spelled), msg, NULL);
	n = (size_t)snprintf(head, sizeof(head), "--disk %s", spec);
	*prefixed = n < sizeof(head) && !strncmp(spelled, head, n);
	return calc_pool_message(pl, *prefixed ? spelled + n : spelled);
}

/* How spec resolves on vm, as 'cost config' resolves and checks a group of it. */
static void resolve(struct pool *pl, const struct catalog *c, const struct cat_vm *vm,
		    const char *spec, struct outcome *o)
{
	struct model_config m = {.vm = vm, .ngroups = 1, .cache = MODEL_CACHE_DEFAULT};
	char err[512], msg[600];

	memset(o, 0, sizeof(*o));
	if (model_parse_disk(c, vm, spec, &m.disks[0], err, sizeof(err))) {
		/* model_config_resolve() names the option so before the SPEC's own words. */
		snprintf(msg, sizeof(msg), FIELD("disk") " %s", err);
		o->kind = 1;
		o->msg = message(pl, msg, spec, &o->prefixed);
	} else if (model_check(c, &m, err, sizeof(err))) {
		o->kind = 2;
		o->msg = message(pl, err, spec, &o->prefixed);
	} else {
		o->type = m.disks[0].local ? NULL : m.disks[0].type;
		o->gib = m.disks[0].gib;
		o->iops = m.disks[0].iops;
		o->mbps = m.disks[0].mbps;
	}
}

static bool same_outcome(const struct outcome *a, const struct outcome *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind)
		return a->msg == b->msg && a->prefixed == b->prefixed;
	return a->type == b->type && a->gib == b->gib && a->iops == b->iops && a->mbps == b->mbps;
}

/* [0, disk, gib, iops, mbps] resolved (disk -1: the local disk), [kind, message, prefixed]. */
static json_t *outcome_json(struct pool *pl, struct prov *pv, const struct outcome *o)
{
	if (o->kind)
		return json_pack("[i, I, b]", o->kind, o->msg, o->prefixed);
	return json_pack("[i, I, f, f, f]", 0, type_index(pl, pv, o->type), o->gib, o->iops,
			 o->mbps);
}

/* The outcome most VMs have (a resolved one on a tie): the choice's own; the rest are noted. */
static size_t common_outcome(const struct outcome *all, size_t n)
{
	size_t best = 0, best_count = 0;

	for (size_t i = 0; i < n; i++) {
		size_t count = 0;

		if (i && same_outcome(&all[i], &all[best]))
			continue;
		for (size_t j = i; j < n; j++)
			count += same_outcome(&all[i], &all[j]);
		if (count > best_count || (count == best_count && !all[i].kind && all[best].kind)) {
			best = i;
			best_count = count;
		}
		/* More than half: nothing else can be more common. */
		if (best_count * 2 > n)
			break;
	}
	return best;
}

/* Each choice with its common outcome, and [vm, choice, outcome] for every VM that differs. */
static int prov_resolve(struct pool *pl, const struct catalog *c, struct prov *pv,
			json_t *choices, json_t *except)
{
	struct outcome *all = calloc(pv->nvms ? pv->nvms : 1, sizeof(*all)), none = {.kind = 2};

	if (!all)
		return -ENOMEM;
	for (size_t k = 0; k < pv->nchoices && !pl->oom; k++) {
		const struct outcome *base = &none;

		for (size_t v = 0; v < pv->nvms; v++)
			resolve(pl, c, pv->vms[v], pv->choices[k].spec, &all[v]);
		if (pv->nvms)
			base = &all[common_outcome(all, pv->nvms)];
		calc_push(pl, choices, json_pack("{s:s, s:s, s:o}", "spec", pv->choices[k].spec,
			"label", pv->choices[k].label, "on", outcome_json(pl, pv, base)));
		for (size_t v = 0; v < pv->nvms; v++)
			if (!same_outcome(&all[v], base))
				calc_push(pl, except, json_pack("[I, I, o]", (json_int_t)v, (json_int_t)k,
							   outcome_json(pl, pv, &all[v])));
	}
	free(all);
	return 0;
}

static bool of_catalog(const struct cat_price *p, void *arg)
{
	return (!strcmp(p->kind, "vm") || !strcmp(p->kind, "disk")) &&
	       (!p->catalog || !strcmp(p->catalog, arg));
}

/* A price's IOPS steps as [[from IOPS, price], ...] ([] for none). */
static json_t *price_steps(const struct cat_price *p)
{
	json_t *a = json_array();

	for (unsigned k = 0; a && k < p->niops_above; k++)
		if (json_array_append_new(a, json_pack("[f, f]", p->iops_above[k].from,
						       p->iops_above[k].price))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/*
 * Per market, the price 'cost config' finds for each VM (per hour, above 0) and each disk type
 * (cost.c: catalog_find_price in the region and currency asked for).
 */
static void prov_markets(struct pool *pl, const struct catalog *c, struct prov *pv, json_t *mk)
{
	for (size_t m = 0; m < json_array_size(mk); m++) {
		json_t *mt = json_array_get(mk, m), *vms = json_array(), *disks = json_array();
		const char *r = calc_market_str(mt, "region"), *cur = calc_market_str(mt, "currency");

		for (size_t v = 0; v < pv->nvms; v++) {
			const struct cat_vm *vm = pv->vms[v];
			const struct cat_price *p = catalog_find_price(c, vm->catalog, "vm", vm->name,
								       r, cur);

			if (p && p->per_hour > 0)
				calc_push(pl, vms, json_pack("[I, f, I]", (json_int_t)v, p->per_hour,
					calc_pool_source(pl, p->source, p->date)));
		}
		for (size_t d = 0; d < pv->ntypes; d++) {
			const struct cat_disk *t = pv->types[d];
			const struct cat_price *p = catalog_find_price(c, t->catalog, "disk", t->name,
								       r, cur);

			if (p)
				calc_push(pl, disks, json_pack("[I, f, f, f, f, f, f, f, f, I, o]",
					(json_int_t)d, p->per_month, p->per_gib_month,
					p->per_iops_month, p->per_mbps_month,
					p->per_10k_transactions, t->ops_per_hour_max,
					t->ops_unit_kib, t->ops_per_io_max,
					calc_pool_source(pl, p->source, p->date),
					price_steps(p)));
		}
		if (json_object_set_new(mt, "vms", vms) || json_object_set_new(mt, "disks", disks))
			pl->oom = true;
	}
}

/*
 * A VM's limits by disk type (of disks, or of GiB) as [[name, [disk index, ...], most]] for
 * the disk types of the page each names (one, or all a "prefix*" covers), in the order
 * model_check() tries them (the catalog's), so the first refusal is the same.
 */
static json_t *type_limits(struct pool *pl, const struct prov *pv, const struct cat_type_max *tm,
			   unsigned n)
{
	json_t *a = json_array();

	for (unsigned k = 0; k < n; k++) {
		json_t *ds = json_array();

		for (size_t d = 0; ds && d < pv->ntypes; d++)
			if (catalog_type_max_covers(tm[k].type, pv->types[d]->name))
				calc_push(pl, ds, json_integer((json_int_t)d));
		if (ds && json_array_size(ds))
			calc_push(pl, a, json_pack("[s, O, I]", tm[k].type, ds, (json_int_t)tm[k].max));
		json_decref(ds);
	}
	return a;
}

static json_t *prov_json(struct pool *pl, const struct catalog *c, struct prov *pv)
{
	json_t *vms = json_array(), *disks = json_array(), *choices = json_array();
	json_t *except = json_array(), *mk = calc_markets(c, of_catalog, (void *)pv->name);

	if (prov_resolve(pl, c, pv, choices, except))
		pl->oom = true;
	prov_markets(pl, c, pv, mk);
	for (size_t v = 0; v < pv->nvms; v++)
		calc_push(pl, vms, json_pack("{s:s, s:i, s:o, s:o}", "name", pv->vms[v]->name,
			"max_disks", (int)pv->vms[v]->max_disks, "by_type", type_limits(pl, pv,
			pv->vms[v]->type_max, pv->vms[v]->ntype_max), "gib_by_type",
			type_limits(pl, pv, pv->vms[v]->gib_max, pv->vms[v]->ngib_max)));
	for (size_t d = 0; d < pv->ntypes; d++) {
		const struct cat_disk *t = pv->types[d];

		calc_push(pl, disks, json_pack("{s:s, s:s, s:f, s:f, s:b, s:b}", "name", t->name,
			"catalog", t->catalog, "iops", t->iops, "mbps", t->mbps, "mib", t->mbps_mib,
			"os", t->os));
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name", pv->name, "vms", vms,
			 "disks", disks, "choices", choices, "exceptions", except, "markets", mk);
}

static void prov_release(struct prov *pv)
{
	free(pv->vms);
	free(pv->choices);
	free(pv->types);
}

/* Which choice a command-line group is: its SPEC without the count. */
static json_t *initial_groups(const struct catalog *c, const struct model_config *m,
			      const json_t *prov)
{
	json_t *groups = json_array(), *choices = json_object_get(prov, "choices");
	char spec[96];

	for (unsigned g = 0; m && groups && g < m->ngroups; g++) {
		spec_without_count(c, m->disks[g].spec, spec, sizeof(spec));
		for (size_t k = 0; k < json_array_size(choices); k++)
			if (!strcasecmp(spec, json_string_value(json_object_get(
					json_array_get(choices, k), "spec"))))
				json_array_append_new(groups, json_pack("[i, I]",
					(int)m->disks[g].count, (json_int_t)k));
	}
	return groups;
}

static json_t *config_initial(const struct catalog *c, const struct calc_config_init *ci,
			      const json_t *provs)
{
	const struct model_config *m = ci->config;
	const char *want = m ? m->vm->catalog : ci->provider;
	json_t *prov = NULL;
	json_int_t vm = -1;

	for (size_t i = 0; want && i < json_array_size(provs); i++)
		if (!strcasecmp(json_string_value(json_object_get(json_array_get(provs, i), "name")),
				want))
			prov = json_array_get(provs, i);
	for (size_t v = 0; m && prov && v < json_array_size(json_object_get(prov, "vms")); v++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(
				json_object_get(prov, "vms"), v), "name")), m->vm->name))
			vm = (json_int_t)v;
	return json_pack("{s:s?, s:s?, s:s?, s:o, s:o, s:f, s:o, s:o, s:o, s:I}",
		"provider", prov ? json_string_value(json_object_get(prov, "name")) : NULL,
		"region", ci->region,
		"currency", ci->currency, "vm", vm < 0 ? json_null() : json_integer(vm),
		"groups", initial_groups(c, prov ? m : NULL, prov),
		"hours", ci->hours > 0 ? ci->hours : 730,
		"vm_price", calc_optional_price(ci->vm_hour), "disk_price", calc_optional_price(ci->disk_month),
		"iops", ci->iops > 0 ? json_real(ci->iops) : json_null(),
		"bs", (json_int_t)(ci->io_bytes ? ci->io_bytes : 4096));
}

/* Every catalog with VMs is a provider of the page, in load order. */
json_t *calc_config_data(struct pool *pl, const struct catalog *c,
			 const struct calc_config_init *ci)
{
	json_t *provs = json_array();

	for (size_t i = 0; provs && i < c->nnames && !pl->oom; i++) {
		struct prov pv = {.name = c->names[i]};

		if (prov_vms(c, &pv) || prov_choices(c, &pv, ci->config))
			pl->oom = true;
		else if (pv.nvms)
			calc_push(pl, provs, prov_json(pl, c, &pv));
		prov_release(&pv);
	}
	return json_pack("{s:i, s:i, s:o, s:o}", "max_lines", COST_MAX_LINES, "max_groups",
			 MODEL_MAX_GROUPS, "initial", config_initial(c, ci, provs), "providers",
			 provs);
}
