/*
 * `iorate sqlio`: a SQLIO command line, unchanged, into settings of 'iorate run'.
 * compat_sqlio_parse() reads the flags one by one (and a -F parameter file when given) and hands
 * each setting to the sink; src/cmd/cmd_compat.c applies them, prints the translation and runs
 * it. docs/compat.md has the table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compat/compat.h"
#include "core/gate.h"
#include "util/parse.h"

#define FAIL(s, ...) err_set((s)->to.err, (s)->to.errlen, -EINVAL, __VA_ARGS__)

struct sqlio {
	struct compat_to to;
	uint64_t bs;                     /* the -b size in bytes: -S counts blocks of it */
	const char *S_flag;              /* -S<blocks> as typed, set once -b is known */
	unsigned start_blocks;
	bool file_threads;               /* threads came from a -F parameter file */
	bool seen[128];
};

/*
 * SQLIO's -k reads one letter: R or W. It has no mixed mode, so the 2015 DS14 SQLIO post's -kRW
 * ran reads only, and the 5,100 IOPS it reported were reads. iorate does the same and says so.
 */
static int opt_k(struct sqlio *s, const char *flag, const char *val)
{
	char c = (char)toupper((unsigned char)val[0]);
	const char *what = c == 'W' ? "writes" : "reads";

	if (c != 'R' && c != 'W')
		return FAIL(s, "%s: -k takes R (reads) or W (writes), as in -kR", flag);
	if (val[1])
		return compat_set(&s->to, flag, false, "write", c == 'W' ? "100" : "0",
				  "SQLIO reads only the first letter of -k, so %s runs %s only (it "
				  "has no read/write mix; for one use 'iorate run -w 50')", flag,
				  what);
	return compat_set(&s->to, flag, false, "write", c == 'W' ? "100" : "0", "%s",
			  c == 'W' ? "writes only (destroys data in the target)" : "reads only");
}

static int opt_t(struct sqlio *s, const char *flag, const char *val)
{
	return compat_set(&s->to, flag, false, "threads", val, NULL);
}

static int opt_s(struct sqlio *s, const char *flag, const char *val)
{
	return compat_set(&s->to, flag, false, "time", val, "seconds measured");
}

static int opt_o(struct sqlio *s, const char *flag, const char *val)
{
	return compat_set(&s->to, flag, false, "depth", val, "outstanding I/Os per thread");
}

/* SQLIO's -b counts KB: the digits become iorate's "<n>KiB", judged by the option table. */
static int opt_b(struct sqlio *s, const char *flag, const char *val)
{
	char *v = NULL;
	int r;

	if (strspn(val, "0123456789") != strlen(val))
		return FAIL(s, "%s: -b takes the block size in KB as a bare number, as in -b8",
			    flag);
	if (asprintf(&v, "%sKiB", val) < 0)
		return FAIL(s, "out of memory");
	r = compat_set(&s->to, flag, false, "bs", v, "SQLIO counts -b in KB");
	if (!r && parse_size(v, &s->bs))
		r = FAIL(s, "%s: internal: '%s' was accepted but is not a size", flag, v);
	free(v);
	return r;
}

static int opt_f(struct sqlio *s, const char *flag, const char *val)
{
	unsigned n;

	if (!strcasecmp(val, "random"))
		return compat_set(&s->to, flag, false, "random", NULL, NULL);
	if (!strcasecmp(val, "sequential"))
		return compat_set(&s->to, flag, false, "sequential", NULL, NULL);
	if (parse_uint(val, 1, 1u << 30, &n))
		return FAIL(s, "%s: -f takes random, sequential or a stripe factor in blocks "
			    "(-f64)", flag);
	if (n == 1)
		return compat_set(&s->to, flag, false, "sequential", NULL,
				  "a stripe factor of 1 is adjacent blocks");
	return compat_set(&s->to, flag, false, "random", NULL,
			  "I/Os %u blocks apart never touch their neighbours, which storage "
			  "treats like random I/O", n);
}

