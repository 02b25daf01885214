/*
 * `iorate diskspd`: a DiskSpd command line, unchanged, into settings of 'iorate run'.
 * compat_diskspd_parse() reads the flags one by one (no I/O but reading /sys/block for "#N") and
 * hands each setting to the sink; diskspd_job.c resolves what depends on several flags.
 * src/cmd/cmd_compat.c applies the settings, prints the translation and runs it; docs/compat.md
 * has the table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compat/compat.h"
#include "compat/diskspd.h"
#include "util/parse.h"

#define FAIL(d, ...) err_set((d)->to.err, (d)->to.errlen, -EINVAL, __VA_ARGS__)

/* The bytes a size the option table accepted stands for (it read it with parse_size too). */
static int accepted_size(struct dspd *d, const char *flag, const char *v, uint64_t *out)
{
	if (parse_size(v, out))
		return FAIL(d, "%s: internal: '%s' was accepted but is not a size", flag, v);
	return 0;
}

int dspd_set_bs(struct dspd *d, const char *flag, const char *val)
{
	int r;

	if (dspd_is_blocks(val))
		return FAIL(d, "%s: the block size is not counted in blocks; give bytes or K, M, "
			    "G, as in -b64K", flag);
	if ((r = compat_set(&d->to, flag, false, "bs", val, "block size")) ||
	    (r = accepted_size(d, flag, val, &d->bs)))
		return r;
	d->seen['b'] = true;
	return 0;
}

/* -b is read before the other flags, as DiskSpd reads it: their sizes may count blocks. */
static int dspd_block_size(struct dspd *d, int argc, char **argv, int i)
{
	int r;

	for (; i < argc && argv[i][0] == '-'; i++)
		if (argv[i][1] == 'b' && argv[i][2] && (r = dspd_set_bs(d, argv[i], argv[i] + 2)))
			return r;
	return 0;
}

static int opt_b(struct dspd *d, const char *flag, const char *val)
{
	return 0; /* set by dspd_block_size() */
}

/* The end of the region, from -f<size> or -B<base>:<length>: one of them. */
static int set_max(struct dspd *d, const char *flag, uint64_t max)
{
	if (d->max_flag)
		return FAIL(d, "%s and %s: both set where the region ends; give one", d->max_flag,
			    flag);
	d->max_flag = flag;
	d->maxsize = max;
	return 0;
}

/* -B<base>[:<length>]: the region starts at base, and is length long when given. */
static int opt_B(struct dspd *d, const char *flag, const char *val)
{
	char buf[32], base[64];
	const char *colon = strchr(val, ':'), *v;
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t len, end;
	int r;

	if (n >= sizeof(base) || !n)
		return FAIL(d, "%s: takes a base offset and, after ':', a length, as in -B1G:10G",
			    flag);
	memcpy(base, val, n);
	base[n] = '\0';
	if (!(v = dspd_value(d, flag, base, buf)))
		return -EINVAL;
	if ((r = compat_set(&d->to, flag, false, "offset", v,
			    "I/O starts that far into each target")) ||
	    (r = accepted_size(d, flag, v, &d->base)))
		return r;
	d->B = (struct dspd_arg){.flag = flag, .val = val};
	if (!colon)
		return 0;
	if (dspd_bytes(d, flag, colon + 1, &len))
		return -EINVAL;
	if (!len || __builtin_add_overflow(d->base, len, &end))
		return FAIL(d, "%s: the length must be above 0 and end below 2^64 bytes", flag);
	return set_max(d, flag, end);
}

static int opt_c(struct dspd *d, const char *flag, const char *val)
{
	char buf[32];
	const char *v = dspd_value(d, flag, val, buf);
	int r;

	if (!v)
		return -EINVAL;
	if ((r = compat_set(&d->to, flag, false, "size", v,
			    "a missing file is created at this size, a smaller one grown to it")) ||
	    (r = compat_set(&d->to, flag, false, "keep", NULL,
			    "a file it creates is left in place afterwards, as DiskSpd leaves it")))
		return r;
	/* No option of 'iorate run' grows a file (run refuses a smaller one): a job flag. */
	d->to.j->grow = true;
	d->create = true;
	return 0;
}

