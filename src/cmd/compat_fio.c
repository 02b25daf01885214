/*
 * fio job files for `iorate run --job FILE`: a [global] section and one job section, in the
 * common subset of options docs/compat.md lists. Anything else is named in an error rather than
 * silently ignored, since a job that runs differently from what its file says is worse than none.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/compat.h"
#include "util/parse.h"

#define FIO_SUPPORTED "bs, rw, rwmixread, rwmixwrite, iodepth, numjobs, direct, buffered, " \
	"runtime, time_based, ramp_time, size, filename, directory, ioengine, rate_iops, fsync, " \
	"randseed, name, description, group_reporting, thread"

/* A job's options as the file states them; sections inherit [global] as fio does. */
struct fio_opts {
	uint64_t bs, size;
	uint64_t runtime_ns, ramp_ns;
	int rw_write;            /* rw's write percent: 0, 100, or -1 for a mix */
	int mix_write;           /* rwmixread/rwmixwrite as a write percent; -1 = not given */
	unsigned iodepth, numjobs, fsync;
	bool random, direct;
	unsigned rate_iops;
	uint64_t seed;
	bool seed_set;
	char engine[16];
	bool sync_engine;        /* psync and friends: one I/O at a time, whatever iodepth says */
	char *filename, *directory;
};

struct fio_ctx {
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
};

static int fail(struct fio_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct fio_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "%s:%u: ", c->path, c->line);

	if (n < 0 || (size_t)n >= c->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void fio_opts_init(struct fio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bs = 4096;            /* fio's defaults */
	o->iodepth = 1;
	o->numjobs = 1;
	o->mix_write = -1;
	strcpy(o->engine, "sync");
	o->sync_engine = true;
}

static void fio_opts_release(struct fio_opts *o)
{
	free(o->filename);
	free(o->directory);
	o->filename = o->directory = NULL;
}

static int fio_opts_copy(struct fio_opts *dst, const struct fio_opts *src)
{
	*dst = *src;
	dst->filename = src->filename ? strdup(src->filename) : NULL;
	dst->directory = src->directory ? strdup(src->directory) : NULL;
	if ((src->filename && !dst->filename) || (src->directory && !dst->directory)) {
		fio_opts_release(dst);
		return -ENOMEM;
	}
	return 0;
}

static int set_rw(struct fio_ctx *c, struct fio_opts *o, const char *v)
{
	static const struct {
		const char *name;
		bool random;
		int write;           /* percent; -1 keeps the rwmix setting (50 by default) */
	} modes[] = {
		{"read", false, 0},   {"write", false, 100},  {"randread", true, 0},
		{"randwrite", true, 100}, {"rw", false, -1}, {"readwrite", false, -1},
		{"randrw", true, -1},
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(v, modes[i].name))
			continue;
		o->random = modes[i].random;
		o->rw_write = modes[i].write;
		return 0;
	}
	return fail(c, "rw=%s is not supported (supported: read, write, randread, randwrite, rw, "
		    "readwrite, randrw)", v);
}

static int set_engine(struct fio_ctx *c, struct fio_opts *o, const char *v)
{
	static const struct {
		const char *fio, *iorate;
	} map[] = {
		{"psync", "sync"}, {"sync", "sync"}, {"pvsync", "sync"}, {"pvsync2", "sync"},
		{"vsync", "sync"}, {"libaio", "aio"}, {"io_uring", "uring"}, {"null", "null"},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (strcmp(v, map[i].fio))
			continue;
		strcpy(o->engine, map[i].iorate);
		o->sync_engine = !strcmp(map[i].iorate, "sync");
		return 0;
	}
	return fail(c, "ioengine=%s is not supported (supported: psync, sync, pvsync, pvsync2, "
		    "vsync, libaio, io_uring, null)", v);
}

static int set_bool(struct fio_ctx *c, const char *k, const char *v, bool *out)
{
	if (!v || !strcmp(v, "1") || !strcasecmp(v, "true")) {
		*out = true;
	} else if (!strcmp(v, "0") || !strcasecmp(v, "false")) {
		*out = false;
	} else {
		return fail(c, "%s=%s: expected 0 or 1", k, v);
	}
	return 0;
}

static int set_str(struct fio_ctx *c, char **dst, const char *v)
{
	free(*dst);
	if (!(*dst = strdup(v)))
		return fail(c, "out of memory");
	return 0;
}

/* fio reads times in seconds unless a unit follows. */
static int set_time(struct fio_ctx *c, const char *k, const char *v, uint64_t *ns)
{
	if (parse_duration(v, ns))
		return fail(c, "%s=%s is not a duration (examples: %s)", k, v,
			    PARSE_DURATION_EXAMPLES);
	return 0;
}

