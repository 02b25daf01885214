/*
 * The outputs of 'iorate catalog import' (what each file was, the entries new, equal to and
 * differing from the built-in catalog) and 'catalog prices' (what was read and kept).
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "report/catalog_fmt.h"
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

/* "145 MB/s", "not given", "yes". */
static const char *figure(double v, const char *unit, bool missing, char *buf, size_t len)
{
	if (missing)
		snprintf(buf, len, "not given");
	else if (!*unit)
		snprintf(buf, len, "%s", v != 0 ? "yes" : "no");
	else {
		char d[48];

		/* A plain decimal, no exponent, rounded as a reader compares figures. */
		snprintf(buf, len, "%s %s", fmt_figure(v, d, sizeof(d)), unit);
	}
	return buf;
}

int catalog_fmt_import_text(FILE *f, const struct import *im)
{
	char n[160], a[64], b[64];

	for (size_t i = 0; i < im->nfiles; i++) {
		const struct import_file *x = &im->files[i];

		fprintf(f, "%s: %s, %u VM sizes, %u disk types", escape_buf(x->path, n, sizeof(n)),
			x->format, x->vms, x->disks);
		if (x->skipped)
			fprintf(f, " (%u entries of other kinds skipped)", x->skipped);
		fputc('\n', f);
	}
	fprintf(f, "new: %u; the same as the built-in catalog: %u; differing from it: %u (the "
		"built-in entries keep their names)\n", im->nnew, im->nsame, im->ndiffer);
	for (size_t i = 0; i < im->nconflicts; i++) {
		const struct import_conflict *k = &im->conflicts[i];

		if (!k->unit_only)
			fprintf(f, "  %s:%s %s: built-in %s, imported %s\n",
				import_provider_name(k->provider), escape_buf(k->name, n, sizeof(n)),
				k->field, figure(k->builtin, k->unit, k->builtin_missing, a,
						 sizeof(a)),
				figure(k->imported, k->unit, false, b, sizeof(b)));
	}
	if (im->nunit_only)
		fprintf(f, "one figure in two units, not a difference (%u): the built-in catalog "
			"writes as MB/s what the provider's API gives in MiB/s:\n", im->nunit_only);
	for (size_t i = 0; i < im->nconflicts; i++) {
		const struct import_conflict *k = &im->conflicts[i];
		char d[48];

		if (k->unit_only)
			fprintf(f, "  %s:%s %s: built-in %s, imported %s = %s MiB/s\n",
				import_provider_name(k->provider), escape_buf(k->name, n, sizeof(n)),
				k->field, figure(k->builtin, k->unit, false, a, sizeof(a)),
				figure(k->imported, k->unit, false, b, sizeof(b)),
				fmt_decimal(k->imported / 1.048576, 0, d, sizeof(d)));
	}
	if (im->nseriesless)
		fprintf(f, "note: %u GCP machine type%s of a series without per-VM rules (%s%s): "
			"no per-VM limit applies to them\n", im->nseriesless,
			im->nseriesless == 1 ? "" : "s", im->seriesless,
			im->nseriesless > 4 ? ", ..." : "");
	for (int p = 0; p < IMPORT_NPROVIDERS; p++)
		if (im->written[p])
			fprintf(f, "written: %s\n", escape_buf(im->written[p], n, sizeof(n)));
	if (!im->nnew)
		fprintf(f, "nothing new to write\n");
	return written(f);
}