/* -d, -W and -C: DiskSpd's whole seconds are iorate's bare numbers. */
static int opt_secs(struct dspd *d, const char *flag, const char *val)
{
	if (d->letter == 'd')
		return compat_set(&d->to, flag, false, "time", val, "seconds measured");
	if (d->letter == 'W')
		return compat_set(&d->to, flag, false, "warmup", val, "seconds before measuring");
	return compat_set(&d->to, flag, false, "cooldown", val, "seconds after measuring");
}

/* -D[ms]: DiskSpd's IOPS buckets, 1000 ms unless given, are the series' interval. */
static int opt_D(struct dspd *d, const char *flag, const char *val)
{
	char ms[40];

	snprintf(ms, sizeof(ms), "%sms", val && *val ? val : "1000");
	return compat_set(&d->to, flag, false, "interval", ms,
			  "the series' interval (IOPS, MB/s, p99 per point)");
}

static int opt_f(struct dspd *d, const char *flag, const char *val)
{
	uint64_t max;

	if (isdigit((unsigned char)*val)) {
		/* The range is what lies between -B and this: resolved in dspd_resolve(). */
		if (dspd_bytes(d, flag, val, &max))
			return -EINVAL;
		d->f = (struct dspd_arg){.flag = flag, .val = val};
		return set_max(d, flag, max);
	}
	if (!*val || strspn(val, "rst") != strlen(val))
		return FAIL(d, "%s: -f takes a size (-f1G) or access hints r, s, t (-fr)", flag);
	compat_explain(d->to.ex, flag, "(no effect) Windows access hints; Linux has no open-time "
		       "equivalent");
	return 0;
}

/* -t, -F and -o are resolved together, once all flags (and targets) are read. */
static int opt_threads(struct dspd *d, const char *flag, const char *val)
{
	struct dspd_arg *a = d->letter == 't' ? &d->t : d->letter == 'F' ? &d->F : &d->o;

	*a = (struct dspd_arg){.flag = flag, .val = val};
	return 0;
}

/* -g<bytes per ms> or -g<n>i (I/Os per second), per thread and target. */
static int opt_g(struct dspd *d, const char *flag, const char *val)
{
	char digits[16];
	size_t n = strlen(val);

	d->g_iops = n && val[n - 1] == 'i';
	n -= d->g_iops;
	if (n >= sizeof(digits) || (memcpy(digits, val, n), digits[n] = '\0',
				     parse_uint(digits, 0, UINT32_MAX, &d->rate)))
		return FAIL(d, "%s: -g takes bytes per millisecond (-g1000) or I/Os per second "
			    "(-g500i), a decimal whole number", flag);
	d->g = (struct dspd_arg){.flag = flag, .val = val}; /* per thread: set in dspd_resolve() */
	return 0;
}

/* Keeps the -S and -h flags as typed, for the line of the cache mode they make together. */
static void cache_flag(struct dspd *d, const char *flag)
{
	size_t n = strlen(d->cache_flags);

	snprintf(d->cache_flags + n, sizeof(d->cache_flags) - n, "%s%s", n ? " " : "", flag);
}

static int set_cache(struct dspd *d, const char *flag, bool u, bool w)
{
	if ((u && d->u_set) || (w && d->w_set))
		return FAIL(d, "%s: conflicts with an earlier -S or -h", flag);
	if (u) {
		d->u_set = true;
		d->unbuffered = true;
	}
	if (w) {
		d->w_set = true;
		d->writethrough = true;
	}
	return 0;
}

static int opt_h(struct dspd *d, const char *flag, const char *val)
{
	if (*val)
		return FAIL(d, "%s: not supported by iorate (-h takes no value; it means -Sh)",
			    flag);
	cache_flag(d, flag);
	return set_cache(d, flag, true, true);
}

