/*
 * `iorate diskspd`, second half: what DiskSpd derives from several flags at once (threads,
 * strides, region, throttle, cache mode), the defaults it applies, and its targets ("#N"), each
 * as the setting of 'iorate run' it becomes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compat/compat.h"
#include "compat/diskspd.h"
#include "util/parse.h"

#define FAIL(d, ...) err_set((d)->to.err, (d)->to.errlen, -EINVAL, __VA_ARGS__)

/* A byte count as 'iorate run' reads it. */
static const char *bytes(uint64_t n, char buf[24])
{
	snprintf(buf, 24, "%llu", (unsigned long long)n);
	return buf;
}

/* -t (threads per target) or -F (threads that each work on every target): one --threads. */
static int dspd_threads(struct dspd *d)
{
	const struct dspd_arg *a = d->F.flag ? &d->F : &d->t;
	const char *n = a->flag ? a->val : "1";
	int r;

	if (d->t.flag && d->F.flag)
		return FAIL(d, "%s and %s: give one, threads per target (-t) or threads that each "
			    "work on every target (-F)", d->t.flag, d->F.flag);
	if (!a->flag)
		r = compat_set(&d->to, "-t1", true, "threads", n, NULL);
	else if (d->F.flag)
		r = compat_set(&d->to, a->flag, false, "threads", n,
			       "%s threads in all, shared: each works on every target", n);
	else
		r = compat_set(&d->to, a->flag, false, "threads", n, "threads per target");
	if (r)
		return r;
	if (parse_uint(n, 1, UINT32_MAX, &d->threads))
		return FAIL(d, "%s: internal: '%s' was accepted but is not a thread count",
			    a->flag, n);
	/* No option of 'iorate run' shares threads between targets yet: a job flag. */
	d->to.j->shared_threads = d->F.flag != NULL;
	return 0;
}

/*
 * -o: DiskSpd's outstanding I/Os are per thread and target; iorate's --depth is per thread, so
 * threads shared by several targets (-F) keep -o on each: -o times the targets.
 */
static int dspd_depth(struct dspd *d)
{
	bool def = !d->o.flag;
	const char *flag = def ? "-o2" : d->o.flag, *v = def ? "2" : d->o.val;
	char buf[24];
	unsigned n;

	if (!d->F.flag || d->share < 2 || parse_uint(v, 1, UINT32_MAX, &n))
		return compat_set(&d->to, flag, def, "depth", v, "%s",
				  def ? "" : "outstanding I/Os per thread and target");
	if ((uint64_t)n * d->share > JOB_MAX_DEPTH)
		return FAIL(d, "%s: %u for each of the %u targets the threads of %s serve makes "
			    "%llu outstanding I/Os per thread, more than iorate's %u", flag, n,
			    d->share, d->F.flag, (unsigned long long)n * d->share, JOB_MAX_DEPTH);
	return compat_set(&d->to, flag, def, "depth", bytes((uint64_t)n * d->share, buf),
			  "%u on each of the %u targets each shared thread serves", n, d->share);
}

