/*
 * The history's listing as text, CSV and JSON: 'iorate history list' (src/cmd/cmd_history.c),
 * from each stored run's struct result_set: one job's own figures, or the total of several;
 * and what the comparison (history_cmp.c) shares with it.
 */
#include "report/history_fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/history_int.h"
#include "report/json.h"
#include "report/summary.h"
#include "util/escape.h"
#include "util/jsonout.h"
#include "util/parse.h"

/*
 * The text tables print what the history holds as it was saved or imported: host names,
 * labels, paths, command lines, notes. Each such string is escaped (util/escape.h); the JSON
 * and CSV outputs escape by their own rules.
 */
#define ESC(s, buf) escape_buf((s), (buf), sizeof(buf))

void history_figs(const struct result_set *run, struct history_fig f[REPORT_NDIR])
{
	const struct result *r = &run->jobs[0];
	bool one = run->njobs == 1;
	struct dir_summary s[REPORT_NDIR];
	bool ok = one ? report_summarize(&r->read, &r->write, &r->trim, r->seconds, s) == 0
		      : report_summarize(&run->total.read, &run->total.write, &run->total.trim, run->total.seconds,
					 s) == 0;

	for (int d = 0; d < REPORT_NDIR; d++)
		f[d] = ok ? (struct history_fig){.ios = s[d].ios, .iops = s[d].iops,
						 .mibps = s[d].mibps, .has_lat = s[d].has_lat,
						 .mean_us = s[d].lat_mean, .p99_us = s[d].p99}
			  : (struct history_fig){.iops = NAN, .mibps = NAN};
}

const char *history_engine(const struct result *r)
{
	return r->engine[0] ? r->engine : r->job.engine;
}

double history_seconds(const struct result_set *run)
{
	return run->njobs == 1 ? run->jobs[0].seconds : run->total.seconds;
}

static bool interrupted_of(const struct result_set *run)
{
	return run->njobs == 1 ? run->jobs[0].interrupted : run->total.interrupted;
}

/*
 * Which workload parameters every job of the run shares (all of them for one job): a listing
 * shows those, and "*" or null for the others.
 */
struct shared {
	bool bs, threads, depth, write, pattern, cache, engine, time, limits;
};

static bool same_caps(const struct job_caps *x, const struct job_caps *y)
{
	return x->iops == y->iops && x->mbps == y->mbps && x->burst_iops == y->burst_iops &&
	       x->burst_mbps == y->burst_mbps && x->burst_seconds == y->burst_seconds;
}

/* The emulated caps, the emulation profile and the open loop. */
static bool same_limits(const struct job *a, const struct job *b)
{
	return same_caps(&a->cap, &b->cap) && same_caps(&a->vm_cap, &b->vm_cap) &&
	       a->rate_iops == b->rate_iops && a->arrival == b->arrival &&
	       !strcmp(a->emulate ? a->emulate : "", b->emulate ? b->emulate : "");
}

static void shared_of(const struct result_set *run, struct shared *h)
{
	const struct job *a = &run->jobs[0].job;

	*h = (struct shared){.bs = true, .threads = true, .depth = true, .write = true,
		.pattern = true, .cache = true, .engine = true, .time = true, .limits = true};
	for (unsigned i = 1; i < run->njobs; i++) {
		const struct job *b = &run->jobs[i].job;

		h->bs &= a->bs == b->bs && !b->nbs_read && !b->nbs_write;
		h->threads &= a->threads == b->threads;
		h->depth &= a->depth == b->depth;
		h->write &= a->write_pct == b->write_pct;
		h->pattern &= a->pattern == b->pattern;
		h->cache &= a->cache == b->cache;
		h->engine &= !strcmp(history_engine(&run->jobs[0]), history_engine(&run->jobs[i]));
		h->time &= a->time_ns == b->time_ns;
		h->limits &= same_limits(a, b);
	}
}

const char *history_date(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "?");
	return buf;
}

static json_t *caps_json(const struct job_caps *c)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "iops", report_json_real(c->iops), "mbps",
			 report_json_real(c->mbps), "burst_iops", report_json_real(c->burst_iops),
			 "burst_mbps", report_json_real(c->burst_mbps), "burst_seconds",
			 report_json_real(c->burst_seconds));
}

/* The caps, the profile and the open loop (as in docs/json.md's params), or nulls. */
static void limits_json(json_t *o, const struct job *j, bool shared)
{
	static const char *const arrival[] = {"closed", "fixed", "poisson"};

	json_object_set_new(o, "cap", shared ? caps_json(&j->cap) : json_null());
	json_object_set_new(o, "vm_cap", shared ? caps_json(&j->vm_cap) : json_null());
	json_object_set_new(o, "emulate", shared ? report_json_str(j->emulate) : json_null());
	json_object_set_new(o, "rate_iops", shared ? report_json_real(j->rate_iops) : json_null());
	json_object_set_new(o, "arrival", shared ? json_string(arrival[j->arrival % 3])
						 : json_null());
}

