/*
 * `iorate sqlio`: runs a SQLIO command line unchanged. compat_sqlio_parse() translates it flag by
 * flag into a struct job (reading a -F parameter file when given); cmd_sqlio() prints the
 * translation on stderr and runs it like `iorate run`. docs/compat.md has the table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "cmd/compat.h"
#include "util/parse.h"

#define SQLIO_FLAGS "-k -t -s -o -b -f -L -B -F -S -i -p -a"
#define SQLIO_MAX 256u                   /* SQLIO's limit on -t and -o */

struct sqlio {
	struct job *j;
	FILE *ex;
	char *err;
	size_t errlen;
	unsigned start_blocks;           /* -S: I/O starts this many blocks into the file */
	bool file_threads;               /* threads came from a -F parameter file */
	bool seen[128];
};

/*
 * SQLIO's -k reads one letter: R or W. It has no mixed mode, so seed 001's -kRW ran reads only,
 * and the 5,100 IOPS it reported were reads. iorate does the same and says so.
 */
static int opt_k(struct sqlio *s, const char *flag, const char *val)
{
	char c = (char)toupper((unsigned char)val[0]);

	if (c != 'R' && c != 'W')
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -k takes R (reads) or W (writes), as in -kR", flag);
	s->j->write_pct = c == 'W' ? 100 : 0;
	if (val[1])
		compat_explain(s->ex, flag,
			       "--write %u: SQLIO reads only the first letter of -k, so %s runs "
			       "%s only (it has no read/write mix; for one use 'iorate run -w 50')",
			       s->j->write_pct, flag, c == 'W' ? "writes" : "reads");
	else
		compat_explain(s->ex, flag, "--write %u: %s", s->j->write_pct,
			       c == 'W' ? "writes only (destroys data in the target)"
					: "reads only");
	return 0;
}

static int opt_num(struct sqlio *s, const char *flag, const char *val, unsigned min,
		   unsigned max, unsigned *out)
{
	if (parse_uint(val, min, max, out))
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -%c takes a whole number from %u to "
				   "%u", flag, flag[1],
				   min, max);
	return 0;
}

static int opt_t(struct sqlio *s, const char *flag, const char *val)
{
	if (opt_num(s, flag, val, 1, SQLIO_MAX, &s->j->threads))
		return -EINVAL;
	compat_explain(s->ex, flag, "--threads %u", s->j->threads);
	return 0;
}

static int opt_s(struct sqlio *s, const char *flag, const char *val)
{
	unsigned sec;

	if (opt_num(s, flag, val, 1, 100000000, &sec))
		return -EINVAL;
	s->j->time_ns = (uint64_t)sec * 1000000000ull;
	compat_explain(s->ex, flag, "--time %us", sec);
	return 0;
}

static int opt_o(struct sqlio *s, const char *flag, const char *val)
{
	unsigned o;

	if (opt_num(s, flag, val, 0, SQLIO_MAX, &o))
		return -EINVAL;
	s->j->depth = o ? o : 1;
	compat_explain(s->ex, flag, "--depth %u: outstanding I/Os per thread%s", s->j->depth,
		       o ? "" : " (-o0: no queueing)");
	return 0;
}

static int opt_b(struct sqlio *s, const char *flag, const char *val)
{
	unsigned kb;

	if (parse_uint(val, 1, 1u << 20, &kb))
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -b takes the block size in KB as a bare number, "
				   "as in -b8",
				   flag);
	s->j->bs = (uint64_t)kb << 10;
	compat_explain(s->ex, flag, "--bs %uKiB: SQLIO counts -b in KB", kb);
	return 0;
}

