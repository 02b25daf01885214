/*
 * `iorate mark`'s table in its three formats. The text lays its rows out as CrystalDiskMark's
 * and KDiskMark's text exports do, so that they can be read side by side; cmd_mark.c runs the
 * tests and fills in struct mark_table, mark_score.c computes the figures.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "report/json.h"
#include "report/mark_fmt.h"
#include "util/escape.h"
#include "util/jsonout.h"
#include "util/parse.h"

const char *const mark_dir_names[MARK_NDIRS] = {MARK_DOC_READ, MARK_DOC_WRITE, MARK_DOC_MIX};

/* Each unit as a row names it, and the header line saying what it is. */
static const struct {
	const char *label, *legend;
} units[MARK_NUNITS] = {
	[MARK_UNITS_SI] = {.label = "MB/s",
		.legend = "* MB/s = 1,000,000 bytes/s, as CrystalDiskMark counts"},
	[MARK_UNITS_IEC] = {.label = "MiB/s", .legend = "* MiB/s = 1,048,576 bytes/s"},
	[MARK_UNITS_KDISKMARK] = {.label = "MB/s*",
		.legend = "* MB/s* = 1,024,000 bytes/s: fio's KiB/s divided by "
				  "1000, as KDiskMark shows MB/s"},
};

static const char *const dir_titles[MARK_NDIRS] = {"Read", "Write", "Mix"};

static bool dir_asked(const struct mark_table *m, enum mark_dir d)
{
	return d != MARK_MIX || m->mix;
}

/* A row's test, "  SEQ    1MiB (Q=  8, T= 1): ", as the rows and the model's table start. */
static void row_name(FILE *f, const struct mark_test *t)
{
	char bs[32];

	fmt_size(t->bs, bs, sizeof(bs));
	fprintf(f, "  %s %7s (Q=%3u, T=%2u): ", t->seq ? "SEQ" : "RND", bs, t->depth, t->threads);
}

void mark_fmt_row(FILE *f, const struct mark_test *t, const struct mark_figures *s,
		  enum mark_units u)
{
	row_name(f, t);
	fprintf(f, "%9.3f %s [%9.1f IOPS] <%9.2f us>\n", mark_rate(s, u), units[u].label, s->iops,
		isnan(s->lat_mean_us) ? 0 : s->lat_mean_us);
}

const char *mark_fmt_legend(enum mark_units u)
{
	return units[u].legend;
}

static void text_row(FILE *f, const struct mark_table *m, const struct mark_test *t,
		     const struct mark_cell *c, enum mark_dir d)
{
	struct mark_figures s;

	if (!c->done) {
		row_name(f, t);
		fprintf(f, "%9s\n", d != MARK_READ && m->read_only ? "(skipped)" : "(not run)");
		return;
	}
	mark_score_runs(c->runs, c->nruns, m->score, &s);
	mark_fmt_row(f, t, &s, m->units);
}

static void text_footer(FILE *f, const struct mark_table *m)
{
	char size[32], date[64];

	strftime(date, sizeof(date), "%Y/%m/%d %H:%M:%S", localtime(&m->date));
	fprintf(f, "\nProfile: %s%s", m->title, m->mix ? " + Mix" : "");
	if (m->preset_title)
		fprintf(f, " [%s]", m->preset_title);
	/* fs_use names the directory measured, as the user gave it: escaped. */
	fprintf(f, "\n   Test: %s (x%u) ", fmt_size(m->base->size, size, sizeof(size)), m->runs);
	escape_fputs(m->fs_use, f);
	fprintf(f, "\n   Mode: %s I/O, engine %s%s\n", job_cache_name(m->base->cache), m->engine,
		m->prepare ? ", a preparing run before each test" : "");
	/* CrystalDiskMark's words: its "Interval" is the pause between tests (--pause). */
	fprintf(f, "   Time: Measure %.3g sec / Interval %.3g sec\n", m->measure_ns / 1e9,
		m->pause_ns / 1e9);
	fprintf(f, "   Date: %s\n Kernel: %s\n", date, m->kernel);
}

