/* The outputs of 'iorate catalog list' and 'catalog show' (catalog_fmt.h). */
#include "report/catalog_fmt.h"

#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "report/catalog_fmt_int.h"
#include "report/model_fmt.h"
#include "report/summary.h"
#include "util/escape.h"
#include "util/parse.h"

/* 0, or why the output could not be written: -EPIPE when the reader went away ('| head'). */
static int written(FILE *f)
{
	if (fflush(f))
		return errno ? -errno : -EIO;
	return ferror(f) ? -EIO : 0;
}

/* A rate in MB/s as its source wrote it: "240 MiB/s", "81.25 MB/s" (every digit it has). */
static const char *rate(double mbps, bool mib, char *buf, size_t len)
{
	char v[48];

	snprintf(buf, len, "%s %s", fmt_decimal(mib ? mbps / 1.048576 : mbps, 0, v, sizeof(v)),
		 mib ? "MiB/s" : "MB/s");
	return buf;
}

/* A count as written: "3600", "5416.67" (never rounded into another figure). */
static const char *num(double v, char *buf, size_t len)
{
	return fmt_decimal(v, 0, buf, len);
}

/*
 * A VM's caps: uncached ones, or (GCP) one pair per disk type, or both (Azure's columns for
 * some disk types or controllers), or none published.
 */
static void vm_caps_text(FILE *f, const struct cat_vm *v)
{
	char r[64], n[48];
	bool unc = v->uncached_iops > 0 || v->uncached_mbps > 0;

	if (unc) {
		fprintf(f, "uncached");
		if (v->uncached_iops > 0)
			fprintf(f, " %s IOPS", num(v->uncached_iops, n, sizeof(n)));
		if (v->uncached_mbps > 0)
			fprintf(f, " %s", rate(v->uncached_mbps, v->uncached_mib, r, sizeof(r)));
	}
	if (v->nfcaps) {
		fprintf(f, "%sby disk type:", unc ? "; " : "");
		for (unsigned k = 0; k < v->nfcaps; k++) {
			fprintf(f, "%s ", k ? ";" : "");
			escape_fputs(v->fcaps[k].family, f);
			if (v->fcaps[k].controller) {
				fputc(' ', f);
				escape_fputs(v->fcaps[k].controller, f);
			}
			fprintf(f, " %s IOPS %s", num(v->fcaps[k].iops, n, sizeof(n)),
				rate(v->fcaps[k].mbps, v->fcaps[k].mib, r, sizeof(r)));
		}
		if (v->series) {
			fprintf(f, " (the ");
			escape_fputs(v->series, f);
			fprintf(f, " series' rules)");
		}
	} else if (!unc) {
		fprintf(f, "no published VM limit");
	}
}

/* The VM sizes of one catalog, one line each, with the first price found. */
static void list_vms(FILE *f, const struct catalog *c, const char *cat)
{
	char n[128], d[128], p[192];

	fprintf(f, "  VM sizes:\n");
	for (size_t i = 0; i < c->nvms; i++) {
		const struct cat_vm *v = &c->vms[i];

		if (strcmp(v->catalog, cat))
			continue;
		fprintf(f, "    %-14s %3u vCPU ", escape_buf(v->name, n, sizeof(n)), v->vcpus);
		/* A data-disk maximum the catalog does not know is not a maximum of 0. */
		if (v->max_disks)
			fprintf(f, "%4u disks  ", v->max_disks);
		else
			fprintf(f, "   ? disks  ");
		vm_caps_text(f, v);
		fprintf(f, "  (%s)  ", escape_buf(v->date, d, sizeof(d)));
		escape_fputs(catalog_fmt_price_brief(c, "vm", cat, v->name, p, sizeof(p)), f);
		fputc('\n', f);
	}
}