static int opt_S(struct dspd *d, const char *flag, const char *val)
{
	cache_flag(d, flag);
	if (!*val)
		return set_cache(d, flag, true, false);
	for (const char *p = val; *p; p++) {
		int r = 0;

		switch (*p) {
		case 'b':
			if (d->u_set)
				return FAIL(d, "%s: -Sb conflicts with an earlier cache mode",
					    flag);
			d->u_set = true;
			break;
		case 'h':
			r = set_cache(d, flag, true, true);
			break;
		case 'u':
			r = set_cache(d, flag, true, false);
			break;
		case 'w':
			r = set_cache(d, flag, false, true);
			break;
		case 'r':
		case 'm':
			return FAIL(d, "%s: -S%c (%s) is not supported by iorate: it has no Linux "
				    "equivalent (supported: -S -Sb -Sh -Su -Sw)", flag, *p,
				    *p == 'r' ? "remote caching" : "memory-mapped I/O");
		default:
			return FAIL(d, "%s: -S%c is not supported by iorate (supported: -S -Sb -Sh "
				    "-Su -Sw)", flag, *p);
		}
		if (r)
			return r;
	}
	return 0;
}

static int opt_L(struct dspd *d, const char *flag, const char *val)
{
	if (*val)
		return FAIL(d, "%s: not supported by iorate (-L takes no value)", flag);
	compat_explain(d->to.ex, flag, "(always) iorate measures latency of every I/O");
	return 0;
}

static int opt_noeffect(struct dspd *d, const char *flag, const char *val)
{
	compat_explain(d->to.ex, flag, "(no effect) %s",
		       d->letter == 'P'   ? "progress dots: iorate shows a progress line on a "
					    "terminal"
		       : d->letter == 'v' ? "verbose messages: iorate prints this translation"
					  : "CPU affinity: iorate leaves thread placement to the "
					    "scheduler");
	return 0;
}

/* -rs<pct>: that many I/Os at random offsets, the others continuing sequentially. */
static int opt_rs(struct dspd *d, const char *flag, const char *val)
{
	char ex[64];

	if (d->rs.flag)
		return FAIL(d, "%s and %s: give one mix of random and sequential I/O", d->rs.flag,
			    flag);
	if (parse_uint(val, 1, 100, &d->rs_pct))
		return FAIL(d, "%s: takes the percent of I/Os at random offsets, from 1 to 100%s",
			    flag, dspd_example(d, "s20", ex));
	d->rs = (struct dspd_arg){.flag = flag, .val = val};
	return 0;
}

/*
 * -r[align], -rs<pct>, -rd<pct|abs><ranges>: random I/O, its alignment, its mix with
 * sequential I/O, its distribution. --random itself is set in dspd_resolve(): -r overrides -s.
 */
static int opt_r(struct dspd *d, const char *flag, const char *val)
{
	char buf[32];
	const char *v;
	int r;

	if (*val == 's')
		return opt_rs(d, flag, val + 1);
	if (*val == 'd') {
		if (d->rd.flag)
			return FAIL(d, "%s and %s: give one distribution", d->rd.flag, flag);
		d->rd = (struct dspd_arg){.flag = flag, .val = val + 1};
		return 0;
	}
	d->r = (struct dspd_arg){.flag = flag, .val = val};
	if (!*val)
		return 0;
	if (!(v = dspd_value(d, flag, val, buf)))
		return -EINVAL;
	if ((r = compat_set(&d->to, flag, false, "align", v,
			    "random offsets are multiples of this")))
		return r;
	return accepted_size(d, flag, v, &d->align);
}

static int opt_R(struct dspd *d, const char *flag, const char *val)
{
	if (!strcmp(val, "text")) {
		compat_explain(d->to.ex, flag, "(default) text report");
		return 0;
	}
	return FAIL(d, "%s: %s output is not supported by iorate; give iorate's --json or --csv "
		    "instead", flag, *val ? val : "(empty)");
}