int mark_fmt_text(FILE *f, const struct mark_table *m)
{
	static const char *const rule = "------------------------------------------------------"
					 "------------------------";

	fprintf(f, "%s\niorate mark %s: CrystalDiskMark's and KDiskMark's tests\n%s\n", rule,
		IORATE_VERSION, rule);
	fprintf(f, "%s\n* KiB = 1024 bytes, MiB = 1024 KiB\n", units[m->units].legend);
	if (m->score == MARK_SCORE_MEAN)
		fprintf(f, "* Score: the mean of %u runs (%s, IOPS, latency), as KDiskMark's "
			   "Default profile\n", m->runs, units[m->units].label);
	else
		fprintf(f, "* Score: the best of %u runs (highest %s and IOPS, lowest latency), as "
			   "CrystalDiskMark\n", m->runs, units[m->units].label);
	for (int d = 0; d < MARK_NDIRS; d++) {
		if (!dir_asked(m, d))
			continue;
		fprintf(f, "\n[%s]", dir_titles[d]);
		if (d == MARK_MIX)
			fprintf(f, " Read %u%% / Write %u%%", m->mix_read_pct,
				100 - m->mix_read_pct);
		fputc('\n', f);
		for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++)
			text_row(f, m, m->tests[i], &m->cell[i][d], d);
	}
	text_footer(f, m);
	return ferror(f) ? -EIO : 0;
}

/* A CSV figure, empty when unknown. */
static void csv_real(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
}

static unsigned write_pct(const struct mark_table *m, enum mark_dir d)
{
	return d == MARK_READ ? 0 : d == MARK_WRITE ? 100 : 100 - m->mix_read_pct;
}

int mark_fmt_csv(FILE *f, const struct mark_table *m)
{
	fprintf(f, "profile,preset,test,direction,pattern,bs,queue_depth,threads,write_pct,score,"
		   "runs,best_run,mbps,mibps,kdiskmark_mbps,iops,lat_mean_us\n");
	for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++)
		for (int d = 0; d < MARK_NDIRS; d++) {
			const struct mark_test *t = m->tests[i];
			const struct mark_cell *c = &m->cell[i][d];
			struct mark_figures s;

			if (!c->done)
				continue;
			mark_score_runs(c->runs, c->nruns, m->score, &s);
			fprintf(f, "%s,%s,%s,%s,%s,%llu,%u,%u,%u,%s,%u,%u,%.3f,%.3f,%.3f,%.1f,",
				m->profile, m->preset, t->name, mark_dir_names[d],
				t->seq ? "sequential" : "random", (unsigned long long)t->bs,
				t->depth, t->threads, write_pct(m, d), mark_score_names[m->score],
				c->nruns, c->best_run + 1, s.mbps, s.mibps, s.kdiskmark_mbps,
				s.iops);
			csv_real(f, "%.2f", s.lat_mean_us);
			fputc('\n', f);
		}
	return ferror(f) ? -EIO : 0;
}

static void set_figures(json_t *o, const struct mark_figures *s)
{
	json_object_set_new(o, "mbps", report_json_real(s->mbps));
	json_object_set_new(o, "mibps", report_json_real(s->mibps));
	json_object_set_new(o, "kdiskmark_mbps", report_json_real(s->kdiskmark_mbps));
	json_object_set_new(o, "iops", report_json_real(s->iops));
	json_object_set_new(o, "lat_mean_us", report_json_real(s->lat_mean_us));
}

/* A run: its figures, then the counts they come from, by direction. */
static json_t *run_json(const struct mark_run *r)
{
	json_t *o = json_object();
	struct mark_figures s;

	mark_run_figures(r, &s);
	json_object_set_new(o, "seconds", json_real(r->seconds));
	set_figures(o, &s);
	for (int w = 0; w < 2; w++)
		json_object_set_new(o, w ? "write" : "read",
				    json_pack("{s:I,s:I,s:I,s:I}", "ios", (json_int_t)r->ios[w],
					      "bytes", (json_int_t)r->bytes[w], "lat_n",
					      (json_int_t)r->lat_n[w], "lat_sum_ns",
					      (json_int_t)r->lat_sum_ns[w]));
	return o;
}

