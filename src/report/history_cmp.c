/*
 * 'iorate history compare' as text and JSON: two stored runs' figures side by side with their
 * ratio and whether each moved beyond run-to-run noise (stats_noise(), src/stats/noise.c), then
 * every parameter they differ in (history_diff.c).
 */
#include "report/history_fmt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/history_int.h"
#include "stats/noise.h"
#include "report/json.h"
#include "util/escape.h"
#include "util/jsonout.h"

#define ESC(s, buf) escape_buf((s), (buf), sizeof(buf))

static double ratio(double a, double b)
{
	return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static const struct metric {
	const char *name, *unit;
	size_t off;
	bool lat;
} metrics[STATS_NMETRICS] = {
	[STATS_IOPS] = {.name = "iops", .unit = "IOPS", .off = offsetof(struct history_fig, iops),
		.lat = false},
	[STATS_MIBPS] = {.name = "mibps", .unit = "MiB/s",
		.off = offsetof(struct history_fig, mibps), .lat = false},
	[STATS_MEAN] = {.name = "mean_us", .unit = "mean µs",
		.off = offsetof(struct history_fig, mean_us), .lat = true},
	[STATS_P99] = {.name = "p99_us", .unit = "p99 µs",
		.off = offsetof(struct history_fig, p99_us), .lat = true},
};

static double metric(const struct history_fig *f, const struct metric *m)
{
	if (m->lat && !f->has_lat)
		return NAN;
	return *(const double *)((const char *)f + m->off);
}

/* The differences as lines and as objects; NULL (both) when out of memory. */
static json_t *differences(const struct history_row *a, const struct history_row *b,
			   json_t **changes)
{
	struct report_diff d = {.text = json_array(), .changes = json_array(), .ida = a->id,
				.idb = b->id};

	if (!d.text || !d.changes || history_differences(a->run, b->run, &d)) {
		json_decref(d.text);
		json_decref(d.changes);
		*changes = NULL;
		return NULL;
	}
	*changes = d.changes;
	return d.text;
}

/* A stored run as the statistics read it: its jobs. */
static struct stats_run run_of(const struct history_row *r)
{
	return (struct stats_run){.jobs = r->run->jobs, .njobs = r->run->njobs};
}

/* The interval the runs' values are taken over: the coarser of their series'. */
static double noise_interval_s(const struct history_row *a, const struct history_row *b)
{
	struct stats_run ra = run_of(a), rb = run_of(b);
	uint64_t ia = stats_interval(&ra), ib = stats_interval(&rb);

	return (double)(ia > ib ? ia : ib) / 1e9;
}

static json_t *noise_test_json(const struct history_row *a, const struct history_row *b)
{
	double iv = noise_interval_s(a, b);

	return json_pack("{s:s,s:b,s:f,s:i,s:o,s:o}", "method", "welch_t", "two_sided", 1,
			 "threshold", STATS_NOISE_ALPHA, "min_samples", STATS_NOISE_MIN_SAMPLES,
			 "interval_s", report_json_real(iv),
			 "min_interval_s", report_json_real(STATS_NOISE_MIN_FRACTION * iv));
}

/* stats_noise() takes report_dir's directions as they are. */
_Static_assert((int)STATS_READ == (int)REPORT_READ && (int)STATS_WRITE == (int)REPORT_WRITE &&
	       (int)STATS_TOTAL == (int)REPORT_TOTAL, "stats_dir and report_dir differ");

/* Why a figure was not tested, in words. */
static const char *untested_words(enum stats_untested why)
{
	switch (why) {
	case STATS_NO_SAMPLES:
		return "no values per interval";
	case STATS_SEVERAL_JOBS:
		return "several jobs: p99 per interval does not add up";
	case STATS_INTERVALS_DIFFER:
		return "different intervals: p99 per interval does not add up";
	case STATS_TOO_FEW:
		return "too few intervals";
	case STATS_TESTED:
		break;
	}
	return "";
}

static json_t *figure_json(const struct history_row *a, const struct history_row *b,
			   const struct history_fig *fa, const struct history_fig *fb, int d,
			   enum stats_metric m)
{
	double x = metric(&fa[d], &metrics[m]), y = metric(&fb[d], &metrics[m]);
	struct stats_run ra = run_of(a), rb = run_of(b);
	struct stats_noise n;

	stats_noise(&ra, &rb, (enum stats_dir)d, m, &n);
	return json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:o}", "direction",
			 report_dir_names[d], "metric", metrics[m].name, "a", report_json_real(x),
			 "b", report_json_real(y), "ratio", report_json_real(ratio(x, y)), "p",
			 report_json_real(n.p),
			 "beyond_noise", n.tested ? json_boolean(n.beyond) : json_null(),
			 "samples_a", (json_int_t)n.na, "samples_b", (json_int_t)n.nb,
			 "untested", n.tested ? json_null() : json_string(untested_words(n.why)));
}

