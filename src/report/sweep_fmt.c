/* The tables of `iorate sweep`: text (one row per value), CSV and JSON. */
#include "report/sweep_fmt.h"

#include <errno.h>
#include <stdio.h>

#include "report/json.h"
#include "report/report.h"
#include "util/escape.h"
#include "util/jsonout.h"
#include "util/parse.h"

const char *sweep_fmt_value(const struct sweep_table *s, uint64_t v, char *buf, size_t len)
{
	if (s->sizes)
		return fmt_size(v, buf, len);
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static bool si(const struct sweep_table *s)
{
	return s->units == UNITS_SI;
}

static void text_header(FILE *f, const struct sweep_table *s)
{
	const char *u = si(s) ? "MB/s" : "MiB/s";
	char b[32], h[64];

	fputs("Command line: ", f);
	escape_fputs(s->command_line, f);     /* as typed: may hold any byte */
	fputs("\n\n", f);
	fprintf(f, "%-8s", s->label);
	if (s->nbs == 1) {
		fprintf(f, " %12s %12s %10s %10s\n", "IOPS", u, "mean ms", "p99 ms");
		return;
	}
	for (size_t k = 0; k < s->nbs; k++) {
		fmt_size(s->bs[k], b, sizeof(b));
		snprintf(h, sizeof(h), "%s IOPS", b);
		fprintf(f, " %14s", h);
		snprintf(h, sizeof(h), "%s %s", b, u);
		fprintf(f, " %14s", h);
	}
	fprintf(f, "\n");
}

/* One cell of a text row: "-" for a block size the stop left unrun. */
static void text_cell(FILE *f, const struct sweep_table *s, const struct sweep_cell *c)
{
	double tp = si(s) ? c->tot.mbps : c->tot.mibps;

	if (s->nbs > 1) {
		if (c->done)
			fprintf(f, " %14.2f %14.2f", c->tot.iops, tp);
		else
			fprintf(f, " %14s %14s", "-", "-");
	} else if (c->tot.has_lat) {
		fprintf(f, " %12.2f %12.2f %10.3f %10.3f", c->tot.iops, tp, c->tot.lat_mean / 1000,
			c->tot.p99 / 1000);
	} else {
		fprintf(f, " %12.2f %12.2f %10s %10s", c->tot.iops, tp, "-", "-");
	}
}

static void text_row(FILE *f, const struct sweep_table *s, size_t i)
{
	double stopped = -1;
	char b[32];

	fprintf(f, "%-8s", sweep_fmt_value(s, s->vals[i], b, sizeof(b)));
	for (size_t k = 0; k < s->nbs; k++) {
		const struct sweep_cell *c = &s->cells[i * s->nbs + k];
		text_cell(f, s, c);
		if (c->interrupted)
			stopped = c->seconds;
	}
	if (stopped >= 0)
		fprintf(f, "  (interrupted after %.1f s)", stopped);
	fprintf(f, "\n");
	fflush(f);
}

static void csv_header(FILE *f, const struct sweep_table *s)
{
	fprintf(f, "%s,bs,seconds,ios,bytes,iops,mibps,mbps,lat_mean_us,p50_us,p90_us,p99_us,p99_9_us,"
	       "lat_max_us\n", s->param);
}

static void csv_rows(FILE *f, const struct sweep_table *s, size_t i)
{
	for (size_t k = 0; k < s->nbs; k++) {
		const struct sweep_cell *c = &s->cells[i * s->nbs + k];
		const struct dir_summary *t = &c->tot;
		if (!c->done)
			continue;
		fprintf(f, "%llu,%llu,%.6f,%llu,%llu,%.3f,%.6f,%.6f", (unsigned long long)s->vals[i],
		       (unsigned long long)(s->bs_swept ? s->vals[i] : s->bs[k]), c->seconds,
		       (unsigned long long)t->ios, (unsigned long long)t->bytes, t->iops, t->mibps,
		       t->mbps);
		if (t->has_lat)
			fprintf(f, ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", t->lat_mean, t->p50, t->p90,
			       t->p99, t->p99_9, t->lat_max);
		else
			fprintf(f, ",,,,,,\n");
	}
	fflush(f);
}

/* The notes of the runs, each once, after the table. */
static int text_end(FILE *f, const struct sweep_table *s, bool interrupted)
{
	for (unsigned n = 0; n < s->nnotes; n++) {
		fputs("note: ", f);
		escape_fputs(s->notes[n], f);
		fputc('\n', f);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/* JSON prints nothing before the end: it is one document. */
static void no_header(FILE *f, const struct sweep_table *s)
{
}

static void no_row(FILE *f, const struct sweep_table *s, size_t i)
{
}

static int csv_end(FILE *f, const struct sweep_table *s, bool interrupted)
{
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/* One row of the JSON: value i with block size k; NULL when out of memory. */
static json_t *json_row(const struct sweep_table *s, size_t i, size_t k)
{
	const struct sweep_cell *c = &s->cells[i * s->nbs + k];
	const struct dir_summary *t = &c->tot;
	uint64_t bs = s->bs_swept ? s->vals[i] : s->bs[k];
	json_t *row = json_pack("{s:I,s:I,s:f,s:I,s:I,s:f,s:f,s:f,s:o}",
				s->param, (json_int_t)s->vals[i],
				SWEEP_DOC_ROW_BS, (json_int_t)bs,
				"seconds", c->seconds,
				"ios", (json_int_t)t->ios,
				"bytes", (json_int_t)t->bytes,
				"iops", t->iops,
				"mibps", t->mibps,
				"mbps", t->mbps,
				"lat_us", report_json_lat(t));

	if (row)
		json_object_set_new(row, "interrupted", json_boolean(c->interrupted));
	if (row && c->run)
		json_object_set(row, SWEEP_DOC_ROW_RUN, c->run);
	return row;
}

static int json_end(FILE *f, const struct sweep_table *s, bool interrupted)
{
	json_t *root = json_object(), *vals = json_array(), *bss = json_array();
	json_t *rows = json_array();
	int r = -ENOMEM;

	if (!root || !vals || !bss || !rows)
		goto out;
	for (size_t i = 0; i < s->nvals; i++)
		json_array_append_new(vals, json_integer((json_int_t)s->vals[i]));
	for (size_t k = 0; k < s->nbs && !s->bs_swept; k++)
		json_array_append_new(bss, json_integer((json_int_t)s->bs[k]));
	for (size_t i = 0; i < s->nvals; i++) {
		for (size_t k = 0; k < s->nbs; k++) {
			json_t *row;

			if (!s->cells[i * s->nbs + k].done)
				continue;
			if (!(row = json_row(s, i, k)))
				goto out;
			json_array_append_new(rows, row);
		}
	}
	json_object_set_new(root, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(root, "version", json_string(IORATE_VERSION));
	json_object_set_new(root, "command_line",
			    s->command_line ? json_string(s->command_line) : json_null());
	json_object_set_new(root, SWEEP_DOC_PARAM, json_string(s->param));
	json_object_set(root, "values", vals);
	json_object_set(root, "bs", bss);
	json_object_set_new(root, "interrupted", json_boolean(interrupted));
	json_object_set(root, SWEEP_DOC_ROWS, rows);
	if ((r = jsonout_dumpf(root, f, JSON_INDENT(2))) == 0)
		r = fputc('\n', f) == EOF ? -EIO : 0;
	fflush(f);
out:
	json_decref(root);
	json_decref(vals);
	json_decref(bss);
	json_decref(rows);
	return r;
}

const struct report_sweep_ops report_sweep_text = {
	.begin = text_header,
	.row = text_row,
	.end = text_end,
};

const struct report_sweep_ops report_sweep_csv = {
	.begin = csv_header,
	.row = csv_rows,
	.end = csv_end,
};

/* JSON is one document: nothing is printed until the end, which has every run. */
const struct report_sweep_ops report_sweep_json = {
	.begin = no_header,
	.row = no_row,
	.end = json_end,
	.runs = true,
};

static const struct sweep_format formats[] = {
	{.f = REPORT_TEXT, .ops = &report_sweep_text},
	{.f = REPORT_JSON, .ops = &report_sweep_json},
	{.f = REPORT_CSV, .ops = &report_sweep_csv},
};

const struct report_formats sweep_formats = REPORT_FORMATS("iorate sweep", formats);
