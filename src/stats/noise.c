/*
 * Whether a figure moved beyond run-to-run noise between two stored runs ('iorate history
 * compare'): Welch's t-test on the values of each run's series, one per interval. Welch's test
 * does not assume the two runs are equally noisy (a capped run varies far less than an uncapped one), and
 * unlike a rank test it can tell two short runs apart when they are far apart. The method, its
 * threshold and its limits are described in docs/history.md.
 */
#include "stats/noise.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/welch.h"

/* A value of a figure: k points added (of one job, or of a group's jobs) into one sample. */
struct acc {
	struct series_point sum;
	unsigned m, k;               /* points in sum, and how many make a value */
	double min_s;                /* a value is at least this long (half the sampled interval) */
	enum stats_dir d;
	enum stats_metric metric;
};

static double per_second(double v, double seconds)
{
	return seconds > 0 ? v / seconds : 0;
}

/* The value of a figure over sum (rates per second whatever its length), or false. */
static bool sample(const struct acc *a, double *v)
{
	const struct series_point *p = &a->sum;

	/* Points' seconds added in floating point may fall a rounding short of a half. */
	if (p->seconds < a->min_s * (1 - 1e-9))
		return false;
	if (a->metric == STATS_P99) {
		*v = (double)p->p99_ns / 1e3;
		return a->d == STATS_TOTAL && p->p99_ns > 0 && a->m == 1;
	}
	if (a->metric == STATS_MEAN) {
		*v = (double)p->lat_mean_ns / 1e3;
		return a->d == STATS_TOTAL && p->lat_mean_ns > 0;
	}
	if (a->metric == STATS_IOPS) {
		uint64_t ios = a->d == STATS_READ    ? p->read_ios
			       : a->d == STATS_WRITE ? p->write_ios
						     : p->read_ios + p->write_ios;

		*v = per_second((double)ios, p->seconds);
		return true;
	}
	uint64_t bytes = a->d == STATS_READ    ? p->read_bytes
			 : a->d == STATS_WRITE ? p->write_bytes
					       : p->read_bytes + p->write_bytes;

	*v = (double)bytes / 1048576.0 / p->seconds;
	return a->metric == STATS_MIBPS;
}

/* Adds the mean latency of p's I/Os to sum's, weighted by their numbers (means add up so). */
static void add_mean(struct series_point *sum, const struct series_point *p)
{
	uint64_t n = sum->read_ios + sum->write_ios + sum->trim_ios;
	uint64_t k = p->read_ios + p->write_ios + p->trim_ios;

	if (p->lat_mean_ns && k)
		sum->lat_mean_ns = (uint64_t)llround(((double)sum->lat_mean_ns * (double)n +
						      (double)p->lat_mean_ns * (double)k) /
						     (double)(n + k));
}

/* The values so far, as a new one: 1 when it was one. */
static size_t acc_flush(struct acc *a, double *v)
{
	size_t n = a->m && sample(a, v);

	a->sum = (struct series_point){0};
	a->m = 0;
	return n;
}

/* Adds a point; once k are in, they are a value (1 returned, *v set) and the next starts. */
static size_t acc_add(struct acc *a, const struct series_point *p, double *v)
{
	add_mean(&a->sum, p);
	a->sum.read_ios += p->read_ios;
	a->sum.write_ios += p->write_ios;
	a->sum.trim_ios += p->trim_ios;
	a->sum.read_bytes += p->read_bytes;
	a->sum.write_bytes += p->write_bytes;
	a->sum.seconds += p->seconds;
	a->sum.p99_ns = p->p99_ns;
	return ++a->m < a->k ? 0 : acc_flush(a, v);
}

/* Sampling at iv seconds a series of interval own seconds: how many of its points a value is. */
static void acc_init(struct acc *a, uint64_t iv, uint64_t own, enum stats_dir d,
		     enum stats_metric m)
{
	*a = (struct acc){.k = own && iv > own ? (unsigned)(iv / own) : 1, .d = d, .metric = m,
			  .min_s = STATS_NOISE_MIN_FRACTION * (double)iv / 1e9};
}

/*
 * The group numbers of a run's jobs, each once and in increasing order (as a result set sums
 * them): the first (first) or the one after `after`, into *g; false after the last.
 */
static bool next_group(const struct stats_run *s, bool first, unsigned after, unsigned *g)
{
	bool found = false;

	for (unsigned i = 0; i < s->njobs; i++) {
		unsigned v = s->jobs[i].job.group;

		if ((first || v > after) && (!found || v < *g)) {
			*g = v;
			found = true;
		}
	}
	return found;
}

/* Point k of group g: its jobs' counts of their k-th interval added, and their mean latency
 * weighted by their I/Os (p99 cannot be added). */
static bool group_point(const struct stats_run *s, unsigned g, unsigned k,
			struct series_point *sum)
{
	bool any = false;

