/* The tables of `iorate sweep`: text (one row per value), CSV and JSON. */
#include "report/sweep_fmt.h"

#include <errno.h>
#include <stdio.h>

#include "report/json.h"
#include "report/report.h"
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

void sweep_fmt_text_header(FILE *f, const struct sweep_table *s)
{
	const char *u = si(s) ? "MB/s" : "MiB/s";
	char b[32], h[64];

	fprintf(f, "Command line: %s\n\n", s->command_line ? s->command_line : "");
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

void sweep_fmt_text_row(FILE *f, const struct sweep_table *s, size_t i)
{
	char b[32];

	fprintf(f, "%-8s", sweep_fmt_value(s, s->vals[i], b, sizeof(b)));
	for (size_t k = 0; k < s->nbs; k++) {
		const struct sweep_cell *c = &s->cells[i * s->nbs + k];
		double tp = si(s) ? c->tot.mbps : c->tot.mibps;
		if (s->nbs == 1) {
			if (c->tot.has_lat)
				fprintf(f, " %12.2f %12.2f %10.3f %10.3f", c->tot.iops, tp,
				       c->tot.lat_mean / 1000, c->tot.p99 / 1000);
			else
				fprintf(f, " %12.2f %12.2f %10s %10s", c->tot.iops, tp, "-", "-");
		} else {
			fprintf(f, " %14.2f %14.2f", c->tot.iops, tp);
		}
	}
	fprintf(f, "\n");
	fflush(f);
}

void sweep_fmt_csv_header(FILE *f, const struct sweep_table *s)
{
	fprintf(f, "%s,bs,seconds,ios,bytes,iops,mibps,mbps,lat_mean_us,p50_us,p90_us,p99_us,p99_9_us,"
	       "lat_max_us\n", s->param);
}

void sweep_fmt_csv_rows(FILE *f, const struct sweep_table *s, size_t i)
{
	for (size_t k = 0; k < s->nbs; k++) {
		const struct sweep_cell *c = &s->cells[i * s->nbs + k];
		const struct dir_summary *t = &c->tot;
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

int sweep_fmt_json(FILE *f, const struct sweep_table *s, bool interrupted)
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
			const struct sweep_cell *c = &s->cells[i * s->nbs + k];
			if (!c->done)
				continue;
			const struct dir_summary *t = &c->tot;
			uint64_t bs = s->bs_swept ? s->vals[i] : s->bs[k];
			json_t *row = json_pack("{s:I,s:I,s:f,s:I,s:I,s:f,s:f,s:f,s:o}",
						s->param, (json_int_t)s->vals[i],
						"bs", (json_int_t)bs,
						"seconds", c->seconds,
						"ios", (json_int_t)t->ios,
						"bytes", (json_int_t)t->bytes,
						"iops", t->iops,
						"mibps", t->mibps,
						"mbps", t->mbps,
						"lat_us", report_json_lat(t));
			if (!row)
				goto out;
			if (c->run)
				json_object_set(row, "run", c->run);
			json_array_append_new(rows, row);
		}
	}
	json_object_set_new(root, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(root, "version", json_string(IORATE_VERSION));
	json_object_set_new(root, "command_line",
			    s->command_line ? json_string(s->command_line) : json_null());
	json_object_set_new(root, "param", json_string(s->param));
	json_object_set(root, "values", vals);
	json_object_set(root, "bs", bss);
	json_object_set_new(root, "interrupted", json_boolean(interrupted));
	json_object_set(root, "rows", rows);
	if (json_dumpf(root, f, JSON_INDENT(2)) == 0) {
		fputc('\n', f);
		r = 0;
	}
	fflush(f);
out:
	json_decref(root);
	json_decref(vals);
	json_decref(bss);
	json_decref(rows);
	return r;
}

