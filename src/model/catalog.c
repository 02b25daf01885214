/*
 * Catalog loading: every entry is read through a table of its fields, so an unknown or mistyped
 * field is refused with its file, entry and name instead of being silently ignored.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/json_in.h"
#include "model/catalog.h"
#include "model/catalog_int.h"
#include "model/embedded.h"
#include "model/prices.h"
#include "util/err.h"


static const struct field disk_fields[] = {
	FD(cat_disk, name, F_STR), FD(cat_disk, family, F_STR), FD(cat_disk, account, F_STR),
	FD(cat_disk, source, F_STR), FD(cat_disk, date, F_STR), FD(cat_disk, note, F_STR),
	FD(cat_disk, latency_source, F_STR), FD(cat_disk, aliases, F_ARR),
	{.key = "iops_source", .type = F_TEXT}, {.key = "mbps_source", .type = F_TEXT},
	{.key = "transfer_source", .type = F_TEXT},
	FD(cat_disk, cache_rule, F_STR), FD(cat_disk, default_cache, F_STR),
	FD(cat_disk, premium, F_BOOL), FD(cat_disk, cache, F_BOOL), FD(cat_disk, rule, F_BOOL),
	FD(cat_disk, provisioned, F_BOOL), FD(cat_disk, os, F_BOOL),
	FD(cat_disk, baseline_per_vm, F_BOOL), FD(cat_disk, throughput_follows_iops, F_BOOL),
	FD(cat_disk, block_express, F_BOOL), FD(cat_disk, iops_by_size, F_BOOL),
	FD(cat_disk, gib, F_NUM), FD(cat_disk, min_gib, F_NUM),
	FD(cat_disk, max_gib, F_NUM), FD(cat_disk, iops, F_NUM), FD(cat_disk, iops_per_gib, F_NUM),
	FD(cat_disk, write_iops_per_gib, F_NUM), FD(cat_disk, iops_free_gib, F_NUM),
	FD(cat_disk, iops_min, F_NUM), FD(cat_disk, iops_max, F_NUM),
	FD(cat_disk, iops_max_without_nitro, F_NUM), FD(cat_disk, mbps, F_MB),
	FD(cat_disk, mbps_per_gib, F_MB), FD(cat_disk, mbps_per_iops, F_MB),
	FD(cat_disk, mbps_min, F_MB), FD(cat_disk, mbps_max, F_MB),
	FD(cat_disk, mbps_min_per_iops, F_MB),
	FD(cat_disk, burst_iops, F_NUM), FD(cat_disk, burst_mbps, F_MB),
	FD(cat_disk, burst_seconds, F_NUM), FD(cat_disk, burst_bucket_ios, F_NUM),
	FD(cat_disk, burst_mbps_per_gib, F_MB), FD(cat_disk, burst_mbps_max, F_MB),
	FD(cat_disk, burst_bucket_mb_per_gib, F_MB), FD(cat_disk, ondemand_iops, F_NUM),
	FD(cat_disk, ondemand_mbps, F_MB), FD(cat_disk, io_unit_kib, F_NUM),
	FD(cat_disk, iops_per_mbps, F_NUM), FD(cat_disk, ops_unit_kib, F_NUM),
	FD(cat_disk, ops_per_io_max, F_NUM), FD(cat_disk, ops_per_hour_max, F_NUM),
	{.key = "ops_source", .type = F_TEXT},
	FD(cat_disk, latency_read_ms, F_NUM), FD(cat_disk, latency_write_ms, F_NUM),
	FD(cat_disk, latency_cached_ms, F_NUM), FD(cat_disk, transfer_mbps, F_MB),
	FD(cat_disk, transfer_cached_mbps, F_MB), {.key = "mbps_steps", .type = F_MBARR},
	{.key = "mbps_by_iops", .type = F_MBARR}, {.key = "units", .type = F_SKIP}, {.key = NULL},
};

static const struct field vm_fields[] = {
	FD(cat_vm, name, F_STR), FD(cat_vm, source, F_STR), FD(cat_vm, date, F_STR),
	FD(cat_vm, note, F_STR), FD(cat_vm, uncached_source, F_STR),
	FD(cat_vm, local_latency_source, F_STR), FD(cat_vm, aliases, F_ARR),
	FD(cat_vm, controller, F_STR), FD(cat_vm, controllers, F_ARR),
	FD(cat_vm, vcpus, F_UINT), FD(cat_vm, max_disks, F_UINT), FD(cat_vm, mem_gib, F_NUM),
	FD(cat_vm, local_source, F_STR), FD(cat_vm, premium, F_BOOL), FD(cat_vm, cache, F_BOOL),
	FD(cat_vm, local_shares_cache, F_BOOL), FD(cat_vm, nitro, F_BOOL),
	FD(cat_vm, block_express, F_BOOL),
	FD(cat_vm, uncached_iops, F_NUM), FD(cat_vm, uncached_mbps, F_MB),
	FD(cat_vm, burst_iops, F_NUM), FD(cat_vm, burst_mbps, F_MB), FD(cat_vm, burst_seconds, F_NUM),
	FD(cat_vm, cached_iops, F_NUM), FD(cat_vm, cached_mbps, F_MB), FD(cat_vm, cache_gib, F_NUM),
	FD(cat_vm, local_iops, F_NUM), FD(cat_vm, local_mbps, F_MB),
	FD(cat_vm, local_write_mbps, F_MB), FD(cat_vm, local_gib, F_NUM),
	FD(cat_vm, local_latency_ms, F_NUM), FD(cat_vm, io_unit_kib, F_NUM),
	{.key = "caps_by_family", .type = F_SKIP}, {.key = "max_disks_by_type", .type = F_SKIP},
	{.key = "max_gib_by_type", .type = F_SKIP}, {.key = "max_gib_source", .type = F_TEXT},
	{.key = "max_disks_source", .type = F_TEXT},
	{.key = "units", .type = F_SKIP}, {.key = NULL},
};

const struct field catalog_fcaps_fields[] = {
	FD(cat_family_caps, family, F_STR), FD(cat_family_caps, iops, F_NUM),
	FD(cat_family_caps, write_iops, F_NUM), FD(cat_family_caps, mbps, F_MB),
	FD(cat_family_caps, write_mbps, F_MB), FD(cat_family_caps, controller, F_STR),
	FD(cat_family_caps, column, F_STR), FD(cat_family_caps, burst_iops, F_NUM),
	FD(cat_family_caps, burst_mbps, F_MB), {.key = "units", .type = F_SKIP}, {.key = NULL},
};

static const struct field account_fields[] = {
	FD(cat_account, name, F_STR), FD(cat_account, source, F_STR), FD(cat_account, date, F_STR),
	FD(cat_account, note, F_STR), FD(cat_account, iops, F_NUM), FD(cat_account, mbps, F_MB),
	{.key = "units", .type = F_SKIP}, {.key = NULL},
};

static const struct field price_fields[] = {
	FD(cat_price, catalog, F_STR), FD(cat_price, kind, F_STR), FD(cat_price, name, F_STR),
	FD(cat_price, tier, F_STR), FD(cat_price, redundancy, F_STR), FD(cat_price, region, F_STR),
	FD(cat_price, currency, F_STR), FD(cat_price, source, F_STR), FD(cat_price, date, F_STR),
	FD(cat_price, note, F_STR), FD(cat_price, per_hour, F_NUM), FD(cat_price, per_month, F_NUM),
	FD(cat_price, per_gib_month, F_NUM), FD(cat_price, per_iops_month, F_NUM),
	FD(cat_price, per_mbps_month, F_NUM), FD(cat_price, per_10k_transactions, F_NUM),
	FD(cat_price, per_gb_month, F_NUM), FD(cat_price, write_per_10k, F_NUM),
	FD(cat_price, read_per_10k, F_NUM), FD(cat_price, geo_per_gb, F_NUM),
	{.key = "per_iops_month_above", .type = F_CALLER},
	{.key = NULL},
};

/* "mbps_steps": [[GiB, MB/s], ...], throughput by size (gp2). */
static int read_steps(struct cat_disk *d, json_t *o, const char *file, const char *what,
		      char *err, size_t errlen)
{
	double scale = catalog_field_scale(o, "mbps_steps");
	json_t *s;
	size_t k;

	json_array_foreach(json_object_get(o, "mbps_steps"), k, s) {
		if (k >= 8 || !json_is_array(s) || json_array_size(s) != 2 ||
		    !json_is_number(json_array_get(s, 0)) || !json_is_number(json_array_get(s, 1)))
			return err_set(err, errlen, -EINVAL, "%s: %s: field 'mbps_steps': expected "
				       "up to 8 pairs [GiB, MB/s]", file, what);
		d->mbps_steps[k][0] = json_number_value(json_array_get(s, 0));
		d->mbps_steps[k][1] = json_number_value(json_array_get(s, 1)) * scale;
		d->nsteps = (unsigned)k + 1;
	}
	return 0;
}

