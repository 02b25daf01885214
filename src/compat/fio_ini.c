/*
 * fio job files as fio reads them (its HOWTO, "Job file format"; init.c): sections in [],
 * [global] (any section whose name starts with "global") setting the defaults of the jobs after
 * it, comments from ';' or '#' (whole lines, and the rest of a line), bare options, "include
 * FILE" inside a section (relative to the including file when not found as given), ${VAR} from
 * the environment and the keywords $pagesize, $mb_memory and $ncpus, with arithmetic when a
 * keyword meets + - * / (fio hands that to bc). Sections --section leaves out are skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "core/gate.h"
#include "util/err.h"
#include "util/stop.h"

#define MAX_INCLUDE_DEPTH 16
#define WHERE_MAX 4200       /* a path and its line number */

void fio_doc_free(struct fio_doc *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < d->n; i++) {
		struct fio_section *s = &d->s[i];
		for (unsigned k = 0; k < s->n; k++) {
			free(s->lines[k].key);
			free(s->lines[k].val);
			free(s->lines[k].where);
			free(s->lines[k].typed);
			free(s->lines[k].unset);
		}
		free(s->lines);
		free(s->name);
		free(s->where);
	}
	free(d->s);
	free(d);
}

struct fio_section *fio_doc_section(struct fio_doc *d, const char *name, const char *where)
{
	struct fio_section *s;

	if (d->n == d->cap) {
		unsigned cap = d->cap ? d->cap * 2 : 8;
		if (!(s = realloc(d->s, cap * sizeof(*s))))
			return NULL;
		d->s = s;
		d->cap = cap;
	}
	s = &d->s[d->n];
	*s = (struct fio_section){.name = strdup(name), .where = strdup(where),
				 .global = !strncmp(name, "global", 6)};
	if (!s->name || !s->where) {
		free(s->name);
		free(s->where);
		return NULL;
	}
	d->n++;
	return s;
}

/* A growing string: appends double its room, so a line of many substitutions stays linear. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool nomem;
};

static void sb_add(struct sbuf *b, const char *p, size_t n)
{
	if (b->nomem)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *g = realloc(b->s, cap);
		if (!g) {
			b->nomem = true;
			return;
		}
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* The string built, or NULL when out of memory. */
static char *sb_done(struct sbuf *b)
{
	if (!b->nomem && !b->s)
		sb_add(b, "", 0);
	if (b->nomem) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

/*
 * ${NAME}: the environment's value, or nothing (fio substitutes an empty string); *unset (when
 * not NULL and still NULL) gets the first name that is not set, for the messages.
 */
static char *expand_env(const char *text, const struct compat_fio_env *env, char **unset)
{
	struct sbuf b = {0};
	const char *q = text, *p, *close;

	/* As fio: values are not expanded again, and an empty ${} ends the expansion. */
	while ((p = strstr(q, "${")) && (close = strchr(p, '}')) && close > p + 2) {
		char *name = strndup(p + 2, (size_t)(close - p - 2));
		const char *v = name && env->getenv ? env->getenv(env->arg, name) : NULL;

		b.nomem |= !name;
		sb_add(&b, q, (size_t)(p - q));
		if (v)
			sb_add(&b, v, strlen(v));
		if (!v && name && unset && !*unset)
			*unset = name;
		else
			free(name);
		q = close + 1;
	}
	sb_add(&b, q, strlen(q));
	return sb_done(&b);
}

/*
 * $pagesize, $mb_memory, $ncpus; when one was replaced and the value holds + - * /, fio computes
 * it (with bc, whole numbers): so does this. *why on a value that does not compute.
 */
static char *expand_keywords(const char *text, const struct compat_fio_env *env, bool *calc)
{
	const struct {
		const char *word;
		uint64_t v;
	} kw[] = {{.word = "$pagesize", .v = env->pagesize},
		  {.word = "$mb_memory", .v = env->mb_memory},
		  {.word = "$ncpus", .v = env->ncpus}};
	struct sbuf b = {0};
	const char *q = text, *p;
	char num[32];

	*calc = false;
	/* One pass: a number put in place of a keyword never makes another keyword. */
	while ((p = strchr(q, '$'))) {
		size_t i = 0, wl = 0;
		for (; i < sizeof(kw) / sizeof(kw[0]); i++)
			if (!strncmp(p, kw[i].word, wl = strlen(kw[i].word)))
				break;
		sb_add(&b, q, (size_t)(p - q));
		if (i == sizeof(kw) / sizeof(kw[0])) {
			sb_add(&b, "$", 1);
			q = p + 1;
			continue;
		}
		snprintf(num, sizeof(num), "%" PRIu64, kw[i].v);
		sb_add(&b, num, strlen(num));
		*calc = true;
		q = p + wl;
	}
	sb_add(&b, q, strlen(q));
	return sb_done(&b);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && (isspace((unsigned char)e[-1]) || iscntrl((unsigned char)e[-1])))
		*--e = '\0';
	return s;
}