static int set_uint(struct fio_ctx *c, const char *k, const char *v, unsigned min, unsigned max,
		    unsigned *out)
{
	if (parse_uint(v, min, max, out))
		return fail(c, "%s=%s: expected a whole number from %u to %u", k, v, min, max);
	return 0;
}

static int fio_set(struct fio_ctx *c, struct fio_opts *o, const char *k, const char *v)
{
	bool b;
	unsigned u;
	int r;

	if (!strcmp(k, "name") || !strcmp(k, "description") || !strcmp(k, "group_reporting") ||
	    !strcmp(k, "thread"))
		return 0;                     /* naming and reporting: no effect on the I/O */
	if (!strcmp(k, "time_based"))
		return set_bool(c, k, v, &b); /* iorate always runs for a time */
	if (!v)
		return fail(c, "option '%s' needs a value (%s=...)", k, k);
	if (!strcmp(k, "bs")) {
		if (strchr(v, ',') || strchr(v, '-') || strchr(v, ':'))
			return fail(c, "bs=%s: one block size only (separate read/write sizes and "
				    "ranges are not supported)", v);
		if (parse_size(v, &o->bs) || !o->bs)
			return fail(c, "bs=%s is not a size (examples: %s)", v,
				    PARSE_SIZE_EXAMPLES);
	} else if (!strcmp(k, "size")) {
		if (strchr(v, '%') || parse_size(v, &o->size) || !o->size)
			return fail(c, "size=%s is not a size in bytes (examples: %s)", v,
				    PARSE_SIZE_EXAMPLES);
	} else if (!strcmp(k, "rw") || !strcmp(k, "readwrite")) {
		return set_rw(c, o, v);
	} else if (!strcmp(k, "rwmixread") || !strcmp(k, "rwmixwrite")) {
		if ((r = set_uint(c, k, v, 0, 100, &u)))
			return r;
		/* As in fio, the later of the two wins when they do not add up to 100. */
		o->mix_write = !strcmp(k, "rwmixread") ? 100 - (int)u : (int)u;
	} else if (!strcmp(k, "iodepth")) {
		return set_uint(c, k, v, 1, JOB_MAX_DEPTH, &o->iodepth);
	} else if (!strcmp(k, "numjobs")) {
		return set_uint(c, k, v, 1, JOB_MAX_THREADS, &o->numjobs);
	} else if (!strcmp(k, "direct") || !strcmp(k, "buffered")) {
		if ((r = set_bool(c, k, v, &b)))
			return r;
		o->direct = !strcmp(k, "direct") ? b : !b;
	} else if (!strcmp(k, "runtime")) {
		return set_time(c, k, v, &o->runtime_ns);
	} else if (!strcmp(k, "ramp_time")) {
		return set_time(c, k, v, &o->ramp_ns);
	} else if (!strcmp(k, "filename")) {
		return set_str(c, &o->filename, v);
	} else if (!strcmp(k, "directory")) {
		return set_str(c, &o->directory, v);
	} else if (!strcmp(k, "ioengine")) {
		return set_engine(c, o, v);
	} else if (!strcmp(k, "rate_iops")) {
		if (strchr(v, ','))
			return fail(c, "rate_iops=%s: one rate for reads and writes together", v);
		return set_uint(c, k, v, 1, 100000000, &o->rate_iops);
	} else if (!strcmp(k, "fsync")) {
		return set_uint(c, k, v, 0, 1u << 30, &o->fsync);
	} else if (!strcmp(k, "randseed")) {
		if (parse_u64(v, 0, UINT64_MAX, &o->seed))
			return fail(c, "randseed=%s: expected a whole number", v);
		o->seed_set = true;
	} else {
		return fail(c, "option '%s' is not supported (supported: %s)", k, FIO_SUPPORTED);
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * filename= may list several files separated by ':'; fio writes a colon inside a name as "\:".
 * Each becomes a target, under directory= when the name is relative.
 */
static int add_filenames(struct fio_ctx *c, struct job *j, const char *dir, const char *names)
{
	size_t len = strlen(names), dl = dir ? strlen(dir) : 0;
	char *buf = malloc(len + dl + 2), *p;
	int r = 0;

	if (!buf)
		return fail(c, "out of memory");
	for (const char *s = names; !r;) {
		p = buf;
		if (dir && *s != '/') {
			memcpy(p, dir, dl);
			p += dl;
			*p++ = '/';
		}
		const char *start = s;

		for (; *s && *s != ':'; s++) {
			if (*s == '\\' && s[1] == ':')
				s++;
			*p++ = *s;
		}
		*p = '\0';
		if (s == start)
			r = fail(c, "filename=%s: an empty file name", names);
		else if (job_add_target(j, buf))
			r = fail(c, "out of memory");
		if (!*s++)
			break;
	}
	free(buf);
	return r;
}

static int fio_resolve(struct fio_ctx *c, const struct fio_opts *o, const char *jobname,
		       struct job *j)
{
	unsigned per_target;
	char name[600];
	int r;

	strcpy(j->origin, "fio");
	j->bs = o->bs;
	j->size = o->size;
	if (o->runtime_ns)
		j->time_ns = o->runtime_ns;
	j->warmup_ns = o->ramp_ns;
	j->pattern = o->random ? PATTERN_RANDOM : PATTERN_SEQUENTIAL;
	j->write_pct = o->rw_write >= 0 ? (unsigned)o->rw_write
					: o->mix_write >= 0 ? (unsigned)o->mix_write : 50;
	/* fio's sync engines complete each I/O before the next, whatever iodepth says. */
	j->depth = o->sync_engine ? 1 : o->iodepth;
	j->cache = o->direct ? CACHE_DIRECT : CACHE_BUFFERED;
	j->fsync_every = o->fsync;
	j->seed = o->seed;
	j->seed_set = o->seed_set;
	strcpy(j->engine, o->engine);
	j->keep = true;                  /* fio leaves the files it lays out (unlink=0) */
	if (o->filename) {
		/* Every job of numjobs opens the same file(s): threads on one target. */
		if ((r = add_filenames(c, j, o->directory, o->filename)))
			return r;
		j->threads = o->numjobs;
		per_target = o->numjobs;
	} else {
		/* fio gives each job its own file, "<name>.<job>.0", so one thread per target. */
		if (!o->size)
			return fail(c,
				    "[%s] has no filename=, so fio would lay out files of size=; "
				    "give size= (or filename=)",
				    jobname);
		for (unsigned n = 0; n < o->numjobs; n++) {
			snprintf(name, sizeof(name), "%s%s%s.%u.0",
				 o->directory ? o->directory : "", o->directory ? "/" : "", jobname,
				 n);
			if (job_add_target(j, name))
				return fail(c, "out of memory");
		}
		j->threads = 1;
		per_target = 1;
	}
	/* fio's rate_iops binds each job; iorate's rate is per target. */
	j->rate_iops = (double)o->rate_iops * per_target;
	return 0;
}

int compat_fio_load(const char *path, struct job *j, char *err, size_t errlen)
{
	struct fio_ctx c = {.path = path, .err = err, .errlen = errlen};
	struct fio_opts global, job, *cur = NULL;
	char *line = NULL, jobname[256] = "";
	unsigned job_line = 0;
	size_t cap = 0;
	int r = 0;
	FILE *f;

	err[0] = '\0';
	fio_opts_init(&global);
	fio_opts_init(&job);
	if (!(f = fopen(path, "r"))) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return r;
	}
	while (getline(&line, &cap, f) > 0) {
		char *s = trim(line), *eq, *v = NULL;

		c.line++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end == s + 1 || *trim(end + 1)) {
				r = fail(&c, "'%s' is not a section header ([global] or [jobname])",
					 s);
				goto out;
			}
			*end = '\0';
			if (cur == &job) {
				r = fail(&c,
					 "[%s] after job [%s]: iorate runs one job per file (fio "
					 "would "
					 "run them side by side); split the file",
					 s + 1, jobname);
				goto out;
			}
			if (!strcmp(s + 1, "global")) {
				cur = &global;
				continue;
			}
			snprintf(jobname, sizeof(jobname), "%s", s + 1);
			job_line = c.line;
			fio_opts_release(&job);
			if (fio_opts_copy(&job, &global)) {
				r = fail(&c, "out of memory");
				goto out;
			}
			cur = &job;
			continue;
		}
		if (!cur) {
			r = fail(&c,
				 "'%s' comes before any section; start with [global] or [jobname]",
				 s);
			goto out;
		}
		if ((eq = strchr(s, '='))) {
			*eq = '\0';
			v = trim(eq + 1);
			s = trim(s);
		}
		if ((r = fio_set(&c, cur, s, v)))
			goto out;
	}
	if (ferror(f)) {
		r = -EIO;
		snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	if (cur != &job) {
		r = fail(&c, "no job section: add one, e.g. [job1], after [global]");
		goto out;
	}
	c.line = job_line;
	r = fio_resolve(&c, &job, jobname, j);
out:
	free(line);
	fclose(f);
	fio_opts_release(&global);
	fio_opts_release(&job);
	return r;
}
