#ifndef IORATE_CORE_VERIFY_JOBS_H
#define IORATE_CORE_VERIFY_JOBS_H
#include <stdbool.h>
#include <stddef.h>

#include "core/job.h"

/*
 * --verify across the jobs of a run: a verifying job keeps, per block, what its own last write
 * was; another job of its group writing the same blocks at the same time makes intact blocks
 * look stale or foreign. Refuses (-EINVAL, with both jobs and the target named in err) two
 * targets of jobs of one group (or one job naming a target twice) that are the same file or
 * device, whose regions overlap, where one verifies and the other writes. Jobs of different
 * groups (--stonewall) never run at once and pass. Touches no target: call it before any I/O.
 * which (may be NULL) gets the index of the first of the two jobs.
 */
int verify_jobs_check(const struct job *jobs, unsigned n, unsigned *which, char *err,
		      size_t errlen);

/* Whether two names are one file or device (the same inode, or, for a file not made yet, the
 * same directory and name). */
bool verify_same_target(const char *a, const char *b);

#endif
