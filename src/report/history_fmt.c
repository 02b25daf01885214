/*
 * The history's listings as text, CSV and JSON: 'iorate history list', 'show' and 'compare'
 * (src/cmd/cmd_history.c). Stored runs come as the store's columns (struct history_run) or, for
 * 'show', as the saved 'iorate run --json' object.
 */
#include "report/history_fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/jpath.h"
#include "report/json.h"
#include "report/summary.h"
#include "util/parse.h"

static const char *fmt_date(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "?");
	return buf;
}

json_t *report_history_run_json(const struct history_run *r)
{
	json_t *o = json_object(), *p = json_object(), *t = json_array();

	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "start_unix_ms", json_integer(r->start_unix_ms));
	json_object_set_new(o, "label", report_json_str(r->label));
	json_object_set_new(o, "host", report_json_str(r->host));
	json_object_set_new(o, "kernel", report_json_str(r->kernel));
	json_object_set_new(o, "command_line", report_json_str(r->command_line));
	json_object_set_new(o, "origin", report_json_str(r->origin));
	json_object_set_new(p, "bs", json_integer((json_int_t)r->bs));
	json_object_set_new(p, "threads", json_integer(r->threads));
	json_object_set_new(p, "depth", json_integer(r->depth));
	json_object_set_new(p, "write", json_integer(r->write_pct));
	json_object_set_new(p, "pattern", report_json_str(r->pattern));
	json_object_set_new(p, "cache", report_json_str(r->cache));
	json_object_set_new(p, "engine", report_json_str(r->engine));
	json_object_set_new(p, "time", report_json_real(r->time_s));
	json_object_set_new(o, "params", p);
	json_object_set_new(o, "seconds", report_json_real(r->seconds));
	json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(o, "error", report_json_str(r->error));
	for (unsigned i = 0; i < r->ntargets; i++)
		json_array_append_new(t, report_json_str(r->targets[i]));
	json_object_set_new(o, "targets", t);
	for (int d = 0; d < REPORT_NDIR; d++) {
		const struct history_dir *x = &r->dir[d];

		json_object_set_new(o, report_dir_names[d],
				    json_pack("{s:I,s:o,s:o,s:o,s:o}", "ios", (json_int_t)x->ios,
					      "iops", report_json_real(x->iops),
					      "mibps", report_json_real(x->mibps),
					      "mean_us", report_json_real(x->mean_us),
					      "p99_us", report_json_real(x->p99_us)));
	}
	return o;
}

void report_history_list_csv(FILE *f, const struct history_run *runs, size_t n)
{
	char date[32];

	fprintf(f, "id,start_unix_ms,date,label,host,kernel,bs,threads,depth,write_pct,pattern,"
		   "cache,engine,time_s,seconds,interrupted,error,targets");
	for (int d = 0; d < REPORT_NDIR; d++) {
		const char *n = report_dir_names[d];

		fprintf(f, ",%s_ios,%s_iops,%s_mibps,%s_mean_us,%s_p99_us", n, n, n, n, n);
	}
	fprintf(f, ",command_line\n");
	for (size_t i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];

		fprintf(f, "%lld,%lld,%s,", (long long)r->id, (long long)r->start_unix_ms,
			   fmt_date(r->start_unix_ms, date, sizeof(date)));
		report_csv_field(f, r->label);
		fputc(',', f);
		report_csv_field(f, r->host);
		fputc(',', f);
		report_csv_field(f, r->kernel);
		fprintf(f, ",%llu,%u,%u,%u,%s,%s,%s,%g,%g,%d,", (unsigned long long)r->bs,
			   r->threads, r->depth, r->write_pct, r->pattern ?: "", r->cache ?: "",
			   r->engine ?: "", r->time_s, r->seconds, r->interrupted);
		report_csv_field(f, r->error);
		fputc(',', f);
		for (unsigned k = 0; k < r->ntargets; k++) {
			report_csv_field(f, r->targets[k]); /* ';' would be ambiguous: quote each */
			if (k + 1 < r->ntargets)
				fputc(' ', f);
		}
		for (int d = 0; d < REPORT_NDIR; d++) {
			const struct history_dir *x = &r->dir[d];

			fprintf(f, ",%llu,%.1f,%.3f,", (unsigned long long)x->ios, x->iops,
				   x->mibps);
			if (x->has_lat)
				fprintf(f, "%.3f,%.3f", x->mean_us, x->p99_us);
			else
				fputc(',', f);
		}
		fputc(',', f);
		report_csv_field(f, r->command_line);
		fputc('\n', f);
	}
}