/* -rdpct<io%>/<target%>:... or -rdabs<io%>/<size>:...: zones of random I/O, in order. */
static int dspd_dist(struct dspd *d)
{
	const char *flag = d->rd.flag, *v = d->rd.val + 3;
	bool abs = !strncmp(d->rd.val, "abs", 3);
	char spec[1024], part[64];
	unsigned io = 0, nz = 0, a, p;
	uint64_t span = 0, sz;
	size_t n;

	if (!abs && strncmp(d->rd.val, "pct", 3))
		return FAIL(d, "%s: the distribution is pct or abs, as in -rdpct90/10 or "
			    "-rdabs90/1G", flag);
	n = (size_t)snprintf(spec, sizeof(spec), "%s", abs ? "zoned_abs" : "zoned");
	for (const char *q = v; *q; nz++) {
		size_t len = strcspn(q, ":");
		char *slash;

		if (len >= sizeof(part) || nz == JOB_MAX_ZONES)
			return FAIL(d, "%s: iorate takes at most %u ranges", flag, JOB_MAX_ZONES);
		memcpy(part, q, len);
		part[len] = '\0';
		q += len + (q[len] == ':');
		if (!(slash = strchr(part, '/')) || (*slash = '\0', parse_uint(part, 0, 100, &a)) ||
		    (!abs && parse_uint(slash + 1, 1, 100, &p)))
			return FAIL(d, "%s: each range is IO%%/%s, as in %s", flag,
				    abs ? "SIZE" : "TARGET%",
				    abs ? "-rdabs90/1G:10/4G" : "-rdpct90/10:10/90");
		if (abs && dspd_bytes(d, flag, slash + 1, &sz))
			return -EINVAL;
		if (abs && sz < d->bs)
			return FAIL(d, "%s: a range of %llu bytes is below the block size", flag,
				    (unsigned long long)sz);
		io += a;
		if (__builtin_add_overflow(span, abs ? sz : p, &span))
			return FAIL(d, "%s: the range sizes add up to more than 64 bits hold",
				    flag);
		if (io > 100 || (!abs && span > 100))
			return FAIL(d, "%s: the %s add up to more than 100%%", flag,
				    io > 100 ? "I/O percents" : "target percents");
		n += (size_t)snprintf(spec + n, sizeof(spec) - n, ":%u/%llu", a,
				      (unsigned long long)(abs ? sz : p));
	}
	if (!*v)
		return FAIL(d, "%s: names no range, as in -rdpct90/10", flag);
	/* What the ranges leave of the I/O goes to what they leave of the target. */
	if (io < 100 && !abs && span >= 100)
		return FAIL(d, "%s: the ranges cover the target with %u%% of the I/O left", flag,
			    100 - io);
	if (io < 100 && nz == JOB_MAX_ZONES)
		return FAIL(d, "%s: iorate takes at most %u ranges, with the one for the I/O left",
			    flag, JOB_MAX_ZONES);
	if (io < 100)
		snprintf(spec + n, sizeof(spec) - n, ":%u/%llu", 100 - io,
			 (unsigned long long)(abs ? 0 : 100 - span));
	else if (!abs && span < 100)
		return FAIL(d, "%s: the target percents add up to %llu%%; they must cover all of "
			    "it", flag, (unsigned long long)span);
	return compat_set(&d->to, flag, false, "distribution", spec, "%s",
			  abs ? "percent of random I/Os / bytes of the region, in order from its "
				"start (the last to its end)"
			      : "percent of random I/Os / percent of the region, in order from its "
				"start");
}

/* -r, -rs: random offsets, or a mix; --random itself is set here: -r overrides -s. */
static int dspd_random(struct dspd *d)
{
	uint64_t step = d->align ? d->align : d->bs;
	char buf[24];
	int r;

	if (d->rs.flag && d->s.flag)
		return FAIL(d, "%s and %s: give one: -rs mixes random and sequential I/O itself "
			    "(its alignment is -r<align>)", d->rs.flag, d->s.flag);
	if (d->s.flag)
		compat_explain(d->to.ex, d->s.flag, "(no effect) -r overrides -s, as in DiskSpd");
	if (d->T.flag)
		compat_explain(d->to.ex, d->T.flag, "(no effect) the thread stride matters only "
			       "for sequential I/O from several threads");
	if (d->rs.flag && d->r.flag && !*d->r.val)
		compat_explain(d->to.ex, d->r.flag, "(with -rs) random offsets aligned to the block "
			       "size");
	if (!d->rs.flag || d->rs_pct == 100)
		r = compat_set(&d->to, d->rs.flag ? d->rs.flag : d->r.flag, false, "random", NULL,
			       "%s", d->rs.flag ? "-rs100 is -r" : "");
	else if (step < d->bs)
		return FAIL(d, "%s: sequential runs advance by the alignment %s, below the block "
			    "size, so their I/Os would overlap: not supported by iorate", d->rs.flag,
			    d->r.flag);
	else if (!(r = compat_set(&d->to, d->rs.flag, false, "random-pct", d->rs.val,
				  "%s%% of I/Os at random offsets, the others continuing "
				  "sequentially from the one before", d->rs.val)) &&
		 step > d->bs)
		r = compat_set(&d->to, d->r.flag, false, "gap", bytes(step - d->bs, buf),
			       "sequential runs advance by the alignment");
	return r || !d->rd.flag ? r : dspd_dist(d);
}