/* "mbps_by_iops": [[from IOPS, MB/s per IOPS, MB/s at most], ...], ascending (io1, io2). */
static int read_tiers(struct cat_disk *d, json_t *o, const char *file, const char *what,
		      char *err, size_t errlen)
{
	double scale = catalog_field_scale(o, "mbps_by_iops");
	json_t *t;
	size_t k;

	json_array_foreach(json_object_get(o, "mbps_by_iops"), k, t) {
		bool ok = k < 4 && json_is_array(t) && json_array_size(t) == 3;

		for (size_t i = 0; ok && i < 3; i++)
			ok = json_is_number(json_array_get(t, i)) &&
			     json_number_value(json_array_get(t, i)) >= 0;
		if (ok && k)
			ok = json_number_value(json_array_get(t, 0)) > d->tiers[k - 1].from_iops;
		if (!ok)
			return err_set(err, errlen, -EINVAL, "%s: %s: field 'mbps_by_iops': "
				       "expected up to 4 rows [from IOPS, MB/s per IOPS, MB/s "
				       "at most], ascending", file, what);
		d->tiers[k] = (struct cat_iops_tier){
			.from_iops = json_number_value(json_array_get(t, 0)),
			.mbps_per_iops = json_number_value(json_array_get(t, 1)) * scale,
			.mbps_max = json_number_value(json_array_get(t, 2)) * scale};
		d->ntiers = (unsigned)k + 1;
	}
	return 0;
}

