/*
 * The text report of a run of several jobs: the system once, each job compactly (its workload,
 * a row per target, its read, write and total, its percentiles; the jobs fio's group_reporting
 * merges, once, merged), then each group and the whole
 * run with percentiles from the merged histograms, the CPU of each group and the kernel's
 * counts per device. One job prints the report of text.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/fio_stats.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/text.h"
#include "util/escape.h"
#include "util/parse.h"

static const struct report_opts default_opts = {.units = UNITS_IEC};

/* Whether every job was started by the same command line (the usual case), printed once. */
static bool one_command_line(const struct result_set *s)
{
	const char *c0 = s->jobs[0].job.command_line;

	for (unsigned i = 1; i < s->njobs; i++) {
		const char *c = s->jobs[i].job.command_line;
		if (!c0 != !c || (c && strcmp(c, c0)))
			return false;
	}
	return true;
}

static void command_line(FILE *f, const struct result *r, const char *indent)
{
	fprintf(f, "%sCommand line: ", indent);
	escape_fputs(r->job.command_line ? r->job.command_line : "(not recorded)", f);
	fputc('\n', f);
}

static void job_workload(FILE *f, const struct job *j, bool si)
{
	char a[32], b[32], c[32], d[32];

	if (j->nbs_read || j->nbs_write)
		fprintf(f, "\t%-18sa mix of %u read and %u write sizes (largest %s)\n",
			"block size:", j->nbs_read, j->nbs_write,
			fmt_size_human(job_max_bs(j), a, sizeof(a)));
	else
		fprintf(f, "\t%-18s%" PRIu64 " B (%s)\n", "block size:", j->bs,
			fmt_size_human(j->bs, a, sizeof(a)));
	if (job_trims(j))
		fprintf(f, "\t%-18s%u %% trims%s\n", "trims:", j->trim_pct,
			j->trim_write ? "; each write trims its blocks first" : "");
	fprintf(f, "\t%-18s%u %% writes, %s, %u thread%s x %u outstanding I/O%s per target\n",
		"workload:", j->write_pct, job_pattern_name(j->pattern), j->threads,
		j->threads == 1 ? "" : "s", j->depth, j->depth == 1 ? "" : "s");
	fprintf(f, "\t%-18s%s\n", "cache:", text_cache(j->cache));
	fprintf(f, "\t%-18s%s, warm-up %s, cool-down %s, start delay %s\n", "duration:",
		text_seconds(a, sizeof(a), j->time_ns), text_seconds(b, sizeof(b), j->warmup_ns),
		text_seconds(c, sizeof(c), j->cooldown_ns),
		text_seconds(d, sizeof(d), j->startdelay_ns));
	fprintf(f, "\t%-18s%" PRIu64 " (%s)\n", "seed:", j->seed,
		j->seed_set ? "given" : "chosen at random");
	text_caps(f, "disk cap:", &j->cap, si);
	text_caps(f, "VM cap:", &j->vm_cap, si);
}

/* The rows read:, write:, trim: (where there were trims) and total:. */
static void dir_rows(FILE *f, const struct dir_summary run[3], const struct dir_stats *trim,
		     double seconds, bool si)
{
	for (unsigned d = 0; d < REPORT_NDIR; d++) {
		char label[16];

		if (d == REPORT_TOTAL && dir_stats_any(trim)) {
			struct dir_summary ts;
			dir_stats_summarize(trim, seconds, &ts);
			text_dir_row(f, "trim:", &ts, si);
			fputc('\n', f);
		}
		snprintf(label, sizeof(label), "%s:", report_dir_names[d]);
		text_dir_row(f, label, &run[d], si);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* The percentiles, with a trim column where there were trims. */
static void percentiles(FILE *f, const struct dir_summary run[3], const struct dir_stats *trim,
			double seconds)
{
	struct dir_summary ts;

	if (!dir_stats_any(trim)) {
		text_percentiles(f, run);
		return;
	}
	dir_stats_summarize(trim, seconds, &ts);
	text_percentiles_trim(f, run, &ts);
}

/* One row per target (all directions together), then the job's read, write and total. */
static int job_table(FILE *f, const struct result *r, const struct dir_summary run[3], bool si)
{
	char a[32];

	fprintf(f, "%20s | %12s | %10s | %12s | %12s | %14s | target\n", "bytes", "I/Os",
		si ? "MB/s" : "MiB/s", "IOPS", "AvgLat (us)", "LatStdDev (us)");
	text_rule(f, '-', RULE_WIDTH);
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];
		struct dir_summary s[REPORT_NDIR];
		int ret = report_summarize(&t->read, &t->write, &t->trim, r->seconds, s);

		if (ret < 0)
			return ret;
		text_dir_row(f, "", &s[REPORT_TOTAL], si);
		fputs(" | ", f);
		escape_fputs(t->path ? t->path : "?", f);
		fprintf(f, " (%s)\n", fmt_size_human(t->size, a, sizeof(a)));
	}
	text_rule(f, '-', RULE_WIDTH);
	dir_rows(f, run, &r->trim, r->seconds, si);
	return 0;
}