static int opt_L(struct sqlio *s, const char *flag, const char *val)
{
	char c = (char)toupper((unsigned char)val[0]);

	if ((c != 'S' && c != 'P') || (val[1] && (val[1] != 'i' || val[2])))
		return FAIL(s, "%s: -L takes S (system timer) or P (processor timer), as in -LS",
			    flag);
	compat_explain(s->to.ex, flag, "(always) iorate times every I/O with CLOCK_MONOTONIC");
	return 0;
}

/* SQLIO's buffering: N none, Y all, H hardware only, S software (file cache) only. */
static int opt_B(struct sqlio *s, const char *flag, const char *val)
{
	switch (val[1] ? 0 : toupper((unsigned char)val[0])) {
	case 'N':
		return compat_set(&s->to, flag, false, "cache", "directsync",
				  "no file cache and write-through (O_DIRECT|O_DSYNC)");
	case 'H':
		return compat_set(&s->to, flag, false, "cache", "direct",
				  "the disk's cache but not the file cache");
	case 'S':
		return compat_set(&s->to, flag, false, "cache", "writethrough",
				  "the file cache, writes with O_DSYNC");
	case 'Y':
		return compat_set(&s->to, flag, false, "cache", "buffered",
				  "file and disk caches");
	default:
		return FAIL(s, "%s: -B takes N (none), Y (all), H (hardware) or S (software), "
			    "as in -BN", flag);
	}
}

static int opt_S(struct sqlio *s, const char *flag, const char *val)
{
	if (parse_uint(val, 0, UINT32_MAX, &s->start_blocks))
		return FAIL(s, "%s: -S takes a number of blocks, a decimal whole number (-S10)",
			    flag);
	s->S_flag = flag; /* blocks of the final -b: the offset is set once all flags are read */
	return 0;
}

static int opt_noeffect(struct sqlio *s, const char *flag, const char *val)
{
	if (!*val)
		return FAIL(s, "%s: -%c needs a value", flag, flag[1]);
	compat_explain(s->to.ex, flag, "(no effect) %s", flag[1] == 'i'
		       ? "I/Os per run only shape SQLIO's stripe pattern"
		       : "CPU affinity: iorate leaves thread placement to the scheduler");
	return 0;
}

/* Targets are the words of 'iorate run' after its options, not an option: written to the job. */
static int add_target(struct sqlio *s, const char *where, const char *path)
{
	if (compat_is_windows_path(path))
		return FAIL(s, "%s'%s' is a Windows path; name a Linux file (e.g. "
			    "/mnt/data/testfile.dat) or a block device (e.g. /dev/sdb)", where,
			    path);
	return job_add_target(s->to.j, path) ? FAIL(s, "out of memory") : 0;
}

/* What the lines of a -F parameter file say together: they must agree on threads and size. */
struct sqlio_params {
	const char *path;
	unsigned lineno, lines;
	unsigned threads, mb;
	bool sized;                       /* a line gave a size */
};

