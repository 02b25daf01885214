#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/summary.h"
#include "result/fields.h"

/* The columns after a direction's figures: latency, then the device's own (csv_devices()). */
static const char csv_header_rest[] =
	"lat_min_us,lat_mean_us,lat_stdev_us,"
	"lat_max_us,p50_us,p90_us,p99_us,p99_9_us,p99_99_us,p99_999_us,"
	"role,of,merged,merged_pct,io_ms,await_ms,busy_ms,util_pct,queue_ms,queue_depth,"
	"in_flight,discard_ios,flush_ios";

/*
 * A direction's figures are the JSON's rows with a CSV column (result_fields_fig), in its
 * order: the counts, then the window's seconds, then the rates over it (the first real).
 */
static void csv_header(FILE *f)
{
	const struct result_fields *t = &result_fields_fig;
	bool secs = false;

	fputs("target,direction", f);
	for (size_t i = 0; i < t->n; i++) {
		if (!t->rows[i].csv)
			continue;
		if (!secs && t->rows[i].store == STORE_DOUBLE)
			fputs(",seconds", f);
		secs |= t->rows[i].store == STORE_DOUBLE;
		fprintf(f, ",%s", t->rows[i].csv);
	}
	fprintf(f, ",%s\n", csv_header_rest);
}

static void csv_figures(FILE *f, const struct dir_summary *s, double seconds)
{
	const struct result_fields *t = &result_fields_fig;
	bool secs = false;

	for (size_t i = 0; i < t->n; i++) {
		const struct result_field *c = &t->rows[i];

		if (!c->csv)
			continue;
		if (!secs && c->store == STORE_DOUBLE)
			fprintf(f, ",%.6f", seconds);
		secs |= c->store == STORE_DOUBLE;
		if (c->store == STORE_DOUBLE)
			fprintf(f, ",%.*f", c->csv_decimals, result_field_real(c, s));
		else
			fprintf(f, ",%llu", (unsigned long long)result_field_u64(c, s));
	}
}
/* The columns only a device's rows fill (csv_devices()), empty in the others. */
#define NO_DEVICE ",,,,,,,,,,,,,"

/*
 * Fields are quoted as RFC 4180 says (report_csv_field), but rows end in a plain newline, as Unix
 * tools expect, rather than the RFC's CRLF. Latencies have nanosecond resolution, so three
 * decimals in microseconds lose nothing.
 */
static void csv_row(FILE *f, const char *pre, const char *target, const char *dir,
		    const struct dir_summary *s, double seconds)
{
	fputs(pre, f);
	report_csv_field(f, target);
	fprintf(f, ",%s", dir);
	csv_figures(f, s, seconds);
	if (!s->has_lat) {
		fputs(",,,,,,,,,," NO_DEVICE "\n", f);
		return;
	}
	fprintf(f, ",%.3f,%.3f,%.3f,%.3f", s->lat_min, s->lat_mean, s->lat_stdev, s->lat_max);
	for (unsigned i = 0; i < STATS_NPCT; i++)
		fprintf(f, ",%.3f", report_pct(s, i));
	fputs(NO_DEVICE "\n", f);
}

/* pre: the fields before target, each followed by its comma ("" for a run of one job). */
static int csv_rows(FILE *f, const char *pre, const char *target, const struct dir_stats *rd,
		    const struct dir_stats *wr, const struct dir_stats *tr, double seconds)
{
	struct dir_summary s[REPORT_NDIR], ts;
	int ret = report_summarize(rd, wr, tr, seconds, s);

	if (ret < 0)
		return ret;
	for (unsigned d = 0; d < REPORT_NDIR; d++) {
		/* Trims, where there were any, before the total that counts them too. */
		if (d == REPORT_TOTAL && dir_stats_any(tr)) {
			dir_stats_summarize(tr, seconds, &ts);
			csv_row(f, pre, target, "trim", &ts, seconds);
		}
		csv_row(f, pre, target, report_dir_names[d], &s[d], seconds);
	}
	return 0;
}

