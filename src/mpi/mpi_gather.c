/*
 * Aggregation of a coordinated run on rank 0. Totals are reduced with MPI (counts and histogram
 * buckets summed, min and max kept), so the run's percentiles come from one merged histogram,
 * never from averaging the ranks' percentiles. Per-target and per-rank figures are gathered as
 * they are (the structs are plain data; ranks are assumed to run the same build on the same
 * architecture, as mpirun of one binary implies), their histograms, which are on the heap, as
 * arrays beside them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ranks.h"
#include "mpi/mpi_ctx.h"

#define COMM MPI_COMM_WORLD

static const struct hist no_hist;
static struct hist scratch_hist;

/* On rank 0, out gets a histogram to reduce into (when that cannot be had, the sum goes to a
 * scratch one and the percentiles are missing: the counts still add up). */
static void reduce_dir(const struct mpi_ctx *m, const struct dir_stats *in, struct dir_stats *out)
{
	uint64_t sums[5] = {in->ios, in->bytes, in->errors, in->lat_n, in->lat_sum}, tot[5];
	struct hist *sink = NULL;

	MPI_Reduce(sums, tot, 5, MPI_UINT64_T, MPI_SUM, 0, COMM);
	if (m->rank == 0 && !out->hist)
		out->hist = calloc(1, sizeof(*out->hist));
	if (m->rank == 0)
		sink = out->hist ? out->hist : &scratch_hist;
	MPI_Reduce(in->hist ? in->hist->counts : no_hist.counts, sink ? sink->counts : NULL,
		   HIST_BUCKETS, MPI_UINT64_T, MPI_SUM, 0, COMM);
	MPI_Reduce(&in->lat_sumsq, &out->lat_sumsq, 1, MPI_DOUBLE, MPI_SUM, 0, COMM);
	MPI_Reduce(&in->lat_min, &out->lat_min, 1, MPI_UINT64_T, MPI_MIN, 0, COMM);
	MPI_Reduce(&in->lat_max, &out->lat_max, 1, MPI_UINT64_T, MPI_MAX, 0, COMM);
	out->ios = tot[0];
	out->bytes = tot[1];
	out->errors = tot[2];
	out->lat_n = tot[3];
	out->lat_sum = tot[4];
}

/* Gathers n items of size bytes from every rank into one buffer on rank 0; counts per rank. */
static void *gather_items(const struct mpi_ctx *m, const void *items, unsigned n, size_t size,
			  int **countsp, int **displsp)
{
	int mine = (int)(n * size), total = 0;
	int *counts = NULL, *displs = NULL;
	char *all = NULL;

	if (m->rank == 0) {
		counts = calloc((size_t)m->size, sizeof(*counts));
		displs = calloc((size_t)m->size, sizeof(*displs));
	}
	MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, COMM);
	if (m->rank == 0) {
		for (int i = 0; i < m->size; i++) {
			displs[i] = total;
			total += counts[i];
		}
		all = malloc(total ? (size_t)total : 1);
	}
	MPI_Gatherv(items, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, COMM);
	if (countsp)
		*countsp = counts;
	else
		free(counts);
	if (displsp)
		*displsp = displs;
	else
		free(displs);
	return all;
}

/* Directions per histogram set: read, write, trim. */
#define NDIR 3

/* Direction d of a set of them. */
static struct dir_stats *dir_of(struct dir_stats *rd, struct dir_stats *wr, struct dir_stats *tr,
				unsigned d)
{
	return d == 0 ? rd : d == 1 ? wr : tr;
}

/* The histograms of a rank: its totals (read, write, trim), then each target's, zeros where
 * none. */
