/*
 * fio 3.33's report entries from a run of iorate (fio_stats.h): each job's figures as fio's
 * thread_stat holds them, and the jobs that group_reporting merges summed as stat.c's
 * __show_run_stats() and sum_thread_stats() sum them: counts, bytes and latency histograms
 * added, latency moments merged, the longest runtime each way, bandwidth and IOPS samples
 * added up (fio's "pure sum"), CPU time over the runtimes added; name and groupid from the
 * first job, the first failure.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/fio_stats.h"

unsigned fio_plat_index(uint64_t v)
{
	unsigned msb, err, idx;

	if (v < (2u << FIO_PLAT_BITS))
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	err = msb - FIO_PLAT_BITS;
	/* past 29 groups every latency shares the last bucket, as in fio */
	if (err + 1 >= FIO_PLAT_NR >> FIO_PLAT_BITS)
		return FIO_PLAT_NR - 1;
	idx = ((err + 1) << FIO_PLAT_BITS) + (unsigned)((v >> err) & (FIO_PLAT_VAL - 1));
	return idx < FIO_PLAT_NR - 1 ? idx : FIO_PLAT_NR - 1;
}

uint64_t fio_plat_value(unsigned idx)
{
	unsigned err;
	uint64_t base, k;

	if (idx < (2u << FIO_PLAT_BITS))
		return idx;
	err = (idx >> FIO_PLAT_BITS) - 1;
	base = 1ull << (err + FIO_PLAT_BITS);
	k = idx % FIO_PLAT_VAL;
	/* the middle of the bucket, as fio's (k + 0.5) * 2^err truncated */
	return base + (uint64_t)(((double)k + 0.5) * (double)(1ull << err));
}

void fio_plat_from_hist(const struct hist *h, uint64_t *out)
{
	memset(out, 0, FIO_PLAT_NR * sizeof(*out));
	if (!h)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->counts[i])
			out[fio_plat_index(hist_bucket_low(i))] += h->counts[i];
}

/* A double as a count, clamped to the count's range (a read-back run may hold anything). */
static uint64_t to_u64(double v)
{
	return !(v > 0) ? 0 : v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)v;
}

/* A job's measured window in whole milliseconds, at least 1 when it did I/O that way. */
static uint64_t runtime_ms(const struct result *r, uint64_t ios)
{
	uint64_t ms = to_u64(round(r->seconds * 1000));

	return !ios ? 0 : ms ? ms : 1;
}

static void samples_add(struct fio_samples *s, uint64_t v, double *sum, double *sumsq)
{
	s->min = !s->n || v < s->min ? v : s->min;
	s->max = v > s->max ? v : s->max;
	s->n++;
	*sum += (double)v;
	*sumsq += (double)v * (double)v;
}

/*
 * A direction's samples from the job's series: KiB/s (bw) or I/Os per second, one per k points
 * that make at least half a second (fio averages over 500 ms): each point of a series of 1 s,
 * five of one of 100 ms. A last group shorter than half of k intervals is no sample; none
 * without I/O.
 */
static void samples_of(const struct result *r, unsigned dir, bool iops, struct fio_samples *s)
{
	const struct dir_stats *d[3] = {&r->read, &r->write, &r->trim};
	uint64_t iv = r->interval_ns ? r->interval_ns : 1000000000ull, n = 0;
	unsigned k = (unsigned)((500000000ull + iv - 1) / iv), m = 0;
	double sum = 0, sumsq = 0, secs = 0;

	memset(s, 0, sizeof(*s));
	if (!d[dir]->ios)
		return;
	for (unsigned i = 0; i < r->nseries; i++) {
		const struct series_point *p = &r->series[i];
		const uint64_t ios[3] = {p->read_ios, p->write_ios, p->trim_ios};
		const uint64_t bytes[3] = {p->read_bytes, p->write_bytes, p->trim_bytes};

		n += iops ? ios[dir] : bytes[dir];
		secs += p->seconds;
		if (++m < k && i + 1 < r->nseries)
			continue;
		if (secs >= 0.5 * (double)k * (double)iv / 1e9)
			samples_add(s, to_u64((double)n / (iops ? 1.0 : 1024.0) / secs), &sum, &sumsq);
		n = 0, m = 0, secs = 0;
	}
	if (s->n)
		s->mean = sum / (double)s->n;
	if (s->n > 1) {
		double var = (sumsq - sum * s->mean) / (double)(s->n - 1);
		s->s = var > 0 ? var * (double)(s->n - 1) : 0;
		s->dev = var > 0 ? sqrt(var) : 0;
	}
}

/* fio's sum_stat() of bandwidth and IOPS: min, max, mean and S added, not merged. */
static void samples_sum(struct fio_samples *dst, const struct fio_samples *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->n += src->n;
	dst->mean += src->mean;
	dst->s += src->s;
	dst->dev = dst->n > 1 ? sqrt(dst->s / (double)(dst->n - 1)) : 0;
}

/* fio's latency ranges: an I/O of latency v in a unit falls in the first range above it. */
static const unsigned lat_edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};

static unsigned lat_slot(uint64_t v, unsigned nslots)
{
	unsigned i = 0;

	while (i + 1 < nslots && v >= lat_edges[i])
		i++;
	return i;
}