/* Its disk types: a fixed size's caps, or what kind of rule; then the first price found. */
static void list_disks(FILE *f, const struct catalog *c, const char *cat)
{
	char n[128], d[128], r[64], g[48], o[48], p[192];

	fprintf(f, "  disk types:\n");
	for (size_t i = 0; i < c->ndisks; i++) {
		const struct cat_disk *k = &c->disks[i];

		if (strcmp(k->catalog, cat))
			continue;
		escape_buf(k->name, n, sizeof(n));
		escape_buf(k->date, d, sizeof(d));
		if (k->rule)
			fprintf(f, "    %-14s per-GiB rule (%s%s)  (%s)  ", n,
				k->provisioned ? "provisioned" : "by size",
				k->baseline_per_vm ? ", shared per VM" : "", d);
		else if (k->os)
			fprintf(f, "    %-14s OS disk: %7s IOPS %s  (%s)  ", n,
				num(k->iops, o, sizeof(o)),
				rate(k->mbps, k->mbps_mib, r, sizeof(r)), d);
		else
			fprintf(f, "    %-14s %6s GiB %7s IOPS %s  (%s)  ", n,
				num(k->gib, g, sizeof(g)), num(k->iops, o, sizeof(o)),
				rate(k->mbps, k->mbps_mib, r, sizeof(r)), d);
		escape_fputs(k->os ? "comes with the VM" :
			     catalog_fmt_price_brief(c, "disk", cat, k->name, p, sizeof(p)), f);
		fputc('\n', f);
	}
}

static void list_entries(FILE *f, const struct catalog *c, const char *cat)
{
	char n[128], o[48], d[128];

	list_vms(f, c, cat);
	list_disks(f, c, cat);
	for (size_t i = 0; i < c->naccounts; i++)
		if (!strcmp(c->accounts[i].catalog, cat))
			fprintf(f, "  account %s: %s IOPS  (%s)\n",
				escape_buf(c->accounts[i].name, n, sizeof(n)),
				num(c->accounts[i].iops, o, sizeof(o)),
				escape_buf(c->accounts[i].date, d, sizeof(d)));
}

int catalog_fmt_list_text(FILE *f, const struct catalog_list_report *l)
{
	const struct catalog *c = l->catalog;
	char n[128];

	for (size_t k = 0; k < c->nnames; k++) {
		const char *cat = c->names[k];
		unsigned nv = 0, nd = 0;

		if (l->only && strcmp(l->only, cat))
			continue;
		for (size_t i = 0; i < c->nvms; i++)
			nv += !strcmp(c->vms[i].catalog, cat);
		for (size_t i = 0; i < c->ndisks; i++)
			nd += !strcmp(c->disks[i].catalog, cat);
		if (!nv && !nd)
			continue; /* the price list */
		fprintf(f, "%s: %u VM sizes, %u disk types\n", escape_buf(cat, n, sizeof(n)), nv, nd);
		if (l->only)
			list_entries(f, c, cat);
	}
	if (!l->only) {
		fprintf(f, "prices: %zu entries ('iorate catalog list CATALOG' for details)\n",
			c->nprices);
		fputs("layers: built-in; installed: ", f);
		escape_fputs(l->installed ? l->installed : "none", f);
		fputs("; user: ", f);
		escape_fputs(l->user ? l->user : "none", f);
		fputs(" (each replaces entries of the ones before it; --catalog files come "
		      "first)\n", f);
	}
	catalog_fmt_list_conflicts(f, c, l->only);
	return written(f);
}

/* {kind, catalog, name, source, date, layer, file[, differs]}: one entry of the list. */
static json_t *list_item(const struct catalog *c, const char *kind, const char *cat,
			 const char *name, const char *source, const char *date,
			 enum cat_layer layer, const char *file)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "kind", kind, "catalog", cat,
			      "name", name, "source", source, "date", date, "layer",
			      catalog_layer_name(layer), "file", file ? file : "");
	json_t *d = catalog_fmt_conflicts_json(c, kind, cat, name);

	if (o && d)
		json_object_set_new(o, "differs", d);
	else
		json_decref(d);
	return o;
}

int catalog_fmt_list_json(FILE *f, const struct catalog_list_report *l)
{
	const struct catalog *c = l->catalog;
	json_t *a = json_array();
	int r;

	for (size_t i = 0; a && i < c->nvms; i++) {
		const struct cat_vm *v = &c->vms[i];

		if (!l->only || !strcmp(l->only, v->catalog))
			json_array_append_new(a, list_item(c, "vm", v->catalog, v->name, v->source,
							   v->date, v->layer, v->file));
	}
	for (size_t i = 0; a && i < c->ndisks; i++) {
		const struct cat_disk *d = &c->disks[i];

		if (!l->only || !strcmp(l->only, d->catalog))
			json_array_append_new(a, list_item(c, "disk", d->catalog, d->name,
							   d->source, d->date, d->layer, d->file));
	}
	r = report_json_dump(f, a);
	json_decref(a);
	return r;
}