/* The value after keyword expansion, computed when fio would: a new string. */
static int keyword_value(const char *val, const struct compat_fio_env *env, char **out,
			 char *err, size_t errlen, const char *where, const char *key)
{
	bool calc;
	char *v = expand_keywords(val, env, &calc);
	int64_t n;
	const char *why;

	if (!v)
		return -ENOMEM;
	if (calc && strpbrk(v, "+-*/")) {
		if (fio_arith(v, &n, &why) || n < 0) {
			err_set(err, errlen, -EINVAL, "%s: %s=%s: %s", where, key, val,
				n < 0 ? "comes out below 0" : why);
			free(v);
			return -EINVAL;
		}
		free(v);
		if (asprintf(&v, "%" PRId64, n) < 0)
			return -ENOMEM;
	}
	*out = v;
	return 0;
}

int fio_section_add(struct fio_section *s, const struct compat_fio_env *env, const char *key,
		    const char *val, const char *where, bool cli, char *err, size_t errlen)
{
	struct fio_line l = {0};
	int r = -ENOMEM;

	if (s->n == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 16;
		struct fio_line *nl = realloc(s->lines, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		s->lines = nl;
		s->cap = cap;
	}
	/* The command line comes expanded by the shell; fio expands job files only. */
	if (!(l.key = cli ? strdup(key) : expand_env(key, env, &l.unset)) ||
	    !(l.where = strdup(where)))
		goto fail;
	if (val) {
		char *e = cli ? strdup(val) : expand_env(val, env, &l.unset);
		if (!e)
			goto fail;
		r = cli ? 0 : keyword_value(e, env, &l.val, err, errlen, where, l.key);
		if (cli)
			l.val = e;
		else
			free(e);
		if (r)
			goto fail;
		r = -ENOMEM;
	}
	/* A line with a variable that is not set is shown as written: the name tells why. */
	if (asprintf(&l.typed, "%s%s%s%s", cli ? "--" : "", l.unset ? key : l.key,
		     val ? "=" : "", !val ? "" : l.unset ? val : l.val) < 0) {
		l.typed = NULL;
		goto fail;
	}
	s->lines[s->n++] = l;
	return 0;
fail:
	free(l.key);
	free(l.val);
	free(l.where);
	free(l.unset);
	return r;
}

/* fio runs only the sections --section names (and every [global]). */
bool fio_section_skipped(const struct compat_fio *f, const char *name)
{
	if (!f->nsections || !strncmp(name, "global", 6))
		return false;
	for (unsigned i = 0; i < f->nsections; i++)
		if (!strcmp(f->sections[i], name))
			return false;
	return true;
}

/* A line that is empty or a comment, as fio tells them: the first non-blank is ';' or '#'. */
static bool empty_or_comment(const char *p)
{
	for (; *p; p++) {
		if (*p == ';' || *p == '#')
			return true;
		if (!isspace((unsigned char)*p) && !iscntrl((unsigned char)*p))
			return false;
	}
	return true;
}

struct ini {
	struct compat_fio *f;
	struct fio_section *cur;    /* NULL before the first section, or in a skipped one */
	bool skipping;
	bool job_seen;              /* this file has had a job section */
	char *err;
	size_t errlen;
};

static int ini_read(struct ini *in, const char *path, unsigned depth);

/* "include FILE": as given, else beside the file that includes it. */
static int ini_include(struct ini *in, const char *path, const char *name, const char *where,
		       unsigned depth)
{
	const char *slash = strrchr(path, '/');
	char *beside = NULL;
	uint64_t size;
	bool reg;
	int r;

	if (depth >= MAX_INCLUDE_DEPTH)
		return err_set(in->err, in->errlen, -EINVAL, "%s: include %s: includes nest deeper "
			       "than %d files (does one include itself?)", where, name,
			       MAX_INCLUDE_DEPTH);
	if (name[0] != '/' && slash && in->f->env->stat &&
	    in->f->env->stat(in->f->env->arg, name, &size, &reg) == -ENOENT &&
	    asprintf(&beside, "%.*s%s", (int)(slash - path + 1), path, name) < 0)
		return -ENOMEM;
	r = ini_read(in, beside ? beside : name, depth + 1);
	free(beside);
	return r;
}

/* "[name]" (after comments are cut): a new section, or the start of a skipped one. */
static int ini_header(struct ini *in, char *p, const char *where, bool nested)
{
	size_t n = strlen(p);

	if (nested)
		return err_set(in->err, in->errlen, -EINVAL, "%s: %s: an included file cannot "
			       "start sections (fio refuses it too)", where, p);
	if (n < 3 || p[n - 1] != ']')
		return err_set(in->err, in->errlen, -EINVAL, "%s: '%s' is not a section header "
			       "([global] or [jobname])", where, p);
	p[n - 1] = '\0';
	in->skipping = fio_section_skipped(in->f, p + 1);
	if (in->skipping) {
		in->cur = NULL;
		return 0;
	}
	if (!(in->cur = fio_doc_section(in->f->doc, p + 1, where)))
		return -ENOMEM;
	/* fio separates job files by a stonewall: the first job of each file after the first. */
	if (!in->cur->global) {
		in->cur->file_stonewall = in->f->doc->nfiles > 1 && !in->job_seen;
		in->job_seen = true;
	}
	return 0;
}

/* One line of a job file, its comments cut. */
static int ini_line(struct ini *in, const char *path, char *p, const char *where,
		    unsigned depth)
{
	char *eq, *cut = strpbrk(p, ";#");

	if (cut)
		*cut = '\0';
	p = trim(p);
	if (p[0] == '[')
		return ini_header(in, p, where, depth > 0);
	if (in->skipping)
		return 0;
	if (!in->cur)
		return err_set(in->err, in->errlen, -EINVAL, "%s: '%s' comes before any section; "
			       "start with [global] or [jobname]", where, p);
	if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
		return ini_include(in, path, trim(p + 8), where, depth);
	if (++in->f->doc->nlines > FIO_MAX_LINES_READ)
		return err_set(in->err, in->errlen, -EINVAL, "%s: job files of more than %u option "
			       "lines are not read", where, FIO_MAX_LINES_READ);
	if ((eq = strchr(p, '='))) {
		*eq = '\0';
		return fio_section_add(in->cur, in->f->env, trim(p), trim(eq + 1), where, false,
				       in->err, in->errlen);
	}
	return fio_section_add(in->cur, in->f->env, p, NULL, where, false, in->err, in->errlen);
}

static int ini_read(struct ini *in, const char *path, unsigned depth)
{
	char *text = NULL, *line, *next, where[WHERE_MAX];
	unsigned lineno = 0;
	int r;

	if (!in->f->env->read)
		return err_set(in->err, in->errlen, -ENOENT, "%s: no way to read files here", path);
	if ((r = in->f->env->read(in->f->env->arg, path, &text)))
		return err_set(in->err, in->errlen, r, "%s: %s", path, strerror(-r));
	for (line = text; line && !r; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		lineno++;
		/* Every few thousand lines: a job file of millions still stops within a second. */
		if (lineno % 4096 == 0 && stop_requested()) {
			r = err_set(in->err, in->errlen, -EINTR, "%s: interrupted while reading it",
				    path);
			break;
		}
		if (empty_or_comment(line))
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		r = ini_line(in, path, line, where, depth);
	}
	free(text);
	return r;
}

int fio_ini_read(struct compat_fio *f, const char *path, char *err, size_t errlen)
{
	struct ini in = {.f = f, .err = err, .errlen = errlen};

	/* No output of the command (--trace, --output) may replace a job file. */
	if (gate_use(path, "a job file", NULL))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	f->doc->nfiles++;
	return ini_read(&in, path, 0);
}
