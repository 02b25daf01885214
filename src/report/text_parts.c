/*
 * The bottom of the text report's family (text.h): what its files share, from a rule and a
 * size to each direction's row, the percentile table, the notes and the system lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "report/verify_fmt.h"
#include "report/summary.h"
#include "report/text.h"
#include "util/escape.h"
#include "util/parse.h"

void text_rule(FILE *f, char c, int n)
{
	for (int i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

const char *text_seconds(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%g s", (double)ns / 1e9);
	return buf;
}

const char *text_cache(enum job_cache c)
{
	switch (c) {
	case CACHE_BUFFERED:
		return "buffered (through the page cache)";
	case CACHE_WRITETHROUGH:
		return "writethrough (O_DSYNC: a write completes once the device has it)";
	case CACHE_DIRECTSYNC:
		return "directsync (O_DIRECT|O_DSYNC: no page cache, writes reach stable storage)";
	case CACHE_DIRECT:
	default:
		return "direct (O_DIRECT: the page cache is bypassed)";
	}
}

double text_cap_rate(double mbps, bool si)
{
	/* Caps are kept in MB/s; --vm-cap-mibps 285 is 298.84416 MB/s, shown back as 285 MiB/s. */
	return si ? mbps : mbps / 1.048576;
}

void text_caps(FILE *f, const char *label, const struct job_caps *c, bool si)
{
	const char *u = si ? "MB/s" : "MiB/s";

	if (c->iops <= 0 && c->mbps <= 0)
		return;
	fprintf(f, "\t%-18s", label);
	if (c->iops > 0)
		fprintf(f, "%g IOPS%s", c->iops, c->mbps > 0 ? ", " : "");
	if (c->mbps > 0)
		fprintf(f, "%g %s", text_cap_rate(c->mbps, si), u);
	if (c->burst_iops > 0 || c->burst_mbps > 0)
		fprintf(f, "; bursts to %g IOPS, %g %s for %g s", c->burst_iops,
			text_cap_rate(c->burst_mbps, si), u, c->burst_seconds);
	fputc('\n', f);
}

/*
 * engine_why may name the engine ("uring (probe succeeded)") or only give the reason. Both are
 * escaped: a result read back from a JSON file may hold anything.
 */
void text_engine(FILE *f, const struct result *r)
{
	const char *name = r->engine[0] ? r->engine : r->job.engine;
	size_t n = strlen(name);
	char e[64], w[256];

	escape_buf(name, e, sizeof(e));
	escape_buf(r->engine_why, w, sizeof(w));
	fprintf(f, "\t%-18s", "engine:");
	if (!r->engine_why[0])
		fprintf(f, "%s\n", name[0] ? e : "?");
	else if (n && strncmp(r->engine_why, name, n) == 0)
		fprintf(f, "%s\n", w);
	else
		fprintf(f, "%s (%s)\n", e, w);
}