static int opt_f(struct sqlio *s, const char *flag, const char *val)
{
	unsigned n;

	if (!strcasecmp(val, "random")) {
		s->j->pattern = PATTERN_RANDOM;
		compat_explain(s->ex, flag, "--random");
	} else if (!strcasecmp(val, "sequential")) {
		s->j->pattern = PATTERN_SEQUENTIAL;
		compat_explain(s->ex, flag, "--sequential");
	} else if (!parse_uint(val, 1, 1u << 30, &n)) {
		s->j->pattern = n == 1 ? PATTERN_SEQUENTIAL : PATTERN_RANDOM;
		compat_explain(s->ex, flag,
			       n == 1 ? "--sequential: a stripe factor of 1 is adjacent "
					"blocks"
				      : "--random: I/Os %u blocks apart never touch their "
					"neighbours, which storage treats like random I/O",
			       n);
	} else {
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -f takes random, sequential or a stripe factor in "
				   "blocks (-f64)",
				   flag);
	}
	return 0;
}

static int opt_L(struct sqlio *s, const char *flag, const char *val)
{
	char c = (char)toupper((unsigned char)val[0]);

	if ((c != 'S' && c != 'P') || (val[1] && (val[1] != 'i' || val[2])))
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -L takes S (system timer) or P (processor timer), "
				   "as in -LS",
				   flag);
	compat_explain(s->ex, flag, "(always) iorate times every I/O with CLOCK_MONOTONIC");
	return 0;
}

/* SQLIO's buffering: N none, Y all, H hardware only, S software (file cache) only. */
static int opt_B(struct sqlio *s, const char *flag, const char *val)
{
	switch (val[1] ? 0 : toupper((unsigned char)val[0])) {
	case 'N':
		s->j->cache = CACHE_DIRECTSYNC;
		compat_explain(s->ex, flag, "--cache directsync: no file cache and write-through "
			       "(O_DIRECT|O_DSYNC)");
		break;
	case 'H':
		s->j->cache = CACHE_DIRECT;
		compat_explain(s->ex, flag,
			       "--cache direct: the disk's cache but not the file cache");
		break;
	case 'S':
		s->j->cache = CACHE_WRITETHROUGH;
		compat_explain(s->ex, flag,
			       "--cache writethrough: the file cache, writes with O_DSYNC");
		break;
	case 'Y':
		s->j->cache = CACHE_BUFFERED;
		compat_explain(s->ex, flag, "--cache buffered: file and disk caches");
		break;
	default:
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -B takes N (none), Y (all), H (hardware) or S "
				   "(software), as in -BN", flag);
	}
	return 0;
}

static int opt_S(struct sqlio *s, const char *flag, const char *val)
{
	if (opt_num(s, flag, val, 0, UINT32_MAX, &s->start_blocks))
		return -EINVAL;
	/* Blocks of the final -b: the offset is set once all flags are read. */
	return 0;
}

static int opt_noeffect(struct sqlio *s, const char *flag, const char *val)
{
	if (!*val)
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -%c needs a value", flag, flag[1]);
	compat_explain(s->ex, flag, "(no effect) %s", flag[1] == 'i'
		       ? "I/Os per run only shape SQLIO's stripe pattern"
		       : "CPU affinity: iorate leaves thread placement to the scheduler");
	return 0;
}

static int add_target(struct sqlio *s, const char *where, const char *path)
{
	if (compat_is_windows_path(path))
		return compat_fail(s->err, s->errlen,
				   "%s'%s' is a Windows path; name a Linux file (e.g. "
				   "/mnt/data/testfile.dat) or a block device (e.g. /dev/sdb)",
				   where, path);
	return job_add_target(s->j, path) ? compat_fail(s->err, s->errlen, "out of memory") : 0;
}

/*
 * A -F parameter file: one target a line, "path threads affinity-mask size-in-MB", '#' starts a
 * comment. iorate runs the same threads on every target and creates files at one size, so the
 * lines must agree on those.
 */