/* Each histogram bucket counted at its midpoint, within 0.4% of every latency in it. */
static void lat_ranges(struct fio_entry *e)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t c = 0, v = hist_bucket_low(i) + hist_bucket_width(i) / 2;

		for (unsigned d = 0; d < 3; d++)
			c += e->dir[d].hist ? e->dir[d].hist->counts[i] : 0;
		if (!c)
			continue;
		if (v < 1000)
			e->lat[0][lat_slot(v, 10)] += c;
		else if (v < 1000000)
			e->lat[1][lat_slot(v / 1000, 10)] += c;
		else
			e->lat[2][lat_slot(v / 1000000, 12)] += c;
	}
	e->lat_total = e->dir[0].ios + e->dir[1].ios + e->dir[2].ios;
}

/* The index of job i's run group among s's groups. */
static unsigned group_index(const struct result_set *s, unsigned i)
{
	for (unsigned g = 0; g < s->ngroups; g++)
		if (result_set_in_group(s, i, g))
			return g;
	return 0;
}

unsigned fio_groupid(const struct result_set *s, unsigned i)
{
	/* fio's jobs carry fio's groupid (stonewall and new_group); others have run groups */
	if (!strcmp(s->jobs[i].job.origin, "fio"))
		return s->jobs[i].job.report_group;
	return s->njobs > 1 ? group_index(s, i) : 0;
}

double fio_agg_pct(const struct fio_samples *bw, uint64_t agg)
{
	double p;

	if (!bw->n)
		return 0;
	if (agg <= 1024)
		return 100;
	/* fio takes the mean as an int; a mean past its range is kept whole */
	p = bw->mean < 9e18 ? (double)(int64_t)bw->mean : bw->mean;
	p = p * 100.0 / ((double)agg / 1024.0);
	return p > 100 ? 100 : p;
}

/* Job i into entry e (fio's loop body of __show_run_stats()). */
static int entry_add(struct fio_entry *e, const struct result *r, unsigned i)
{
	const struct dir_stats *d[3] = {&r->read, &r->write, &r->trim};
	uint64_t ms = runtime_ms(r, 1);
	double cpu_ms = (double)e->job_runtime_ms;
	int ret = 0;

	if (!e->members++)
		e->first = i;
	e->last = i;
	for (unsigned k = 0; k < 3; k++) {
		struct fio_samples bw, io;

		if (dir_stats_merge(&e->dir[k], d[k]))
			ret = -ENOMEM;
		if (runtime_ms(r, d[k]->ios) > e->runtime_ms[k])
			e->runtime_ms[k] = runtime_ms(r, d[k]->ios);
		samples_of(r, k, false, &bw);
		samples_of(r, k, true, &io);
		samples_sum(&e->bw[k], &bw);
		samples_sum(&e->iops[k], &io);
	}
	/* fio adds the CPU times and the runtimes: the percentages weighted by runtime */
	if (cpu_ms + (double)ms > 0) {
		double u = isfinite(r->cpu.proc_user) ? r->cpu.proc_user : 0;
		double sy = isfinite(r->cpu.proc_system) ? r->cpu.proc_system : 0;

		e->usr_cpu = (e->usr_cpu * cpu_ms + u * (double)ms) / (cpu_ms + (double)ms);
		e->sys_cpu = (e->sys_cpu * cpu_ms + sy * (double)ms) / (cpu_ms + (double)ms);
	}
	e->job_runtime_ms += ms;
	if (!e->error && r->error)
		e->error = r->error < 0 ? -r->error : r->error;
	return ret;
}

void fio_stats_release(struct fio_stats *st)
{
	for (unsigned i = 0; st->e && i < st->n; i++)
		for (unsigned k = 0; k < 3; k++)
			dir_stats_release(&st->e[i].dir[k]);
	free(st->e);
	free(st->agg);
	memset(st, 0, sizeof(*st));
}

int fio_stats_build(struct fio_stats *st, const struct result_set *s)
{
	unsigned last_gid = 0;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	st->e = calloc(s->njobs ? s->njobs : 1, sizeof(*st->e));
	for (unsigned i = 0; i < s->njobs; i++) {
		unsigned g = fio_groupid(s, i);
		st->ngroups = g + 1 > st->ngroups ? g + 1 : st->ngroups;
	}
	st->agg = calloc(st->ngroups ? st->ngroups : 1, sizeof(*st->agg));
	if (!st->e || !st->agg) {
		fio_stats_release(st);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < s->njobs && !ret; i++) {
		const struct result *r = &s->jobs[i];
		unsigned gid = fio_groupid(s, i);

		/* as fio: a job joins the entry before when it has group_reporting and the job
		 * before was of its group (fio looks at this job's option only) */
		if (!st->n || !r->job.group_reporting || gid != last_gid) {
			for (unsigned k = 0; k < 3; k++)
				dir_stats_init(&st->e[st->n].dir[k]);
			st->e[st->n].groupid = gid;
			st->n++;
		}
		last_gid = gid;
		ret = entry_add(&st->e[st->n - 1], r, i);
	}
	for (unsigned i = 0; i < st->n && !ret; i++) {
		struct fio_entry *e = &st->e[i];
		uint64_t bytes[3] = {0}, run[3] = {0};

		lat_ranges(e);
		for (unsigned k = 0; k < 3; k++) {
			/* the group's bytes over its longest entry's runtime (fio's agg) */
			for (unsigned j = 0; j < st->n; j++) {
				if (st->e[j].groupid != e->groupid)
					continue;
				bytes[k] += st->e[j].dir[k].bytes;
				run[k] = st->e[j].runtime_ms[k] > run[k] ? st->e[j].runtime_ms[k]
									 : run[k];
			}
			st->agg[e->groupid][k] = run[k] ? (uint64_t)((unsigned __int128)bytes[k] *
								    1000 / run[k]) : 0;
		}
	}
	if (ret)
		fio_stats_release(st);
	return ret;
}