/* The workload; for several jobs, what they share (null where they differ). */
static json_t *params_json(const struct result_set *run)
{
	const struct result *r = &run->jobs[0];
	const struct job *j = &r->job;
	struct shared h;
	json_t *o;

	shared_of(run, &h);
	o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "bs", h.bs ? result_json_u64(j->bs) : json_null(),
			 "threads", h.threads ? json_integer(j->threads) : json_null(),
			 "depth", h.depth ? json_integer(j->depth) : json_null(),
			 "write", h.write ? json_integer(j->write_pct) : json_null(),
			 "pattern",
			 h.pattern ? json_string(job_pattern_name(j->pattern)) : json_null(),
			 "cache", h.cache ? json_string(job_cache_name(j->cache)) : json_null(),
			 "engine", h.engine ? report_json_str(history_engine(r)) : json_null(),
			 "time", h.time ? report_json_real((double)j->time_ns / 1e9) : json_null());
	if (o)
		limits_json(o, j, h.limits);
	return o;
}

json_t *report_history_run_json(const struct history_row *e)
{
	const struct result_set *run = e->run;
	const struct result *r = &run->jobs[0];
	json_t *o = json_object(), *t = json_array();
	struct history_fig f[REPORT_NDIR];

	history_figs(run, f);
	json_object_set_new(o, "id", json_integer(e->id));
	json_object_set_new(o, "start_unix_ms", result_json_u64(result_set_start_ms(run)));
	json_object_set_new(o, "label", report_json_str(e->label));
	json_object_set_new(o, "host", report_json_str(r->host.hostname));
	json_object_set_new(o, "kernel", report_json_str(r->host.kernel));
	json_object_set_new(o, "command_line", report_json_str(r->job.command_line));
	json_object_set_new(o, "origin", report_json_str(r->job.origin));
	json_object_set_new(o, "jobs", json_integer(run->njobs));
	json_object_set_new(o, "params", params_json(run));
	json_object_set_new(o, "seconds", report_json_real(history_seconds(run)));
	json_object_set_new(o, "interrupted", json_boolean(interrupted_of(run)));
	json_object_set_new(o, "error", report_json_str(result_set_error(run)));
	for (unsigned j = 0; j < run->njobs; j++)
		for (unsigned i = 0; i < run->jobs[j].ntargets; i++)
			json_array_append_new(t, report_json_str(run->jobs[j].targets[i].path));
	json_object_set_new(o, "targets", t);
	for (int d = 0; d < REPORT_NDIR; d++) {
		double mean = f[d].has_lat ? f[d].mean_us : NAN;
		double p99 = f[d].has_lat ? f[d].p99_us : NAN;

		json_object_set_new(o, report_dir_names[d],
				    json_pack("{s:o,s:o,s:o,s:o,s:o}",
					      "ios", result_json_u64(f[d].ios),
					      "iops", report_json_real(f[d].iops),
					      "mibps", report_json_real(f[d].mibps),
					      "mean_us", report_json_real(mean),
					      "p99_us", report_json_real(p99)));
	}
	return o;
}

void report_history_csv_head(FILE *f)
{
	fprintf(f, "id,start_unix_ms,date,label,host,kernel,bs,threads,depth,write_pct,pattern,"
		   "cache,engine,time_s,seconds,interrupted,error,targets");
	for (int d = 0; d < REPORT_NDIR; d++) {
		const char *n = report_dir_names[d];

		fprintf(f, ",%s_ios,%s_iops,%s_mibps,%s_mean_us,%s_p99_us", n, n, n, n, n);
	}
	fprintf(f, ",command_line,jobs,cap_iops,cap_mbps,burst_iops,burst_mbps,burst_seconds,"
		   "vm_cap_iops,vm_cap_mbps,vm_burst_iops,vm_burst_mbps,vm_burst_seconds,"
		   "rate_iops,arrival,emulate\n");
}

/* The workload columns; for several jobs, empty where they differ. */
static void csv_workload(FILE *f, const struct result_set *run)
{
	const struct result *r = &run->jobs[0];
	const struct job *j = &r->job;
	struct shared h;

	shared_of(run, &h);
	if (h.bs)
		fprintf(f, "%llu", (unsigned long long)j->bs);
	fputc(',', f);
	if (h.threads)
		fprintf(f, "%u", j->threads);
	fputc(',', f);
	if (h.depth)
		fprintf(f, "%u", j->depth);
	fputc(',', f);
	if (h.write)
		fprintf(f, "%u", j->write_pct);
	fprintf(f, ",%s,%s,", h.pattern ? job_pattern_name(j->pattern) : "",
		h.cache ? job_cache_name(j->cache) : "");
	report_csv_field(f, h.engine ? history_engine(r) : NULL);
	fputc(',', f);
	if (h.time)
		fprintf(f, "%g", (double)j->time_ns / 1e9);
}