static int opt_F(struct sqlio *s, const char *flag, const char *val)
{
	char *line = NULL, where[512];
	unsigned lineno = 0, threads = 0;
	uint64_t size = 0;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	if (!*val)
		return compat_fail(s->err, s->errlen,
				   "%s: SQLIO's -F needs the parameter file attached, as in "
				   "-Fparam.txt",
				   flag);
	if (!(f = fopen(val, "r")))
		return compat_fail(s->err, s->errlen,
				   "%s: cannot open '%s': %s", flag, val, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		char *tok[5], *save = NULL, *p;
		unsigned n = 0, t = 1, mb = 0;

		lineno++;
		if ((p = strchr(line, '#')))
			*p = '\0';
		for (p = strtok_r(line, " \t\r\n", &save); p && n < 5;
		     p = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = p;
		if (!n)
			continue;
		snprintf(where, sizeof(where), "%s:%u: ", val, lineno);
		if (n > 4 || (n > 1 && parse_uint(tok[1], 1, SQLIO_MAX, &t)) ||
		    (n > 3 && parse_uint(tok[3], 1, 1u << 30, &mb))) {
			ret = compat_fail(s->err, s->errlen,
					  "%sSQLIO's parameter lines read 'path threads mask "
					  "size-MB', as in '/mnt/data/testfile.dat 2 0x0 100'",
					  where);
			goto out;
		}
		if ((threads && t != threads) || (size && mb && (uint64_t)mb << 20 != size)) {
			ret = compat_fail(s->err, s->errlen,
					  "%siorate runs the same threads on every target and "
					  "creates files at one size; make the lines agree", where);
			goto out;
		}
		threads = t;
		if (mb)
			size = (uint64_t)mb << 20;
		if ((ret = add_target(s, where, tok[0])))
			goto out;
		compat_explain(s->ex, tok[0], "target (from %s:%u), %u thread(s)%s", val, lineno, t,
			       n > 2 ? ", affinity mask ignored" : "");
	}
	if (!threads) {
		ret = compat_fail(s->err, s->errlen, "%s: '%s' names no target", flag, val);
		goto out;
	}
	s->j->threads = threads;
	s->file_threads = true;
	if (size) {
		s->j->size = size;
		s->j->keep = true;
		compat_explain(s->ex, flag,
			       "--size %lluMiB --keep: a missing file is created and left in "
			       "place, as SQLIO leaves it",
			       (unsigned long long)(size >> 20));
	}
out:
	free(line);
	fclose(f);
	return ret;
}

static const struct sqlio_opt {
	char letter;
	int (*fn)(struct sqlio *s, const char *flag, const char *val);
} sqlio_opts[] = {
	{'k', opt_k}, {'t', opt_t}, {'s', opt_s}, {'o', opt_o}, {'b', opt_b}, {'f', opt_f},
	{'L', opt_L}, {'B', opt_B}, {'F', opt_F}, {'S', opt_S}, {'i', opt_noeffect},
	{'p', opt_noeffect}, {'a', opt_noeffect},
};

static const char *sqlio_refused(char c)
{
	switch (c) {
	case 'd': return "drive letters are Windows; name each file instead";
	case 'R': return "raw drive letters or numbers are Windows; name the block device, e.g. "
			 "/dev/sdb";
	case 'm': return "multi-block (copy or scatter/gather) I/O is not supported";
	case 'v': return "the 1.1.1 compatibility mode is not supported";
	default: return NULL;
	}
}

static void sqlio_defaults(struct sqlio *s)
{
	if (!s->seen['k'])
		compat_explain(s->ex, "default -kR", "--write 0: reads only");
	if (!s->seen['t'] && !s->file_threads)
		compat_explain(s->ex, "default -t1", "--threads 1");
	if (!s->seen['s'])
		compat_explain(s->ex, "default -s30", "--time 30s");
	if (!s->seen['o'])
		compat_explain(s->ex, "default (no -o)", "--depth 1: one I/O at a time per thread");
	if (!s->seen['b'])
		compat_explain(s->ex, "default -b2", "--bs 2KiB");
	if (!s->seen['f'])
		compat_explain(s->ex, "default -f64",
			       "--random: I/Os 64 blocks apart, which storage treats like random "
			       "I/O");
	if (!s->seen['B'])
		compat_explain(s->ex, "default -BN", "--cache direct: no file cache (O_DIRECT)");
	compat_explain(s->ex, "no warm-up", "--warmup 0: SQLIO measures from the first I/O");
}

int compat_sqlio_parse(int argc, char **argv, struct job *j, FILE *explain, char *err,
		       size_t errlen)
{
	struct sqlio s = {.j = j, .ex = explain, .err = err, .errlen = errlen};
	int i = 1, r;

	err[0] = '\0';
	if (argc > 1 && (!strcasecmp(argv[1], "sqlio") || !strcasecmp(argv[1], "sqlio.exe")))
		i++;
	strcpy(j->origin, "sqlio");
	j->bs = 2048;
	j->time_ns = 30000000000ull;
	j->threads = 1;
	j->depth = 1;
	j->write_pct = 0;
	j->pattern = PATTERN_RANDOM;
	j->cache = CACHE_DIRECTSYNC; /* SQLIO default -BN: no file cache, write-through */
	j->warmup_ns = 0;
	for (; i < argc; i++) {
		const char *flag = argv[i];
		const struct sqlio_opt *o = NULL;
		const char *why;

		if (flag[0] != '-') {
			if ((r = add_target(&s, "", flag)))
				return r;
			compat_explain(explain, flag, "target");
			continue;
		}
		for (size_t k = 0; k < sizeof(sqlio_opts) / sizeof(sqlio_opts[0]); k++)
			if (sqlio_opts[k].letter == flag[1])
				o = &sqlio_opts[k];
		if (!o && (why = sqlio_refused(flag[1])))
			return compat_fail(s.err, s.errlen,
					   "%s: SQLIO option not supported: %s", flag, why);
		if (!o)
			return compat_fail(s.err, s.errlen,
					   "%s: not a SQLIO option (supported: %s)", flag,
					   SQLIO_FLAGS);
		if (!flag[2] && o->fn != opt_noeffect)
			return compat_fail(s.err, s.errlen,
					   "%s: SQLIO's -%c needs its value attached, as in -%c%s",
					   flag, flag[1], flag[1],
					   flag[1] == 'k'   ? "R"
					   : flag[1] == 'B' ? "N"
					   : "8");
		if (o->fn == opt_t && s.file_threads) {
			compat_explain(explain, flag,
				       "(no effect) the -F parameter file sets threads");
			continue;
		}
		s.seen[(unsigned char)flag[1] & 127] = true;
		if ((r = o->fn(&s, flag, flag + 2)))
			return r;
	}
	if (s.start_blocks) {
		j->offset = (uint64_t)s.start_blocks * j->bs;
		compat_explain(
			explain, "-S", "--offset %llu: %u blocks of %llu bytes into the file",
			(unsigned long long)j->offset, s.start_blocks, (unsigned long long)j->bs);
	}
	if (!j->ntargets) {
		if ((r = add_target(&s, "", "testfile.dat")))
			return r;
		compat_explain(explain, "default target",
			       "testfile.dat in the current directory, as SQLIO does");
	}
	sqlio_defaults(&s);
	if (job_set_command_line(j, NULL, argc, argv))
		return compat_fail(s.err, s.errlen, "out of memory");
	return 0;
}

static void sqlio_usage(FILE *f)
{
	fprintf(f, "usage: iorate sqlio [SQLIO flags] [FILE...] [--json|--csv] [--size SIZE] "
		   "[--dry-run]\n\nRuns a SQLIO command line unchanged: prints what each flag "
		   "became, then runs it like 'iorate run'.\nFlags: %s\niorate options: --json "
		   "--csv --units si --quiet --engine NAME --size SIZE --allow-write-device "
		   "--force --dry-run\n\nExamples:\n  iorate sqlio -kR -s60 -o8 -b8 -frandom -BN "
		   "-LS /mnt/data/testfile.dat\n  iorate sqlio -kW -t4 -s60 -o8 -b64 -fsequential "
		   "-Fparam.txt\n",
		SQLIO_FLAGS);
}

int cmd_sqlio(int argc, char **argv)
{
	return compat_cli_main(argc, argv, "sqlio", compat_sqlio_parse, sqlio_usage);
}
