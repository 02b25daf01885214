#ifndef IORATE_CORE_RANKS_H
#define IORATE_CORE_RANKS_H
#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

/*
 * The pure part of running one job on many ranks (iorate-mpi): naming each rank's targets,
 * catching two ranks of one host on the same file, and summing the ranks' results. Nothing
 * here knows MPI; src/mpi/ moves the data between ranks.
 */

/*
 * Expands a target template for one rank: %r is the rank, %h the short hostname (up to the first
 * dot), %% a percent sign. 0, -EINVAL for any other %-sequence (err says which), or
 * -ENAMETOOLONG when the result does not fit outlen.
 */
int ranks_expand(const char *tmpl, unsigned rank, const char *host, char *out, size_t outlen,
		 char *err, size_t errlen);

/* One target of one rank, for the clash check. */
struct rank_target {
	unsigned rank;
	const char *host;
	const char *path;
	bool writes;          /* the rank would create or write it (not only read it) */
};

/*
 * Finds two entries of different ranks on the same host naming the same path where at least one
 * writes it. Returns true and their indexes in *a < *b, or false when there is none.
 */
bool ranks_find_clash(const struct rank_target *t, unsigned n, unsigned *a, unsigned *b);

/* Number of distinct names among hosts[0..n-1]. */
unsigned ranks_count_hosts(const char *const *hosts, unsigned n);

/*
 * Adds src's series into *dst point by point (the ranks start together and share an interval,
 * so their i-th points coincide), growing *dst to the longer of the two. Counts are summed; an interval's
 * p99 becomes the larger of the two (a bound: the ranks' interval histograms are not kept).
 * 0 or -ENOMEM.
 */
int ranks_series_add(struct series_point **dst, unsigned *ndst, const struct series_point *src,
		     unsigned nsrc);

/* Appends n targets of one rank to agg's (paths copied; agg's totals are left alone). 0 or -ENOMEM. */
int ranks_add_targets(struct result *agg, const struct target_result *t, unsigned n);

#endif