static uint64_t *pack_hists(const struct result *res, unsigned *len)
{
	unsigned n = NDIR + NDIR * res->ntargets;
	uint64_t *buf = calloc((size_t)n * HIST_BUCKETS, sizeof(*buf));
	struct result *r = (struct result *)res; /* dir_of() does not write */

	if (!buf)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		struct target_result *t = i < NDIR ? NULL : &r->targets[i / NDIR - 1];
		const struct dir_stats *d = t ? dir_of(&t->read, &t->write, &t->trim, i % NDIR)
					      : dir_of(&r->read, &r->write, &r->trim, i);
		if (d->hist)
			memcpy(buf + (size_t)i * HIST_BUCKETS, d->hist->counts,
			       sizeof(d->hist->counts));
	}
	*len = n * HIST_BUCKETS * (unsigned)sizeof(*buf);
	return buf;
}

/* A histogram from a gathered array when it counted anything, else none. */
static int unpack_hist(const uint64_t *counts, struct dir_stats *d)
{
	d->hist = NULL;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (counts[i]) {
			if (!(d->hist = malloc(sizeof(*d->hist))))
				return -ENOMEM;
			memcpy(d->hist->counts, counts, sizeof(d->hist->counts));
			return 0;
		}
	return 0;
}

/* Paths of a rank's targets, each ending in '\0', one after the other. */
static char *pack_paths(const struct result *res, unsigned *len)
{
	size_t n = 0;
	char *buf, *p;

	for (unsigned i = 0; i < res->ntargets; i++)
		n += strlen(res->targets[i].path ? res->targets[i].path : "") + 1;
	if (!(p = buf = malloc(n ? n : 1)))
		return NULL;
	for (unsigned i = 0; i < res->ntargets; i++) {
		const char *s = res->targets[i].path ? res->targets[i].path : "";
		size_t l = strlen(s) + 1;
		memcpy(p, s, l);
		p += l;
	}
	*len = (unsigned)n;
	return buf;
}

/* The whole run's fields that are not sums: rank 0's job and host, the longest window. */
static int agg_header(const struct result *res, struct result *agg)
{
	int r = job_copy(&agg->job, &res->job);

	if (r)
		return r;
	memcpy(agg->engine, res->engine, sizeof(agg->engine));
	memcpy(agg->engine_why, res->engine_why, sizeof(agg->engine_why));
	agg->interval_ns = res->interval_ns;
	agg->start_unix_ms = res->start_unix_ms;
	agg->host = res->host;
	agg->started = true;
	for (unsigned i = 0; i < res->nnotes; i++)
		result_add_note(agg, "%s", res->notes[i]);
	return 0;
}

/* This rank's own totals, as rank 0 lists them. */
static void rank_of(const struct mpi_ctx *m, const struct result *res, struct rank_result *mine)
{
	memset(mine, 0, sizeof(*mine));
	mine->rank = (unsigned)m->rank;
	snprintf(mine->host, sizeof(mine->host), "%s", m->host);
	mine->ntargets = res->ntargets;
	mine->seconds = res->seconds;
	mine->read = res->read;
	mine->write = res->write;
	mine->trim = res->trim;
	mine->cpu = res->cpu;
	mine->interrupted = res->interrupted;
	if (res->error)
		snprintf(mine->error, sizeof(mine->error), "%s",
			 res->errmsg[0] ? res->errmsg : strerror(-res->error));
}

/* What every rank sent, on rank 0. */
struct gathered {
	struct rank_result *ranks;
	struct target_result *tgts;
	struct series_point *series;
	char *paths;
	int *scounts, *sdispls;
	uint64_t *woke;
	uint64_t *iv;                  /* each rank's series interval */
	char *hists;
	int *hcounts, *hdispls;
};

static void gathered_free(struct gathered *g)
{
	free(g->ranks);
	free(g->tgts);
	free(g->series);
	free(g->paths);
	free(g->scounts);
	free(g->sdispls);
	free(g->woke);
	free(g->iv);
	free(g->hists);
	free(g->hcounts);
	free(g->hdispls);
}

