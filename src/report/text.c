#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "report/summary.h"

/*
 * The human report, laid out as DiskSpd prints its own so that people who read DiskSpd output
 * find each figure where they expect it: parameters, system, CPU, per-target tables for total,
 * read and write, then a latency percentile table. Every figure names its unit.
 */

#define RULE_WIDTH 100

static const struct report_opts default_opts = { .units = UNITS_IEC };

static void rule(FILE *f, char c, int n)
{
	for (int i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

/* Sizes for reading, rounded to four digits ("1.5 GiB"); exact bytes are printed beside them. */
static const char *human_size(char *buf, size_t len, uint64_t v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double x = (double)v;
	unsigned u = 0;

	while (x >= 1024 && u < 6) {
		x /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", v);
	else
		snprintf(buf, len, "%.4g %s", x, unit[u]);
	return buf;
}

static const char *human_seconds(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%g s", (double)ns / 1e9);
	return buf;
}

static const char *cache_text(enum job_cache c)
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

static void print_caps(FILE *f, const char *label, const struct job_caps *c)
{
	if (c->iops <= 0 && c->mbps <= 0)
		return;
	fprintf(f, "\t%-18s", label);
	if (c->iops > 0)
		fprintf(f, "%g IOPS%s", c->iops, c->mbps > 0 ? ", " : "");
	if (c->mbps > 0)
		fprintf(f, "%g MB/s", c->mbps);
	if (c->burst_iops > 0 || c->burst_mbps > 0)
		fprintf(f, "; bursts to %g IOPS, %g MB/s for %g s", c->burst_iops, c->burst_mbps,
			c->burst_seconds);
	fputc('\n', f);
}

/* engine_why may name the engine ("uring (probe succeeded)") or only give the reason. */
static void print_engine(FILE *f, const struct result *r)
{
	const char *name = r->engine[0] ? r->engine : r->job.engine;
	size_t n = strlen(name);

	fprintf(f, "\t%-18s", "engine:");
	if (!r->engine_why[0])
		fprintf(f, "%s\n", name[0] ? name : "?");
	else if (n && strncmp(r->engine_why, name, n) == 0)
		fprintf(f, "%s\n", r->engine_why);
	else
		fprintf(f, "%s (%s)\n", name, r->engine_why);
}

static void print_params(FILE *f, const struct result *r)
{
	const struct job *j = &r->job;
	char a[32], b[32], c[32];

	fprintf(f, "Command line: %s\n\n", j->command_line ? j->command_line : "(not recorded)");
	fputs("Input parameters:\n\n", f);
	print_engine(f, r);
	fprintf(f, "\t%-18s%" PRIu64 " B (%s)\n", "block size:", j->bs,
		human_size(a, sizeof(a), j->bs));
	fprintf(f, "\t%-18s%s, warm-up %s, cool-down %s\n", "duration:",
		human_seconds(a, sizeof(a), j->time_ns), human_seconds(b, sizeof(b), j->warmup_ns),
		human_seconds(c, sizeof(c), j->cooldown_ns));
	fprintf(f, "\t%-18s%u per target\n", "threads:", j->threads);
	fprintf(f, "\t%-18s%u outstanding I/O%s per thread\n", "depth:", j->depth,
		j->depth == 1 ? "" : "s");
	fprintf(f, "\t%-18s%u %% writes, %u %% reads\n", "mix:", j->write_pct, 100 - j->write_pct);
	if (j->pattern == PATTERN_SEQUENTIAL)
		fprintf(f, "\t%-18ssequential\n", "pattern:");
	else
		fprintf(f, "\t%-18srandom, aligned to %" PRIu64 " B\n", "pattern:",
			j->align ? j->align : j->bs);
	fprintf(f, "\t%-18s%s\n", "cache:", cache_text(j->cache));
	fprintf(f, "\t%-18s%" PRIu64 " (%s)\n", "seed:", j->seed,
		j->seed_set ? "given" : "chosen at random");
	if (j->offset || j->range)
		fprintf(f, "\t%-18sstarts at %" PRIu64 " B, length %s\n", "region:", j->offset,
			j->range ? human_size(b, sizeof(b), j->range) : "to the end of the target");
	if (j->fsync_every)
		fprintf(f, "\t%-18severy %u writes per thread\n", "fsync:", j->fsync_every);
	if (j->rate_iops > 0)
		fprintf(f, "\t%-18sopen loop, %g IOPS per target, %s arrivals\n", "arrival:",
			j->rate_iops, j->arrival == ARRIVAL_POISSON ? "Poisson" : "evenly spaced");
	print_caps(f, "disk cap:", &j->cap);
	print_caps(f, "VM cap:", &j->vm_cap);
	if (j->cap_io_unit)
		fprintf(f, "\t%-18sI/Os above %s count as several\n", "cap I/O unit:",
			human_size(a, sizeof(a), j->cap_io_unit));
	fprintf(f, "\t%-18s%s\n", "fill:",
		j->fill == FILL_ZERO ? "zeros" : "random (incompressible)");
	fprintf(f, "\t%-18s%u\n", "targets:", r->ntargets);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		fprintf(f, "\t  %s: %s (%" PRIu64 " B)%s%s", t->path ? t->path : "?",
			human_size(a, sizeof(a), t->size), t->size,
			t->is_blockdev ? ", block device" : "",
			t->created ? ", created by iorate" : "");
		if (!t->is_blockdev && t->device[0])
			fprintf(f, ", on %s", t->device);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void print_system(FILE *f, const struct result *r)
{
	const struct host_info *h = &r->host;
	time_t t = (time_t)(r->start_unix_ms / 1000);
	struct tm tm;
	char a[32], when[40] = "?";

	if (r->start_unix_ms && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("System information:\n\n", f);
	fprintf(f, "\t%-18s%s\n", "computer name:", h->hostname);
	fprintf(f, "\t%-18s%s\n", "kernel:", h->kernel);
	fprintf(f, "\t%-18s%s (%u CPUs)\n", "cpu:", h->cpu, h->ncpus);
	fprintf(f, "\t%-18s%s\n", "memory:", human_size(a, sizeof(a), h->mem_bytes));
	if (h->clock[0])
		fprintf(f, "\t%-18s%s\n", "clock:",
			strcmp(h->clock, "tsc") ? "CLOCK_MONOTONIC (clock_gettime)"
						: "calibrated TSC (rdtsc)");
	fprintf(f, "\t%-18s%s\n\n", "start time:", when);
}

static void print_cpu(FILE *f, const struct cpu_usage *c)
{
	fprintf(f, "CPU usage (%u CPUs; percent of all CPUs' time):\n", c->ncpus);
	fprintf(f, "\tuser %6.2f %%   system %6.2f %%   iowait %6.2f %%   idle %6.2f %%\n", c->user,
		c->system, c->iowait, c->idle);
	fprintf(f, "\tiorate itself: user %.2f %%, system %.2f %% (percent of one CPU)\n\n",
		c->proc_user, c->proc_system);
}

/* Latency cells print "N/A" when the direction recorded none. */
static void lat_cell(FILE *f, bool has, double v, int width)
{
	if (has)
		fprintf(f, "%*.3f", width, v);
	else
		fprintf(f, "%*s", width, "N/A");
}

static void dir_row(FILE *f, const char *label, const struct dir_summary *s, bool si)
{
	fprintf(f, "%-6s%14" PRIu64 " | %12" PRIu64 " | %10.2f | %12.2f | ", label, s->bytes,
		s->ios, si ? s->mbps : s->mibps, s->iops);
	lat_cell(f, s->has_lat, s->lat_mean, 12);
	fputs(" | ", f);
	lat_cell(f, s->has_lat, s->lat_stdev, 14);
}

/* One table (total, read or write I/O): a row per target, then the run's total. */
static void print_dir_table(FILE *f, const struct result *r, const struct dir_summary (*ts)[3],
			    const struct dir_summary *run, enum report_dir d, bool si)
{
	static const char *const title[REPORT_NDIR] = { "Read I/O", "Write I/O", "Total I/O" };
	char a[32];

	fprintf(f, "%s\n", title[d]);
	fprintf(f, "%20s | %12s | %10s | %12s | %12s | %14s | target\n", "bytes", "I/Os",
		si ? "MB/s" : "MiB/s", "IOPS", "AvgLat (us)", "LatStdDev (us)");
	rule(f, '-', RULE_WIDTH);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		dir_row(f, "", &ts[i][d], si);
		fprintf(f, " | %s (%s)\n", t->path ? t->path : "?",
			human_size(a, sizeof(a), t->size));
	}
	rule(f, '-', RULE_WIDTH);
	dir_row(f, "total:", run, si);
	fputs("\n\n", f);
}

static void print_percentiles(FILE *f, const struct dir_summary *s)
{
	fprintf(f, "%8s | %12s | %12s | %12s\n", "%-ile", "Read (us)", "Write (us)", "Total (us)");
	rule(f, '-', 53);
	fprintf(f, "%8s", "min");
	for (unsigned d = 0; d < REPORT_NDIR; d++) {
		fputs(" | ", f);
		lat_cell(f, s[d].has_lat, s[d].lat_min, 12);
	}
	fputc('\n', f);
	for (unsigned i = 0; i < STATS_NPCT; i++) {
		char name[16];

		fprintf(f, "%8s", report_pct_label(i, name, sizeof(name)));
		for (unsigned d = 0; d < REPORT_NDIR; d++) {
			fputs(" | ", f);
			lat_cell(f, s[d].has_lat, report_pct(&s[d], i), 12);
		}
		fputc('\n', f);
	}
	fprintf(f, "%8s", "max");
	for (unsigned d = 0; d < REPORT_NDIR; d++) {
		fputs(" | ", f);
		lat_cell(f, s[d].has_lat, s[d].lat_max, 12);
	}
	fputs("\n\n", f);
}

static void print_byte_check(FILE *f, const char *what, uint64_t kernel, uint64_t ours)
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

/*
 * For a block device the kernel's own byte counts are the check on ours: with O_DIRECT they
 * must be equal, so a difference is printed, not hidden.
 */
static void print_kernel(FILE *f, const struct result *r)
{
	bool any = false;

	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];
		const struct kernel_counts *k = &t->kernel;

		if (!k->valid)
			continue;
		if (!any)
			fputs("Kernel counters (/proc/diskstats, over the run):\n", f);
		any = true;
		fprintf(f, "\t%s (%" PRIu64 " reads, %" PRIu64 " writes by the kernel):\n", k->name,
			k->read_ios, k->write_ios);
		print_byte_check(f, "read:", k->read_bytes, t->read.bytes);
		print_byte_check(f, "written:", k->write_bytes, t->write.bytes);
	}
	if (any)
		fputc('\n', f);
}

static void print_series(FILE *f, const struct result *r, bool si)
{
	bool credit = false;

	for (unsigned i = 0; i < r->nseries; i++)
		if (r->series[i].credit_iops >= 0 || r->series[i].credit_mbps >= 0)
			credit = true;
	fputs("Per-second series:\n", f);
	fprintf(f, "%8s | %12s | %10s | %12s", "t (s)", "IOPS", si ? "MB/s" : "MiB/s", "p99 (us)");
	if (credit)
		fprintf(f, " | %16s | %16s", "IOPS credit (%)", "MB/s credit (%)");
	fputc('\n', f);
	rule(f, '-', credit ? 88 : 50);
	for (unsigned i = 0; i < r->nseries; i++) {
		const struct series_point *p = &r->series[i];
		struct report_rates k;

		report_point_rates(p, &k);
		fprintf(f, "%8.2f | %12.2f | %10.2f | ", p->t, k.iops, si ? k.mbps : k.mibps);
		lat_cell(f, p->p99_ns > 0, (double)p->p99_ns / 1e3, 12);
		if (credit) {
			fputs(" | ", f);
			lat_cell(f, p->credit_iops >= 0, p->credit_iops, 16);
			fputs(" | ", f);
			lat_cell(f, p->credit_mbps >= 0, p->credit_mbps, 16);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* iorate-mpi: one row per rank, from the rank's own merged histograms. */
static int print_ranks(FILE *f, const struct result *r, bool si)
{
	fprintf(f, "Ranks: %u on %u host%s, start skew %.1f us\n", r->nranks, r->nhosts,
		r->nhosts == 1 ? "" : "s", r->start_skew_us);
	fprintf(f, "%5s | %-16s | %12s | %10s | %10s | %10s | %7s | %6s | targets\n", "rank", "host",
		"IOPS", si ? "MB/s" : "MiB/s", "p50 (us)", "p99 (us)", "errors", "CPU %");
	rule(f, '-', RULE_WIDTH);
	for (unsigned i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];
		struct dir_summary s[REPORT_NDIR];
		int ret = report_summarize(&k->read, &k->write, k->seconds, s);

		if (ret < 0)
			return ret;
		fprintf(f, "%5u | %-16s | %12.2f | %10.2f | ", k->rank, k->host, s[REPORT_TOTAL].iops,
			si ? s[REPORT_TOTAL].mbps : s[REPORT_TOTAL].mibps);
		lat_cell(f, s[REPORT_TOTAL].has_lat, s[REPORT_TOTAL].p50, 10);
		fputs(" | ", f);
		lat_cell(f, s[REPORT_TOTAL].has_lat, s[REPORT_TOTAL].p99, 10);
		fprintf(f, " | %7" PRIu64 " | %6.1f | ", s[REPORT_TOTAL].errors,
			k->cpu.proc_user + k->cpu.proc_system);
		for (unsigned t = 0; t < k->ntargets && k->first_target + t < r->ntargets; t++)
			fprintf(f, "%s%s", t ? ", " : "", r->targets[k->first_target + t].path);
		fputc('\n', f);
		if (k->error[0])
			fprintf(f, "      ERROR: %s\n", k->error);
	}
	fputc('\n', f);
	return 0;
}

static int text_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	struct dir_summary (*ts)[REPORT_NDIR] = NULL;
	struct dir_summary run[REPORT_NDIR];
	const char *error = report_error(r);
	bool si;
	int ret;

	if (!o)
		o = &default_opts;
	si = o->units == UNITS_SI;
	ret = report_summarize(&r->read, &r->write, r->seconds, run);
	if (ret < 0)
		goto out;
	ts = calloc(r->ntargets ? r->ntargets : 1, sizeof(*ts));
	if (!ts) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		ret = report_summarize(&t->read, &t->write, r->seconds, ts[i]);
		if (ret < 0)
			goto out;
	}

	print_params(f, r);
	print_system(f, r);
	fputs("Results:\n", f);
	rule(f, '*', RULE_WIDTH);
	fprintf(f, "\nactual test time:   %.3f s%s\n", r->seconds,
		r->interrupted ? " (INTERRUPTED)" : "");
	fprintf(f, "thread count:       %u (%u per target)\n\n", r->job.threads * r->ntargets,
		r->job.threads);
	print_cpu(f, &r->cpu);
	print_dir_table(f, r, ts, &run[REPORT_TOTAL], REPORT_TOTAL, si);
	print_dir_table(f, r, ts, &run[REPORT_READ], REPORT_READ, si);
	print_dir_table(f, r, ts, &run[REPORT_WRITE], REPORT_WRITE, si);
	print_percentiles(f, run);
	if (r->nranks && (ret = print_ranks(f, r, si)) < 0)
		goto out;
	print_kernel(f, r);
	if (o->series && r->nseries)
		print_series(f, r, si);
	for (unsigned i = 0; i < r->nnotes; i++)
		fprintf(f, "Note: %s\n", r->notes[i]);
	if (r->interrupted)
		fputs("INTERRUPTED: stopped early; the results cover what ran until then.\n", f);
	if (error)
		fprintf(f, "ERROR: %s\n", error);
	ret = ferror(f) ? -EIO : 0;
out:
	free(ts);
	return ret;
}

const struct report_ops report_text = {
	.name = "text",
	.write = text_write,
};