/* A real with the fewest digits that read back exactly: 104.8576, 1000. */
static void csv_real(FILE *f, double v)
{
	char buf[40];
	size_t n;

	jsonout_real(v, buf, sizeof(buf));
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = 0;
	fprintf(f, ",%s", buf);
}

/* The caps, the open loop and the profile; for several jobs, empty where they differ. */
static void csv_limits(FILE *f, const struct result_set *run)
{
	static const char *const arrival[] = {"closed", "fixed", "poisson"};
	const struct job *j = &run->jobs[0].job;
	struct shared h;

	shared_of(run, &h);
	if (!h.limits) {
		fputs(",,,,,,,,,,,,,", f);
		return;
	}
	for (int i = 0; i < 2; i++) {
		const struct job_caps *c = i ? &j->vm_cap : &j->cap;

		csv_real(f, c->iops);
		csv_real(f, c->mbps);
		csv_real(f, c->burst_iops);
		csv_real(f, c->burst_mbps);
		csv_real(f, c->burst_seconds);
	}
	csv_real(f, j->rate_iops);
	fprintf(f, ",%s,", arrival[j->arrival % 3]);
	report_csv_field(f, j->emulate);
}

void report_history_csv_row(FILE *f, const struct history_row *e)
{
	const struct result_set *run = e->run;
	const struct result *r = &run->jobs[0];
	uint64_t start = result_set_start_ms(run);
	struct history_fig g[REPORT_NDIR];
	char date[32];
	bool first = true;

	history_figs(run, g);
	fprintf(f, "%lld,%llu,%s,", (long long)e->id, (unsigned long long)start,
		   history_date((int64_t)start, date, sizeof(date)));
	report_csv_field(f, e->label);
	fputc(',', f);
	report_csv_field(f, r->host.hostname);
	fputc(',', f);
	report_csv_field(f, r->host.kernel);
	fputc(',', f);
	csv_workload(f, run);
	fprintf(f, ",%g,%d,", history_seconds(run), interrupted_of(run));
	report_csv_field(f, result_set_error(run));
	fputc(',', f);
	for (unsigned j = 0; j < run->njobs; j++)
		for (unsigned k = 0; k < run->jobs[j].ntargets; k++) {
			/* ';' would be ambiguous: quote each */
			fputs(first ? "" : " ", f);
			report_csv_field(f, run->jobs[j].targets[k].path);
			first = false;
		}
	for (int d = 0; d < REPORT_NDIR; d++) {
		fprintf(f, ",%llu,%.1f,%.3f,", (unsigned long long)g[d].ios, g[d].iops, g[d].mibps);
		if (g[d].has_lat)
			fprintf(f, "%.3f,%.3f", g[d].mean_us, g[d].p99_us);
		else
			fputc(',', f);
	}
	fputc(',', f);
	report_csv_field(f, r->job.command_line);
	fprintf(f, ",%u", run->njobs);
	csv_limits(f, run);
	fputc('\n', f);
}

const char *history_status(const struct result_set *run)
{
	return result_set_error(run) ? "failed" : interrupted_of(run) ? "interrupted" : "";
}

void report_history_list_head_w(FILE *f, int limits)
{
	fprintf(f, "%5s  %-16s  %-12s %7s %8s %4s %-4s %-6s %6s %11s %10s %10s  %-*s %s\n", "ID",
		   "DATE", "HOST", "BS", "TxQ", "W%", "PAT", "ENGINE", "SECS", "IOPS", "MiB/s",
		   "P99 µs", limits, "LIMITS", "TARGETS");
}

void report_history_list_head(FILE *f)
{
	report_history_list_head_w(f, 16);
}

/* A rate with no needless digits: "1000", "104.9". */
static int put_rate(char *buf, size_t len, const char *pfx, double v, const char *unit)
{
	if (v == floor(v) && v < 1e12)
		return snprintf(buf, len, "%s%.0f%s", pfx, v, unit);
	return snprintf(buf, len, "%s%.4g%s", pfx, v, unit);
}