static void job_end(FILE *f, const struct result *r)
{
	text_notes(f, r);
	fputc('\n', f);
}

static int job_section(FILE *f, const struct result_set *s, unsigned i,
		       const struct report_opts *o, bool own_cmd)
{
	bool si = o->units == UNITS_SI;
	const struct result *r = &s->jobs[i];
	struct dir_summary run[REPORT_NDIR];
	int ret;

	fprintf(f, "Job %u of %u: ", i + 1, s->njobs);
	escape_fputs(r->job.name ? r->job.name : "(unnamed)", f);
	fprintf(f, " (group %u)\n", r->job.group);
	text_rule(f, '=', RULE_WIDTH);
	if (own_cmd)
		command_line(f, r, "\t");
	text_engine(f, r);
	job_workload(f, &r->job, o->units == UNITS_SI);
	if (!r->started) {
		fputs("\tdid not run\n\n", f);
		job_end(f, r);
		return 0;
	}
	fprintf(f, "\t%-18s%.3f s%s\n\n", "measured:", r->seconds,
		r->interrupted ? " (INTERRUPTED)" : "");
	if ((ret = report_summarize(&r->read, &r->write, &r->trim, r->seconds, run)) < 0 ||
	    (ret = job_table(f, r, run, si)) < 0)
		return ret;
	percentiles(f, run, &r->trim, r->seconds);
	if (r->job.cmdprio.on)
		text_prio(f, r);
	if (r->job.lat_target_ns)
		text_lat_target(f, r, si);
	if (o->series && r->nseries)
		text_series(f, r, si);
	job_end(f, r);
	return 0;
}

/* A group's line: its figures over its window, latency from its jobs' merged histograms. */
static int group_row(FILE *f, const struct result_sum *m, bool si)
{
	struct dir_summary s[REPORT_NDIR];
	int ret = report_summarize(&m->read, &m->write, &m->trim, m->seconds, s);
	const struct dir_summary *t = &s[REPORT_TOTAL];

	if (ret < 0)
		return ret;
	fprintf(f, "%5u | %4u | %9.3f | %16" PRIu64 " | %12" PRIu64 " | %10.2f | %12.2f | ",
		m->group, m->njobs, m->seconds, t->bytes, t->ios, si ? t->mbps : t->mibps, t->iops);
	text_lat_cell(f, t->has_lat, t->lat_mean, 11);
	fputs(" | ", f);
	text_lat_cell(f, t->has_lat, t->p99, 10);
	fprintf(f, "%s\n", m->nstarted < m->njobs ? m->nstarted ? "  (some did not run)"
								: "  (did not run)"
						  : m->interrupted ? "  (INTERRUPTED)" : "");
	return 0;
}

static int groups_table(FILE *f, const struct result_set *s, bool si)
{
	int ret;

	fputs("Groups (the jobs of a group ran together; figures over the group's window, "
	      "latency from its jobs' merged histograms):\n", f);
	fprintf(f, "%5s | %4s | %9s | %16s | %12s | %10s | %12s | %11s | %10s\n", "group", "jobs",
		"seconds", "bytes", "I/Os", si ? "MB/s" : "MiB/s", "IOPS", "AvgLat (us)",
		"p99 (us)");
	text_rule(f, '-', RULE_WIDTH + 10);
	for (unsigned g = 0; g < s->ngroups; g++)
		if ((ret = group_row(f, &s->groups[g], si)) < 0)
			return ret;
	fputc('\n', f);
	return 0;
}

/* Read, write (trim) and total of merged counts over seconds, then their percentiles. */
static int dir_table(FILE *f, const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *trim, double seconds, bool si)
{
	struct dir_summary t[REPORT_NDIR];
	int ret = report_summarize(rd, wr, trim, seconds, t);

	if (ret < 0)
		return ret;
	fprintf(f, "%20s | %12s | %10s | %12s | %12s | %14s\n", "bytes", "I/Os",
		si ? "MB/s" : "MiB/s", "IOPS", "AvgLat (us)", "LatStdDev (us)");
	text_rule(f, '-', RULE_WIDTH);
	dir_rows(f, t, trim, seconds, si);
	percentiles(f, t, trim, seconds);
	return 0;
}