/* "per_iops_month_above": [[from IOPS, price per IOPS-month], ...], ascending, from > 0. */
static int read_price_steps(struct cat_price *p, json_t *o, const char *file, const char *what,
			    char *err, size_t errlen)
{
	json_t *t;
	size_t k;

	json_array_foreach(json_object_get(o, "per_iops_month_above"), k, t) {
		bool ok = k < CAT_PRICE_STEPS && json_is_array(t) && json_array_size(t) == 2;

		for (size_t i = 0; ok && i < 2; i++)
			ok = json_is_number(json_array_get(t, i)) &&
			     json_number_value(json_array_get(t, i)) >= 0;
		ok = ok && json_number_value(json_array_get(t, 0)) >
			   (k ? p->iops_above[k - 1].from : 0);
		if (!ok)
			return err_set(err, errlen, -EINVAL, "%s: %s: field "
				       "'per_iops_month_above': expected up to %d rows [from "
				       "IOPS, price per IOPS-month], the IOPS above 0 and "
				       "ascending", file, what, CAT_PRICE_STEPS);
		p->iops_above[k] = (struct cat_price_step){
			.from = json_number_value(json_array_get(t, 0)),
			.price = json_number_value(json_array_get(t, 1))};
		p->niops_above = (unsigned)k + 1;
	}
	if (json_object_get(o, "per_iops_month_above") && (!p->niops_above ||
							    !(p->per_iops_month > 0)))
		return err_set(err, errlen, -EINVAL,
			       "%s: %s: field 'per_iops_month_above' needs rows and a "
			       "per_iops_month (the price below the first step)", file, what);
	return 0;
}

/* A stored price file is input too: each price within its bound, as when it was downloaded. */
static int price_bounds(const struct cat_price *p, json_t *o, const char *file,
			const char *what, char *err, size_t errlen)
{
	char where[400];
	const char *key;
	json_t *v;
	int ret;

	json_object_foreach(o, key, v) {
		if (!json_is_number(v) || prices_bound(key) == INFINITY)
			continue;
		snprintf(where, sizeof(where), "%s: %s: field '%s'", file, what, key);
		if ((ret = prices_check(key, json_number_value(v), json_number_value(v), where,
					p->currency, err, errlen)))
			return ret;
	}
	for (unsigned k = 0; k < p->niops_above; k++) {
		snprintf(where, sizeof(where), "%s: %s: field 'per_iops_month_above'", file, what);
		if ((ret = prices_check("per_iops_month_above", p->iops_above[k].price,
					p->iops_above[k].price, where, p->currency, err, errlen)))
			return ret;
	}
	return 0;
}