json_t *report_history_compare_json(const struct history_row *a,
				    const struct history_row *b)
{
	json_t *root = json_object(), *figs = json_array(), *changes = NULL;
	json_t *diff = differences(a, b, &changes);
	struct history_fig fa[REPORT_NDIR], fb[REPORT_NDIR];

	if (!root || !figs || !diff) {
		json_decref(root);
		json_decref(figs);
		json_decref(diff);
		json_decref(changes);
		return NULL;
	}
	history_figs(a->run, fa);
	history_figs(b->run, fb);
	for (int d = 0; d < REPORT_NDIR; d++)
		for (int m = 0; m < STATS_NMETRICS; m++)
			json_array_append_new(figs, figure_json(a, b, fa, fb, d, m));
	json_object_set_new(root, "schema", json_integer(REPORT_HISTORY_SCHEMA));
	json_object_set_new(root, "a", report_history_run_json(a));
	json_object_set_new(root, "b", report_history_run_json(b));
	json_object_set_new(root, "differences", diff);
	json_object_set_new(root, "changes", changes);
	json_object_set_new(root, "noise_test", noise_test_json(a, b));
	json_object_set_new(root, "figures", figs);
	return root;
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

/* "yes  p < 0.0001", "no   p = 0.41", or why it was not tested ("-": no values per interval). */
static void fmt_noise(const struct stats_noise *n, char *buf, size_t len)
{
	if (!n->tested && n->why == STATS_NO_SAMPLES)
		snprintf(buf, len, "-");
	else if (!n->tested)
		snprintf(buf, len, "- (%s)", untested_words(n->why));
	else if (n->p < 1e-4)
		snprintf(buf, len, "%-3s  p < 0.0001", n->beyond ? "yes" : "no");
	else
		snprintf(buf, len, "%-3s  p = %.2g", n->beyond ? "yes" : "no", n->p);
}

/* The metric lines: per direction either run did, each figure of both, their ratio, noise. */
static void compare_figures(FILE *f, const struct history_row *a, const struct history_row *b)
{
	struct history_fig fa[REPORT_NDIR], fb[REPORT_NDIR];

	history_figs(a->run, fa);
	history_figs(b->run, fb);
	for (int d = 0; d < REPORT_NDIR; d++) {
		if (d < 2 && !fa[d].ios && !fb[d].ios)
			continue; /* a direction neither run did */
		for (int m = 0; m < STATS_NMETRICS; m++) {
			double x = metric(&fa[d], &metrics[m]), y = metric(&fb[d], &metrics[m]);
			double q = ratio(x, y);
			char name[32], sx[32], sy[32], sq[32] = "-", sn[96];
			struct stats_run ra = run_of(a), rb = run_of(b);
			struct stats_noise n;

			stats_noise(&ra, &rb, (enum stats_dir)d, (enum stats_metric)m,
				      &n);
			snprintf(name, sizeof(name), "%s %s", report_dir_names[d], metrics[m].unit);
			fmt_fig(x, metrics[m].lat, sx, sizeof(sx));
			fmt_fig(y, metrics[m].lat, sy, sizeof(sy));
			if (isfinite(q))
				snprintf(sq, sizeof(sq), "%.4g", q);
			fmt_noise(&n, sn, sizeof(sn));
			/* µ is two bytes: one more column of width for the names holding it */
			fprintf(f, metrics[m].lat ? "%-17s %18s %18s %10s  %s\n"
						  : "%-16s %18s %18s %10s  %s\n",
				name, sx, sy, sq, sn);
		}
	}
}

static void compare_head(FILE *f, const struct history_row *a, const struct history_row *b)
{
	const struct result_set *sa = a->run, *sb = b->run;
	char da[32], db[32], ha[64], hb[64], ea[256], eb[256];

	snprintf(ha, sizeof(ha), "run %lld", (long long)a->id);
	snprintf(hb, sizeof(hb), "run %lld", (long long)b->id);
	fprintf(f, "%-16s %18s %18s %10s  %s\n", "", ha, hb, "ratio", "beyond noise?");
	fprintf(f, "%-16s %18s %18s\n", "date",
		history_date((int64_t)result_set_start_ms(sa), da, sizeof(da)),
		history_date((int64_t)result_set_start_ms(sb), db, sizeof(db)));
	fprintf(f, "%-16s %18.18s %18.18s\n", "host", ESC(sa->jobs[0].host.hostname, ea),
		ESC(sb->jobs[0].host.hostname, eb));
	if (sa->njobs > 1 || sb->njobs > 1)
		fprintf(f, "%-16s %18u %18u\n", "jobs", sa->njobs, sb->njobs);
	if (a->label || b->label)
		fprintf(f, "%-16s %18.18s %18.18s\n", "label", ESC(a->label ?: "-", ea),
			ESC(b->label ?: "-", eb));
}

void report_history_compare_text(FILE *f, const struct history_row *a,
				 const struct history_row *b)
{
	const struct result_set *sa = a->run, *sb = b->run;
	json_t *changes = NULL, *diff = differences(a, b, &changes), *v;
	size_t i;

	compare_head(f, a, b);
	compare_figures(f, a, b);
	double iv = noise_interval_s(a, b);

	fprintf(f, "\nbeyond noise: Welch's t-test (two-sided) of the runs' values per %g s "
		"(the coarser series), p < %g;\nintervals of %g s or more count, and each run needs "
		"%d of them. \"-\": no values per\ninterval (latency per interval is of read and "
		"write together: a direction's mean and\np99 are tested when both runs did that "
		"direction alone).\n", iv, STATS_NOISE_ALPHA,
		STATS_NOISE_MIN_FRACTION * iv, STATS_NOISE_MIN_SAMPLES);
	if (!diff)
		fprintf(f, "\nthe parameters could not be compared: out of memory\n");
	else if (json_array_size(diff))
		fprintf(f, "\nthe runs differ in:\n");
	else
		fprintf(f, "\nthe runs differ in no parameter\n");
	json_array_foreach(diff, i, v) {
		fputs("  ", f);
		escape_fputs(json_string_value(v), f);
		fputc('\n', f);
	}
	if (*history_status(sa) || *history_status(sb))
		fprintf(f, "\nnote: run %lld %s, run %lld %s\n", (long long)a->id,
			*history_status(sa) ? history_status(sa) : "completed", (long long)b->id,
			*history_status(sb) ? history_status(sb) : "completed");
	json_decref(diff);
	json_decref(changes);
}

int history_compare_fmt_text(FILE *f, const struct history_compare *c)
{
	report_history_compare_text(f, c->a, c->b);
	return ferror(f) ? -EIO : 0;
}

int history_compare_fmt_json(FILE *f, const struct history_compare *c)
{
	json_t *o = report_history_compare_json(c->a, c->b);
	int r = o ? jsonout_dumpf(o, f, JSON_INDENT(2)) : -ENOMEM;

	json_decref(o);
	if (fputc('\n', f) == EOF && !r)
		r = -EIO;
	return r;
}

static const struct history_compare_format formats[] = {
	{.f = REPORT_TEXT, .write = history_compare_fmt_text},
	{.f = REPORT_JSON, .write = history_compare_fmt_json},
};

const struct report_formats history_compare_formats = REPORT_FORMATS("iorate history compare",
								     formats);
