/* A dry run's report in text and JSON (dry_run_fmt.h): each builds only its own form. */
#include "report/dry_run_fmt.h"

#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "core/result.h"
#include "report/json.h"
#include "util/escape.h"
#include "util/jsonout.h"

/* ---- text ---- */

/* One item: where, the option as fio read it, then what it became and why. */
static void print_item(FILE *out, const struct dry_run_item *it, int wlen, int olen)
{
	char w[256], o[1024];

	fprintf(out, "  %-*s %-*s ", wlen, escape_buf(it->where, w, sizeof(w)), olen,
		escape_buf(it->option, o, sizeof(o)));
	escape_fputs(it->became, out);
	if (it->note && it->note[0]) {
		fputs(": ", out);
		escape_fputs(it->note, out);
	}
	fputc('\n', out);
}

/* The widths of a job's columns, up to a bound: long options push only their own line. */
static void widths(const struct dry_run_job *x, int *wlen, int *olen)
{
	*wlen = *olen = 0;
	for (unsigned k = 0; k < x->nitems; k++) {
		int w = (int)strlen(x->items[k].where), o = (int)strlen(x->items[k].option);
		*wlen = w > *wlen && w <= 40 ? w : *wlen;
		*olen = o > *olen && o <= 32 ? o : *olen;
	}
}

/* Each job's items (a clone only points at the first), then its 'iorate run'. */
static void print_text(const struct dry_run_report *d, FILE *out)
{
	for (unsigned i = 0; i < d->njobs; i++) {
		const struct dry_run_job *x = &d->jobs[i];
		char n[256], w[256];
		int wl, ol;

		fprintf(out, "%sjob '%s'", i ? "\n" : "", escape_buf(x->name, n, sizeof(n)));
		if (x->clones > 1)
			fprintf(out, ", %u of %u", x->clone + 1, x->clones);
		fprintf(out, " (%s), run group %u%s\n", escape_buf(x->where, w, sizeof(w)),
			x->job->group, x->clone ? ": as the first" : ":");
		widths(x, &wl, &ol);
		for (unsigned k = 0; !x->clone && k < x->nitems; k++)
			print_item(out, &x->items[k], wl, ol);
		fputs("  = iorate run ", out);
		escape_fputs(x->equivalent, out);
		fputc('\n', out);
	}
}

int dry_run_fmt_text(FILE *f, const struct dry_run_report *d)
{
	if (d->job) {
		fputs(d->equivalent ? d->equivalent : "", f);
		fputc('\n', f);
		return ferror(f) ? -EIO : 0;
	}
	print_text(d, f);
	if (d->then) {
		fputs("\nthen, over every job, the options of: ", f);
		escape_fputs(d->then, f);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON ---- */

static json_t *item_json(const struct dry_run_item *it)
{
	return json_pack("{s:o,s:o,s:o,s:o}", "where", report_json_str(it->where), "option",
			 report_json_str(it->option), "became", report_json_str(it->became),
			 "note", report_json_str(it->note));
}

static json_t *job_json(const struct dry_run_job *x)
{
	json_t *items = json_array();

	for (unsigned k = 0; items && k < x->nitems; k++)
		json_array_append_new(items, item_json(&x->items[k]));
	return json_pack("{s:o,s:o,s:I,s:I,s:I,s:o,s:o,s:o}", "name", report_json_str(x->name),
			 "where", report_json_str(x->where), "job", (json_int_t)x->clone,
			 "numjobs", (json_int_t)x->clones, "group", (json_int_t)x->job->group,
			 "options", items ? items : json_null(), "equivalent",
			 report_json_str(x->equivalent), "params", report_json_params(x->job));
}

static json_t *translation_json(const struct dry_run_report *d)
{
	json_t *jobs = json_array();

	for (unsigned i = 0; jobs && i < d->njobs; i++)
		if (json_array_append_new(jobs, job_json(&d->jobs[i])))
			break;
	return jobs ? json_pack("{s:s,s:o}", "translation", "fio", "jobs", jobs) : NULL;
}

int dry_run_fmt_json(FILE *f, const struct dry_run_report *d)
{
	json_t *t;
	int r;

	if (d->job)
		return report_json_print_params(f, d->job);
	if (!(t = translation_json(d)))
		return -ENOMEM;
	r = jsonout_dumpf(t, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(t);
	if (fputc('\n', f) == EOF && !r)
		r = -EIO;
	return r;
}

static const struct dry_run_format formats[] = {
	{.f = REPORT_TEXT, .write = dry_run_fmt_text},
	{.f = REPORT_JSON, .write = dry_run_fmt_json},
};

/* One writer for both: a job, or a job file's translation. */
const struct report_formats dry_run_formats = REPORT_FORMATS("iorate run --dry-run", formats);
const struct report_formats fio_dry_run_formats = REPORT_FORMATS("iorate fio --dry-run", formats);
