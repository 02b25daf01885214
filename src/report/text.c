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

/*
 * The human report, laid out as DiskSpd prints its own so that people who read DiskSpd output
 * find each figure where they expect it: parameters, system, CPU, per-target tables for total,
 * read and write, then a latency percentile table. Every figure names its unit.
 */

static const struct report_opts default_opts = { .units = UNITS_IEC };

static void print_params(FILE *f, const struct result *r, bool si)
{
	const struct job *j = &r->job;
	char a[32], b[32], c[32];

	/* Paths, the command line, notes and errors come from outside: escaped (util/escape.h). */
	fputs("Command line: ", f);
	escape_fputs(j->command_line ? j->command_line : "(not recorded)", f);
	fputs("\n\n", f);
	fputs("Input parameters:\n\n", f);
	text_engine(f, r);
	fprintf(f, "\t%-18s%" PRIu64 " B (%s)\n", "block size:", j->bs,
		fmt_size_human(j->bs, a, sizeof(a)));
	fprintf(f, "\t%-18s%s, warm-up %s, cool-down %s\n", "duration:",
		j->time_ns ? text_seconds(a, sizeof(a), j->time_ns)
			   : "none (each thread stops after its --io-size or --ios)",
		text_seconds(b, sizeof(b), j->warmup_ns), text_seconds(c, sizeof(c), j->cooldown_ns));
	if (j->shared_threads && j->ntargets > 1)
		fprintf(f, "\t%-18s%u, each serving every target\n", "threads:", j->threads);
	else
		fprintf(f, "\t%-18s%u per target\n", "threads:", j->threads);
	fprintf(f, "\t%-18s%u outstanding I/O%s per thread\n", "depth:", j->depth,
		j->depth == 1 ? "" : "s");
	if (job_trims(j))
		fprintf(f, "\t%-18s%u %% writes, %u %% trims, %u %% reads%s\n", "mix:", j->write_pct,
			j->trim_pct, 100 - j->write_pct - j->trim_pct,
			j->trim_write ? "; each write trims its blocks first" : "");
	else
		fprintf(f, "\t%-18s%u %% writes, %u %% reads\n", "mix:", j->write_pct,
			100 - j->write_pct);
	if (j->pattern == PATTERN_SEQUENTIAL)
		fprintf(f, "\t%-18ssequential\n", "pattern:");
	else
		fprintf(f, "\t%-18srandom, aligned to %" PRIu64 " B\n", "pattern:",
			j->align ? j->align : j->bs);
	fprintf(f, "\t%-18s%s\n", "cache:", text_cache(j->cache));
	fprintf(f, "\t%-18s%" PRIu64 " (%s)\n", "seed:", j->seed,
		j->seed_set ? "given" : "chosen at random");
	if (j->offset || j->range)
		fprintf(f, "\t%-18sstarts at %" PRIu64 " B, length %s\n", "region:", j->offset,
			j->range ? fmt_size_human(j->range, b, sizeof(b)) : "to the end of the target");
	if (j->fsync_every)
		fprintf(f, "\t%-18severy %u writes per thread\n", "fsync:", j->fsync_every);
	if (j->rate_iops > 0)
		fprintf(f, "\t%-18sopen loop, %g IOPS per target, %s arrivals\n", "arrival:",
			j->rate_iops, j->arrival == ARRIVAL_POISSON ? "Poisson" : "evenly spaced");
	text_caps(f, "disk cap:", &j->cap, si);
	text_caps(f, "VM cap:", &j->vm_cap, si);
	if (j->cap_io_unit)
		fprintf(f, "\t%-18sI/Os above %s count as several\n", "cap I/O unit:",
			fmt_size_human(j->cap_io_unit, a, sizeof(a)));
	fprintf(f, "\t%-18s%s\n", "fill:",
		j->fill == FILL_ZERO ? "zeros" : "random (incompressible)");
	fprintf(f, "\t%-18s%u\n", "targets:", r->ntargets);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		fputs("\t  ", f);
		escape_fputs(t->path ? t->path : "?", f);
		fprintf(f, ": %s (%" PRIu64 " B)%s%s", fmt_size_human(t->size, a, sizeof(a)), t->size,
			t->is_blockdev ? ", block device" : "",
			t->created ? ", created by iorate" : "");
		if (!t->is_blockdev && t->device[0])
			fprintf(f, ", on %s", escape_buf(t->device, b, sizeof(b)));
		if (t->opened)
			fprintf(f, ", opened %s", escape_buf(t->opened, b, sizeof(b)));
		fputc('\n', f);
	}
	fputc('\n', f);
}

