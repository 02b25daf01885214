#ifndef IORATE_CMD_FIT_H
#define IORATE_CMD_FIT_H
#include <stddef.h>

#include "core/job.h"

/*
 * Whether a job fits its targets, for commands that run several jobs on the same targets (sweep,
 * mark) and must refuse a bad combination before the first of them does any I/O. A target that
 * is there is opened as the job's run would open it (src/core/target.c: the device rules, its
 * size, the region, the block size, direct I/O alignment) and closed again, nothing written; one
 * the run will create is checked against the size it will be made. Returns 0, or -errno with a
 * one-line reason in err (-EDOM, -EINVAL: bad usage; -EPERM: a safety refusal).
 */
int cmd_job_fits(const struct job *job, char *err, size_t errlen);

#endif