int catalog_fmt_import_json(FILE *f, const struct import *im)
{
	json_t *o = json_object(), *files = json_array(), *conf = json_array(), *out = json_array();
	int r = -ENOMEM;

	if (!o || !files || !conf || !out)
		goto done;
	for (size_t i = 0; i < im->nfiles; i++)
		json_array_append_new(files, json_pack("{s:s, s:s, s:s, s:i, s:i, s:i}", "file",
			im->files[i].path, "format", im->files[i].format, "provider",
			import_provider_name(im->files[i].provider), "vms", im->files[i].vms,
			"disks", im->files[i].disks, "skipped", im->files[i].skipped));
	for (size_t i = 0; i < im->nconflicts; i++) {
		const struct import_conflict *k = &im->conflicts[i];

		json_array_append_new(conf, json_pack("{s:s, s:s, s:s, s:s, s:o, s:f, s:b}",
			"provider", import_provider_name(k->provider), "name", k->name, "field",
			k->field, "unit", k->unit, "builtin", k->builtin_missing ? json_null() :
			json_real(k->builtin), "imported", k->imported, "unit_only", k->unit_only));
	}
	for (int p = 0; p < IMPORT_NPROVIDERS; p++)
		if (im->written[p])
			json_array_append_new(out, json_string(im->written[p]));
	json_object_set(o, "files", files);
	json_object_set_new(o, "new", json_integer(im->nnew));
	json_object_set_new(o, "same", json_integer(im->nsame));
	json_object_set_new(o, "differ", json_integer(im->ndiffer));
	json_object_set_new(o, "replaced", json_integer(im->nreplaced));
	json_object_set(o, "conflicts", conf);
	json_object_set(o, "written", out);
	json_object_set_new(o, "date", json_string(im->date));
	r = report_json_dump(f, o);
done:
	json_decref(o);
	json_decref(files);
	json_decref(conf);
	json_decref(out);
	return r;
}

/* ---- catalog prices ---- */

int catalog_fmt_prices_text(FILE *f, const struct catalog_prices_report *p)
{
	const struct prices_result *r = p->result;
	char n[256];

	fprintf(f, "%s prices for %s in %s, read %s: %lu items in %lu %s\n",
		p->request->provider, p->request->region, p->currency, p->request->date, r->items,
		r->pages, strcmp(p->request->provider, "aws") ? "pages" : "files");
	fprintf(f, "source:  %s\n", escape_buf(r->url, n, sizeof(n)));
	fprintf(f, "kept:    %u VM sizes, %u disk types", r->vms, r->disks);
	if (r->storage)
		fprintf(f, ", %u blob storage tiers", r->storage);
	fprintf(f, "\nwritten: %s\n", escape_buf(r->path, n, sizeof(n)));
	fprintf(f, "catalog: %u of %u %s VM sizes and %u of %u disk types now have a price in %s "
		"%s\n", p->priced_vms, p->catalog_vms, p->request->provider, p->priced_disks,
		p->catalog_disks, p->request->region, p->currency);
	return written(f);
}

int catalog_fmt_prices_json(FILE *f, const struct catalog_prices_report *p)
{
	const struct prices_result *r = p->result;
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:i, s:i, s:i, s:i, s:i,"
			      " s:i, s:i}", "provider", p->request->provider, "region",
			      p->request->region, "currency", p->currency, "date", p->request->date,
			      "source", r->url, "path", r->path ? r->path : "",
			      "items", (json_int_t)r->items, "pages", (json_int_t)r->pages,
			      "vms", r->vms, "disks", r->disks, "storage", r->storage,
			      "catalog_vms", p->catalog_vms, "priced_vms", p->priced_vms,
			      "catalog_disks", p->catalog_disks, "priced_disks", p->priced_disks);
	int ret = o ? report_json_dump(f, o) : -ENOMEM;

	json_decref(o);
	return ret;
}

static const struct catalog_import_format import_formats[] = {
	{.f = REPORT_TEXT, .write = catalog_fmt_import_text},
	{.f = REPORT_JSON, .write = catalog_fmt_import_json},
};
static const struct catalog_prices_format prices_formats[] = {
	{.f = REPORT_TEXT, .write = catalog_fmt_prices_text},
	{.f = REPORT_JSON, .write = catalog_fmt_prices_json},
};

const struct report_formats catalog_import_formats = REPORT_FORMATS("iorate catalog import",
								    import_formats);
const struct report_formats catalog_prices_formats = REPORT_FORMATS("iorate catalog prices",
								    prices_formats);