static const char *status_of(const struct history_run *r)
{
	return r->error ? "failed" : r->interrupted ? "interrupted" : "";
}

void report_history_list_text(FILE *f, const struct history_run *runs, size_t n)
{
	char date[32], bs[32], tq[32];

	fprintf(f, "%5s  %-16s  %-12s %7s %8s %4s %-4s %-6s %6s %11s %10s %10s  %s\n", "ID", "DATE",
		   "HOST", "BS", "TxQ", "W%", "PAT", "ENGINE", "SECS", "IOPS", "MiB/s", "P99 µs",
		   "TARGETS");
	for (size_t i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];
		char p99[32] = "-";

		snprintf(tq, sizeof(tq), "%ux%u", r->threads, r->depth);
		if (r->dir[REPORT_TOTAL].has_lat)
			report_fmt_us(r->dir[REPORT_TOTAL].p99_us, p99, sizeof(p99));
		fprintf(f, "%5lld  %-16s  %-12.12s %7s %8s %4u %-4s %-6s %6.1f %11.0f %10.2f %9s  ",
			   (long long)r->id, fmt_date(r->start_unix_ms, date, sizeof(date)),
			   r->host, fmt_size(r->bs, bs, sizeof(bs)), tq, r->write_pct,
			   r->pattern && !strcmp(r->pattern, "sequential") ? "seq" : "rand",
			   r->engine ?: "?", r->seconds, r->dir[REPORT_TOTAL].iops,
			   r->dir[REPORT_TOTAL].mibps, p99);
		for (unsigned k = 0; k < r->ntargets && k < 2; k++)
			fprintf(f, "%s%s", k ? " " : "", r->targets[k]);
		if (r->ntargets > 2)
			fprintf(f, " (+%u)", r->ntargets - 2);
		if (*status_of(r))
			fprintf(f, " [%s]", status_of(r));
		if (r->label)
			fprintf(f, "  \"%s\"", r->label);
		fputc('\n', f);
	}
}

/*
 * A compact text summary of a stored run: the run's own text report needs its histograms. A
 * figure missing from the JSON prints as 0 (a latency as "-"), as json_number_value() gives.
 */