/* One line, "path threads mask size-MB" (all but the path may be left out): its target. */
static int param_line(struct sqlio *s, struct sqlio_params *p, char *line)
{
	char *tok[5], *save = NULL, *q, where[512];
	unsigned n = 0, t = 1, mb = 0;
	int r;

	snprintf(where, sizeof(where), "%s:%u: ", p->path, p->lineno);
	if ((q = strchr(line, '#')))
		*q = '\0';
	for (q = strtok_r(line, " \t\r\n", &save); q && n < 5; q = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = q;
	if (!n)
		return 0;
	/* The numbers are only read here; the option table judges them as --threads and --size. */
	if (n > 4 || (n > 1 && parse_uint(tok[1], 0, UINT32_MAX, &t)) ||
	    (n > 3 && parse_uint(tok[3], 0, UINT32_MAX, &mb)))
		return FAIL(s, "%sSQLIO's parameter lines read 'path threads mask size-MB', as in "
			    "'/mnt/data/testfile.dat 2 0x0 100'", where);
	if ((p->lines && t != p->threads) || (p->sized && n > 3 && mb != p->mb))
		return FAIL(s, "%siorate runs the same threads on every target and creates "
			    "files at one size; make the lines agree", where);
	p->threads = t;
	if (n > 3) {
		p->mb = mb;
		p->sized = true;
	}
	p->lines++;
	if (!(r = add_target(s, where, tok[0])))
		compat_explain(s->to.ex, tok[0], "target (from %s:%u), %u thread(s)%s", p->path,
			       p->lineno, t, n > 2 ? ", affinity mask ignored" : "");
	return r;
}

/* What the lines said, as settings of the -F flag. */
static int param_settings(struct sqlio *s, const char *flag, const struct sqlio_params *p)
{
	char v[32];
	int r;

	snprintf(v, sizeof(v), "%u", p->threads);
	if ((r = compat_set(&s->to, flag, false, "threads", v, "from the parameter file")))
		return r;
	s->file_threads = true;
	if (!p->sized)
		return 0;
	snprintf(v, sizeof(v), "%uMiB", p->mb);
	if ((r = compat_set(&s->to, flag, false, "size", v,
			    "a missing file is created at this size (from the parameter file)")))
		return r;
	return compat_set(&s->to, flag, false, "keep", NULL,
			  "a file it creates is left in place, as SQLIO leaves it");
}

/*
 * A -F parameter file: one target a line, "path threads affinity-mask size-in-MB", '#' starts a
 * comment. iorate runs the same threads on every target and creates files at one size, so the
 * lines must agree on those.
 */
static int opt_F(struct sqlio *s, const char *flag, const char *val)
{
	struct sqlio_params p = {.path = val};
	char *line = NULL;
	size_t cap = 0;
	int r = 0;
	FILE *f;

	if (!*val)
		return FAIL(s, "%s: -F needs the parameter file attached, as in -Fparam.txt", flag);
	if (!(f = fopen(val, "r")))
		return FAIL(s, "%s: cannot open '%s': %s", flag, val, strerror(errno));
	while (!r && getline(&line, &cap, f) > 0) {
		p.lineno++;
		r = param_line(s, &p, line);
	}
	free(line);
	fclose(f);
	if (r)
		return r;
	if (!p.lines)
		return FAIL(s, "%s: '%s' names no target", flag, val);
	return param_settings(s, flag, &p);
}

static const struct sqlio_opt {
	char letter;
	int (*fn)(struct sqlio *s, const char *flag, const char *val);
} sqlio_opts[] = {
	{.letter = 'k', .fn = opt_k}, {.letter = 't', .fn = opt_t}, {.letter = 's', .fn = opt_s},
	{.letter = 'o', .fn = opt_o}, {.letter = 'b', .fn = opt_b}, {.letter = 'f', .fn = opt_f},
	{.letter = 'L', .fn = opt_L}, {.letter = 'B', .fn = opt_B}, {.letter = 'F', .fn = opt_F},
	{.letter = 'S', .fn = opt_S}, {.letter = 'i', .fn = opt_noeffect},
	{.letter = 'p', .fn = opt_noeffect}, {.letter = 'a', .fn = opt_noeffect},
};

static const char *sqlio_refused(char c)
{
	switch (c) {
	case 'd': return "drive letters are Windows; name each file instead";
	case 'R': return "raw drive letters or numbers are Windows; name the block device, e.g. "
			 "/dev/sdb";
	case 'm': return "multi-block (copy or scatter/gather) I/O";
	case 'v': return "the 1.1.1 compatibility mode";
	default: return NULL;
	}
}

/* SQLIO's defaults, for what no flag set; with no -o it keeps one I/O in flight per thread. */
static int sqlio_defaults(struct sqlio *s)
{
	const struct compat_to *t = &s->to;
	int r = 0;

	if (!r && !s->seen['k'])
		r = compat_set(t, "-kR", true, "write", "0", "reads only");
	if (!r && !s->seen['t'] && !s->file_threads)
		r = compat_set(t, "-t1", true, "threads", "1", NULL);
	if (!r && !s->seen['s'])
		r = compat_set(t, "-s30", true, "time", "30s", NULL);
	if (!r && !s->seen['o'])
		r = compat_set(t, "(no -o)", true, "depth", "1", "one I/O at a time per thread");
	if (!r && !s->seen['b'])
		r = compat_set(t, "-b2", true, "bs", "2KiB", NULL);
	if (!r && !s->seen['f'])
		r = compat_set(t, "-f64", true, "random", NULL,
			       "I/Os 64 blocks apart, which storage treats like random I/O");
	if (!r && !s->seen['B'])
		r = compat_set(t, "-BN", true, "cache", "directsync",
			       "no file cache and write-through (O_DIRECT|O_DSYNC)");
	if (!r)
		r = compat_set(t, "(no warm-up)", true, "warmup", "0",
			       "SQLIO measures from the first I/O");
	return r;
}

/* -S: the offset in blocks of the final -b. */
static int sqlio_offset(struct sqlio *s)
{
	char v[32], b[32];
	uint64_t off;

	if (!s->S_flag)
		return 0;
	if (__builtin_mul_overflow((uint64_t)s->start_blocks, s->bs, &off))
		return FAIL(s, "%s: the offset does not fit in 64 bits", s->S_flag);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)off);
	return compat_set(&s->to, s->S_flag, false, "offset", v, "%u blocks of %s into the file",
			  s->start_blocks, fmt_size(s->bs, b, sizeof(b)));
}

