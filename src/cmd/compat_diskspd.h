#ifndef IORATE_CMD_COMPAT_DISKSPD_H
#define IORATE_CMD_COMPAT_DISKSPD_H
/*
 * Private to compat_diskspd.c (the flags) and compat_diskspd_job.c (what depends on several
 * flags, the defaults DiskSpd applies, and the targets).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job.h"

#define DSPD_DEFAULT_BS (64u << 10)

/* What the flags said, before they are resolved into the job (some depend on each other). */
struct dspd {
	struct job *j;
	FILE *ex;
	char *err;
	size_t errlen;
	uint64_t bs;
	bool u_set, w_set; /* -S: software cache off / write-through, as DiskSpd builds them */
	bool unbuffered, writethrough;
	unsigned t, F;              /* 0 = not given */
	bool random, interlocked;
	uint64_t ralign;            /* -r<align> */
	uint64_t stride;            /* -s<stride>; 0 = block size */
	uint64_t tstride;           /* -T<offset> */
	uint64_t base, maxsize;     /* -B, -f<size> */
	unsigned g;                 /* -g bytes per ms per thread per target */
	bool create;
	bool seen[128];
};

/* Resolves what depends on several flags: threads, pattern and strides, region, throttle. */
int dspd_resolve(struct dspd *d);
/* Explains the DiskSpd defaults that applied (its -b64K, -d10, -W5, -o2, ...). */
void dspd_defaults(struct dspd *d);
/* A target: a path, or "#N" for the Nth whole disk; Windows paths are refused. */
int dspd_target(struct dspd *d, const char *arg);

#endif