void report_history_show_text(FILE *f, int64_t id, const char *label, json_t *run)
{
	static const char *const pct[] = {"min", "mean", "p50", "p90", "p99", "p99_9", "p99_99",
					  "max"};
	json_t *tot = json_object_get(run, "total"), *dir[REPORT_NDIR], *t, *v;
	char date[32], bs[32], b[REPORT_NDIR][32];
	size_t i;

	fprintf(f, "run %lld  %s  %s (%s)%s%s\n", (long long)id,
		   fmt_date(json_integer_value(jpath(run, "start_unix_ms")), date, sizeof(date)),
		   jpath_str(run, "host.hostname") ?: "?", jpath_str(run, "host.kernel") ?: "?",
		   label ? "  " : "", label ? label : "");
	if (jpath_str(run, "command_line"))
		fprintf(f, "command: %s\n", jpath_str(run, "command_line"));
	fprintf(f, "workload: %s %s, %lld%% writes, %lld thread(s) x depth %lld per target, "
		   "cache %s, engine %s, %.1f s measured\n",
		   fmt_size((uint64_t)json_integer_value(jpath(run, "params.bs")), bs, sizeof(bs)),
		   jpath_str(run, "params.pattern") ?: "?",
		   (long long)json_integer_value(jpath(run, "params.write")),
		   (long long)json_integer_value(jpath(run, "params.threads")),
		   (long long)json_integer_value(jpath(run, "params.depth")),
		   jpath_str(run, "params.cache") ?: "?", jpath_str(run, "params.engine") ?: "?",
		   json_number_value(jpath(run, "seconds")));
	for (int d = 0; d < REPORT_NDIR; d++)
		dir[d] = json_object_get(tot, report_dir_names[d]);
	fprintf(f, "\n%-12s %14s %14s %14s\n", "", "read", "write", "total");
	fprintf(f, "%-12s", "IOPS");
	for (int d = 0; d < REPORT_NDIR; d++)
		fprintf(f, " %14.1f", json_number_value(jpath(dir[d], "iops")));
	fprintf(f, "\n%-12s", "MiB/s");
	for (int d = 0; d < REPORT_NDIR; d++)
		fprintf(f, " %14.2f", json_number_value(jpath(dir[d], "mibps")));
	fprintf(f, "\nlatency, µs:");
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		fprintf(f, "\n%-12s", pct[i]);
		for (int d = 0; d < REPORT_NDIR; d++) {
			double us = jpath_num(json_object_get(dir[d], "lat_us"), pct[i]);

			fprintf(f, " %14s", report_fmt_us(us, b[d], sizeof(b[d])));
		}
	}
	fprintf(f, "\n\n%-40s %14s %12s %13s\n", "target", "IOPS", "MiB/s", "p99 µs");
	json_array_foreach(json_object_get(run, "targets"), i, t)
		fprintf(f, "%-40s %14.1f %12.2f %12s\n", jpath_str(t, "path"),
			   json_number_value(jpath(t, "total.iops")),
			   json_number_value(jpath(t, "total.mibps")),
			   report_fmt_us(jpath_num(t, "total.lat_us.p99"), b[0], sizeof(b[0])));
	json_array_foreach(json_object_get(run, "notes"), i, v)
		fprintf(f, "note: %s\n", json_string_value(v));
	if (json_is_true(json_object_get(run, "interrupted")))
		fprintf(f, "interrupted: the figures cover what ran\n");
	if (jpath_str(run, "error"))
		fprintf(f, "error: %s\n", jpath_str(run, "error"));
}

static double ratio(double a, double b)
{
	return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static const struct metric {
	const char *name, *unit;
	size_t off;
	bool lat;
} metrics[] = {
	{"iops", "IOPS", offsetof(struct history_dir, iops), false},
	{"mibps", "MiB/s", offsetof(struct history_dir, mibps), false},
	{"mean_us", "mean µs", offsetof(struct history_dir, mean_us), true},
	{"p99_us", "p99 µs", offsetof(struct history_dir, p99_us), true},
};

static double metric(const struct history_run *r, int d, const struct metric *m)
{
	if (m->lat && !r->dir[d].has_lat)
		return NAN;
	return *(const double *)((const char *)&r->dir[d] + m->off);
}

/* The workload parameters that differ, as "name: a -> b" strings. */
static json_t *differences(const struct history_run *a, const struct history_run *b)
{
	json_t *d = json_array();
	char buf[512];

#define DIFF_S(n, x, y) \
	if (strcmp((x) ?: "", (y) ?: "")) { \
		snprintf(buf, sizeof(buf), "%s: %s -> %s", n, (x) ?: "-", (y) ?: "-"); \
		json_array_append_new(d, json_string(buf)); \
	}
#define DIFF_N(n, x, y) \
	if ((x) != (y)) { \
		snprintf(buf, sizeof(buf), "%s: %g -> %g", n, (double)(x), (double)(y)); \
		json_array_append_new(d, json_string(buf)); \
	}
	DIFF_S("host", a->host, b->host);
	DIFF_S("kernel", a->kernel, b->kernel);
	DIFF_N("bs", a->bs, b->bs);
	DIFF_N("threads", a->threads, b->threads);
	DIFF_N("depth", a->depth, b->depth);
	DIFF_N("write", a->write_pct, b->write_pct);
	DIFF_S("pattern", a->pattern, b->pattern);
	DIFF_S("cache", a->cache, b->cache);
	DIFF_S("engine", a->engine, b->engine);
	DIFF_N("time", a->time_s, b->time_s);
	DIFF_N("targets", a->ntargets, b->ntargets);
	for (unsigned i = 0; i < a->ntargets && i < b->ntargets; i++)
		DIFF_S("target", a->targets[i], b->targets[i]);
#undef DIFF_S
#undef DIFF_N
	return d;
}

static void fmt_fig(double v, bool lat, char *buf, size_t len)
{
	if (lat)
		report_fmt_us(v, buf, len);
	else if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
}

json_t *report_history_compare_json(const struct history_run *a, const struct history_run *b)
{
	json_t *root = json_object(), *figs = json_array();

	for (int d = 0; d < REPORT_NDIR; d++)
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
			double x = metric(a, d, &metrics[m]), y = metric(b, d, &metrics[m]);

			json_array_append_new(figs, json_pack("{s:s,s:s,s:o,s:o,s:o}",
				"direction", report_dir_names[d], "metric", metrics[m].name,
				"a", report_json_real(x), "b", report_json_real(y),
				"ratio", report_json_real(ratio(x, y))));
		}
	json_object_set_new(root, "schema", json_integer(HISTORY_SCHEMA));
	json_object_set_new(root, "a", report_history_run_json(a));
	json_object_set_new(root, "b", report_history_run_json(b));
	json_object_set_new(root, "differences", differences(a, b));
	json_object_set_new(root, "figures", figs);
	return root;
}

