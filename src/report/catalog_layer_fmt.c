/*
 * The bottom of the catalog's outputs (catalog_fmt_int.h): the unit a field's name gives, and
 * what 'catalog list' and 'catalog show' print of prices and layers: each entry's prices
 * exactly as their list wrote them (fmt_decimal: 0.00099, not 0.0010), and the figures an
 * installed or user catalog gives otherwise than the catalog below it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "report/catalog_fmt_int.h"
#include "report/model_fmt.h"
#include "util/escape.h"
#include "util/jsonout.h"
#include "util/parse.h"

/*
 * The unit of one word of a field's name: "iops" IOPS, "mbps" MB/s or MiB/s... "hour" only
 * after "_per_" (ops_per_hour_max): a price's per_hour is a price, not hours.
 */
static const char *word_unit(const char *w, size_t n, bool mib, bool after_per)
{
	static const struct {
		const char *word, *unit, *mib_unit;
	} words[] = {
		{.word = "iops", .unit = "IOPS", .mib_unit = NULL},
		{.word = "mbps", .unit = "MB/s", .mib_unit = "MiB/s"},
		{.word = "mb", .unit = "MB", .mib_unit = "MiB"},
		{.word = "gib", .unit = "GiB", .mib_unit = NULL},
		{.word = "kib", .unit = "KiB", .mib_unit = NULL},
		{.word = "ms", .unit = "ms", .mib_unit = NULL},
		{.word = "seconds", .unit = "s", .mib_unit = NULL},
		{.word = "ios", .unit = "I/Os", .mib_unit = NULL},
		{.word = "vcpus", .unit = "vCPUs", .mib_unit = NULL},
		{.word = "disks", .unit = "disks", .mib_unit = NULL},
		{.word = "ops", .unit = "ops", .mib_unit = NULL},
		{.word = "io", .unit = "I/O", .mib_unit = NULL},
	};

	if (after_per && n == 4 && !strncmp(w, "hour", 4))
		return "hour";
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i].word) == n && !strncmp(words[i].word, w, n))
			return mib && words[i].mib_unit ? words[i].mib_unit : words[i].unit;
	return NULL;
}

/* The unit of the part of a name up to end: its last word, past a trailing _min or _max. */
static const char *part_unit(const char *key, size_t end, bool mib, bool after_per)
{
	size_t start;

	if (end > 4 && (!strncmp(key + end - 4, "_min", 4) || !strncmp(key + end - 4, "_max", 4)))
		end -= 4;
	for (start = end; start && key[start - 1] != '_'; start--)
		;
	return word_unit(key + start, end - start, mib, after_per);
}

/* "IOPS", "MB/s per GiB" ("iops_per_gib"), or "" when the name says no unit. */
const char *catalog_fmt_key_unit(const char *key, bool mib, char *buf, size_t len)
{
	const char *per = strstr(key, "_per_"), *without = strstr(key, "_without_");
	size_t end = per ? (size_t)(per - key) : without ? (size_t)(without - key) : strlen(key);
	const char *a = part_unit(key, end, mib, false);
	const char *b = per ? part_unit(per + 5, strlen(per + 5), mib, true) : NULL;

	if (a && per && b)
		snprintf(buf, len, "%s per %s", a, b);
	else
		snprintf(buf, len, "%s", per || !a ? "" : a);
	return buf;
}

const char *catalog_fmt_figure(const json_t *entry, const char *key, const json_t *v,
			       char *buf, size_t len)
{
	char num[48], unit[48];
	char *text;

	if (!v) {
		snprintf(buf, len, "not given");
	} else if (json_is_boolean(v)) {
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	} else if (json_is_number(v)) {
		catalog_fmt_key_unit(key, catalog_field_mib(entry, key), unit, sizeof(unit));
		snprintf(buf, len, "%s%s%s", fmt_decimal(json_number_value(v), 0, num, sizeof(num)),
			 *unit ? " " : "", unit);
	} else if (json_is_string(v)) {
		snprintf(buf, len, "\"%s\"", json_string_value(v));
	} else {
		text = jsonout_dumps(v, JSON_COMPACT);
		snprintf(buf, len, "%s", text ? text : "?");
		free(text);
	}
	return buf;
}