static int opt_s(struct dspd *d, const char *flag, const char *val)
{
	d->s = (struct dspd_arg){.flag = flag, .val = val};
	if (*val == 'i') {
		d->interlocked = true;
		val++;
	}
	if (!*val)
		return 0;
	if (dspd_bytes(d, flag, val, &d->stride))
		return -EINVAL;
	if (!d->stride)
		return FAIL(d, "%s: a stride of 0 (every I/O at one offset) is not supported by "
			    "iorate", flag);
	/* Set in dspd_resolve(), which checks the stride against threads and -T. */
	d->stride_set = true;
	return 0;
}

static int opt_T(struct dspd *d, const char *flag, const char *val)
{
	if (dspd_bytes(d, flag, val, &d->tstride))
		return -EINVAL;
	if (!d->tstride)
		return FAIL(d, "%s: the thread stride must be above 0", flag);
	d->T = (struct dspd_arg){.flag = flag, .val = val};
	return 0;
}

static int opt_w(struct dspd *d, const char *flag, const char *val)
{
	/* "-w and -w0 are equivalent and result in a read-only workload". */
	const char *v = *val ? val : "0";
	unsigned pct = 0;
	int r = compat_set(&d->to, flag, false, "write", v, "%s",
			   !parse_percent(v, &pct) && pct
				   ? "percent of I/Os that write (destroys data in the target)"
				   : "reads only");

	d->writes = !r && pct;
	return r;
}

static int opt_z(struct dspd *d, const char *flag, const char *val)
{
	if (!*val) {
		/* Nothing to set: without the default -z0, the job has no seed. */
		compat_explain(d->to.ex, flag, "(no --seed) a new random seed each run");
		return 0;
	}
	return compat_set(&d->to, flag, false, "seed", val,
			  "iorate's generator: same seed, same offsets, but not DiskSpd's offsets");
}

static int opt_Z(struct dspd *d, const char *flag, const char *val)
{
	uint64_t n;

	if (!*val)
		return compat_set(&d->to, flag, false, "fill", "zero",
				  "writes (and a new file) hold zeros");
	if (strchr(val, ','))
		return FAIL(d, "%s: write data from a file (-Z<size>,<file>) is not supported by "
			    "iorate", flag);
	if (strcmp(val, "r") && dspd_bytes(d, flag, val, &n))
		return -EINVAL;
	return compat_set(&d->to, flag, false, "fill", "random",
			  "writes (and a new file) hold random data");
}

static const struct dspd_opt {
	char letter;
	bool needs_value;
	int (*fn)(struct dspd *d, const char *flag, const char *val);
} dspd_opts[] = {
	{.letter = 'a', .needs_value = false, .fn = opt_noeffect},
	{.letter = 'b', .needs_value = true, .fn = opt_b},
	{.letter = 'B', .needs_value = true, .fn = opt_B},
	{.letter = 'c', .needs_value = true, .fn = opt_c},
	{.letter = 'C', .needs_value = true, .fn = opt_secs},
	{.letter = 'd', .needs_value = true, .fn = opt_secs},
	{.letter = 'D', .needs_value = false, .fn = opt_D},
	{.letter = 'f', .needs_value = true, .fn = opt_f},
	{.letter = 'F', .needs_value = true, .fn = opt_threads},
	{.letter = 'g', .needs_value = true, .fn = opt_g},
	{.letter = 'h', .needs_value = false, .fn = opt_h},
	{.letter = 'L', .needs_value = false, .fn = opt_L},
	{.letter = 'n', .needs_value = false, .fn = opt_noeffect},
	{.letter = 'o', .needs_value = true, .fn = opt_threads},
	{.letter = 'P', .needs_value = false, .fn = opt_noeffect},
	{.letter = 'r', .needs_value = false, .fn = opt_r},
	{.letter = 'R', .needs_value = true, .fn = opt_R},
	{.letter = 's', .needs_value = false, .fn = opt_s},
	{.letter = 'S', .needs_value = false, .fn = opt_S},
	{.letter = 't', .needs_value = true, .fn = opt_threads},
	{.letter = 'T', .needs_value = true, .fn = opt_T},
	{.letter = 'v', .needs_value = false, .fn = opt_noeffect},
	{.letter = 'w', .needs_value = false, .fn = opt_w},
	{.letter = 'W', .needs_value = true, .fn = opt_secs},
	{.letter = 'z', .needs_value = false, .fn = opt_z},
	{.letter = 'Z', .needs_value = false, .fn = opt_Z},
};

