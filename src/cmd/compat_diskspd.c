/*
 * `iorate diskspd`: runs a DiskSpd command line unchanged. compat_diskspd_parse() translates it
 * flag by flag into a struct job (pure: no I/O but reading /sys/block for "#N"); cmd_diskspd()
 * prints the translation on stderr and runs it like `iorate run`. docs/compat.md has the table.
 * This file reads the flags one by one; compat_diskspd_job.c resolves what depends on several.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/compat.h"
#include "cmd/compat_diskspd.h"
#include "cmd/run_common.h"
#include "util/parse.h"

#define DSPD_FLAGS "-b -B -c -C -d -D -f -F -g -h -L -n -o -P -r -R -s -S -t -T -v -w -W -z -Z"

/*
 * DiskSpd's sizes: digits and at most one of K, M, G (powers of 1024) or b, which counts blocks of
 * the -b size. "KB"/"KiB" are accepted too, as iorate reads sizes everywhere.
 */
static int dspd_size(const char *s, uint64_t bs, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
			return -ERANGE;
	switch (*p) {
	case '\0':
		break;
	case 'b':
	case 'B':
		mult = bs;
		p++;
		break;
	case 'k': case 'K': mult = 1ull << 10; p++; break;
	case 'm': case 'M': mult = 1ull << 20; p++; break;
	case 'g': case 'G': mult = 1ull << 30; p++; break;
	default:
		return -EINVAL;
	}
	if (mult > 1 && mult != bs && (!strcasecmp(p, "b") || !strcasecmp(p, "ib")))
		p += strlen(p);
	if (*p)
		return -EINVAL;
	if (__builtin_mul_overflow(v, mult, out))
		return -ERANGE;
	return 0;
}

static int opt_size(struct dspd *d, const char *flag, const char *val, uint64_t *out)
{
	int r = dspd_size(val, d->bs, out);

	if (r == -ERANGE)
		return compat_fail(d->err, d->errlen, "%s: the size does not fit in 64 bits", flag);
	if (r)
		return compat_fail(d->err, d->errlen,
				   "%s: DiskSpd takes a size such as %c64K, %c1G or %c8b (8 "
				   "blocks)",
				   flag, flag[1], flag[1], flag[1]);
	return 0;
}

static int opt_uint(struct dspd *d, const char *flag, const char *val, unsigned min, unsigned max,
		    unsigned *out)
{
	if (parse_uint(val, min, max, out))
		return compat_fail(d->err, d->errlen,
				   "%s: DiskSpd takes a whole number from %u to %u here", flag, min,
				   max);
	return 0;
}

static int opt_b(struct dspd *d, const char *flag, const char *val)
{
	char b[32];

	/* Already read by the first pass, as DiskSpd does, since other sizes may count blocks. */
	compat_explain(d->ex, flag, "--bs %s: block size", fmt_size(d->bs, b, sizeof(b)));
	return 0;
}

static int opt_B(struct dspd *d, const char *flag, const char *val)
{
	char b[32];

	if (opt_size(d, flag, val, &d->base))
		return -EINVAL;
	compat_explain(d->ex, flag, "--offset %s: I/O starts that far into each target",
		       fmt_size(d->base, b, sizeof(b)));
	return 0;
}

static int opt_c(struct dspd *d, const char *flag, const char *val)
{
	char b[32];

	if (opt_size(d, flag, val, &d->j->size))
		return -EINVAL;
	if (!d->j->size)
		return compat_fail(d->err, d->errlen, "%s: the file size must be above 0", flag);
	d->create = true;
	d->j->keep = true;
	compat_explain(d->ex, flag, "--size %s --keep: a missing file is created and left in place "
		       "afterwards, as DiskSpd leaves it", fmt_size(d->j->size, b, sizeof(b)));
	return 0;
}

/* -d, -W and -C: whole seconds, and only -d must be above 0. */
static int opt_secs(struct dspd *d, const char *flag, const char *val)
{
	uint64_t *ns = flag[1] == 'd' ? &d->j->time_ns
		     : flag[1] == 'W' ? &d->j->warmup_ns : &d->j->cooldown_ns;
	unsigned s;

	if (opt_uint(d, flag, val, flag[1] == 'd', 100000000, &s))
		return -EINVAL;
	*ns = (uint64_t)s * 1000000000ull;
	compat_explain(d->ex, flag, "--%s %us", flag[1] == 'd' ? "time"
			: flag[1] == 'W' ? "warmup" : "cooldown", s);
	return 0;
}

static int opt_D(struct dspd *d, const char *flag, const char *val)
{
	compat_explain(d->ex, flag,
		       "(always) iorate records a per-second series of IOPS, MB/s, p99");
	return 0;
}