/* "cap 1000/s,100MB/s+burst": a cap's IOPS and MB/s, and whether it bursts. */
static size_t put_caps(char *buf, size_t len, const char *sep, const char *name,
		       const struct job_caps *c)
{
	size_t n = 0;

	if (c->iops <= 0 && c->mbps <= 0)
		return 0;
#define LEFT (n < len ? len - n : 0)
	n += (size_t)snprintf(buf + n, LEFT, "%s%s ", sep, name);
	if (c->iops > 0)
		n += (size_t)put_rate(buf + n, LEFT, "", c->iops, "/s");
	if (c->mbps > 0)
		n += (size_t)put_rate(buf + n, LEFT, c->iops > 0 ? "," : "", c->mbps, "MB/s");
	if (c->burst_iops > 0 || c->burst_mbps > 0)
		n += (size_t)snprintf(buf + n, LEFT, "+burst");
#undef LEFT
	return n;
}

/*
 * A job's limits in a few characters: an emulation profile by its name (it set the caps),
 * else the disk and VM caps ("cap 1000/s", "vm 200MB/s"), and an open loop ("open 500/s");
 * "-" for none.
 */
static const char *limits_text(const struct job *j, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	if (j->emulate) {
		escape_buf(j->emulate, buf, len);
		n = strlen(buf);
	} else {
		n += put_caps(buf, len, "", "cap", &j->cap);
		if (n < len)
			n += put_caps(buf + n, len - n, n ? " " : "", "vm", &j->vm_cap);
	}
	if (j->rate_iops > 0 && n < len)
		put_rate(buf + n, len - n, n ? " open " : "open ", j->rate_iops,
			 j->arrival == ARRIVAL_POISSON ? "/s~" : "/s");
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

/* The targets of every job, the first two by name; then how many jobs, when several. */
static void list_targets(FILE *f, const struct result_set *run)
{
	unsigned n = 0;

	for (unsigned j = 0; j < run->njobs; j++)
		for (unsigned k = 0; k < run->jobs[j].ntargets; k++, n++) {
			const char *p = run->jobs[j].targets[k].path;

			if (n >= 2)
				continue;
			fputs(n ? " " : "", f);
			escape_fputs(p ? p : "?", f);
		}
	if (n > 2)
		fprintf(f, " (+%u)", n - 2);
	if (run->njobs > 1)
		fprintf(f, " [%u jobs]", run->njobs);
}

void report_history_list_row_pre(FILE *f, const struct history_row *e)
{
	const struct result_set *run = e->run;
	const struct result *r = &run->jobs[0];
	char date[32], bs[32] = "*", tq[32] = "*", host[256], eng[64], p99[32] = "-", w[8] = "*";
	struct history_fig g[REPORT_NDIR];
	struct shared h;

	history_figs(run, g);
	shared_of(run, &h);
	if (h.threads && h.depth)
		snprintf(tq, sizeof(tq), "%ux%u", r->job.threads, r->job.depth);
	if (h.bs)
		fmt_size(r->job.bs, bs, sizeof(bs));
	if (h.write)
		snprintf(w, sizeof(w), "%u", r->job.write_pct);
	if (g[REPORT_TOTAL].has_lat)
		report_fmt_us(g[REPORT_TOTAL].p99_us, p99, sizeof(p99));
	history_date((int64_t)result_set_start_ms(run), date, sizeof(date));
	fprintf(f, "%5lld  %-16s  %-12.12s %7s %8s %4s %-4s %-6s %6.1f %11.0f %10.2f %9s  ",
		   (long long)e->id, date,
		   ESC(r->host.hostname, host), bs, tq, w,
		   !h.pattern ? "*" : r->job.pattern == PATTERN_SEQUENTIAL ? "seq" : "rand",
		   !h.engine ? "*" : history_engine(r)[0] ? ESC(history_engine(r), eng) : "?",
		   history_seconds(run), g[REPORT_TOTAL].iops, g[REPORT_TOTAL].mibps, p99);
}

const char *report_history_list_limits(const struct history_row *e, char *buf, size_t len)
{
	struct shared h;

	shared_of(e->run, &h);
	if (h.limits)
		return limits_text(&e->run->jobs[0].job, buf, len);
	snprintf(buf, len, "*");
	return buf;
}

void report_history_list_row_post(FILE *f, const struct history_row *e)
{
	list_targets(f, e->run);
	if (*history_status(e->run))
		fprintf(f, " [%s]", history_status(e->run));
	if (e->label) {
		fputs("  \"", f);
		escape_fputs(e->label, f);
		fputc('"', f);
	}
	fputc('\n', f);
}

void report_history_list_row(FILE *f, const struct history_row *e)
{
	char lim[256];

	report_history_list_row_pre(f, e);
	fprintf(f, "%-16s ", report_history_list_limits(e, lim, sizeof(lim)));
	report_history_list_row_post(f, e);
}