/* DiskSpd's flags that iorate refuses, with why, so the error says more than "unknown". */
static const char *dspd_refused(char c)
{
	switch (c) {
	case 'x': return "completion routines are a Windows API";
	case 'y': return "named events are a Windows API";
	case 'e': return "ETW tracing is Windows-only";
	case 'i': case 'j': return "bursts with think time";
	case 'I': return "I/O priority hints";
	case 'l': return "large-page buffers";
	case 'p': return "parallel sequential I/O from one offset";
	case 'O': return "per-thread request counts; use -o";
	case 'N': return "memory-mapped I/O flushes";
	default: return NULL;
	}
}

int dspd_flag_as(struct dspd *d, char c, const char *label, const char *val)
{
	const struct dspd_opt *o = NULL;
	const char *why;

	for (size_t k = 0; k < sizeof(dspd_opts) / sizeof(dspd_opts[0]); k++)
		if (dspd_opts[k].letter == c)
			o = &dspd_opts[k];
	if (!o && (why = dspd_refused(c)))
		return FAIL(d, "%s: not supported by iorate: %s", label, why);
	if (!o)
		return FAIL(d, "%s: not supported by iorate (supported: %s)", label, DSPD_FLAGS);
	if (o->needs_value && !*val)
		return FAIL(d, "%s: needs its value attached, as in -%c%s", label, c,
			    c == 'b' ? "64K" : c == 'c' ? "1G" : "8");
	d->seen[(unsigned char)c & 127] = true;
	d->letter = c;
	return o->fn(d, label, val);
}

int dspd_flag(struct dspd *d, const char *flag)
{
	return dspd_flag_as(d, flag[1], flag, flag + 2);
}

void dspd_init(struct dspd *d, const struct compat_sink *sink, struct job *j, FILE *ex, char *err,
	       size_t errlen)
{
	*d = (struct dspd){.to = {.sink = sink, .j = j, .ex = ex, .err = err, .errlen = errlen},
			   .bs = DSPD_DEFAULT_BS, .share = 1};
	/* Where the job came from is the record's; no option of 'iorate run' sets it. */
	strcpy(j->origin, "diskspd");
}

int dspd_first_flag(int argc, char **argv)
{
	return argc > 1 && (!strcasecmp(argv[1], "diskspd") || !strcasecmp(argv[1], "diskspd.exe"))
		       ? 2
		       : 1;
}

/* Every argument not starting with '-' is a target; DiskSpd reads flags only before the first. */
int compat_diskspd_parse(int argc, char **argv, const struct compat_sink *sink, struct job *j,
			 FILE *explain, char *err, size_t errlen)
{
	struct dspd d;
	int i = dspd_first_flag(argc, argv), r;

	err[0] = '\0';
	dspd_init(&d, sink, j, explain, err, errlen);
	if ((r = dspd_block_size(&d, argc, argv, i)))
		return r;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (argv[i][1] == 'X')
			return FAIL(&d, "%s: a profile is read by compat_diskspd_jobs(), as it may "
				    "make several jobs", argv[i]);
		if ((r = dspd_flag(&d, argv[i])))
			return r;
	}
	if (i == argc)
		return FAIL(&d, "no target: name a file, a device or a disk number (#1) after the "
			    "flags (see 'iorate diskspd --help')");
	for (; i < argc; i++) {
		if (argv[i][0] == '-')
			return FAIL(&d, "%s: comes after a target; DiskSpd reads flags only before "
				    "the targets, so put it before them", argv[i]);
		if ((r = dspd_target(&d, argv[i])))
			return r;
	}
	/* -F's threads serve every target named. */
	d.share = j->ntargets;
	if ((r = dspd_resolve(&d)) || (r = dspd_defaults(&d)))
		return r;
	if (job_set_command_line(j, NULL, argc, argv))
		return FAIL(&d, "out of memory");
	return 0;
}
