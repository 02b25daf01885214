/*
 * Steady state (--steady, fio's steadystate): the main thread, after each point of a job's
 * series, samples the job's rate over the last --steady-time (whole intervals of
 * --steady-interval, after --steady-ramp of measured time) and ends the job, as a stop request
 * would but without calling it interrupted, once the samples hold within the limit: each within
 * it of their mean (iops, bw, lat), or their least-squares slope per sample (iops_slope,
 * bw_slope, lat_slope). A lat sample is the mean latency of its I/Os, from the series' points.
 * The result's notes say whether it was reached, when, and the criterion's value.
 */
#include <math.h>
#include <stdio.h>

#include "core/run.h"
#include "core/worker.h"
#include "core/worker_extra.h"

#define MAX_SAMPLES 4096

static bool all_done(const struct run *run)
{
	for (unsigned i = 0; i < run->nworkers; i++)
		if (!__atomic_load_n(&run->workers[i]->t_done, __ATOMIC_ACQUIRE))
			return false;
	return run->nworkers > 0;
}

/*
 * The last n samples of k series points each (I/Os or bytes per second) after the ramp, oldest
 * first, into y: false while there are not yet that many. A sample is whole seconds whatever the
 * series' interval (fio counts its windows in seconds): k points of it.
 */
static bool samples(const struct run *run, unsigned k, unsigned n, double *y)
{
	const struct job *j = run->job;
	const struct result *res = run->res;
	bool bw = j->steady == STEADY_BW || j->steady == STEADY_BW_SLOPE;
	double ramp = (double)j->steady_ramp_ns / 1e9, whole = 0.999 * (double)res->interval_ns / 1e9;
	unsigned first = 0, m;

	/* Whole points after the ramp. */
	while (first < res->nseries && res->series[first].t - res->series[first].seconds <
	       ramp - 1e-9)
		first++;
	m = res->nseries - first;
	for (unsigned i = res->nseries; i > first && res->series[i - 1].seconds < whole; i--)
		m--;            /* a partial last point (a stop) is no sample */
	if (m / k < n)
		return false;
	unsigned start = first + (m / k - n) * k;
	bool lat = j->steady >= STEADY_LAT;
	for (unsigned s = 0; s < n; s++) {
		double sum = 0, secs = 0, ios = 0;
		for (unsigned i = 0; i < k; i++) {
			const struct series_point *p = &res->series[start + s * k + i];
			double pios = (double)(p->read_ios + p->write_ios + p->trim_ios);
			if (lat)        /* a newer fio's lat: the sample's mean latency, in ns */
				sum += (double)p->lat_mean_ns * pios;
			else
				sum += bw ? (double)(p->read_bytes + p->write_bytes + p->trim_bytes)
					  : pios;
			ios += pios;
			secs += p->seconds;
		}
		y[s] = lat ? (ios > 0 ? sum / ios : 0) : secs > 0 ? sum / secs : 0;
	}
	return true;
}

/* The criterion's value over y: the largest deviation from the mean, or the slope. */
static double criterion(const struct job *j, const double *y, unsigned n)
{
	double mean = 0, v = 0;

	for (unsigned i = 0; i < n; i++)
		mean += y[i] / n;
	if (j->steady == STEADY_IOPS || j->steady == STEADY_BW || j->steady == STEADY_LAT) {
		for (unsigned i = 0; i < n; i++)
			v = fmax(v, fabs(y[i] - mean));
	} else {
		double sx = 0, sy = 0, sxy = 0, sxx = 0;
		for (unsigned i = 0; i < n; i++) {
			sx += i;
			sy += y[i];
			sxy += i * y[i];
			sxx += (double)i * i;
		}
		v = fabs((sx * sy - n * sxy) / (sx * sx - n * sxx));
	}
	if (j->steady_pct)
		v = mean > 0 ? 100 * v / mean : INFINITY;
	return v;
}

static void judge(struct run *run, uint64_t now)
{
	const struct job *j = run->job;
	uint64_t iv = j->steady_interval_ns ? j->steady_interval_ns : 1000000000ull;
	uint64_t piv = run->res->interval_ns ? run->res->interval_ns : 1000000000ull;
	unsigned k = (unsigned)(iv / piv), n = (unsigned)(j->steady_dur_ns / iv);
	double y[MAX_SAMPLES], v = INFINITY;
	char name[48];
	bool have = k && n <= MAX_SAMPLES && samples(run, k, n, y), done = all_done(run);

	if (have)
		v = criterion(j, y, n);
	job_steady_name(j, name, sizeof(name));
	const char *unit = j->steady_pct ? "%" : j->steady >= STEADY_LAT ? " ns" : "";
	if (have && v < j->steady_limit) {
		run->steady_judged = true;
		result_add_note(run->res, "steady state reached (%s) %.0f s into the measure: %.3g%s "
				"over the last %llu s; the job ended there", name,
				(double)(now - run->t_meas_start) / 1e9, v, unit,
				(unsigned long long)(j->steady_dur_ns / 1000000000ull));
		if (!done && !run->halt) {
			run->t_halted = now;
			__atomic_store_n(&run->halt, 3, __ATOMIC_RELAXED);
		}
	} else if (done || run->halt) {
		run->steady_judged = true;
		if (have)
			result_add_note(run->res, "steady state not reached (%s): %.3g%s over the last "
					"%llu s", name, v, unit,
					(unsigned long long)(j->steady_dur_ns / 1000000000ull));
		else
			result_add_note(run->res, "steady state not reached (%s): the job ended before "
					"its window was full", name);
	}
}

void runs_check_steady(struct run *runs, unsigned n, uint64_t now)
{
	for (unsigned i = 0; i < n; i++)
		if (runs[i].job->steady && !runs[i].steady_judged && now >= runs[i].t_meas_start)
			judge(&runs[i], now);
}
