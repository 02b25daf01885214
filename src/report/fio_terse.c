/*
 * The format "fio-terse": fio 3.33's terse output, version 3 (--output-format=terse,
 * --minimal): a line per report entry (a job, or the jobs group_reporting merges), fields
 * separated by ';' in fio's order (HOWTO, "Terse output"). Latencies are microseconds, as fio
 * prints them; what iorate does not measure (submission latency, context switches, page faults,
 * queue depth levels) is the zero fio prints when it has none. docs/fio-json.md has each field.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "report/fio_json.h"
#include "report/fio_stats.h"
#include "report/report.h"

/* The terse version written, the only one iorate writes (fio's default). */
#define TERSE_VERSION 3

/* fio's default percentile_list, and the 20 places terse gives percentiles. */
static const double fio_pcts[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				  99.95, 99.99};
#define NPCTS (sizeof(fio_pcts) / sizeof(fio_pcts[0]))
#define TERSE_PCTS 20

/* min, max (whole us, as fio divides), mean and deviation (us) of d's latencies; zeros if none. */
static void lat_fields(FILE *f, const struct dir_stats *d)
{
	double n = (double)d->lat_n, mean = 0, dev = 0;

	if (!d->lat_n) {
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
		return;
	}
	mean = (double)d->lat_sum / n;
	if (d->lat_n > 1) {
		double var = (d->lat_sumsq - (double)d->lat_sum * mean) / (n - 1);
		dev = var > 0 ? sqrt(var) : 0;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", d->lat_min / 1000, d->lat_max / 1000,
		mean / 1000, dev / 1000);
}

static void dir_fields(FILE *f, const struct fio_entry *e, unsigned dir, uint64_t agg)
{
	static const struct dir_stats none;
	const struct dir_stats *d = &e->dir[dir];
	const struct fio_samples *bw = &e->bw[dir];
	uint64_t ms = e->runtime_ms[dir], bwk = 0, iops = 0;
	bool pcts = d->lat_n && d->hist;

	if (ms) {
		bwk = (uint64_t)((unsigned __int128)d->bytes * 1000 / ms / 1024);
		iops = (uint64_t)((unsigned __int128)d->ios * 1000 / ms);
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, d->bytes >> 10, bwk, iops, ms);
	lat_fields(f, &none); /* slat: iorate times I/Os from submission to completion */
	lat_fields(f, d);
	/* fio prints its list's percentiles even without I/O (as 0), then "0%=0" to 20 */
	for (unsigned i = 0; i < TERSE_PCTS; i++) {
		if (i >= NPCTS) {
			fputs(";0%=0", f);
			continue;
		}
		fprintf(f, ";%f%%=%" PRIu64, fio_pcts[i], !pcts ? 0 :
			hist_percentile(d->hist, fio_pcts[i], d->lat_min, d->lat_max) / 1000);
	}
	lat_fields(f, d);
	if (!bw->n) {
		fprintf(f, ";0;0;%f%%;%f;%f", 0.0, 0.0, 0.0);
		return;
	}
	/* unlike its JSON, fio's terse divides the mean as it is, not taken whole */
	double agg_pct = 100.0;
	if (agg) {
		agg_pct = bw->mean * 100 / (double)(agg / 1024);
		agg_pct = agg_pct > 100 ? 100 : agg_pct;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bw->min, bw->max, agg_pct, bw->mean,
		bw->dev);
}

/* A percentage of total as fio's stat_calc_lat(): at least 0.01 where any I/O is. */
static double pct_of(uint64_t n, uint64_t total)
{
	double p = total ? (double)n * 100.0 / (double)total : 0;

	return n && p < 0.01 ? 0.01 : p;
}