/* A figure, empty when there was nothing to divide by. */
static void csv_fig(FILE *f, const char *fmt, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

/*
 * One direction of a device ("total": reads and writes) as the kernel counted it: requests and
 * bytes in the run's columns (no latency), then the device's own; busy time, queue, requests
 * in flight, discards and flushes are the device's, on each of its rows.
 */
static void device_row(FILE *f, const char *pre, const struct device_view *v, unsigned d,
		       const struct device_figures *g)
{
	const struct disk_counts *k = &v->disk;
	uint64_t ios[3] = {k->read_ios, k->write_ios, k->read_ios + k->write_ios};
	uint64_t bytes[3] = {k->read_bytes, k->write_bytes, k->read_bytes + k->write_bytes};
	uint64_t merged[3] = {k->read_merges, k->write_merges, k->read_merges + k->write_merges};
	uint64_t ms[3] = {k->read_ms, k->write_ms, k->read_ms + k->write_ms};
	double s = v->seconds, n = (double)ios[d];
	char name[sizeof(v->name) + 8];

	snprintf(name, sizeof(name), "device:%s", v->name);
	fputs(pre, f);
	report_csv_field(f, name);
	fprintf(f, ",%s,%llu,%llu,%.6f", report_dir_names[d], (unsigned long long)ios[d],
		(unsigned long long)bytes[d], s);
	csv_fig(f, "%.3f", s > 0 ? n / s : NAN);
	csv_fig(f, "%.6f", s > 0 ? (double)bytes[d] / s / 1048576.0 : NAN);
	csv_fig(f, "%.6f", s > 0 ? (double)bytes[d] / s / 1e6 : NAN);
	fprintf(f, ",,,,,,,,,,,%s,", device_role_name(v->role));
	report_csv_field(f, v->of);
	fprintf(f, ",%llu", (unsigned long long)merged[d]);
	csv_fig(f, "%.3f", (double)merged[d] + n > 0 ? 100.0 * (double)merged[d] /
						       ((double)merged[d] + n) : NAN);
	fprintf(f, ",%llu", (unsigned long long)ms[d]);
	csv_fig(f, "%.6f", n > 0 ? (double)ms[d] / n : NAN);
	fprintf(f, ",%llu", (unsigned long long)k->busy_ms);
	csv_fig(f, "%.3f", g->util_pct);
	fprintf(f, ",%llu", (unsigned long long)k->queue_ms);
	csv_fig(f, "%.6f", g->queue_depth);
	fprintf(f, ",%llu,", (unsigned long long)k->in_flight);
	if (k->has_discard)
		fprintf(f, "%llu", (unsigned long long)k->discard_ios);
	fputc(',', f);
	if (k->has_flush)
		fprintf(f, "%llu", (unsigned long long)k->flush_ios);
	fputc('\n', f);
}

/* Three rows per device under the targets, target "device:NAME". */
static void csv_devices(FILE *f, const char *pre, const struct device_view *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct device_figures g;

		device_view_figures(&v[i], &g);
		for (unsigned d = 0; d < REPORT_NDIR; d++)
			device_row(f, pre, &v[i], d, &g);
	}
}

/* One row per target and direction, then (iorate-mpi) per rank, then the whole run as "*". */
static int csv_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	int ret;

	csv_header(f);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		ret = csv_rows(f, "", t->path ? t->path : "", &t->read, &t->write, &t->trim,
			       r->seconds);
		if (ret < 0)
			return ret;
	}
	/* iorate-mpi: each rank's own totals, as target "rank:K". */
	for (unsigned i = 0; i < r->nranks; i++) {
		char name[24];

		snprintf(name, sizeof(name), "rank:%u", r->ranks[i].rank);
		ret = csv_rows(f, "", name, &r->ranks[i].read, &r->ranks[i].write,
			       &r->ranks[i].trim, r->ranks[i].seconds);
		if (ret < 0)
			return ret;
	}
	ret = csv_rows(f, "", "*", &r->read, &r->write, &r->trim, r->seconds);
	if (ret < 0)
		return ret;
	csv_devices(f, "", r->devices, r->ndevices);
	return ferror(f) ? -EIO : 0;
}

/* A job's rows: its targets, then "*" for the job as a whole. */
static int job_rows(FILE *f, const struct result *r, unsigned i)
{
	char *pre = NULL;
	size_t len = 0;
	FILE *p = open_memstream(&pre, &len);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	fprintf(p, "job,%u,", i + 1);
	report_csv_field(p, r->job.name);
	fprintf(p, ",%u,", r->job.group);
	if (fclose(p))
		ret = -ENOMEM;
	for (unsigned t = 0; !ret && t < r->ntargets; t++)
		ret = csv_rows(f, pre, r->targets[t].path ? r->targets[t].path : "",
			       &r->targets[t].read, &r->targets[t].write, &r->targets[t].trim,
			       r->seconds);
	if (!ret)
		ret = csv_rows(f, pre, "*", &r->read, &r->write, &r->trim, r->seconds);
	free(pre);
	return ret;
}

/*
 * A run of several jobs: the same columns after scope (job, group or total), the job's number
 * (from 1) and name, and the group: each job's rows, each group's, the total's.
 */
static int csv_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	int ret = 0;

	fputs("scope,job,name,group,", f);
	csv_header(f);
	for (unsigned i = 0; !ret && i < s->njobs; i++)
		ret = job_rows(f, &s->jobs[i], i);
	for (unsigned g = 0; !ret && g < s->ngroups; g++) {
		const struct result_sum *m = &s->groups[g];
		char pre[32];

		snprintf(pre, sizeof(pre), "group,,,%u,", m->group);
		ret = csv_rows(f, pre, "*", &m->read, &m->write, &m->trim, m->seconds);
	}
	if (!ret)
		ret = csv_rows(f, "total,,,,", "*", &s->total.read, &s->total.write, &s->total.trim,
			       s->total.seconds);
	if (ret < 0)
		return ret;
	for (unsigned g = 0; g < s->ngroups; g++) {
		char pre[32];

		snprintf(pre, sizeof(pre), "group,,,%u,", s->groups[g].group);
		csv_devices(f, pre, s->groups[g].views, s->groups[g].nviews);
	}
	csv_devices(f, "total,,,,", s->total.views, s->total.nviews);
	return ferror(f) ? -EIO : 0;
}

const struct report_ops report_csv = {
	.name = "csv",
	.write = csv_write,
	.write_set = csv_write_set,
};