void text_cpu(FILE *f, const struct cpu_usage *c)
{
	fprintf(f, "CPU usage (%u CPUs; percent of all CPUs' time):\n", c->ncpus);
	fprintf(f, "\tuser %6.2f %%   system %6.2f %%   iowait %6.2f %%   idle %6.2f %%\n", c->user,
		c->system, c->iowait, c->idle);
	fprintf(f, "\tiorate itself: user %.2f %%, system %.2f %% (percent of one CPU)\n\n",
		c->proc_user, c->proc_system);
}

/*
 * One table (total, read, write or trim I/O): a row per target, then the run's total. Each
 * target's row is rows[i] (the trims' are summarized here from the targets, when rows is NULL).
 */
static void dir_table(FILE *f, const char *title, const struct result *r,
		      const struct dir_summary (*rows)[3], enum report_dir d,
		      const struct dir_summary *run, bool si)
{
	char a[32];

	fprintf(f, "%s\n", title);
	fprintf(f, "%20s | %12s | %10s | %12s | %12s | %14s | target\n", "bytes", "I/Os",
		si ? "MB/s" : "MiB/s", "IOPS", "AvgLat (us)", "LatStdDev (us)");
	text_rule(f, '-', RULE_WIDTH);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];
		struct dir_summary s;

		if (!rows)
			dir_stats_summarize(&t->trim, r->seconds, &s);
		text_dir_row(f, "", rows ? &rows[i][d] : &s, si);
		fputs(" | ", f);
		escape_fputs(t->path ? t->path : "?", f);
		fprintf(f, " (%s)\n", fmt_size_human(t->size, a, sizeof(a)));
	}
	text_rule(f, '-', RULE_WIDTH);
	text_dir_row(f, "total:", run, si);
	fputs("\n\n", f);
}

static void print_dir_table(FILE *f, const struct result *r, const struct dir_summary (*ts)[3],
			    const struct dir_summary *run, enum report_dir d, bool si)
{
	static const char *const title[REPORT_NDIR] = { "Read I/O", "Write I/O", "Total I/O" };

	dir_table(f, title[d], r, ts, d, run, si);
}

/* The trims' table, where the run trimmed: a row per target, then the run's. */
static void print_trim_table(FILE *f, const struct result *r, const struct dir_summary *run,
			     bool si)
{
	dir_table(f, "Trim I/O", r, NULL, REPORT_READ, run, si);
}

/*
 * For a block device the kernel's own byte counts are the check on ours: with O_DIRECT they
 * must be equal, so a difference is printed, not hidden.
 */
static void print_verify(FILE *f, const struct result *r)
{
	const char **paths = calloc(r->ntargets ? r->ntargets : 1, sizeof(*paths));

	for (unsigned i = 0; paths && i < r->ntargets; i++)
		paths[i] = r->targets[i].path;
	report_verify_text(f, &r->verify, paths, paths ? r->ntargets : 0);
	free(paths);
}

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
		char name[sizeof(k->name) * 4];

		fprintf(f, "\t%s (%" PRIu64 " reads, %" PRIu64 " writes by the kernel):\n",
			escape_buf(k->name, name, sizeof(name)), k->read_ios, k->write_ios);
		text_byte_check(f, "read:", k->read_bytes, t->read.bytes);
		text_byte_check(f, "written:", k->write_bytes, t->write.bytes);
	}
	if (any)
		fputc('\n', f);
}