/*
 * -s: sequential. Interlocked (-si) threads share one offset, which is how iorate's threads
 * interleave; without -si each of DiskSpd's threads sweeps the region itself, thread k from
 * k x -T. A stride above the block size skips the difference after each I/O.
 */
static int dspd_sequential(struct dspd *d)
{
	uint64_t stride = d->stride_set ? d->stride : d->bs;
	bool def = !d->s.flag, each = d->threads > 1 && !d->interlocked;
	const char *flag = def ? "-s" : d->s.flag;
	char b1[32], buf[24];
	int r;

	if (d->rd.flag)
		return FAIL(d, "%s: a distribution places random I/Os; give -r or -rs as well",
			    d->rd.flag);
	if (stride < d->bs)
		return FAIL(d, "%s: a stride below the block size (I/Os that overlap) is not "
			    "supported by iorate", flag);
	if (d->interlocked && d->T.flag)
		return FAIL(d, "%s and %s: give one: -si shares one offset among the threads, -T "
			    "gives each its own start", d->s.flag, d->T.flag);
	if (d->interlocked && d->threads > 1 && stride != d->bs)
		return FAIL(d, "%s: interlocked threads with a stride of %s are not supported by "
			    "iorate: its threads interleave block by block", flag,
			    fmt_size(stride, b1, sizeof(b1)));
	if ((r = compat_set(&d->to, flag, def, "sequential", NULL, "%s",
			    d->threads == 1 ? ""
			    : each	     ? "each thread sweeps the region (DiskSpd without -si)"
					     : "the threads share one sequence, block by block (-si)")))
		return r;
	if (each && (r = compat_set(&d->to, flag, def, "seq-threads", "each",
				    "each of the %u threads of a target sweeps it, thread k from "
				    "k x -T", d->threads)))
		return r;
	if (d->T.flag && each)
		r = compat_set(&d->to, d->T.flag, false, "thread-stride", bytes(d->tstride, buf),
			       "thread k starts k x %s into the region",
			       fmt_size(d->tstride, b1, sizeof(b1)));
	else if (d->T.flag)
		compat_explain(d->to.ex, d->T.flag, "(no effect) the thread stride matters only "
			       "for threads that each sweep the region");
	if (!r && stride > d->bs)
		r = compat_set(&d->to, flag, def, "gap", bytes(stride - d->bs, buf),
			       "a stride of %s skips the rest after each I/O",
			       fmt_size(stride, b1, sizeof(b1)));
	return r;
}

/* -f<size> or -B<base>:<length>: the region ends there, so --range is what lies after -B. */
static int dspd_region(struct dspd *d)
{
	char b1[32], b2[32], v[32];

	if (!d->max_flag)
		return 0;
	/* Checked here: a range of 0 would mean "to the end" to 'iorate run'. */
	if (d->maxsize <= d->base)
		return FAIL(d, "%s: the target size (%s) must be above the base offset -B (%s)",
			    d->max_flag, fmt_size(d->maxsize, b1, sizeof(b1)),
			    fmt_size(d->base, b2, sizeof(b2)));
	fmt_size(d->maxsize - d->base, v, sizeof(v));
	return compat_set(&d->to, d->max_flag, false, "range", v,
			  "I/O stays below byte %s of each target",
			  fmt_size(d->maxsize, b1, sizeof(b1)));
}

/*
 * -g throttles each thread on each target; iorate caps each target, at what its threads
 * together may do (the threads on a target, -t or -F, times the rate).
 */
static int dspd_throttle(struct dspd *d)
{
	char v[40];

	if (!d->g.flag)
		return 0;
	if (d->g_iops) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)d->rate * d->threads);
		return compat_set(&d->to, d->g.flag, false, "cap-iops", v,
				  "%u I/Os per second for each of %u thread(s), per target",
				  d->rate, d->threads);
	}
	snprintf(v, sizeof(v), "%.15g", (double)d->rate * d->threads / 1000.0);
	return compat_set(&d->to, d->g.flag, false, "cap-mbps", v,
			  "%u bytes/ms for each of %u thread(s), per target", d->rate, d->threads);
}

