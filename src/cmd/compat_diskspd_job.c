/*
 * `iorate diskspd`, second half: what DiskSpd derives from several flags at once (threads,
 * strides, region, throttle, cache mode), the defaults it applies, and its targets ("#N").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/compat.h"
#include "cmd/compat_diskspd.h"
#include "util/parse.h"

/* DiskSpd's -S/-h pair (software cache off, write-through) as one of iorate's cache modes. */
static void dspd_cache(struct dspd *d)
{
	const char *flag = d->u_set || d->w_set ? "-S" : "default -Sb";

	if (d->unbuffered && d->writethrough) {
		d->j->cache = CACHE_DIRECTSYNC;
		compat_explain(d->ex, "-Sh", "--cache directsync: O_DIRECT|O_DSYNC, neither the "
			       "page cache nor the device's write cache");
	} else if (d->unbuffered) {
		d->j->cache = CACHE_DIRECT;
		compat_explain(d->ex, "-Su", "--cache direct: O_DIRECT, no page cache");
	} else if (d->writethrough) {
		d->j->cache = CACHE_WRITETHROUGH;
		compat_explain(d->ex, "-Sw",
			       "--cache writethrough: page cache with O_DSYNC writes");
	} else {
		d->j->cache = CACHE_BUFFERED;
		compat_explain(d->ex, flag, "--cache buffered: DiskSpd uses the OS cache unless -S "
			       "or -Sh is given");
	}
}

int dspd_resolve(struct dspd *d)
{
	struct job *j = d->j;
	char b1[32], b2[32];

	if (d->t && d->F)
		return compat_fail(d->err, d->errlen,
				   "-t and -F: DiskSpd refuses both together (threads per target, "
				   "or threads in total)");
	j->threads = d->F ? d->F : d->t ? d->t : 1;
	if (!d->t && !d->F)
		compat_explain(d->ex, "default -t1", "--threads 1");
	j->pattern = d->random ? PATTERN_RANDOM : PATTERN_SEQUENTIAL;
	if (d->random) {
		j->align = d->ralign != d->bs ? d->ralign : 0;
		if (d->seen['s'])
			compat_explain(d->ex, "-s", "(no effect) -r overrides -s, as in DiskSpd");
	} else {
		uint64_t stride = d->stride ? d->stride : d->bs;
		bool exact = j->threads == 1 || d->interlocked ||
			     (d->tstride == d->bs && stride == j->threads * d->bs);

		if (stride != d->bs && !(d->tstride == d->bs && stride == j->threads * d->bs))
			return compat_fail(d->err, d->errlen,
					   "-s%s: a sequential stride of %s is not supported: "
					   "iorate's threads read adjacent blocks, interleaved "
					   "(the pattern of -T1b -s%ub)",
					   fmt_size(stride, b1, sizeof(b1)),
					   fmt_size(stride, b2, sizeof(b2)), j->threads);
		compat_explain(d->ex, d->seen['s'] ? "-s" : "default -s", "--sequential%s",
			       exact ? (j->threads > 1 ? ": threads interleave block by block, as "
							 "with DiskSpd's -si" : "")
				     : ": DiskSpd's threads would each walk the same offsets; "
				       "iorate interleaves them (as -si does)");
	}
	if (d->tstride && (d->random || j->threads == 1))
		compat_explain(d->ex, "-T", "(no effect) the thread stride matters only for "
			       "sequential I/O from several threads");
	else if (d->tstride)
		compat_explain(d->ex, "-T", "thread k starts at block k (interleaved)");
	j->offset = d->base;
	if (d->maxsize) {
		if (d->maxsize <= d->base)
			return compat_fail(d->err, d->errlen,
					   "-f: the target size (%s) must be above the base "
					   "offset -B (%s)", fmt_size(d->maxsize, b1, sizeof(b1)),
					   fmt_size(d->base, b2, sizeof(b2)));
		j->range = d->maxsize - d->base;
	}
	if (d->g) {
		/* -g throttles each thread on each target: bytes per millisecond. */
		j->cap.mbps = (double)d->g * 1000.0 * j->threads / 1e6;
		compat_explain(d->ex, "-g",
			       "--cap-mbps %g: %u bytes/ms for each of %u thread(s), per target",
			       j->cap.mbps, d->g, j->threads);
	}
	dspd_cache(d);
	return 0;
}

void dspd_defaults(struct dspd *d)
{
	char b[32];

	if (!d->seen['b'])
		compat_explain(d->ex, "default -b64K", "--bs %s", fmt_size(d->bs, b, sizeof(b)));
	if (!d->seen['d'])
		compat_explain(d->ex, "default -d10", "--time 10s");
	if (!d->seen['W'])
		compat_explain(d->ex, "default -W5",
			       "--warmup 5s: DiskSpd warms up 5 s unless -W0");
	if (!d->seen['o'])
		compat_explain(d->ex, "default -o2", "--depth 2");
	if (!d->seen['w'])
		compat_explain(d->ex, "default -w0", "--write 0: reads only");
	if (!d->seen['z'])
		compat_explain(d->ex, "default -z0", "--seed 0: repeatable offsets");
	if (!d->seen['Z'] && (d->j->write_pct || d->create))
		compat_explain(d->ex, "default buffers",
			       "--fill random: DiskSpd writes a repeating 0..255 pattern, which "
			       "compresses; iorate writes random data");
}

int dspd_target(struct dspd *d, const char *arg)
{
	const char *a = arg[0] == '`' ? arg + 1 : arg;   /* PowerShell's escaped `#1 */

	if (a[0] == '#') {
		char name[64], list[256], dev[96];
		unsigned n;
		int r;

		if (parse_uint(a + 1, 0, 100000, &n))
			return compat_fail(d->err, d->errlen,
					   "%s: DiskSpd's disk targets are # and a number, as in "
					   "#1",
					   arg);
		r = compat_disk_by_number(NULL, n, name, sizeof(name), list, sizeof(list));
		if (r == -ENOENT)
			return compat_fail(d->err, d->errlen,
					   "%s: there is no disk #%u here (%s); name the device "
					   "instead, e.g. /dev/sdb",
					   arg, n, list);
		if (r)
			return compat_fail(d->err, d->errlen,
					   "%s: cannot list the disks in /sys/block: %s", arg,
					   strerror(-r));
		snprintf(dev, sizeof(dev), "/dev/%s", name);
		compat_explain(d->ex, arg, "%s: disk #%u in /sys/block order, from 0 (%s)", dev, n,
			       list);
		return job_add_target(d->j, dev) ? compat_fail(d->err, d->errlen,
							       "out of memory") : 0;
	}
	if (compat_is_windows_path(a))
		return compat_fail(d->err, d->errlen,
				   "'%s' is a Windows path; name a Linux file (e.g. "
				   "/mnt/data/testfile.dat), a block device (e.g. /dev/sdb) or a "
				   "disk by number (#1)",
				   arg);
	compat_explain(d->ex, arg, "target");
	return job_add_target(d->j, a) ? compat_fail(d->err, d->errlen, "out of memory") : 0;
}