static int total_section(FILE *f, const struct result_set *s, bool si)
{
	fprintf(f, "Total of the run: %u job%s in %u group%s, %.3f s (the groups' windows one "
		"after another)%s\n", s->njobs, s->njobs == 1 ? "" : "s", s->ngroups,
		s->ngroups == 1 ? "" : "s", s->total.seconds,
		s->total.interrupted ? " (INTERRUPTED)" : "");
	return dir_table(f, &s->total.read, &s->total.write, &s->total.trim, s->total.seconds, si);
}

/*
 * Jobs merged as fio's group_reporting shows them (fio_stats_build()): one section named after
 * the first, with their counts and histograms added, over the longest of their windows.
 */
static int merged_section(FILE *f, const struct result_set *s, const struct fio_entry *e,
			  const struct report_opts *o)
{
	const struct result *r = &s->jobs[e->first];
	double secs = 0;
	bool started = false, interrupted = false;
	int ret;

	for (unsigned i = e->first; i <= e->last; i++) {
		secs = s->jobs[i].seconds > secs ? s->jobs[i].seconds : secs;
		started |= s->jobs[i].started;
		interrupted |= s->jobs[i].interrupted;
	}
	fprintf(f, "Jobs %u to %u of %u: ", e->first + 1, e->last + 1, s->njobs);
	escape_fputs(r->job.name ? r->job.name : "(unnamed)", f);
	fprintf(f, " (group %u; %u jobs merged: fio's group_reporting)\n", r->job.group,
		e->members);
	text_rule(f, '=', RULE_WIDTH);
	text_engine(f, r);
	job_workload(f, &r->job, o->units == UNITS_SI);
	if (!started) {
		fputs("\tdid not run\n\n", f);
		job_end(f, r);
		return 0;
	}
	fprintf(f, "\t%-18s%.3f s (the longest of its jobs)%s\n\n", "measured:", secs,
		interrupted ? " (INTERRUPTED)" : "");
	if ((ret = dir_table(f, &e->dir[0], &e->dir[1], &e->dir[2], secs, o->units == UNITS_SI)))
		return ret;
	job_end(f, r);
	return 0;
}

/* Each job's section, or one for the jobs fio's group_reporting merges. */
static int job_sections(FILE *f, const struct result_set *s, const struct report_opts *o,
			bool own_cmd)
{
	struct fio_stats st;
	bool merging = false;
	int ret = 0;

	for (unsigned i = 0; i < s->njobs; i++)
		merging |= s->jobs[i].job.group_reporting;
	if (!merging) {
		for (unsigned i = 0; i < s->njobs && ret >= 0; i++)
			ret = job_section(f, s, i, o, own_cmd);
		return ret;
	}
	if ((ret = fio_stats_build(&st, s)))
		return ret;
	for (unsigned k = 0; k < st.n && ret >= 0; k++)
		ret = st.e[k].members > 1 ? merged_section(f, s, &st.e[k], o)
					  : job_section(f, s, st.e[k].first, o, own_cmd);
	fio_stats_release(&st);
	return ret;
}

static void cpu_lines(FILE *f, const struct result_set *s)
{
	fputs("CPU usage per group (percent of all CPUs' time; iorate itself, of one CPU):\n", f);
	for (unsigned g = 0; g < s->ngroups; g++) {
		const struct cpu_usage *c = &s->groups[g].cpu;

		if (!s->groups[g].nstarted)
			continue;
		fprintf(f, "\tgroup %u: user %.2f %%, system %.2f %%, iowait %.2f %%, "
			"idle %.2f %%; iorate user %.2f %%, system %.2f %%\n", s->groups[g].group,
			c->user, c->system, c->iowait, c->idle, c->proc_user, c->proc_system);
	}
	fputc('\n', f);
}