static bool cache_word(const char *s)
{
	return !s || !strcmp(s, "none") || !strcmp(s, "readonly") || !strcmp(s, "readwrite");
}

/* The fields whose values are words: the host-cache rule and default. */
static int disk_words(struct cat_disk *d, const char *file, const char *what, char *err,
		      size_t errlen)
{
	if (d->cache_rule && strcmp(d->cache_rule, "current") && strcmp(d->cache_rule, "2015"))
		return err_set(err, errlen, -EINVAL, "%s: %s: field 'cache_rule': must be "
			       "\"current\" or \"2015\"", file, what);
	if (!cache_word(d->default_cache))
		return err_set(err, errlen, -EINVAL, "%s: %s: field 'default_cache': must be none, "
			       "readonly or readwrite", file, what);
	d->hits_count_against_disk = d->cache_rule && !strcmp(d->cache_rule, "2015");
	return 0;
}

static int load_disk(struct catalog *c, json_t *o, const char *cat, const char *prov,
		     const char *file, size_t i, char *err, size_t errlen)
{
	char what[96];
	struct cat_disk *d;
	int ret;

	catalog_entry_name(what, sizeof(what), "disks", i, o);
	if (!json_is_object(o))
		return err_set(err, errlen, -EINVAL, "%s: %s: expected an object", file, what);
	if ((ret = catalog_grow((void **)&c->disks, c->ndisks, sizeof(*d))))
		return ret;
	d = &c->disks[c->ndisks];
	d->catalog = cat, d->provider = prov, d->file = file, d->json = o, d->layer = c->layer;
	if ((ret = catalog_read_fields(o, disk_fields, d, file, what, err, errlen)) ||
	    (ret = catalog_need(d->name, "name", file, what, err, errlen)) ||
	    (ret = catalog_need(d->source, "source", file, what, err, errlen)) ||
	    (ret = catalog_need(d->date, "date", file, what, err, errlen)) ||
	    (ret = read_steps(d, o, file, what, err, errlen)) ||
	    (ret = read_tiers(d, o, file, what, err, errlen)) ||
	    (ret = disk_words(d, file, what, err, errlen)))
		return ret;
	d->mbps_mib = catalog_field_mib(o, "mbps");
	if (!d->family)
		d->family = d->name;
	if (!d->rule && !d->os && d->gib <= 0)
		return err_set(err, errlen, -EINVAL,
			       "%s: %s: field 'gib': a fixed-size disk needs its size "
			       "(or \"rule\": true for per-GiB rules)", file, what);
	c->ndisks++;
	return 0;
}

/*
 * max_disks_by_type and max_gib_by_type: objects of disk type names (or "prefix*") and whole
 * counts of disks or GiB (0: the VM takes none), into at most n entries of out.
 */
static int load_type_max(struct cat_type_max *out, unsigned *nout, unsigned n, const char *field,
			 unsigned long long most, json_t *o, const char *file, const char *what,
			 char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	if (!o)
		return 0;
	if (!json_is_object(o) || json_object_size(o) > n)
		return err_set(err, errlen, -EINVAL, "%s: %s: %s: expected an object of at most %u "
			       "disk types and counts", file, what, field, n);
	json_object_foreach(o, key, v) {
		const char *star = strchr(key, '*');

		if (star && star[1])
			return err_set(err, errlen, -EINVAL,
				       "%s: %s: %s: %s: '*' may only end a key "
				       "(\"hyperdisk-*\": every type so named)", file, what, field,
				       key);
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    (unsigned long long)json_integer_value(v) > most)
			return err_set(err, errlen, -EINVAL, "%s: %s: %s: %s: expected a whole "
				       "number from 0 to %llu", file, what, field, key, most);
		out[*nout].type = key;
		out[(*nout)++].max = (unsigned)json_integer_value(v);
	}
	return 0;
}

bool catalog_controller_known(const char *s)
{
	return !strcmp(s, "scsi") || !strcmp(s, "nvme");
}

/*
 * "controllers" lists the disk controllers a size takes, "controller" the one a new VM gets,
 * and a caps_by_family row's "controller" one of them: each "scsi" or "nvme".
 */
