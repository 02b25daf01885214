#ifndef IORATE_STATS_RUN_H
#define IORATE_STATS_RUN_H

#include "core/result.h"

/*
 * A run as the statistics read it: its jobs, one or several (a result set's jobs; their sums
 * belong to the result layer above, so stats works from the jobs alone).
 */
struct stats_run {
	const struct result *jobs;
	unsigned njobs;
};

#endif