/* iorate-mpi: one row per rank, from the rank's own merged histograms. */
static int print_ranks(FILE *f, const struct result *r, bool si)
{
	fprintf(f, "Ranks: %u on %u host%s, start skew %.1f us\n", r->nranks, r->nhosts,
		r->nhosts == 1 ? "" : "s", r->start_skew_us);
	fprintf(f, "%5s | %-16s | %12s | %10s | %10s | %10s | %7s | %6s | targets\n", "rank", "host",
		"IOPS", si ? "MB/s" : "MiB/s", "p50 (us)", "p99 (us)", "errors", "CPU %");
	text_rule(f, '-', RULE_WIDTH);
	for (unsigned i = 0; i < r->nranks; i++) {
		const struct rank_result *k = &r->ranks[i];
		struct dir_summary s[REPORT_NDIR];
		int ret = report_summarize(&k->read, &k->write, &k->trim, k->seconds, s);
		char host[256];

		if (ret < 0)
			return ret;
		fprintf(f, "%5u | %-16s | %12.2f | %10.2f | ", k->rank,
			escape_buf(k->host, host, sizeof(host)), s[REPORT_TOTAL].iops,
			si ? s[REPORT_TOTAL].mbps : s[REPORT_TOTAL].mibps);
		text_lat_cell(f, s[REPORT_TOTAL].has_lat, s[REPORT_TOTAL].p50, 10);
		fputs(" | ", f);
		text_lat_cell(f, s[REPORT_TOTAL].has_lat, s[REPORT_TOTAL].p99, 10);
		fprintf(f, " | %7" PRIu64 " | %6.1f | ", s[REPORT_TOTAL].errors,
			k->cpu.proc_user + k->cpu.proc_system);
		for (unsigned t = 0; t < k->ntargets && k->first_target + t < r->ntargets; t++) {
			fputs(t ? ", " : "", f);
			escape_fputs(r->targets[k->first_target + t].path, f);
		}
		fputc('\n', f);
		if (k->error[0]) {
			fputs("      ERROR: ", f);
			escape_fputs(k->error, f);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	return 0;
}

/* A read or write table is printed when that direction had I/O (or errors). */
static bool has_io(const struct dir_summary *s)
{
	return s->ios || s->errors;
}

static int run_headline(FILE *f, const struct result *r, const struct report_opts *o)
{
	const struct text_headline h = {.read = &r->read, .write = &r->write, .trim = &r->trim,
					.seconds = r->seconds, .job = &r->job,
					.ntargets = r->ntargets, .started = r->started,
					.interrupted = r->interrupted,
					.failed = report_error(r) != NULL};

	return text_headline(f, &h, o);
}

/* Notes, how the run ended, and the headline last. */
static int text_end(FILE *f, const struct result *r, const struct report_opts *o)
{
	if (text_notes(f, r))
		fputc('\n', f);
	return run_headline(f, r, o);
}

/* The results: the time and threads, CPU, the tables of each direction, percentiles. */
static int text_results(FILE *f, const struct result *r, const struct dir_summary (*ts)[3],
			const struct dir_summary *run, const struct report_opts *o)
{
	bool si = o->units == UNITS_SI;
	int ret = 0;

	fputs("Results:\n", f);
	text_rule(f, '*', RULE_WIDTH);
	fprintf(f, "\nactual test time:   %.3f s%s\n", r->seconds,
		r->interrupted ? " (INTERRUPTED)" : "");
	if (r->job.shared_threads && r->ntargets > 1)
		fprintf(f, "thread count:       %u (each serving all %u targets)\n\n",
			r->job.threads, r->ntargets);
	else
		fprintf(f, "thread count:       %u (%u per target)\n\n",
			r->job.threads * r->ntargets, r->job.threads);
	text_cpu(f, &r->cpu);
	print_dir_table(f, r, ts, &run[REPORT_TOTAL], REPORT_TOTAL, si);
	/* A read-only run has no write table of zeros (nor a write-only one a read table). */
	for (int d = REPORT_READ; d <= REPORT_WRITE; d++)
		if (has_io(&run[d]))
			print_dir_table(f, r, ts, &run[d], (enum report_dir)d, si);
	if (dir_stats_any(&r->trim)) {
		struct dir_summary tr;
		dir_stats_summarize(&r->trim, r->seconds, &tr);
		print_trim_table(f, r, &tr, si);
		text_percentiles_trim(f, run, &tr);
	} else {
		text_percentiles(f, run);
	}
	if (r->job.cmdprio.on)
		text_prio(f, r);
	if (r->job.lat_target_ns)
		text_lat_target(f, r, si);
	if (r->nranks && (ret = print_ranks(f, r, si)) < 0)
		return ret;
	print_kernel(f, r);
	text_devices(f, r);
	if (r->verify.sum != VERIFY_NONE)
		print_verify(f, r);
	if (o->series && r->nseries)
		text_series(f, r, si);
	return 0;
}

static int text_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	struct dir_summary (*ts)[REPORT_NDIR] = NULL;
	struct dir_summary run[REPORT_NDIR];
	int ret;

	if (!o)
		o = &default_opts;
	if (o->brief)
		return (ret = run_headline(f, r, o)) < 0 ? ret : ferror(f) ? -EIO : 0;
	ret = report_summarize(&r->read, &r->write, &r->trim, r->seconds, run);
	if (ret < 0)
		goto out;
	ts = calloc(r->ntargets ? r->ntargets : 1, sizeof(*ts));
	if (!ts) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		ret = report_summarize(&t->read, &t->write, &t->trim, r->seconds, ts[i]);
		if (ret < 0)
			goto out;
	}
	print_params(f, r, o->units == UNITS_SI);
	text_system(f, r);
	if ((ret = text_results(f, r, ts, run, o)) < 0 || (ret = text_end(f, r, o)) < 0)
		goto out;
	ret = ferror(f) ? -EIO : 0;
out:
	free(ts);
	return ret;
}

const struct report_ops report_text = {
	.name = "text",
	.write = text_write,
	.write_set = text_write_set,
};