static int opt_f(struct dspd *d, const char *flag, const char *val)
{
	char b[32];

	if (isdigit((unsigned char)*val)) {
		if (opt_size(d, flag, val, &d->maxsize))
			return -EINVAL;
		if (!d->maxsize)
			return compat_fail(d->err, d->errlen, "%s: the size must be above 0", flag);
		compat_explain(d->ex, flag, "only the first %s of each target are used (--range)",
			       fmt_size(d->maxsize, b, sizeof(b)));
		return 0;
	}
	if (!*val || strspn(val, "rst") != strlen(val))
		return compat_fail(d->err, d->errlen,
				   "%s: DiskSpd's -f takes a size (-f1G) or access hints r, s, t "
				   "(-fr)",
				   flag);
	compat_explain(d->ex, flag, "(no effect) Windows access hints; Linux has no open-time "
		       "equivalent");
	return 0;
}

static int opt_F(struct dspd *d, const char *flag, const char *val)
{
	if (opt_uint(d, flag, val, 1, JOB_MAX_THREADS, &d->F))
		return -EINVAL;
	compat_explain(d->ex, flag, "--threads %u: DiskSpd's %u threads each work on every target, "
		       "so each target gets %u", d->F, d->F, d->F);
	return 0;
}

static int opt_g(struct dspd *d, const char *flag, const char *val)
{
	if (opt_uint(d, flag, val, 1, 2000000000u, &d->g))
		return -EINVAL;
	/* Printed once threads are known, in dspd_resolve(). */
	return 0;
}

static int set_cache(struct dspd *d, const char *flag, bool u, bool w)
{
	if ((u && d->u_set) || (w && d->w_set))
		return compat_fail(d->err, d->errlen,
				   "%s: conflicts with an earlier -S or -h (DiskSpd refuses it "
				   "too)",
				   flag);
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
		return compat_fail(d->err, d->errlen,
				   "%s: not a DiskSpd option (-h takes no value; it means "
				   "-Sh)", flag);
	return set_cache(d, flag, true, true);
}