/*
 * SQLIO's testfile.dat, under a name nobody can plant a link or file at. Which files are
 * targets, and that iorate named this one (so never keeps it), no option of 'iorate run' says.
 */
static int sqlio_default_target(struct sqlio *s)
{
	char name[64];
	int r;

	if ((r = gate_unique_name(NULL, "testfile.", ".dat", name, sizeof(name))))
		return FAIL(s, "cannot make a file name: %s", strerror(-r));
	if ((r = add_target(s, "", name)))
		return r;
	s->to.j->scratch = true;
	compat_explain(s->to.ex, "default target",
		       "%s in the current directory (SQLIO's testfile.dat, under a name nobody "
		       "can plant a link at), removed afterwards", name);
	return 0;
}

static int sqlio_flag(struct sqlio *s, const char *flag)
{
	const struct sqlio_opt *o = NULL;
	const char *why;

	for (size_t k = 0; k < sizeof(sqlio_opts) / sizeof(sqlio_opts[0]); k++)
		if (sqlio_opts[k].letter == flag[1])
			o = &sqlio_opts[k];
	if (!o && (why = sqlio_refused(flag[1])))
		return FAIL(s, "%s: not supported by iorate: %s", flag, why);
	if (!o)
		return FAIL(s, "%s: not supported by iorate (supported: %s)", flag, SQLIO_FLAGS);
	if (!flag[2] && o->fn != opt_noeffect)
		return FAIL(s, "%s: needs its value attached, as in -%c%s", flag, flag[1],
			    flag[1] == 'k' ? "R" : flag[1] == 'B' ? "N" : "8");
	if (o->fn == opt_t && s->file_threads) {
		compat_explain(s->to.ex, flag, "(no effect) the -F parameter file sets threads");
		return 0;
	}
	s->seen[(unsigned char)flag[1] & 127] = true;
	return o->fn(s, flag, flag + 2);
}

int compat_sqlio_parse(int argc, char **argv, const struct compat_sink *sink, struct job *j,
		       FILE *explain, char *err, size_t errlen)
{
	struct sqlio s = {.to = {.sink = sink, .j = j, .ex = explain, .err = err, .errlen = errlen},
			  .bs = 2048};
	int i = 1, r;

	err[0] = '\0';
	if (argc > 1 && (!strcasecmp(argv[1], "sqlio") || !strcasecmp(argv[1], "sqlio.exe")))
		i++;
	/* Where the job came from is the record's; no option of 'iorate run' sets it. */
	strcpy(j->origin, "sqlio");
	for (; i < argc; i++) {
		if (argv[i][0] != '-') {
			if ((r = add_target(&s, "", argv[i])))
				return r;
			compat_explain(explain, argv[i], "target");
		} else if ((r = sqlio_flag(&s, argv[i]))) {
			return r;
		}
	}
	if ((r = sqlio_offset(&s)))
		return r;
	if (!j->ntargets && (r = sqlio_default_target(&s)))
		return r;
	if ((r = sqlio_defaults(&s)))
		return r;
	if (job_set_command_line(j, NULL, argc, argv))
		return FAIL(&s, "out of memory");
	return 0;
}
