/*
 * Aggregation of a coordinated run on rank 0. Totals are reduced with MPI (counts and histogram
 * buckets summed, min and max kept), so the run's percentiles come from one merged histogram,
 * never from averaging the ranks' percentiles. Per-target and per-rank figures are gathered as
 * they are (the structs are plain data; ranks are assumed to run the same build on the same
 * architecture, as mpirun of one binary implies).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ranks.h"
#include "mpi/mpi_ctx.h"

#define COMM MPI_COMM_WORLD

static void reduce_dir(const struct dir_stats *in, struct dir_stats *out)
{
	uint64_t sums[5] = {in->ios, in->bytes, in->errors, in->lat_n, in->lat_sum}, tot[5];

	MPI_Reduce(sums, tot, 5, MPI_UINT64_T, MPI_SUM, 0, COMM);
	MPI_Reduce(in->hist.counts, out->hist.counts, HIST_BUCKETS, MPI_UINT64_T, MPI_SUM, 0, COMM);
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
	agg->start_unix_ms = res->start_unix_ms;
	agg->host = res->host;
	agg->started = true;
	for (unsigned i = 0; i < res->nnotes; i++)
		result_add_note(agg, "%s", res->notes[i]);
	return 0;
}

int mpi_gather_result(const struct mpi_ctx *m, const struct result *res, struct result *agg)
{
	struct rank_result mine, *ranks = NULL;
	struct target_result *tgts = NULL;
	struct series_point *series = NULL;
	char *paths = NULL, *mypaths;
	int *scounts = NULL, *sdispls = NULL;
	uint64_t *woke = NULL;
	const char **hosts = NULL;
	unsigned plen = 0;
	int rc = 0;

	reduce_dir(&res->read, &agg->read);
	reduce_dir(&res->write, &agg->write);

	memset(&mine, 0, sizeof(mine));
	mine.rank = (unsigned)m->rank;
	snprintf(mine.host, sizeof(mine.host), "%s", m->host);
	mine.ntargets = res->ntargets;
	mine.seconds = res->seconds;
	mine.read = res->read;
	mine.write = res->write;
	mine.cpu = res->cpu;
	mine.interrupted = res->interrupted;
	if (res->error)
		snprintf(mine.error, sizeof(mine.error), "%s",
			 res->errmsg[0] ? res->errmsg : strerror(-res->error));
	ranks = gather_items(m, &mine, 1, sizeof(mine), NULL, NULL);
	tgts = gather_items(m, res->targets, res->ntargets, sizeof(*res->targets), NULL, NULL);
	mypaths = pack_paths(res, &plen);
	paths = gather_items(m, mypaths ? mypaths : "", mypaths ? plen : 0, 1, NULL, NULL);
	free(mypaths);
	series = gather_items(m, res->series, res->nseries, sizeof(*res->series), &scounts,
			      &sdispls);
	woke = gather_items(m, &m->woke_rt_ns, 1, sizeof(m->woke_rt_ns), NULL, NULL);
	if (m->rank != 0)
		goto out;

	rc = -ENOMEM;
	hosts = calloc((size_t)m->size, sizeof(*hosts));
	if (!ranks || !tgts || !paths || !series || !woke || !hosts || agg_header(res, agg))
		goto out;
	const char *p = paths;
	struct target_result *t = tgts;
	uint64_t wmin = UINT64_MAX, wmax = 0;
	double sys[4] = {0};
	for (int i = 0; i < m->size; i++) {
		struct rank_result *k = &ranks[i];
		k->first_target = agg->ntargets;
		for (unsigned j = 0; j < k->ntargets; j++) {
			t[j].path = (char *)p;
			p += strlen(p) + 1;
		}
		if (ranks_add_targets(agg, t, k->ntargets))
			goto out;
		t += k->ntargets;
		if (ranks_series_add(&agg->series, &agg->nseries,
				     (struct series_point *)((char *)series + sdispls[i]),
				     (unsigned)scounts[i] / sizeof(*series)))
			goto out;
		if (k->seconds > agg->seconds)
			agg->seconds = k->seconds;
		agg->interrupted |= k->interrupted;
		if (k->error[0] && !agg->error) {
			agg->error = -EIO;
			snprintf(agg->errmsg, sizeof(agg->errmsg), "rank %u: %s", k->rank, k->error);
		}
		/* iorate's own CPU adds up over ranks; the system-wide shares are averaged. */
		agg->cpu.proc_user += k->cpu.proc_user;
		agg->cpu.proc_system += k->cpu.proc_system;
		sys[0] += k->cpu.user;
		sys[1] += k->cpu.system;
		sys[2] += k->cpu.iowait;
		sys[3] += k->cpu.idle;
		hosts[i] = k->host;
		if (woke[i] < wmin)
			wmin = woke[i];
		if (woke[i] > wmax)
			wmax = woke[i];
	}
	agg->cpu.ncpus = res->cpu.ncpus;
	agg->cpu.user = sys[0] / m->size;
	agg->cpu.system = sys[1] / m->size;
	agg->cpu.iowait = sys[2] / m->size;
	agg->cpu.idle = sys[3] / m->size;
	agg->nhosts = ranks_count_hosts(hosts, (unsigned)m->size);
	agg->start_skew_us = (double)(wmax - wmin) / 1e3;
	agg->ranks = ranks;
	agg->nranks = (unsigned)m->size;
	ranks = NULL;
	rc = 0;
out:
	free(hosts);
	free(scounts);
	free(sdispls);
	free(ranks);
	free(tgts);
	free(paths);
	free(series);
	free(woke);
	return rc;
}