static int opt_S(struct dspd *d, const char *flag, const char *val)
{
	if (!*val)
		return set_cache(d, flag, true, false);
	for (const char *p = val; *p; p++) {
		int r = 0;

		switch (*p) {
		case 'b':
			if (d->u_set)
				return compat_fail(d->err, d->errlen,
						   "%s: -Sb conflicts with an earlier cache mode",
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
			return compat_fail(d->err, d->errlen,
					   "%s: -S%c (%s) is not supported: it has no Linux "
					   "equivalent (supported: -S -Sb -Sh -Su -Sw)", flag, *p,
					   *p == 'r' ? "remote caching" : "memory-mapped I/O");
		default:
			return compat_fail(d->err, d->errlen,
					   "%s: '%c' is not a DiskSpd -S mode (supported: -S -Sb "
					   "-Sh -Su -Sw)",
					   flag, *p);
		}
		if (r)
			return r;
	}
	return 0;
}

static int opt_L(struct dspd *d, const char *flag, const char *val)
{
	if (*val)
		return compat_fail(d->err, d->errlen,
				   "%s: not a DiskSpd option (-L takes no value)", flag);
	compat_explain(d->ex, flag, "(always) iorate measures latency of every I/O");
	return 0;
}

static int opt_noeffect(struct dspd *d, const char *flag, const char *val)
{
	if (flag[1] == 'P' || flag[1] == 'a' || flag[1] == 'n')
		compat_explain(d->ex, flag, "(no effect) %s",
			       flag[1] == 'P' ? "progress dots: iorate "
						"shows a progress line on a terminal"
					      : "CPU affinity: iorate leaves "
						"thread placement to the scheduler");
	else
		compat_explain(d->ex, flag, "--verbose");
	if (flag[1] == 'v')
		d->j->verbose = true;
	return 0;
}

static int opt_o(struct dspd *d, const char *flag, const char *val)
{
	if (opt_uint(d, flag, val, 1, JOB_MAX_DEPTH, &d->j->depth))
		return -EINVAL;
	compat_explain(d->ex, flag, "--depth %u: outstanding I/Os per thread and target",
		       d->j->depth);
	return 0;
}

static int opt_r(struct dspd *d, const char *flag, const char *val)
{
	char b[32];

	d->random = true;
	d->ralign = d->bs;
	if (*val && opt_size(d, flag, val, &d->ralign))
		return -EINVAL;
	if (!d->ralign)
		return compat_fail(d->err, d->errlen, "%s: the alignment must be above 0", flag);
	compat_explain(d->ex, flag, "--random%s%s", d->ralign != d->bs ? " --align " : "",
		       d->ralign != d->bs ? fmt_size(d->ralign, b, sizeof(b)) : "");
	return 0;
}

static int opt_R(struct dspd *d, const char *flag, const char *val)
{
	if (!strcmp(val, "text")) {
		compat_explain(d->ex, flag, "(default) text report");
		return 0;
	}
	return compat_fail(d->err, d->errlen,
			   "%s: DiskSpd's %s output is not supported; give iorate's --json or "
			   "--csv instead", flag, *val ? val : "(empty)");
}

static int opt_s(struct dspd *d, const char *flag, const char *val)
{
	if (*val == 'i') {
		d->interlocked = true;
		val++;
	}
	if (*val && opt_size(d, flag, val, &d->stride))
		return -EINVAL;
	if (*val && !d->stride)
		return compat_fail(d->err, d->errlen, "%s: the stride must be above 0", flag);
	/* Printed in dspd_resolve(), which checks the stride against threads and -T. */
	return 0;
}

static int opt_t(struct dspd *d, const char *flag, const char *val)
{
	if (opt_uint(d, flag, val, 1, JOB_MAX_THREADS, &d->t))
		return -EINVAL;
	compat_explain(d->ex, flag, "--threads %u: threads per target", d->t);
	return 0;
}

static int opt_T(struct dspd *d, const char *flag, const char *val)
{
	if (opt_size(d, flag, val, &d->tstride))
		return -EINVAL;
	if (!d->tstride)
		return compat_fail(d->err, d->errlen,
				   "%s: the thread stride must be above 0", flag);
	return 0;
}

static int opt_w(struct dspd *d, const char *flag, const char *val)
{
	/* "-w and -w0 are equivalent and result in a read-only workload". */
	if (*val && parse_uint(val, 0, 100, &d->j->write_pct))
		return compat_fail(d->err, d->errlen,
				   "%s: DiskSpd's -w takes a percentage from 0 to 100 "
				   "(-w30)", flag);
	compat_explain(d->ex, flag, "--write %u: %s", d->j->write_pct,
		       d->j->write_pct ? "percent of I/Os that write (destroys data in the target)"
				       : "reads only");
	return 0;
}

static int opt_z(struct dspd *d, const char *flag, const char *val)
{
	if (!*val) {
		d->j->seed_set = false;
		compat_explain(d->ex, flag, "(no --seed) a new random seed each run");
		return 0;
	}
	if (parse_u64(val, 0, UINT32_MAX, &d->j->seed))
		return compat_fail(d->err, d->errlen,
				   "%s: DiskSpd's -z takes a seed from 0 to 4294967295 "
				   "(-z42)", flag);
	d->j->seed_set = true;
	compat_explain(d->ex, flag, "--seed %llu (iorate's generator: same seed, same offsets, but "
		       "not DiskSpd's offsets)", (unsigned long long)d->j->seed);
	return 0;
}

static int opt_Z(struct dspd *d, const char *flag, const char *val)
{
	uint64_t n;

	if (!*val) {
		d->j->fill = FILL_ZERO;
		compat_explain(d->ex, flag, "--fill zero: writes (and a new file) hold zeros");
		return 0;
	}
	if (strchr(val, ','))
		return compat_fail(d->err, d->errlen,
				   "%s: write data from a file (-Z<size>,<file>) is not supported",
				   flag);
	if (strcmp(val, "r") && opt_size(d, flag, val, &n))
		return -EINVAL;
	d->j->fill = FILL_RANDOM;
	compat_explain(d->ex, flag, "--fill random: writes (and a new file) hold random data");
	return 0;
}

static const struct dspd_opt {
	char letter;
	bool needs_value;
	int (*fn)(struct dspd *d, const char *flag, const char *val);
} dspd_opts[] = {
	{'a', false, opt_noeffect}, {'b', true, opt_b},  {'B', true, opt_B},  {'c', true, opt_c},
	{'C', true, opt_secs},         {'d', true, opt_secs},  {'D', false, opt_D}, {'f', true, opt_f},
	{'F', true, opt_F},         {'g', true, opt_g},  {'h', false, opt_h}, {'L', false, opt_L},
	{'n', false, opt_noeffect}, {'o', true, opt_o},  {'P', false, opt_noeffect},
	{'r', false, opt_r},        {'R', true, opt_R},  {'s', false, opt_s}, {'S', false, opt_S},
	{'t', true, opt_t},         {'T', true, opt_T},  {'v', false, opt_noeffect},
	{'w', false, opt_w},        {'W', true, opt_secs},  {'z', false, opt_z}, {'Z', false, opt_Z},
};

/* The flags DiskSpd has that iorate refuses, with why, so the error says more than "unknown". */
static const char *dspd_refused(char c)
{
	switch (c) {
	case 'x': return "completion routines are a Windows API";
	case 'X': return "XML profiles are not read; give the flags on the command line";
	case 'y': return "named Windows events are not supported";
	case 'e': return "ETW tracing is Windows-only";
	case 'i': case 'j': return "bursts with think time are not supported";
	case 'I': return "I/O priority hints are not supported";
	case 'l': return "large-page buffers are not supported";
	case 'p': return "parallel sequential I/O from one offset is not supported";
	case 'O': return "per-thread request counts (-O) are not supported; use -o";
	default: return NULL;
	}
}

/* Every argument not starting with '-' is a target; DiskSpd reads flags only before the first. */
int compat_diskspd_parse(int argc, char **argv, struct job *j, FILE *explain, char *err,
			 size_t errlen)
{
	struct dspd d = {
		.j = j, .ex = explain, .err = err, .errlen = errlen, .bs = DSPD_DEFAULT_BS};
	int i = 1, r;

	err[0] = '\0';
	if (argc > 1 && (!strcasecmp(argv[1], "diskspd") || !strcasecmp(argv[1], "diskspd.exe")))
		i++;
	strcpy(j->origin, "diskspd");
	j->warmup_ns = 5000000000ull;
	j->time_ns = 10000000000ull;
	j->depth = 2;
	j->seed = 0;
	j->seed_set = true;
	for (int k = i; k < argc; k++) {
		if (argv[k][0] == '-' && argv[k][1] == 'b' && argv[k][2]) {
			if (dspd_size(argv[k] + 2, 0, &d.bs) || !d.bs || strpbrk(argv[k] + 2, "bB"))
				return compat_fail(d.err, d.errlen,
						   "%s: DiskSpd's -b takes a size such as -b64K "
						   "or -b4096",
						   argv[k]);
		}
	}
	j->bs = d.bs;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *flag = argv[i];
		const struct dspd_opt *o = NULL;
		char c = flag[1];

		for (size_t k = 0; k < sizeof(dspd_opts) / sizeof(dspd_opts[0]); k++)
			if (dspd_opts[k].letter == c)
				o = &dspd_opts[k];
		if (!o) {
			const char *why = dspd_refused(c);
			if (why)
				return compat_fail(d.err, d.errlen,
						   "%s: DiskSpd option not supported: "
						   "%s", flag, why);
			return compat_fail(d.err, d.errlen,
					   "%s: not a DiskSpd option (supported: %s)", flag,
					   DSPD_FLAGS);
		}
		if (o->needs_value && !flag[2])
			return compat_fail(d.err, d.errlen,
					   "%s: DiskSpd's -%c needs its value attached, as in "
					   "-%c%s",
					   flag, c, c,
					   c == 'b'   ? "64K"
					   : c == 'c' ? "1G"
					   : "8");
		if ((unsigned char)c < 128)
			d.seen[(unsigned char)c] = true;
		if ((r = o->fn(&d, flag, flag + 2)))
			return r;
	}
	if (i == argc)
		return compat_fail(d.err, d.errlen,
				   "no target: DiskSpd needs a file, a device or a disk number "
				   "(#1) after the flags (see 'iorate diskspd --help')");
	for (; i < argc; i++) {
		if (argv[i][0] == '-')
			return compat_fail(d.err, d.errlen,
					   "%s: comes after a target; DiskSpd reads flags only "
					   "before the targets, so put it before them",
					   argv[i]);
		if ((r = dspd_target(&d, argv[i])))
			return r;
	}
	if ((r = dspd_resolve(&d)))
		return r;
	dspd_defaults(&d);
	if (job_set_command_line(j, NULL, argc, argv))
		return compat_fail(d.err, d.errlen, "out of memory");
	return 0;
}

static void dspd_usage(FILE *f)
{
	fprintf(f,
		"usage: iorate diskspd [DiskSpd flags] TARGET... [--json|--csv] "
		"[--dry-run]\n\nRuns a DiskSpd command line unchanged: prints what each flag "
		"became, then runs it like 'iorate run'.\nTargets: a file, a block device, or #N "
		"for the Nth whole disk in /sys/block (from #0).\nFlags: %s\niorate options: "
		"--json --csv --units si --quiet --engine NAME --allow-write-device --force "
		"--dry-run\n\nExamples:\n  iorate diskspd -b64k -d30 -t8 -o8 #1\n  iorate diskspd "
		"-b8k -d30 -t8 -o8 -r -w30 -Sh -L -c1G /mnt/data/testfile.dat\n  iorate diskspd "
		"--dry-run -b4K -F8 -T1b -s8b -o32 -Sh /mnt/data/test.dat\n",
		DSPD_FLAGS);
}

int cmd_diskspd(int argc, char **argv)
{
	return compat_cli_main(argc, argv, "diskspd", compat_diskspd_parse, dspd_usage);
}