/* DiskSpd's -S/-h pair (software cache off, write-through) as one of iorate's cache modes. */
static int dspd_cache(struct dspd *d)
{
	bool def = !d->cache_flags[0];
	const char *flag = def ? "-Sb" : d->cache_flags;

	if (d->unbuffered && d->writethrough)
		return compat_set(&d->to, flag, def, "cache", "directsync",
				  "O_DIRECT|O_DSYNC, neither the page cache nor the device's "
				  "write cache");
	if (d->unbuffered)
		return compat_set(&d->to, flag, def, "cache", "direct", "O_DIRECT, no page cache");
	if (d->writethrough)
		return compat_set(&d->to, flag, def, "cache", "writethrough",
				  "page cache with O_DSYNC writes");
	return compat_set(&d->to, flag, def, "cache", "buffered",
			  "DiskSpd uses the OS cache unless -S or -Sh is given");
}

int dspd_resolve(struct dspd *d)
{
	int r;

	if ((r = dspd_threads(d)) || (r = dspd_depth(d)) ||
	    (r = d->r.flag || d->rs.flag ? dspd_random(d) : dspd_sequential(d)) ||
	    (r = dspd_region(d)) || (r = dspd_throttle(d)))
		return r;
	return dspd_cache(d);
}

int dspd_defaults(struct dspd *d)
{
	const struct compat_to *t = &d->to;
	int r = 0;

	if (!r && !d->seen['b'])
		r = compat_set(t, "-b64K", true, "bs", "64KiB", NULL);
	if (!r && !d->seen['d'])
		r = compat_set(t, "-d10", true, "time", "10s", NULL);
	if (!r && !d->seen['W'])
		r = compat_set(t, "-W5", true, "warmup", "5s", "DiskSpd warms up 5 s unless -W0");
	if (!r && !d->seen['w'])
		r = compat_set(t, "-w0", true, "write", "0", "reads only");
	if (!r && !d->seen['z'])
		r = compat_set(t, "-z0", true, "seed", "0", "repeatable offsets");
	if (!r && !d->seen['Z'] && (d->writes || d->create))
		r = compat_set(t, "(no -Z)", true, "fill", "random",
			       "DiskSpd writes a repeating 0..255 pattern, which compresses; "
			       "iorate writes random data");
	/* DiskSpd reads through whatever the OS cache holds: it never empties it first. */
	if (!r)
		r = compat_set(t, "(cache kept)", true, "no-invalidate", NULL,
			       "the page cache is not dropped before the run, as DiskSpd leaves it");
	return r;
}

/*
 * Targets are the words of 'iorate run' after its options, not an option: written to the job.
 * "#N" names the Nth whole disk; PowerShell users type it escaped, "`#N".
 */
int dspd_target(struct dspd *d, const char *arg)
{
	const char *a = arg[0] == '`' ? arg + 1 : arg;

	if (a[0] == '#') {
		char name[64], list[256], dev[96];
		unsigned n;
		int r;

		if (parse_uint(a + 1, 0, 100000, &n))
			return FAIL(d, "%s: disk targets are # and a number, as in #1", arg);
		r = compat_disk_by_number(NULL, n, name, sizeof(name), list, sizeof(list));
		if (r == -ENOENT)
			return FAIL(d, "%s: there is no disk #%u here (%s); name the device "
				    "instead, e.g. /dev/sdb", arg, n, list);
		if (r)
			return FAIL(d, "%s: cannot list the disks in /sys/block: %s", arg,
				    strerror(-r));
		snprintf(dev, sizeof(dev), "/dev/%s", name);
		compat_explain(d->to.ex, arg, "%s: disk #%u in /sys/block order, from 0 (%s)", dev,
			       n, list);
		return job_add_target(d->to.j, dev) ? FAIL(d, "out of memory") : 0;
	}
	if (compat_is_windows_path(a))
		return FAIL(d, "'%s' is a Windows path; name a Linux file (e.g. "
			    "/mnt/data/testfile.dat), a block device (e.g. /dev/sdb) or a disk by "
			    "number (#1)", arg);
	compat_explain(d->to.ex, arg, "target");
	return job_add_target(d->to.j, a) ? FAIL(d, "out of memory") : 0;
}