/* The entry as written in its file (of the layer it comes from). */
static json_t *show_entry(const struct catalog_show_report *s, const char **cat)
{
	*cat = s->vm ? s->vm->catalog : s->disk ? s->disk->catalog : NULL;
	return (json_t *)(s->vm ? s->vm->json : s->disk ? s->disk->json : NULL);
}

int catalog_fmt_show_json(FILE *f, const struct catalog_show_report *s)
{
	const char *cat, *kind = s->vm ? "vm" : "disk";
	const char *name = s->vm ? s->vm->name : s->disk ? s->disk->name : "";
	enum cat_layer layer = s->vm ? s->vm->layer : s->disk ? s->disk->layer : CAT_BUILTIN;
	json_t *e = show_entry(s, &cat), *copy, *d;
	int r;

	if (!e)
		return -ENOENT;
	if (!(copy = json_deep_copy(e)))
		return -ENOMEM;
	json_object_set_new(copy, "catalog", json_string(cat));
	/* Where it comes from, what a lower layer gave otherwise, and what it costs. */
	json_object_set_new(copy, "layer", json_string(catalog_layer_name(layer)));
	if ((d = catalog_fmt_conflicts_json(s->catalog, kind, cat, name)))
		json_object_set_new(copy, "differs", d);
	if (!(s->disk && s->disk->os))
		json_object_set_new(copy, "prices", catalog_fmt_entry_prices(s->catalog, kind, cat,
									   name));
	r = report_json_dump(f, copy);
	json_decref(copy);
	return r;
}

/*
 * The text listing: fields that say what the entry is come first ("name: value"), then one
 * row per figure with its unit and source. Units follow the field's name (docs/catalog.md):
 * *_iops IOPS, *_mbps MB/s (MiB/s in an entry written so), *_gib GiB, *_ms ms, ...
 */
struct show {
	FILE *f;
	json_t *e;
	const char *src_keys[8];    /* "source", then each "<prefix>_source" of the entry */
	unsigned nsrc;
};

/*
 * A field's own source, "<prefix>_source" (latency_read_ms: latency_source; max_disks:
 * max_disks_source), else the entry's.
 */
static unsigned field_source(const struct show *s, const char *key)
{
	unsigned best = 1;
	size_t best_len = 0;

	for (unsigned i = 1; i < s->nsrc; i++) {
		size_t n = strlen(s->src_keys[i]) - strlen("_source");

		if (n > best_len && !strncmp(key, s->src_keys[i], n) &&
		    (key[n] == '_' || !key[n])) {
			best = i + 1;
			best_len = n;
		}
	}
	return best;
}

static bool is_source(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "source") || (n > 7 && !strcmp(key + n - 7, "_source"));
}

static void say(FILE *f, const char *label, const char *text)
{
	fprintf(f, "%-12s", label);
	escape_fputs(text, f);
	fputc('\n', f);
}

/* What the entry is and where it comes from: every string field, its aliases, its sources. */
static void show_header(struct show *s, const char *kind, const char *cat)
{
	const char *key;
	json_t *v;

	escape_fputs(json_string_value(json_object_get(s->e, "name")), s->f);
	fprintf(s->f, ", a %s of catalog ", kind);
	escape_fputs(cat, s->f);
	fputc('\n', s->f);
	say(s->f, "date:", json_string_value(json_object_get(s->e, "date")));
	json_object_foreach(s->e, key, v) {
		char label[64];

		if (!json_is_string(v) || is_source(key) || !strcmp(key, "name") ||
		    !strcmp(key, "date") || !strcmp(key, "note") || !strcmp(key, "units"))
			continue;
		snprintf(label, sizeof(label), "%s:", key);
		say(s->f, label, json_string_value(v));
	}
	json_t *aliases = json_object_get(s->e, "aliases");
	for (size_t i = 0; i < json_array_size(aliases); i++) {
		fputs(i ? ", " : "aliases:    ", s->f);
		escape_fputs(json_string_value(json_array_get(aliases, i)), s->f);
		fputs(i + 1 == json_array_size(aliases) ? "\n" : "", s->f);
	}
	for (unsigned i = 0; i < s->nsrc; i++) {
		char label[32];

		snprintf(label, sizeof(label), "source [%u]:", i + 1);
		say(s->f, label, json_string_value(json_object_get(s->e, s->src_keys[i])));
	}
	if (json_is_string(json_object_get(s->e, "note")))
		say(s->f, "note:", json_string_value(json_object_get(s->e, "note")));
}