/* Rank i's part of the aggregate: its targets (paths from the packed list) and series. */
static int add_rank(struct result *agg, struct gathered *g, int i, struct target_result **t,
		    const char **p)
{
	struct rank_result *k = &g->ranks[i];
	const uint64_t *h = (const uint64_t *)(g->hists + g->hdispls[i]);
	int r = 0;

	/* A rank that could not pack its histograms sent none: its figures come without. */
	if ((size_t)g->hcounts[i] != (NDIR + NDIR * (size_t)k->ntargets) * sizeof(struct hist))
		h = NULL;

	k->first_target = agg->ntargets;
	/* Pointers of another process are not sent: paths and histograms come beside. */
	k->read.hist = k->write.hist = k->trim.hist = NULL;
	for (unsigned d = 0; h && d < NDIR; d++)
		if (unpack_hist(h + d * HIST_BUCKETS, dir_of(&k->read, &k->write, &k->trim, d)))
			r = -ENOMEM;
	for (unsigned j = 0; j < k->ntargets; j++) {
		(*t)[j].path = (char *)*p;
		(*t)[j].opened = NULL;
		(*t)[j].read.hist = (*t)[j].write.hist = (*t)[j].trim.hist = NULL;
		*p += strlen(*p) + 1;
	}
	if (r || ranks_add_targets(agg, *t, k->ntargets))
		return -ENOMEM;
	for (unsigned j = 0; h && j < k->ntargets; j++) {
		struct target_result *x = &agg->targets[k->first_target + j];
		for (unsigned d = 0; d < NDIR; d++)
			if (unpack_hist(h + (NDIR + NDIR * j + d) * HIST_BUCKETS,
					dir_of(&x->read, &x->write, &x->trim, d)))
				return -ENOMEM;
	}
	*t += k->ntargets;
	if (ranks_series_add(&agg->series, &agg->nseries,
			     (struct series_point *)((char *)g->series + g->sdispls[i]),
			     (unsigned)g->scounts[i] / sizeof(*g->series)))
		return -ENOMEM;
	if (k->seconds > agg->seconds)
		agg->seconds = k->seconds;
	agg->interrupted |= k->interrupted;
	if (k->error[0] && !agg->error) {
		agg->error = -EIO;
		snprintf(agg->errmsg, sizeof(agg->errmsg), "rank %u: %s", k->rank, k->error);
	}
	/* iorate's own CPU adds up over ranks; the system-wide shares are averaged (later). */
	agg->cpu.proc_user += k->cpu.proc_user;
	agg->cpu.proc_system += k->cpu.proc_system;
	agg->cpu.user += k->cpu.user;
	agg->cpu.system += k->cpu.system;
	agg->cpu.iowait += k->cpu.iowait;
	agg->cpu.idle += k->cpu.idle;
	return 0;
}

/* Rank 0: the whole run from what every rank sent. */
static int aggregate(const struct mpi_ctx *m, const struct result *res, struct gathered *g,
		     struct result *agg)
{
	const char **hosts = calloc((size_t)m->size, sizeof(*hosts));
	struct target_result *t = g->tgts;
	const char *p = g->paths;
	uint64_t wmin = UINT64_MAX, wmax = 0;
	int rc = -ENOMEM;

	if (!g->ranks || !g->tgts || !g->paths || !g->series || !g->woke || !g->iv || !g->hists ||
	    !g->hcounts || !hosts || agg_header(res, agg))
		goto out;
	/* Series add up point by point: only points of one length (one build of iorate, one job
	 * everywhere makes them so). */
	for (int i = 0; i < m->size; i++)
		if (g->iv[i] != res->interval_ns) {
			snprintf(agg->errmsg, sizeof(agg->errmsg), "rank %d's series has a point per "
				 "%llu us, rank 0's per %llu us", i, (unsigned long long)g->iv[i] / 1000,
				 (unsigned long long)res->interval_ns / 1000);
			rc = -EINVAL;
			goto out;
		}
	for (int i = 0; i < m->size; i++)
		g->ranks[i].read.hist = g->ranks[i].write.hist = g->ranks[i].trim.hist = NULL;
	for (int i = 0; i < m->size; i++) {
		if ((rc = add_rank(agg, g, i, &t, &p)))
			goto out;
		hosts[i] = g->ranks[i].host;
		wmin = g->woke[i] < wmin ? g->woke[i] : wmin;
		wmax = g->woke[i] > wmax ? g->woke[i] : wmax;
	}
	agg->cpu.ncpus = res->cpu.ncpus;
	agg->cpu.user /= m->size;
	agg->cpu.system /= m->size;
	agg->cpu.iowait /= m->size;
	agg->cpu.idle /= m->size;
	agg->nhosts = ranks_count_hosts(hosts, (unsigned)m->size);
	agg->start_skew_us = (double)(wmax - wmin) / 1e3;
	agg->ranks = g->ranks;
	agg->nranks = (unsigned)m->size;
	g->ranks = NULL;
	rc = 0;
out:
	free(hosts);
	return rc;
}

