/*
 * --verify across jobs: two jobs of one group that reach the same blocks of one target, one
 * verifying and the other writing, are refused before any I/O (src/core/verify_jobs.h).
 */
#include "core/verify_jobs.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"
#include "util/field.h"

/* The path as one name for the file: its real path, or its directory's when it is not made
 * yet (the run creates it). */
static void canon(const char *path, char out[PATH_MAX])
{
	char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];

	if (realpath(path, out))
		return;
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (realpath(dirname(dir), real) &&
	    (size_t)snprintf(out, PATH_MAX, "%s/%s", real, basename(base)) < PATH_MAX)
		return;
	snprintf(out, PATH_MAX, "%s", path);
}

bool verify_same_target(const char *a, const char *b)
{
	struct stat sa, sb;
	char ca[PATH_MAX], cb[PATH_MAX];

	if (!stat(a, &sa) && !stat(b, &sb)) {
		if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
			return sa.st_rdev == sb.st_rdev;
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	}
	canon(a, ca);
	canon(b, cb);
	return !strcmp(ca, cb);
}

/* Whether the regions of two jobs (offset, and range or to the end) overlap. */
static bool regions_overlap(const struct job *a, const struct job *b)
{
	uint64_t ea = a->range ? a->offset + a->range : UINT64_MAX;
	uint64_t eb = b->range ? b->offset + b->range : UINT64_MAX;

	return a->offset < eb && b->offset < ea;
}

/* Whether target ta of job a and target tb of job b clash: 0, or -EINVAL with how in err. */
static int clash(const struct job *jobs, unsigned n, unsigned a, unsigned ta, unsigned b,
		 unsigned tb, char *err, size_t errlen)
{
	const struct job *x = &jobs[a], *y = &jobs[b];
	char la[96], lb[96];

	if (x->group != y->group || !regions_overlap(x, y))
		return 0;
	if (!((x->verify && job_writes(y)) || (y->verify && job_writes(x))))
		return 0;
	if (!verify_same_target(x->targets[ta], y->targets[tb]))
		return 0;
	if (a == b)
		return err_set(err, errlen, -EINVAL, FIELD("verify") ": %s%s%s and %s are one "
			       "target, which its threads would write at once; name it once",
			       n > 1 ? job_label(x, a, la, sizeof(la)) : "", n > 1 ? ": " : "",
			       x->targets[ta], y->targets[tb]);
	return err_set(err, errlen, -EINVAL, FIELD("verify") ": %s and %s reach the same blocks "
		       "of %s at once, and one writes what the other checks; give them separate "
		       FIELD("offset") " and " FIELD("range") ", or run one after the other ("
		       FIELD("stonewall") ")", job_label(x, a, la, sizeof(la)),
		       job_label(y, b, lb, sizeof(lb)), x->targets[ta]);
}

int verify_jobs_check(const struct job *jobs, unsigned n, unsigned *which, char *err,
		      size_t errlen)
{
	int r;

	for (unsigned a = 0; a < n; a++)
		for (unsigned ta = 0; ta < jobs[a].ntargets; ta++)
			for (unsigned b = a; b < n; b++)
				for (unsigned tb = a == b ? ta + 1 : 0; tb < jobs[b].ntargets; tb++)
					if ((r = clash(jobs, n, a, ta, b, tb, err, errlen))) {
						if (which)
							*which = a;
						return r;
					}
	return 0;
}