static int vm_controllers(const struct cat_vm *v, const char *file, const char *what, char *err,
			  size_t errlen)
{
	json_t *e;
	size_t k;

	json_array_foreach((json_t *)v->controllers, k, e)
		if (!json_is_string(e) || !catalog_controller_known(json_string_value(e)))
			return err_set(err, errlen, -EINVAL, "%s: %s: field 'controllers': each "
				       "must be \"scsi\" or \"nvme\"", file, what);
	if (v->controller && (!catalog_controller_known(v->controller) ||
			      !catalog_vm_takes_controller(v, v->controller)))
		return err_set(err, errlen, -EINVAL, "%s: %s: field 'controller': must be \"scsi\" "
			       "or \"nvme\", one of its controllers", file, what);
	if (v->controllers && !v->controller)
		return err_set(err, errlen, -EINVAL, "%s: %s: field 'controllers' needs a "
			       "'controller' (the one a new VM gets)", file, what);
	for (unsigned i = 0; i < v->nfcaps; i++)
		if (v->fcaps[i].controller && (!v->controllers ||
		    !catalog_vm_takes_controller(v, v->fcaps[i].controller)))
			return err_set(err, errlen, -EINVAL, "%s: %s caps_by_family[%u]: field "
				       "'controller': must be one of the VM's 'controllers'", file,
				       what, i);
	return 0;
}

static int load_vm(struct catalog *c, json_t *o, const char *cat, const char *prov,
		   const char *file, size_t i, char *err, size_t errlen)
{
	char what[96], sub[128];
	struct cat_vm *v;
	json_t *fc, *e;
	size_t k;
	int ret;

	catalog_entry_name(what, sizeof(what), "vms", i, o);
	if (!json_is_object(o))
		return err_set(err, errlen, -EINVAL, "%s: %s: expected an object", file, what);
	if ((ret = catalog_grow((void **)&c->vms, c->nvms, sizeof(*v))))
		return ret;
	v = &c->vms[c->nvms];
	v->catalog = cat, v->provider = prov, v->file = file, v->json = o, v->layer = c->layer;
	if ((ret = catalog_read_fields(o, vm_fields, v, file, what, err, errlen)) ||
	    (ret = catalog_need(v->name, "name", file, what, err, errlen)) ||
	    (ret = catalog_need(v->source, "source", file, what, err, errlen)) ||
	    (ret = catalog_need(v->date, "date", file, what, err, errlen)))
		return ret;
	fc = json_object_get(o, "caps_by_family");
	json_array_foreach(fc, k, e) {
		snprintf(sub, sizeof(sub), "%s caps_by_family[%zu]", what, k);
		if (k >= 8 || !json_is_object(e))
			return err_set(err, errlen, -EINVAL,
				       "%s: %s: expected an object (at most 8)", file, sub);
		if ((ret = catalog_read_fields(e, catalog_fcaps_fields, &v->fcaps[k], file, sub,
					       err, errlen)) ||
		    (ret = catalog_need(v->fcaps[k].family, "family", file, sub, err, errlen)))
			return ret;
		v->fcaps[k].mib = catalog_field_mib(e, "mbps");
		v->nfcaps = (unsigned)k + 1;
	}
	if ((ret = vm_controllers(v, file, what, err, errlen)))
		return ret;
	if ((ret = load_type_max(v->type_max, &v->ntype_max, 8, "max_disks_by_type", 100000,
				 json_object_get(o, "max_disks_by_type"), file, what, err, errlen)) ||
	    (ret = load_type_max(v->gib_max, &v->ngib_max, 4, "max_gib_by_type", 1ull << 30,
				 json_object_get(o, "max_gib_by_type"), file, what, err, errlen)))
		return ret;
	v->uncached_mib = catalog_field_mib(o, "uncached_mbps");
	v->cached_mib = catalog_field_mib(o, "cached_mbps");
	v->local_mib = catalog_field_mib(o, "local_mbps");
	c->nvms++;
	return 0;
}