static uint64_t num(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

/* The devices, as fio appends them to every line: each with its members' averages (slaves). */
static void disk_fields(FILE *f, const json_t *disks)
{
	size_t i;
	json_t *d;

	json_array_foreach(disks, i, d) {
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%3.2f%%", json_string_value(json_object_get(d, "name")),
			num(d, "read_ios"), num(d, "write_ios"), num(d, "read_merges"),
			num(d, "write_merges"), num(d, "read_ticks"), num(d, "write_ticks"),
			num(d, "in_queue"), json_number_value(json_object_get(d, "util")));
		if (!json_object_get(d, "aggr_read_ios"))
			continue;
		fprintf(f, ";slaves;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%" PRIu64 ";%3.2f%%", num(d, "aggr_read_ios"),
			num(d, "aggr_write_ios"), num(d, "aggr_read_merges"),
			num(d, "aggr_write_merge"), num(d, "aggr_read_ticks"),
			num(d, "aggr_write_ticks"), num(d, "aggr_in_queue"),
			json_number_value(json_object_get(d, "aggr_util")));
	}
}

/* Failed I/Os the entry's jobs went on after (continue_on_error): their count, the first errno. */
static void error_fields(FILE *f, const struct result_set *s, const struct fio_entry *e)
{
	uint64_t n = 0;
	int first = 0;

	for (unsigned i = e->first; i <= e->last; i++) {
		const struct result *r = &s->jobs[i];

		for (unsigned k = 0; k < r->nerrnos; k++) {
			n += r->errnos[k].ios[0] + r->errnos[k].ios[1];
			if (!first && r->errnos[k].ios[0] + r->errnos[k].ios[1])
				first = r->errnos[k].err;
		}
	}
	fprintf(f, ";%" PRIu64 ";%d", n, first);
}

static void entry_line(FILE *f, const struct result_set *s, const struct fio_stats *st,
		       const struct fio_entry *e, const json_t *disks)
{
	char name[32];
	const char *jobname = fio_job_name(&s->jobs[e->first], e->first, name, sizeof(name));

	fprintf(f, "%d;%s;", TERSE_VERSION, FIO_JSON_VERSION);
	/* a name is written as it is, as fio does: a ';' in it is the user's to avoid */
	for (const char *p = jobname; *p; p++)
		fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
	fprintf(f, ";%u;%d", e->groupid, e->error);
	dir_fields(f, e, 0, st->agg[e->groupid][0]);
	dir_fields(f, e, 1, st->agg[e->groupid][1]);
	fprintf(f, ";%f%%;%f%%;0;0;0", e->usr_cpu, e->sys_cpu);
	for (unsigned k = 0; k < 7; k++)
		fprintf(f, ";%3.1f%%", 0.0);
	/* microseconds, the nanosecond ranges folded into the first as fio's terse does */
	for (unsigned k = 0; k < 10; k++) {
		double p = pct_of(e->lat[1][k], e->lat_total);

		if (!k)
			for (unsigned n = 0; n < 10; n++)
				p += e->lat_total ? 100.0 * (double)e->lat[0][n] /
						    (double)e->lat_total : 0;
		fprintf(f, ";%3.2f%%", p);
	}
	for (unsigned k = 0; k < 12; k++)
		fprintf(f, ";%3.2f%%", pct_of(e->lat[2][k], e->lat_total));
	disk_fields(f, disks);
	if (s->jobs[e->last].job.continue_on)
		error_fields(f, s, e);
	fputc('\n', f);
}

static int terse_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	struct fio_stats st;
	json_t *disks;
	int r;

	if ((r = fio_stats_build(&st, s)))
		return r;
	if (!(disks = fio_disk_util(s))) {
		fio_stats_release(&st);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < st.n; i++)
		entry_line(f, s, &st, &st.e[i], disks);
	json_decref(disks);
	fio_stats_release(&st);
	return ferror(f) ? -EIO : 0;
}

static int terse_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	struct result_set s;
	int ret = result_set_view(&s, r, 1);

	if (!ret)
		ret = terse_write_set(f, &s, o);
	result_set_release(&s);
	return ret;
}

const struct report_ops report_fio_terse = {
	.name = "fio-terse",
	.write = terse_write,
	.write_set = terse_write_set,
};