/* The figures of a price, in the order they are shown, with what each is per. */
static const struct {
	const char *key, *per;
	size_t off;
} price_figures[] = {
	{.key = "per_hour", .per = "per hour", .off = offsetof(struct cat_price, per_hour)},
	{.key = "per_month", .per = "per month", .off = offsetof(struct cat_price, per_month)},
	{.key = "per_gib_month", .per = "per GiB-month",
	 .off = offsetof(struct cat_price, per_gib_month)},
	{.key = "per_iops_month", .per = "per IOPS-month",
	 .off = offsetof(struct cat_price, per_iops_month)},
	{.key = "per_mbps_month", .per = "per MB/s-month",
	 .off = offsetof(struct cat_price, per_mbps_month)},
	{.key = "per_10k_transactions", .per = "per 10,000 transactions",
	 .off = offsetof(struct cat_price, per_10k_transactions)},
	{.key = "per_gb_month", .per = "per GB-month",
	 .off = offsetof(struct cat_price, per_gb_month)},
	{.key = "write_per_10k", .per = "per 10,000 writes",
	 .off = offsetof(struct cat_price, write_per_10k)},
	{.key = "read_per_10k", .per = "per 10,000 reads",
	 .off = offsetof(struct cat_price, read_per_10k)},
	{.key = "geo_per_gb", .per = "per GB geo-replicated",
	 .off = offsetof(struct cat_price, geo_per_gb)},
};

#define NFIGURES (sizeof(price_figures) / sizeof(price_figures[0]))

static double figure_of(const struct cat_price *p, size_t k)
{
	return *(const double *)((const char *)p + price_figures[k].off);
}

/* A price of the entry: its kind and name, and its catalog when the price names one. */
static bool price_of(const struct cat_price *p, const char *kind, const char *catalog,
		     const char *name)
{
	return !strcmp(p->kind, kind) && catalog_name_eq(p->name, name) &&
	       (!p->catalog || !strcmp(p->catalog, catalog));
}

const char *catalog_fmt_price_brief(const struct catalog *c, const char *kind,
				    const char *catalog, const char *name, char *buf, size_t len)
{
	size_t n = 0;

	snprintf(buf, len, "no price");
	for (size_t i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];

		if (!price_of(p, kind, catalog, name))
			continue;
		for (size_t k = 0; k < NFIGURES && n < len; k++) {
			char v[48];

			if (figure_of(p, k) <= 0)
				continue;
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s %s", n ? " + " : "",
					      fmt_decimal(figure_of(p, k), 0, v, sizeof(v)),
					      n ? "" : " ", n ? "" : p->currency ? p->currency : "",
					      price_figures[k].per);
			/* The IOPS steps, beside the price they lower. */
			if (price_figures[k].off != offsetof(struct cat_price, per_iops_month))
				continue;
			for (unsigned s = 0; n < len && s < p->niops_above; s++)
				n += (size_t)snprintf(buf + n, len - n, "%s%.0f", s ? ", " :
						      " (less above ", p->iops_above[s].from);
			if (n < len && p->niops_above)
				n += (size_t)snprintf(buf + n, len - n, " IOPS)");
		}
		if (n && n < len && p->region)
			snprintf(buf + n, len - n, ", %s", p->region);
		if (n)
			break;
	}
	return buf;
}

/* One row of a price's table: what it is per, its value as written, currency and region. */
static void price_row(FILE *f, const struct cat_price *p, const char *label, double value,
		      const char *cur)
{
	char v[48];

	fprintf(f, "  %-30s %12s  ", label, fmt_decimal(value, 0, v, sizeof(v)));
	escape_fputs(cur, f);
	fprintf(f, "%*s", (int)(15 - strlen(cur)), "");
	escape_fputs(p->region ? p->region : "any", f);
	fputc('\n', f);
}

void catalog_fmt_show_prices(FILE *f, const struct catalog *c, const char *kind,
			     const char *catalog, const char *name)
{
	bool any = false;

	for (size_t i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];
		int age = catalog_price_age_days(p->date, (long long)time(NULL));
		const char *cur = p->currency && strlen(p->currency) < 15 ? p->currency : "?";
		char a[96];

		if (!price_of(p, kind, catalog, name))
			continue;
		if (!any)
			fprintf(f, "\n  %-30s %12s  %-14s %s\n", "price (as written)", "value",
				"currency", "region");
		any = true;
		for (size_t k = 0; k < NFIGURES; k++) {
			if (figure_of(p, k) <= 0)
				continue;
			price_row(f, p, price_figures[k].per, figure_of(p, k), cur);
			/* The IOPS steps, under the price they lower. */
			for (unsigned s = 0; price_figures[k].off == offsetof(struct cat_price,
			     per_iops_month) && s < p->niops_above; s++) {
				char label[48];

				snprintf(label, sizeof(label), "  above %.0f IOPS", p->iops_above[s].from);
				price_row(f, p, label, p->iops_above[s].price, cur);
			}
		}
		fputs("    dated ", f);
		escape_fputs(model_fmt_price_age(p->date, age, catalog_price_stale(age), a,
						 sizeof(a)), f);
		fputs("; source: ", f);
		escape_fputs(p->source, f);
		fputc('\n', f);
	}
	if (!any)
		fprintf(f, "\n  no price in the catalog (cost and plan ask for one)\n");
}

