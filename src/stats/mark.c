/*
 * `iorate mark`'s figures: a run's throughput in each tool's unit, and a test's score over its
 * runs, best (CrystalDiskMark) or mean (KDiskMark's Default profile). The formats print what
 * these return; the JSON holds the runs themselves, so either score can be recomputed.
 */
#include <math.h>
#include <stdbool.h>

#include "stats/mark.h"

const char *const mark_score_names[] = {"best", "mean"};
const char *const mark_units_names[MARK_NUNITS] = {"si", "iec", "kdiskmark"};

void mark_run_figures(const struct mark_run *r, struct mark_figures *f)
{
	uint64_t ios = r->ios[0] + r->ios[1], bytes = r->bytes[0] + r->bytes[1];
	uint64_t lat_n = r->lat_n[0] + r->lat_n[1];
	double bps = r->seconds > 0 ? (double)bytes / r->seconds : 0;

	f->mbps = bps / 1e6;
	f->mibps = bps / 1048576.0;
	/* fio reports bw in whole KiB/s, and KDiskMark divides it by 1000 to show "MB/s". */
	f->kdiskmark_mbps = floor(bps / 1024.0) / 1000.0;
	f->iops = r->seconds > 0 ? (double)ios / r->seconds : 0;
	f->lat_mean_us = lat_n ? (double)(r->lat_sum_ns[0] + r->lat_sum_ns[1]) / (double)lat_n / 1e3
			       : NAN;
}

static double better(double a, double b, bool lower)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return (lower ? b < a : b > a) ? b : a;
}

/* Each figure the best any run reached: both tools keep the lowest latency of all runs. */
static void score_best(const struct mark_run *runs, unsigned n, struct mark_figures *f)
{
	for (unsigned k = 0; k < n; k++) {
		struct mark_figures r;

		mark_run_figures(&runs[k], &r);
		f->mbps = better(f->mbps, r.mbps, false);
		f->mibps = better(f->mibps, r.mibps, false);
		f->kdiskmark_mbps = better(f->kdiskmark_mbps, r.kdiskmark_mbps, false);
		f->iops = better(f->iops, r.iops, false);
		f->lat_mean_us = better(f->lat_mean_us, r.lat_mean_us, true);
	}
}

/* The mean of each figure, summed in run order; the latency's over the runs that timed I/O. */
static void score_mean(const struct mark_run *runs, unsigned n, struct mark_figures *f)
{
	unsigned timed = 0;
	double lat = 0;

	for (unsigned k = 0; k < n; k++) {
		struct mark_figures r;

		mark_run_figures(&runs[k], &r);
		f->mbps += r.mbps;
		f->mibps += r.mibps;
		f->kdiskmark_mbps += r.kdiskmark_mbps;
		f->iops += r.iops;
		if (!isnan(r.lat_mean_us)) {
			lat += r.lat_mean_us;
			timed++;
		}
	}
	f->mbps /= n;
	f->mibps /= n;
	f->kdiskmark_mbps /= n;
	f->iops /= n;
	f->lat_mean_us = timed ? lat / timed : NAN;
}

void mark_score_runs(const struct mark_run *runs, unsigned n, enum mark_score score,
		     struct mark_figures *f)
{
	*f = (struct mark_figures){.lat_mean_us = NAN};
	if (!n)
		return;
	if (score == MARK_SCORE_MEAN)
		score_mean(runs, n, f);
	else
		score_best(runs, n, f);
}

unsigned mark_best_run(const struct mark_run *runs, unsigned n)
{
	unsigned best = 0;
	double top = 0;

	for (unsigned k = 0; k < n; k++) {
		struct mark_figures r;

		mark_run_figures(&runs[k], &r);
		if (!k || r.mbps > top) {
			top = r.mbps;
			best = k;
		}
	}
	return best;
}

double mark_rate(const struct mark_figures *f, enum mark_units units)
{
	switch (units) {
	case MARK_UNITS_IEC:
		return f->mibps;
	case MARK_UNITS_KDISKMARK:
		return f->kdiskmark_mbps;
	default:
		return f->mbps;
	}
}
