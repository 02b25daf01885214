/*
 * The text report's views of two searches for what a device gives under a constraint:
 * priorities per I/O (--cmdprio): how many I/Os carried one, and the latency percentiles of
 * those against the others of the same direction, from the histograms (the others' are the
 * direction's minus the prioritized ones', bucket by bucket); and --latency-target: the depth
 * the threads settled on and what their final windows at it delivered.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "report/summary.h"
#include "report/text.h"

/* d minus p into *o, whose histogram the caller frees: the I/Os that carried no priority. */
static int others(const struct dir_stats *d, const struct dir_stats *p, struct dir_stats *o)
{
	*o = *d;
	o->hist = NULL;
	o->ios = d->ios - p->ios;
	o->bytes = d->bytes - p->bytes;
	o->lat_n = d->lat_n - p->lat_n;
	o->lat_sum = d->lat_sum - p->lat_sum;
	o->lat_sumsq = d->lat_sumsq - p->lat_sumsq;
	if (!d->hist || !p->hist)
		return 0;
	if (!(o->hist = malloc(sizeof(*o->hist))))
		return -1;
	hist_diff(o->hist, d->hist, p->hist);
	return 0;
}

void text_prio(FILE *f, const struct result *r)
{
	static const char *const dir[2] = {"reads", "writes"};
	const struct dir_stats *all[2] = {&r->read, &r->write};
	struct dir_summary s[2][2];
	struct dir_stats o;
	char b[3][3 * 24 * JOB_MAX_BS];

	static const char *const opt[3] = {"--cmdprio", "--cmdprio-class", "--cmdprio-split"};

	fputs("Priority per I/O (", f);
	for (int i = 0, n = 0; i < 3; i++)
		if (job_cmdprio_str(&r->job, i, b[i], sizeof(b[i]))[0])
			fprintf(f, "%s%s %s", n++ ? ", " : "", opt[i], b[i]);
	fprintf(f, "%s):\n", r->job.cmdprio.class_set ? "" : "; class rt:0");
	for (unsigned d = 0; d < 2; d++) {
		if (!all[d]->ios)
			continue;
		fprintf(f, "\t%" PRIu64 " of %" PRIu64 " %s (%.1f %%) carried one\n",
			r->prio[d].ios, all[d]->ios, dir[d], 100.0 * (double)r->prio[d].ios /
			(double)all[d]->ios);
	}
	for (unsigned d = 0; d < 2; d++) {
		dir_stats_summarize(&r->prio[d], r->seconds, &s[d][0]);
		if (others(all[d], &r->prio[d], &o))
			return;
		dir_stats_summarize(&o, r->seconds, &s[d][1]);
		free(o.hist);
	}
	fprintf(f, "%8s", "%-ile");
	for (unsigned d = 0; d < 2; d++)
		if (all[d]->ios)
			fprintf(f, " | %17s | %17s", d ? "write, prio (us)" : "read, prio (us)",
				d ? "write, other (us)" : "read, other (us)");
	fputc('\n', f);
	for (unsigned i = 0; i < STATS_NPCT; i++) {
		char name[16];
		fprintf(f, "%8s", report_pct_label(i, name, sizeof(name)));
		for (unsigned d = 0; d < 2; d++)
			for (unsigned k = 0; all[d]->ios && k < 2; k++) {
				fputs(" | ", f);
				text_lat_cell(f, s[d][k].has_lat, report_pct(&s[d][k], i), 17);
			}
		fputc('\n', f);
	}
	fputc('\n', f);
}

void text_lat_target(FILE *f, const struct result *r, bool si)
{
	const struct result_lat *l = &r->lat;
	const struct job *j = &r->job;
	struct dir_summary s;

	fprintf(f, "Latency target (--latency-target %.3f ms, window %.3f ms, %g %% of I/Os):\n",
		(double)j->lat_target_ns / 1e6, (double)j->lat_window_ns / 1e6,
		j->lat_pct > 0 ? j->lat_pct : 100);
	if (l->depth_min == l->depth_max)
		fprintf(f, "\tdepth:            %u per thread (of at most %u)\n", l->depth_min,
			j->depth);
	else
		fprintf(f, "\tdepth:            %u to %u per thread (of at most %u)\n", l->depth_min,
			l->depth_max, j->depth);
	if (!l->finished) {
		fprintf(f, "\tsettled:          %s\n\n", j->lat_run ? "no final window (--latency-run)"
			: "no thread ran a final window before the run ended");
		return;
	}
	dir_stats_summarize(&l->fin, l->seconds, &s);
	fprintf(f, "\tfinal window:     %u of %u threads, %.3f s: %" PRIu64 " I/Os, %.2f IOPS, "
		"%.2f %s\n", l->finished, l->threads, l->seconds, s.ios, s.iops,
		si ? s.mbps : s.mibps, si ? "MB/s" : "MiB/s");
	if (s.has_lat)
		fprintf(f, "\tits latency:      mean %.3f us, p99 %.3f us, p99.9 %.3f us, max %.3f us"
			"\n", s.lat_mean, s.p99, s.p99_9, s.lat_max);
	fputc('\n', f);
}