static json_t *cell_json(const struct mark_table *m, const struct mark_cell *c)
{
	json_t *o = json_object(), *runs = json_array(), *best;
	struct mark_figures s;

	mark_score_runs(c->runs, c->nruns, m->score, &s);
	set_figures(o, &s);
	for (unsigned k = 0; k < c->nruns; k++)
		json_array_append_new(runs, run_json(&c->runs[k]));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "best_run", json_integer(c->best_run + 1));
	best = report_json_result(&c->best);
	json_object_set_new(o, MARK_DOC_RESULT, best ? best : json_null());
	return o;
}

static json_t *tests_json(const struct mark_table *m)
{
	json_t *tests = json_array();

	for (unsigned i = 0; i < MARK_MAX_TESTS && m->tests[i]; i++) {
		const struct mark_test *t = m->tests[i];
		json_t *o = json_pack("{s:s,s:s,s:I,s:i,s:i}", MARK_DOC_TEST_NAME, t->name, "pattern",
				      t->seq ? "sequential" : "random", "bs", (json_int_t)t->bs,
				      "depth", (int)t->depth, "threads", (int)t->threads);

		for (int d = 0; d < MARK_NDIRS; d++)
			json_object_set_new(o, mark_dir_names[d],
					    m->cell[i][d].done ? cell_json(m, &m->cell[i][d])
							       : json_null());
		json_array_append_new(tests, o);
	}
	return tests;
}

int mark_fmt_json(FILE *f, const struct mark_table *m)
{
	json_t *root = json_object();
	char date[64];
	int r;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", localtime(&m->date));
	json_object_set_new(root, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(root, "version", json_string(IORATE_VERSION));
	json_object_set_new(root, "origin", json_string("mark"));
	json_object_set_new(root, "command_line", report_json_str(m->base->command_line));
	json_object_set_new(root, "profile", json_string(m->profile));
	json_object_set_new(root, "preset", json_string(m->preset));
	json_object_set_new(root, "score", json_string(mark_score_names[m->score]));
	json_object_set_new(root, MARK_DOC_UNITS, json_string(mark_units_names[m->units]));
	json_object_set_new(root, "mix_read_pct", m->mix ? json_integer(m->mix_read_pct)
							  : json_null());
	json_object_set_new(root, "prepare", json_boolean(m->prepare));
	json_object_set_new(root, "target", report_json_str(m->path));
	json_object_set_new(root, "size", json_integer((json_int_t)m->base->size));
	json_object_set_new(root, "runs", json_integer(m->runs));
	json_object_set_new(root, "measure", json_real(m->measure_ns / 1e9));
	json_object_set_new(root, "pause", json_real(m->pause_ns / 1e9));
	/* pause's name before --pause, kept while the schema is 2 (docs/json.md) */
	json_object_set_new(root, "interval", json_real(m->pause_ns / 1e9));
	json_object_set_new(root, "cache", json_string(job_cache_name(m->base->cache)));
	json_object_set_new(root, "engine", json_string(m->engine));
	json_object_set_new(root, "date", json_string(date));
	json_object_set_new(root, "kernel", report_json_str(m->kernel));
	json_object_set_new(root, MARK_DOC_TESTS, tests_json(m));
	if (!(r = jsonout_dumpf(root, f, JSON_INDENT(2))))
		r = fputc('\n', f) == EOF ? -EIO : 0;
	json_decref(root);
	return r;
}

static const struct mark_format formats[] = {
	{.f = REPORT_TEXT, .write = mark_fmt_text},
	{.f = REPORT_JSON, .write = mark_fmt_json},
	{.f = REPORT_CSV, .write = mark_fmt_csv},
};

const struct report_formats mark_formats = REPORT_FORMATS("iorate mark", formats);