static int load_simple(struct catalog *c, json_t *o, const char *list, bool price,
		       const char *cat, const char *file, size_t i, char *err, size_t errlen)
{
	char what[96];
	int ret;

	catalog_entry_name(what, sizeof(what), list, i, o);
	if (!json_is_object(o))
		return err_set(err, errlen, -EINVAL, "%s: %s: expected an object", file, what);
	if (price) {
		struct cat_price *p;

		if ((ret = catalog_grow((void **)&c->prices, c->nprices, sizeof(*p))))
			return ret;
		p = &c->prices[c->nprices];
		p->file = file, p->json = o, p->layer = c->layer;
		if ((ret = catalog_read_fields(o, price_fields, p, file, what, err, errlen)) ||
		    (ret = catalog_need(p->kind, "kind", file, what, err, errlen)) ||
		    (ret = catalog_need(p->name, "name", file, what, err, errlen)) ||
		    (ret = catalog_need(p->source, "source", file, what, err, errlen)) ||
		    (ret = catalog_need(p->date, "date", file, what, err, errlen)) ||
		    (ret = read_price_steps(p, o, file, what, err, errlen)) ||
		    (ret = price_bounds(p, o, file, what, err, errlen)))
			return ret;
		c->nprices++;
		return 0;
	}
	struct cat_account *a;

	if ((ret = catalog_grow((void **)&c->accounts, c->naccounts, sizeof(*a))))
		return ret;
	a = &c->accounts[c->naccounts];
	a->catalog = cat, a->file = file, a->json = o, a->layer = c->layer;
	if ((ret = catalog_read_fields(o, account_fields, a, file, what, err, errlen)) ||
	    (ret = catalog_need(a->name, "name", file, what, err, errlen)) ||
	    (ret = catalog_need(a->source, "source", file, what, err, errlen)) ||
	    (ret = catalog_need(a->date, "date", file, what, err, errlen)))
		return ret;
	c->naccounts++;
	return 0;
}