/* --cmdprio's prioritized I/Os and --latency-target's search, over every rank (each rank runs
 * the same job, so each has them or none has). */
static void reduce_searches(const struct mpi_ctx *m, const struct result *res,
			    struct result *agg)
{
	const struct result_lat *l = &res->lat;
	unsigned sums[2] = {l->threads, l->finished}, tot[2] = {0, 0};
	uint64_t worst = l->worst_ns;

	if (res->job.cmdprio.on) {
		reduce_dir(m, &res->prio[0], &agg->prio[0]);
		reduce_dir(m, &res->prio[1], &agg->prio[1]);
	}
	if (!res->job.lat_target_ns)
		return;
	reduce_dir(m, &l->fin, &agg->lat.fin);
	MPI_Reduce(sums, tot, 2, MPI_UNSIGNED, MPI_SUM, 0, COMM);
	MPI_Reduce(&l->depth_min, &agg->lat.depth_min, 1, MPI_UNSIGNED, MPI_MIN, 0, COMM);
	MPI_Reduce(&l->depth_max, &agg->lat.depth_max, 1, MPI_UNSIGNED, MPI_MAX, 0, COMM);
	MPI_Reduce(&l->seconds, &agg->lat.seconds, 1, MPI_DOUBLE, MPI_MAX, 0, COMM);
	MPI_Reduce(&worst, &agg->lat.worst_ns, 1, MPI_UINT64_T, MPI_MAX, 0, COMM);
	if (m->rank == 0) {
		agg->lat.threads = tot[0];
		agg->lat.finished = tot[1];
	}
}

int mpi_gather_result(const struct mpi_ctx *m, const struct result *res, struct result *agg)
{
	struct gathered g = {0};
	struct rank_result mine;
	char *mypaths;
	unsigned plen = 0;
	int rc = 0;

	reduce_dir(m, &res->read, &agg->read);
	reduce_dir(m, &res->write, &agg->write);
	reduce_dir(m, &res->trim, &agg->trim);
	reduce_searches(m, res, agg);
	rank_of(m, res, &mine);
	/* Every rank takes part in every gather, whatever it has (or failed to allocate). */
	g.ranks = gather_items(m, &mine, 1, sizeof(mine), NULL, NULL);
	g.tgts = gather_items(m, res->targets, res->ntargets, sizeof(*res->targets), NULL, NULL);
	mypaths = pack_paths(res, &plen);
	g.paths = gather_items(m, mypaths ? mypaths : "", mypaths ? plen : 0, 1, NULL, NULL);
	free(mypaths);
	g.series = gather_items(m, res->series, res->nseries, sizeof(*res->series), &g.scounts,
				&g.sdispls);
	g.woke = gather_items(m, &m->woke_rt_ns, 1, sizeof(m->woke_rt_ns), NULL, NULL);
	g.iv = gather_items(m, &res->interval_ns, 1, sizeof(res->interval_ns), NULL, NULL);
	uint64_t *myhists = pack_hists(res, &plen);
	g.hists = gather_items(m, myhists ? (void *)myhists : "", myhists ? plen : 0, 1,
			       &g.hcounts, &g.hdispls);
	free(myhists);
	if (m->rank == 0)
		rc = aggregate(m, res, &g, agg);
	gathered_free(&g);
	return rc;
}