/* Per group and block device: the kernel's bytes beside iorate's, which they must equal. */
static void kernel_lines(FILE *f, const struct result_set *s)
{
	bool any = false;

	for (unsigned g = 0; g < s->ngroups; g++) {
		const struct result_sum *m = &s->groups[g];

		for (unsigned i = 0; i < m->ndevices; i++) {
			const struct device_counts *d = &m->devices[i];
			char name[sizeof(d->kernel.name) * 4];

			if (!any)
				fputs("Kernel counters (/proc/diskstats) per group and device:\n",
				      f);
			any = true;
			escape_buf(d->kernel.name, name, sizeof(name));
			fprintf(f, "\tgroup %u, %s (%" PRIu64 " reads, %" PRIu64 " writes by the "
				"kernel):\n", m->group, name, d->kernel.read_ios,
				d->kernel.write_ios);
			text_byte_check(f, "read:", d->kernel.read_bytes, d->read_bytes);
			text_byte_check(f, "written:", d->kernel.write_bytes, d->write_bytes);
		}
	}
	if (any)
		fputc('\n', f);
}

/* Whether a job before i (of group g, or of any when g < 0) has target t of job i too. */
static bool seen_target(const struct result_set *s, int g, unsigned i, unsigned t)
{
	const char *p = s->jobs[i].targets[t].path;

	for (unsigned k = 0; k <= i; k++) {
		if (g >= 0 && !result_set_in_group(s, k, (unsigned)g))
			continue;
		for (unsigned u = 0; u < (k == i ? t : s->jobs[k].ntargets); u++) {
			const char *q = s->jobs[k].targets[u].path;

			if (p && q && !strcmp(p, q))
				return true;
		}
	}
	return false;
}

/* The jobs' workload when every job of group g (or of the run, g < 0) has the same, or NULL. */
static const struct job *shared_workload(const struct result_set *s, int g, unsigned *ntargets)
{
	const struct job *w = NULL;
	bool same = true;

	*ntargets = 0;
	for (unsigned i = 0; i < s->njobs; i++) {
		const struct job *j = &s->jobs[i].job;

		if (g >= 0 && !result_set_in_group(s, i, (unsigned)g))
			continue;
		/* Targets are counted once each: 16 jobs on one file run on 1 target. */
		for (unsigned t = 0; t < s->jobs[i].ntargets; t++)
			*ntargets += !seen_target(s, g, i, t);
		if (w && !text_same_workload(w, j))
			same = false;
		w = w ? w : j;
	}
	return same ? w : NULL;
}

/* The headlines: one line per group (when there are several) and one for the total. */
static int headlines(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	char label[64];
	int ret;

	for (unsigned g = 0; s->ngroups > 1 && g < s->ngroups; g++) {
		const struct result_sum *m = &s->groups[g];
		struct text_headline h = {.label = label, .read = &m->read, .write = &m->write,
					  .trim = &m->trim, .seconds = m->seconds, .started = m->nstarted > 0,
					  .interrupted = m->interrupted};

		h.job = shared_workload(s, (int)g, &h.ntargets);
		snprintf(label, sizeof(label), "group %u (%u job%s): ", m->group, m->njobs,
			 m->njobs == 1 ? "" : "s");
		if ((ret = text_headline(f, &h, o)) < 0)
			return ret;
	}
	struct text_headline t = {.label = label, .read = &s->total.read,
				  .write = &s->total.write, .trim = &s->total.trim,
				  .seconds = s->total.seconds,
				  .started = s->total.nstarted > 0,
				  .interrupted = s->total.interrupted,
				  .failed = result_set_error(s) != NULL};

	t.job = shared_workload(s, -1, &t.ntargets);
	snprintf(label, sizeof(label), "total (%u jobs): ", s->njobs);
	return text_headline(f, &t, o);
}

int text_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	bool si, own_cmd;
	int ret;

	if (!o)
		o = &default_opts;
	si = o->units == UNITS_SI;
	if (!s->njobs)
		return -EINVAL;
	if (o->brief)
		return (ret = headlines(f, s, o)) < 0 ? ret : ferror(f) ? -EIO : 0;
	own_cmd = !one_command_line(s);
	fprintf(f, "A run of %u jobs in %u group%s: the jobs of a group ran together, the groups "
		"one after another.\n", s->njobs, s->ngroups, s->ngroups == 1 ? "" : "s");
	if (!own_cmd)
		command_line(f, &s->jobs[0], "");
	fputc('\n', f);
	text_system(f, &s->jobs[0]);
	if ((ret = job_sections(f, s, o, own_cmd)) < 0)
		return ret;
	text_rule(f, '*', RULE_WIDTH);
	fputc('\n', f);
	if ((ret = groups_table(f, s, si)) < 0 || (ret = total_section(f, s, si)) < 0)
		return ret;
	cpu_lines(f, s);
	kernel_lines(f, s);
	text_devices_set(f, s);
	if ((ret = headlines(f, s, o)) < 0)
		return ret;
	return ferror(f) ? -EIO : 0;
}

