/*
 * Catalog name lookups: "NAME" or "CATALOG:NAME", compared without case and without a
 * "Standard_" prefix, aliases included; and the closest names for "did you mean" suggestions.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "model/catalog.h"
#include "util/suggest.h"

static const char *strip_std(const char *s)
{
	return strncasecmp(s, "Standard_", 9) ? s : s + 9;
}

bool catalog_name_eq(const char *a, const char *b)
{
	return a && b && !strcasecmp(strip_std(a), strip_std(b));
}

static bool matches(const char *name, void *aliases, const char *want)
{
	size_t i;
	json_t *a;

	if (catalog_name_eq(name, want))
		return true;
	json_array_foreach((json_t *)aliases, i, a)
		if (json_is_string(a) && catalog_name_eq(json_string_value(a), want))
			return true;
	return false;
}

/* Splits "azure-2015:DS2" into its catalog and name when the prefix is a known catalog. */
static const char *split_cat(const struct catalog *c, const char *name, char *cat, size_t len,
			     const char **catp)
{
	const char *colon = strchr(name, ':');

	if (colon && (size_t)(colon - name) < len) {
		memcpy(cat, name, (size_t)(colon - name));
		cat[colon - name] = 0;
		if (catalog_has(c, cat)) {
			*catp = cat;
			return colon + 1;
		}
	}
	return name;
}

const struct cat_family_caps *catalog_vm_family_caps(const struct cat_vm *vm, const char *family)
{
	return catalog_vm_column(vm, family, NULL);
}

/* Whether a row's family ("premium-v2|ultra": either, sharing one cap) names a family. */
static bool family_in(const char *list, const char *family)
{
	size_t n = strlen(family);

	for (const char *p = list; p;) {
		if (!strncasecmp(p, family, n) && (p[n] == '|' || !p[n]))
			return true;
		if ((p = strchr(p, '|')))
			p++;
	}
	return false;
}

const struct cat_family_caps *catalog_vm_column(const struct cat_vm *vm, const char *family,
						const char *controller)
{
	const struct cat_family_caps *best = NULL;
	int best_score = 0;

	if (!controller)
		controller = vm->controller;
	for (unsigned k = 0; k < vm->nfcaps && family; k++) {
		const struct cat_family_caps *r = &vm->fcaps[k];
		/* The family's own row beats "*"; a row of the controller beats one for any. */
		int score = family_in(r->family, family) ? 4 : !strcmp(r->family, "*") ? 2 : 0;

		if (r->controller && (!controller || strcasecmp(r->controller, controller)))
			continue;
		score += score && r->controller;
		if (score && score >= best_score)
			best = r, best_score = score;
	}
	return best;
}

bool catalog_vm_takes_controller(const struct cat_vm *vm, const char *controller)
{
	const json_t *a = vm->controllers;
	size_t n = json_array_size(a);

	for (size_t k = 0; k < n; k++)
		if (!strcasecmp(json_string_value(json_array_get(a, k)), controller))
			return true;
	return !a;
}

bool catalog_type_max_covers(const char *key, const char *type)
{
	size_t n = strlen(key);

	if (!type)
		return false;
	if (n && key[n - 1] == '*')
		return !strncasecmp(key, type, n - 1);
	return !strcasecmp(key, type);
}

unsigned catalog_vm_type_max(const struct cat_vm *vm, const char *type)
{
	unsigned most = UINT_MAX;

	for (unsigned k = 0; k < vm->ntype_max; k++)
		if (catalog_type_max_covers(vm->type_max[k].type, type) && vm->type_max[k].max < most)
			most = vm->type_max[k].max;
	return most;
}

bool catalog_has(const struct catalog *c, const char *catalog)
{
	for (size_t i = 0; i < c->nnames; i++)
		if (!strcmp(c->names[i], catalog))
			return true;
	return false;
}

const struct cat_vm *catalog_find_vm(const struct catalog *c, const char *catalog,
				     const char *name)
{
	char buf[64];

	name = split_cat(c, name, buf, sizeof(buf), &catalog);
	for (size_t i = 0; i < c->nvms; i++)
		if ((!catalog || !strcmp(catalog, c->vms[i].catalog)) &&
		    matches(c->vms[i].name, c->vms[i].aliases, name))
			return &c->vms[i];
	return NULL;
}

const struct cat_disk *catalog_find_disk(const struct catalog *c, const char *catalog,
					 const char *name)
{
	char buf[64];

	name = split_cat(c, name, buf, sizeof(buf), &catalog);
	for (size_t i = 0; i < c->ndisks; i++)
		if ((!catalog || !strcmp(catalog, c->disks[i].catalog)) &&
		    matches(c->disks[i].name, c->disks[i].aliases, name))
			return &c->disks[i];
	return NULL;
}

const struct cat_disk *catalog_find_family(const struct catalog *c, const char *catalog,
					   const char *family, double gib)
{
	const struct cat_disk *best = NULL;

	for (size_t i = 0; i < c->ndisks; i++) {
		const struct cat_disk *d = &c->disks[i];

		if ((catalog && strcmp(catalog, d->catalog)) || d->rule ||
		    strcasecmp(d->family, family) || d->gib < gib)
			continue;
		if (!best || d->gib < best->gib)
			best = d;
	}
	return best;
}

const struct cat_price *catalog_find_price(const struct catalog *c, const char *catalog,
					   const char *kind, const char *name, const char *region,
					   const char *currency)
{
	for (size_t i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];

		if (strcmp(p->kind, kind) || !catalog_name_eq(p->name, name))
			continue;
		if (catalog && p->catalog && strcmp(catalog, p->catalog))
			continue;
		if (region && p->region && strcasecmp(region, p->region))
			continue;
		if (currency && p->currency && strcasecmp(currency, p->currency))
			continue;
		return p;
	}
	return NULL;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + (long long)doe - 719468;
}

int catalog_price_age_days(const char *date, long long now)
{
	unsigned y, m = 1, d = 1;
	int n = 0;

	if (!date || !isdigit((unsigned char)date[0]))
		return -1;
	/* "YYYY-MM-DD", "YYYY-MM" or "YYYY", and nothing after it. */
	if (sscanf(date, "%4u%n-%2u%n-%2u%n", &y, &n, &m, &n, &d, &n) < 1 || date[n] ||
	    n < 4 || y < 1970 || m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	long long age = now / 86400 - days_from_civil(y, m, d);

	return age < 0 ? 0 : age > 1000000 ? 1000000 : (int)age;
}

bool catalog_price_stale(int age_days)
{
	return age_days < 0 || age_days > CATALOG_PRICE_STALE_DAYS;
}

void catalog_suggest(const struct catalog *c, const char *kind, const char *catalog,
		     const char *name, char *out, size_t outlen)
{
	bool vm = !strcmp(kind, "vm");
	size_t n = vm ? c->nvms : c->ndisks;
	struct suggest s;
	char buf[64];

	name = strip_std(split_cat(c, name, buf, sizeof(buf), &catalog));
	suggest_init(&s, name);
	for (size_t i = 0; i < n; i++) {
		const char *cand = vm ? c->vms[i].name : c->disks[i].name;
		const char *cat = vm ? c->vms[i].catalog : c->disks[i].catalog;

		if (!catalog || !strcmp(catalog, cat))
			suggest_add(&s, strip_std(cand), cand);
	}
	suggest_list(&s, NULL, out, outlen);
}