static int load_json(struct catalog *c, json_t *root, const char *file, char *err, size_t errlen)
{
	static const char *const top[] = {"catalog", "provider", "title", "disks", "vms",
					  "accounts", "prices", "series", NULL};
	const char *key, *cat, *prov;
	json_t *v, *e;
	size_t i;
	int ret;

	if (!json_is_object(root))
		return err_set(err, errlen, -EINVAL, "%s: expected a JSON object", file);
	json_object_foreach(root, key, v) {
		for (i = 0; top[i] && strcmp(top[i], key); i++)
			;
		if (!top[i])
			return err_set(err, errlen, -EINVAL, "%s: unknown top-level field '%s' "
				       "(expected catalog, provider, title, disks, vms, "
				       "accounts, prices, series)", file, key);
		if (i >= 3 && !json_is_array(v))
			return err_set(err, errlen, -EINVAL, "%s: field '%s': expected an array",
				       file, key);
	}
	cat = json_string_value(json_object_get(root, "catalog"));
	prov = json_string_value(json_object_get(root, "provider"));
	if (!cat || !*cat)
		return err_set(err, errlen, -EINVAL,
			       "%s: missing field 'catalog' (the catalog's name, e.g. "
			       "\"azure-2015\")", file);
	if (!prov)
		prov = cat;
	json_array_foreach(json_object_get(root, "disks"), i, e)
		if ((ret = load_disk(c, e, cat, prov, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "vms"), i, e)
		if ((ret = load_vm(c, e, cat, prov, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "accounts"), i, e)
		if ((ret = load_simple(c, e, "accounts", false, cat, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "prices"), i, e)
		if ((ret = load_simple(c, e, "prices", true, cat, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "series"), i, e)
		if ((ret = catalog_load_series(c, e, cat, file, i, err, errlen)))
			return ret;
	if (!catalog_has(c, cat)) {
		char **n = realloc(c->names, (c->nnames + 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->names = n;
		c->names[c->nnames++] = (char *)cat;
	}
	return 0;
}

static int keep_root(struct catalog *c, json_t *root)
{
	void **r = realloc(c->roots, (c->nroots + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	c->roots = r;
	c->roots[c->nroots++] = root;
	return 0;
}

/* The text between the first pair of single quotes after `after` in s, into out. */
static bool quoted(const char *s, const char *after, char *out, size_t len)
{
	const char *a = strstr(s, after), *b;

	if (!a || !(a = strchr(a + strlen(after), '\'')) ||
	    !(b = strchr(a + 1, '\'')) || (size_t)(b - a - 1) >= len)
		return false;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return true;
}

/*
 * jansson keeps no positions for values, so a field error ("NAME: disks[0] 'P30': unknown field
 * 'iosp'") is located in the text: the entry's name, then the field's key after it. The message
 * becomes "NAME:LINE: ...". Left as it is when the text does not say.
 */
static void add_line(const char *name, const char *text, char *err, size_t errlen)
{
	char entry[128], field[128], key[140], rest[512];
	const char *at = text, *p;
	size_t nlen = strlen(name);
	int line = 1;

	if (!text || strncmp(err, name, nlen) || err[nlen] != ':' || err[nlen + 1] != ' ')
		return;
	if (quoted(err + nlen, "", entry, sizeof(entry))) {
		snprintf(key, sizeof(key), "\"%s\"", entry);
		if ((p = strstr(at, key)))
			at = p;
	}
	if (quoted(err + nlen, "field ", field, sizeof(field))) {
		snprintf(key, sizeof(key), "\"%s\"", field);
		if ((p = strstr(at, key)))
			at = p;
	}
	if (at == text)
		return;
	for (p = text; p < at; p++)
		line += *p == '\n';
	snprintf(rest, sizeof(rest), "%s", err + nlen + 2);
	(void)err_set(err, errlen, -EINVAL, "%s:%d: %s", name, line, rest);
}

int catalog_load_text(struct catalog *c, const char *name, const char *text, char *err,
		      size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	int ret;

	if (!root)
		return err_set(err, errlen, -EINVAL, "%s:%d:%d: %s", name, je.line, je.column,
			       je.text);
	/* The root is kept even on error: entries already appended point into it. */
	if ((ret = keep_root(c, root))) {
		json_decref(root);
		return ret;
	}
	if ((ret = load_json(c, root, name, err, errlen)) == -EINVAL)
		add_line(name, text, err, errlen);
	return ret;
}

int catalog_load_file(struct catalog *c, const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_input_load(path, JSON_REJECT_DUPLICATES, &je);
	json_t *pathstr;
	int ret;

	if (!root) {
		if (je.line < 0)
			return err_set(err, errlen, -EINVAL, "%s: %s", path, je.text);
		return err_set(err, errlen, -EINVAL, "%s:%d:%d: %s", path, je.line, je.column,
			       je.text);
	}
	if ((ret = keep_root(c, root))) {
		json_decref(root);
		return ret;
	}
	/* Keep the path alive as long as the entries that name it. */
	pathstr = json_string(path);
	if (!pathstr)
		return -ENOMEM;
	if ((ret = keep_root(c, pathstr))) {
		json_decref(pathstr);
		return ret;
	}
	if ((ret = load_json(c, root, json_string_value(pathstr), err, errlen)) == -EINVAL) {
		FILE *f = fopen(path, "r");
		char *text = NULL;
		size_t len = 0;
		if (f && getdelim(&text, &len, '\0', f) > 0)
			add_line(path, text, err, errlen);
		free(text);
		if (f)
			fclose(f);
	}
	return ret;
}

int catalog_load_builtin_files(struct catalog *c, char *err, size_t errlen)
{
	/* Current catalogs first, so an unqualified name finds today's entry. */
	static const char *const order[] = {"azure.json", "aws.json", "gcp.json",
					    "azure-2015.json", NULL};
	const struct embedded_file *f;
	int ret;

	for (size_t i = 0; order[i]; i++)
		for (f = embedded_files; f->name; f++)
			if (!strcmp(f->name, order[i]) &&
			    (ret = catalog_load_text(c, f->name, f->data, err, errlen)))
				return ret;
	for (f = embedded_files; f->name; f++) {
		bool listed = false;

		for (size_t i = 0; order[i]; i++)
			listed |= !strcmp(order[i], f->name);
		if (!listed && (ret = catalog_load_text(c, f->name, f->data, err, errlen)))
			return ret;
	}
	return 0;
}

int catalog_load_builtin(struct catalog *c, char *err, size_t errlen)
{
	int ret = catalog_load_builtin_files(c, err, errlen);

	if (!ret)
		catalog_finish(c);
	return ret;
}

const char *catalog_layer_name(enum cat_layer l)
{
	static const char *const names[] = {"built-in", "installed", "user", "--catalog"};

	return l <= CAT_FILE ? names[l] : "?";
}

void catalog_release(struct catalog *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nroots; i++)
		json_decref(c->roots[i]);
	free(c->roots);
	free(c->disks);
	free(c->vms);
	free(c->accounts);
	free(c->prices);
	for (size_t i = 0; i < c->nseries; i++)
		free(c->series[i].rows);
	free(c->series);
	free(c->names);
	free(c->conflicts);
	memset(c, 0, sizeof(*c));
}