void report_history_compare_text(FILE *f, const struct history_run *a,
				 const struct history_run *b)
{
	json_t *diff = differences(a, b), *v;
	char da[32], db[32], ha[64], hb[64];
	size_t i;

	snprintf(ha, sizeof(ha), "run %lld", (long long)a->id);
	snprintf(hb, sizeof(hb), "run %lld", (long long)b->id);
	fprintf(f, "%-16s %18s %18s %8s\n", "", ha, hb, "ratio");
	fprintf(f, "%-16s %18s %18s\n", "date", fmt_date(a->start_unix_ms, da, sizeof(da)),
		   fmt_date(b->start_unix_ms, db, sizeof(db)));
	fprintf(f, "%-16s %18.18s %18.18s\n", "host", a->host, b->host);
	if (a->label || b->label)
		fprintf(f, "%-16s %18.18s %18.18s\n", "label", a->label ?: "-", b->label ?: "-");
	for (int d = 0; d < REPORT_NDIR; d++) {
		if (d < 2 && !a->dir[d].ios && !b->dir[d].ios)
			continue; /* a direction neither run did */
		for (size_t m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
			double x = metric(a, d, &metrics[m]), y = metric(b, d, &metrics[m]);
			double q = ratio(x, y);
			char name[32], sx[32], sy[32], sq[32] = "-";

			snprintf(name, sizeof(name), "%s %s", report_dir_names[d], metrics[m].unit);
			fmt_fig(x, metrics[m].lat, sx, sizeof(sx));
			fmt_fig(y, metrics[m].lat, sy, sizeof(sy));
			if (isfinite(q))
				snprintf(sq, sizeof(sq), "%.3f", q);
			/* µ is two bytes: one more column of width for the names holding it */
			fprintf(f, metrics[m].lat ? "%-17s %18s %18s %8s\n" :
				   "%-16s %18s %18s %8s\n", name, sx, sy, sq);
		}
	}
	if (json_array_size(diff))
		fprintf(f, "\nthe runs differ in:\n");
	json_array_foreach(diff, i, v)
		fprintf(f, "  %s\n", json_string_value(v));
	if (*status_of(a) || *status_of(b))
		fprintf(f, "\nnote: run %lld %s, run %lld %s\n", (long long)a->id,
			   *status_of(a) ? status_of(a) : "completed", (long long)b->id,
			   *status_of(b) ? status_of(b) : "completed");
	json_decref(diff);
}