/* One figure: its name, value, unit and the number of its source. */
static void show_row(FILE *f, const char *name, json_t *v, const char *unit, unsigned src)
{
	char val[48], n[64];

	if (json_is_boolean(v))
		snprintf(val, sizeof(val), "%s", json_is_true(v) ? "yes" : "no");
	else if (json_is_integer(v))
		snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
	else
		fmt_figure(json_number_value(v), val, sizeof(val));
	fprintf(f, "  %-30s %12s  %-14s [%u]\n", escape_buf(name, n, sizeof(n)), val, unit, src);
}

/* The figures of one object (the entry, or one of its caps_by_family), names prefixed. */
static void show_figures(struct show *s, json_t *o, const char *prefix)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		char name[96], unit[32];

		if (!json_is_number(v) && !json_is_boolean(v))
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, key);
		/* A flag has no unit, whatever its name ends with. */
		show_row(s->f, name, v, json_is_boolean(v) ? "" :
			 catalog_fmt_key_unit(key, catalog_field_mib(o, key), unit, sizeof(unit)),
			 field_source(s, key));
	}
}

/*
 * Figures in arrays: a size-stepped MB/s ([[GiB, MB/s]...]), throughput by provisioned IOPS
 * ([[from IOPS, MB/s per IOPS, at most]...]), a GCP VM's limits by disk type and its caps per
 * family.
 */
static void show_arrays(struct show *s)
{
	json_t *steps = json_object_get(s->e, "mbps_steps"), *fam, *pair, *n;
	const char *type;
	size_t i;

	json_array_foreach(steps, i, pair) {
		char name[64];

		snprintf(name, sizeof(name), "mbps_steps from %.15g GiB",
			 json_number_value(json_array_get(pair, 0)));
		show_row(s->f, name, json_array_get(pair, 1),
			 catalog_field_mib(s->e, "mbps_steps") ? "MiB/s" : "MB/s",
			 field_source(s, "mbps_steps"));
	}
	json_array_foreach(json_object_get(s->e, "mbps_by_iops"), i, pair) {
		bool mib = catalog_field_mib(s->e, "mbps_by_iops");
		char name[64];

		snprintf(name, sizeof(name), "mbps_by_iops from %.15g IOPS",
			 json_number_value(json_array_get(pair, 0)));
		show_row(s->f, name, json_array_get(pair, 1), mib ? "MiB/s per IOPS" : "MB/s per IOPS",
			 field_source(s, "mbps_by_iops"));
		snprintf(name, sizeof(name), "  up to");
		show_row(s->f, name, json_array_get(pair, 2), mib ? "MiB/s" : "MB/s",
			 field_source(s, "mbps_by_iops"));
	}
	json_object_foreach(json_object_get(s->e, "max_disks_by_type"), type, n) {
		char name[96];

		snprintf(name, sizeof(name), "max_disks %s", type);
		show_row(s->f, name, n, "disks", field_source(s, "max_disks_by_type"));
	}
	json_object_foreach(json_object_get(s->e, "max_gib_by_type"), type, n) {
		char name[96];

		snprintf(name, sizeof(name), "max_gib %s", type);
		show_row(s->f, name, n, "GiB", field_source(s, "max_gib_by_type"));
	}
	json_array_foreach(json_object_get(s->e, "caps_by_family"), i, fam) {
		char prefix[64];

		const char *ctl = json_string_value(json_object_get(fam, "controller"));

		snprintf(prefix, sizeof(prefix), "%s %s%s",
			 json_string_value(json_object_get(fam, "family")) ?: "?", ctl ? ctl : "",
			 ctl ? " " : "");
		show_figures(s, fam, prefix);
	}
}