void text_system(FILE *f, const struct result *r)
{
	const struct host_info *h = &r->host;
	time_t t = (time_t)(r->start_unix_ms / 1000);
	struct tm tm;
	char a[32], when[40] = "?", e[3][512];

	if (r->start_unix_ms && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("System information:\n\n", f);
	fprintf(f, "\t%-18s%s\n", "computer name:", escape_buf(h->hostname, e[0], sizeof(e[0])));
	fprintf(f, "\t%-18s%s\n", "kernel:", escape_buf(h->kernel, e[1], sizeof(e[1])));
	fprintf(f, "\t%-18s%s (%u CPUs)\n", "cpu:", escape_buf(h->cpu, e[2], sizeof(e[2])),
		h->ncpus);
	fprintf(f, "\t%-18s%s\n", "memory:", fmt_size_human(h->mem_bytes, a, sizeof(a)));
	if (h->clock[0])
		fprintf(f, "\t%-18s%s\n", "clock:",
			strcmp(h->clock, "tsc") ? "CLOCK_MONOTONIC (clock_gettime)"
						: "calibrated TSC (rdtsc)");
	fprintf(f, "\t%-18s%s\n\n", "start time:", when);
}

/* Latency cells print "N/A" when the direction recorded none. */
void text_lat_cell(FILE *f, bool has, double v, int width)
{
	if (has)
		fprintf(f, "%*.3f", width, v);
	else
		fprintf(f, "%*s", width, "N/A");
}

void text_dir_row(FILE *f, const char *label, const struct dir_summary *s, bool si)
{
	fprintf(f, "%-6s%14" PRIu64 " | %12" PRIu64 " | %10.2f | %12.2f | ", label, s->bytes,
		s->ios, si ? s->mbps : s->mibps, s->iops);
	text_lat_cell(f, s->has_lat, s->lat_mean, 12);
	fputs(" | ", f);
	text_lat_cell(f, s->has_lat, s->lat_stdev, 14);
}

/* Columns of the percentile table: read, write, trim, total. */
#define PCT_COLS 4

/* A row of the percentile table: its label, then a cell per column shown. */
static void pct_row(FILE *f, const char *label, const struct dir_summary s[PCT_COLS],
		    const bool shown[PCT_COLS], double (*get)(const struct dir_summary *, unsigned),
		    unsigned i)
{
	fprintf(f, "%8s", label);
	for (unsigned d = 0; d < PCT_COLS; d++) {
		if (!shown[d])
			continue;
		fputs(" | ", f);
		text_lat_cell(f, s[d].has_lat, get(&s[d], i), 12);
	}
	fputc('\n', f);
}

static double pct_min(const struct dir_summary *s, unsigned i)
{
	return s->lat_min;
}

static double pct_max(const struct dir_summary *s, unsigned i)
{
	return s->lat_max;
}

/*
 * The columns of read, write and trim are shown only when they hold latency: total's always
 * is. trim may be NULL.
 */
void text_percentiles_trim(FILE *f, const struct dir_summary in[3], const struct dir_summary *trim)
{
	static const char *const head[PCT_COLS] = {"Read (us)", "Write (us)", "Trim (us)",
						   "Total (us)"};
	const struct dir_summary none = {0};
	const struct dir_summary s[PCT_COLS] = {in[REPORT_READ], in[REPORT_WRITE],
						trim ? *trim : none, in[REPORT_TOTAL]};
	const bool shown[PCT_COLS] = {s[0].has_lat, s[1].has_lat, s[2].has_lat, true};
	int width = 8;

	fprintf(f, "%8s", "%-ile");
	for (unsigned d = 0; d < PCT_COLS; d++)
		if (shown[d]) {
			fprintf(f, " | %12s", head[d]);
			width += 15;
		}
	fputc('\n', f);
	text_rule(f, '-', width);
	pct_row(f, "min", s, shown, pct_min, 0);
	for (unsigned i = 0; i < STATS_NPCT; i++) {
		char name[16];

		pct_row(f, report_pct_label(i, name, sizeof(name)), s, shown, report_pct, i);
	}
	pct_row(f, "max", s, shown, pct_max, 0);
	fputc('\n', f);
}

void text_percentiles(FILE *f, const struct dir_summary s[3])
{
	text_percentiles_trim(f, s, NULL);
}

void text_byte_check(FILE *f, const char *what, uint64_t kernel, uint64_t ours)
{
	fprintf(f, "\t  %-8s %" PRIu64 " B by the kernel, %" PRIu64 " B by iorate: ", what, kernel,
		ours);
	if (kernel == ours)
		fputs("equal\n", f);
	else
		fprintf(f, "the kernel counted %" PRIu64 " B %s\n",
			kernel > ours ? kernel - ours : ours - kernel,
			kernel > ours ? "more" : "less");
}

void text_series(FILE *f, const struct result *r, bool si)
{
	bool credit = false;
	char iv[32];

	for (unsigned i = 0; i < r->nseries; i++)
		if (r->series[i].credit_iops >= 0 || r->series[i].credit_mbps >= 0)
			credit = true;
	/* Rates per second whatever the interval; t is each point's end. */
	fprintf(f, "Series (a point per %s):\n", report_fmt_interval(r->interval_ns, iv, sizeof(iv)));
	fprintf(f, "%8s | %12s | %10s | %12s", "t (s)", "IOPS", si ? "MB/s" : "MiB/s", "p99 (us)");
	if (credit)
		fprintf(f, " | %16s | %16s", "IOPS credit (%)", "MB/s credit (%)");
	fputc('\n', f);
	text_rule(f, '-', credit ? 88 : 50);
	for (unsigned i = 0; i < r->nseries; i++) {
		const struct series_point *p = &r->series[i];
		struct report_rates k;

		report_point_rates(p, &k);
		fprintf(f, "%8.2f | %12.2f | %10.2f | ", p->t, k.iops, si ? k.mbps : k.mibps);
		text_lat_cell(f, p->p99_ns > 0, (double)p->p99_ns / 1e3, 12);
		if (credit) {
			fputs(" | ", f);
			text_lat_cell(f, p->credit_iops >= 0, p->credit_iops, 16);
			fputs(" | ", f);
			text_lat_cell(f, p->credit_mbps >= 0, p->credit_mbps, 16);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

bool text_notes(FILE *f, const struct result *r)
{
	const char *error = report_error(r);

	for (unsigned i = 0; i < r->nnotes; i++) {
		fputs("Note: ", f);
		escape_fputs(r->notes[i], f);
		fputc('\n', f);
	}
	if (r->interrupted)
		fputs("INTERRUPTED: stopped early; the results cover what ran until then.\n", f);
	if (error) {
		fputs("ERROR: ", f);
		escape_fputs(error, f);
		fputc('\n', f);
	}
	return r->nnotes || r->interrupted || error;
}