	*sum = (struct series_point){0};
	for (unsigned i = 0; i < s->njobs; i++) {
		const struct result *r = &s->jobs[i];

		if (r->job.group != g || k >= r->nseries)
			continue;
		any = true;
		add_mean(sum, &r->series[k]);
		sum->read_ios += r->series[k].read_ios;
		sum->write_ios += r->series[k].write_ios;
		sum->trim_ios += r->series[k].trim_ios;
		sum->read_bytes += r->series[k].read_bytes;
		sum->write_bytes += r->series[k].write_bytes;
		sum->seconds = fmax(sum->seconds, r->series[k].seconds);
	}
	return any;
}

/* The interval of a group's series (its jobs share one), in ns. */
static uint64_t group_interval(const struct stats_run *s, unsigned g)
{
	for (unsigned i = 0; i < s->njobs; i++)
		if (s->jobs[i].job.group == g)
			return s->jobs[i].interval_ns;
	return 0;
}

uint64_t stats_interval(const struct stats_run *run)
{
	uint64_t iv = 0;

	for (unsigned i = 0; i < run->njobs; i++)
		iv = run->jobs[i].interval_ns > iv ? run->jobs[i].interval_ns : iv;
	return iv ? iv : 1000000000ull;
}

/*
 * The values of one figure of a run at iv ns, from its series: iv / the series' interval points
 * added into each, a value of at least STATS_NOISE_MIN_FRACTION of iv (the last, partial one
 * is often a sliver whose rate says little). Latency per point is of read and write together:
 * mean and p99 are the total's only; the mean of several points is theirs weighted by their
 * I/Os, p99 a value of one point (it does not add up). A run of several jobs has a series per
 * job: its total's point k of a group is the group's jobs' k-th points added, the groups one
 * after another (no p99, which does not add). *v is malloc'd.
 */
size_t stats_samples(const struct stats_run *run, uint64_t iv, enum stats_dir d,
		     enum stats_metric m, double **v)
{
	size_t n = 0, cap = 0;
	struct acc a;

	for (unsigned i = 0; i < run->njobs; i++)
		cap += run->jobs[i].nseries;
	if (!(*v = calloc(cap ? cap : 1, sizeof(**v))))
		return 0;
	if (run->njobs == 1) {
		acc_init(&a, iv, run->jobs[0].interval_ns, d, m);
		for (unsigned k = 0; k < run->jobs[0].nseries; k++)
			n += acc_add(&a, &run->jobs[0].series[k], *v + n);
		return n + acc_flush(&a, *v + n);
	}
	unsigned g = 0;

	for (bool more = next_group(run, true, 0, &g); m != STATS_P99 && more;
	     more = next_group(run, false, g, &g)) {
		struct series_point p;

		acc_init(&a, iv, group_interval(run, g), d, m);
		for (unsigned k = 0; group_point(run, g, k, &p); k++)
			n += acc_add(&a, &p, *v + n);
		n += acc_flush(&a, *v + n);
	}
	return n;
}

/*
 * Whether the run did I/O in direction d and in no other (trims count as another): its jobs'
 * counts added, as the run's total adds them.
 */
static bool only(const struct stats_run *run, enum stats_dir d)
{
	uint64_t rd = 0, wr = 0, tr = 0, n;

	for (unsigned i = 0; i < run->njobs; i++) {
		rd += run->jobs[i].read.ios;
		wr += run->jobs[i].write.ios;
		tr += run->jobs[i].trim.ios;
	}
	n = d == STATS_READ ? rd : d == STATS_WRITE ? wr : rd + wr + tr;

	return n && n == rd + wr + tr;
}

void stats_noise(const struct stats_run *a, const struct stats_run *b, enum stats_dir d,
		 enum stats_metric m, struct stats_noise *out)
{
	double *va, *vb;

	uint64_t ia = stats_interval(a), ib = stats_interval(b), iv = ia > ib ? ia : ib;

	/* Both runs did only this direction: its figures are the total's, and so is the test. */
	if (d != STATS_TOTAL && only(a, d) && only(b, d))
		d = STATS_TOTAL;

	/* Both runs' values span the same time: the finer series is added up to the coarser. */
	*out = (struct stats_noise){.p = NAN, .interval_ns = iv};
	out->na = stats_samples(a, iv, d, m, &va);
	out->nb = stats_samples(b, iv, d, m, &vb);
	if ((m == STATS_MEAN || m == STATS_P99) && d != STATS_TOTAL)
		out->why = STATS_NO_SAMPLES;
	else if (m == STATS_P99 && (a->njobs != 1 || b->njobs != 1))
		out->why = STATS_SEVERAL_JOBS;
	else if (m == STATS_P99 && ia != ib)
		out->why = STATS_INTERVALS_DIFFER;
	else if (out->na < STATS_NOISE_MIN_SAMPLES || out->nb < STATS_NOISE_MIN_SAMPLES ||
		 stats_welch_p(va, out->na, vb, out->nb, &out->p))
		out->why = STATS_TOO_FEW;
	else
		out->tested = true;
	out->beyond = out->tested && out->p < STATS_NOISE_ALPHA;
	free(va);
	free(vb);
}
