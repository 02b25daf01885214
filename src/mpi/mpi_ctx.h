#ifndef IORATE_MPI_MPI_CTX_H
#define IORATE_MPI_MPI_CTX_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <mpi.h>

#include "core/result.h"

/* One rank's view of a coordinated run. */
struct mpi_ctx {
	int rank, size;
	char host[64];                  /* gethostname(), as reported */
	volatile sig_atomic_t *stop;    /* set by SIGINT/SIGTERM, or by a stop from another rank */
	bool setup_synced;              /* this rank took part in the set-up vote */
	uint64_t woke_rt_ns;            /* CLOCK_REALTIME when this rank passed the start instant */
	MPI_Request stop_req;           /* receives a stop from any other rank */
	int stop_in;
	bool stop_sent;
};

/*
 * Rank 0 gets (in agg, result_init'ed) the whole run from every rank's res: totals reduced
 * (histogram buckets summed), targets, series and per-rank rows gathered. Collective: every rank
 * calls it. 0, -ENOMEM, or -EINVAL when a rank's series has another interval than rank 0's
 * (agg->errmsg says which), on rank 0; the others always get 0.
 */
int mpi_gather_result(const struct mpi_ctx *m, const struct result *res, struct result *agg);

#endif