/* A VM whose caps come from its series' rules: where they come from... */
static void series_header(FILE *f, const struct cat_vm *v, unsigned src)
{
	char label[32];

	say(f, "series:", v->series);
	snprintf(label, sizeof(label), "source [%u]:", src);
	say(f, label, v->nfcaps ? v->fcaps[0].source : "");
}

/* ...and the caps themselves, for its vCPU count. */
static void series_rows(FILE *f, const struct cat_vm *v, unsigned src)
{
	for (unsigned k = 0; k < v->nfcaps; k++) {
		const struct cat_family_caps *c = &v->fcaps[k];
		const char *mu = c->mib ? "MiB/s" : "MB/s";
		double scale = c->mib ? 1.048576 : 1;
		char name[96];
		json_t *x;

		snprintf(name, sizeof(name), "%s iops", c->family);
		show_row(f, name, x = json_real(c->iops), "IOPS", src);
		json_decref(x);
		if (c->write_iops > 0) {
			snprintf(name, sizeof(name), "%s write_iops", c->family);
			show_row(f, name, x = json_real(c->write_iops), "IOPS", src);
			json_decref(x);
		}
		snprintf(name, sizeof(name), "%s mbps", c->family);
		show_row(f, name, x = json_real(c->mbps / scale), mu, src);
		json_decref(x);
		if (c->write_mbps > 0) {
			snprintf(name, sizeof(name), "%s write_mbps", c->family);
			show_row(f, name, x = json_real(c->write_mbps / scale), mu, src);
			json_decref(x);
		}
	}
}

int catalog_fmt_show_text(FILE *f, const struct catalog_show_report *r)
{
	const char *cat, *key, *kind = r->vm ? "vm" : "disk";
	const char *name = r->vm ? r->vm->name : r->disk->name;
	const char *file = r->vm ? r->vm->file : r->disk->file;
	enum cat_layer layer = r->vm ? r->vm->layer : r->disk->layer;
	struct show s = {.f = f, .src_keys = {"source"}, .nsrc = 1};
	json_t *v;

	if (!(s.e = show_entry(r, &cat)))
		return -ENOENT;
	json_object_foreach(s.e, key, v)
		if (is_source(key) && strcmp(key, "source") && json_is_string(v) &&
		    s.nsrc < sizeof(s.src_keys) / sizeof(s.src_keys[0]))
			s.src_keys[s.nsrc++] = key;
	show_header(&s, r->vm ? "VM size" : "disk type", cat);
	if (layer != CAT_BUILTIN) {
		char l[4200];

		snprintf(l, sizeof(l), "%s catalog, %s", catalog_layer_name(layer), file);
		say(f, "layer:", l);
	}
	if (r->vm && r->vm->series)
		series_header(f, r->vm, s.nsrc + 1);
	fprintf(f, "\n  %-30s %12s  %-14s %s\n", "figure", "value", "unit", "source");
	show_figures(&s, s.e, "");
	show_arrays(&s);
	if (r->vm && r->vm->series)
		series_rows(f, r->vm, s.nsrc + 1);
	catalog_fmt_show_conflicts(f, r->catalog, kind, cat, name);
	if (!r->disk || !r->disk->os)
		catalog_fmt_show_prices(f, r->catalog, kind, cat, name);
	return written(f);
}

static const struct catalog_list_format list_formats[] = {
	{.f = REPORT_TEXT, .write = catalog_fmt_list_text},
	{.f = REPORT_JSON, .write = catalog_fmt_list_json},
};
static const struct catalog_show_format show_formats[] = {
	{.f = REPORT_TEXT, .write = catalog_fmt_show_text},
	{.f = REPORT_JSON, .write = catalog_fmt_show_json},
};

const struct report_formats catalog_list_formats = REPORT_FORMATS("iorate catalog list",
								  list_formats);
const struct report_formats catalog_show_formats = REPORT_FORMATS("iorate catalog show",
								  show_formats);