json_t *catalog_fmt_entry_prices(const struct catalog *c, const char *kind, const char *catalog,
				const char *name)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < c->nprices; i++)
		if (price_of(&c->prices[i], kind, catalog, name) &&
		    json_array_append_new(a, json_deep_copy(c->prices[i].json))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* "aws:m6i.large", "price of aws:gp3 (us-east-1, USD)", "series gcp:n2". */
static const char *what_of(const struct cat_conflict *x, char *buf, size_t len)
{
	bool entry = !strcmp(x->kind, "vm") || !strcmp(x->kind, "disk");

	snprintf(buf, len, "%s%s%s%s%s", entry ? "" : x->kind, entry ? "" : " ",
		 x->catalog ? x->catalog : "", x->catalog ? ":" : "", x->name);
	return buf;
}

static void conflict_line(FILE *f, const struct cat_conflict *x, bool named)
{
	char w[160], was[128], is[128];

	catalog_fmt_figure(x->entry, x->field, x->was, was, sizeof(was));
	catalog_fmt_figure(x->entry, x->field, x->is, is, sizeof(is));
	fputs("  ", f);
	if (named) {
		escape_fputs(what_of(x, w, sizeof(w)), f);
		fputc(' ', f);
	}
	escape_fputs(x->field, f);
	fprintf(f, ": %s ", catalog_layer_name(x->below));
	escape_fputs(was, f);
	fprintf(f, ", %s ", catalog_layer_name(x->layer));
	escape_fputs(is, f);
	fputs(" (", f);
	escape_fputs(x->file, f);
	fputs(")\n", f);
}

static bool conflict_of(const struct cat_conflict *x, const char *kind, const char *catalog,
			const char *name)
{
	return !strcmp(x->kind, kind) && x->catalog && !strcmp(x->catalog, catalog) &&
	       catalog_name_eq(x->name, name);
}

void catalog_fmt_show_conflicts(FILE *f, const struct catalog *c, const char *kind,
				const char *catalog, const char *name)
{
	bool any = false;

	for (size_t i = 0; i < c->nconflicts; i++) {
		const struct cat_conflict *x = &c->conflicts[i];

		if (!conflict_of(x, kind, catalog, name))
			continue;
		if (!any)
			fprintf(f, "\nfigures this entry's layer gives otherwise than the one "
				"below it (this entry's are used):\n");
		any = true;
		conflict_line(f, x, false);
	}
}

void catalog_fmt_list_conflicts(FILE *f, const struct catalog *c, const char *only)
{
	for (int l = CAT_INSTALLED; l <= CAT_USER; l++) {
		bool any = false;

		for (size_t i = 0; i < c->nconflicts; i++) {
			const struct cat_conflict *x = &c->conflicts[i];

			if ((int)x->layer != l ||
			    (only && (!x->catalog || strcmp(x->catalog, only))))
				continue;
			if (!any)
				fprintf(f, "\nthe %s catalog gives these figures otherwise than "
					"the catalog below it; its own are used:\n",
					catalog_layer_name(l));
			any = true;
			conflict_line(f, x, true);
		}
	}
}

json_t *catalog_fmt_conflicts_json(const struct catalog *c, const char *kind,
				   const char *catalog, const char *name)
{
	json_t *a = NULL;

	for (size_t i = 0; i < c->nconflicts; i++) {
		const struct cat_conflict *x = &c->conflicts[i];
		char unit[48];

		if (!conflict_of(x, kind, catalog, name))
			continue;
		if (!a && !(a = json_array()))
			return NULL;
		catalog_fmt_key_unit(x->field, catalog_field_mib(x->entry, x->field), unit,
				     sizeof(unit));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:O?, s:s, s:O?, s:s}",
			"field", x->field, "unit", unit, "layer", catalog_layer_name(x->layer),
			"value", (json_t *)x->is, "below", catalog_layer_name(x->below),
			"below_value", (json_t *)x->was, "file", x->file));
	}
	return a;
}
