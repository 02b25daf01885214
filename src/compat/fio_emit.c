/*
 * What a job's translation writes to: each setting through the sink (named after the option of
 * fio it came from, or fio's default), and every item of the explanation, recorded with the
 * line it belongs to until fio.c puts them in the order of the lines.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"

static int rec_add(struct fio_emit *e, const struct fio_line *l, const char *deflt,
		   char *became, char *note)
{
	struct fio_rec *r;

	if (!l && !deflt) {          /* nothing to attach it to */
		free(became);
		free(note);
		return 0;
	}
	if (!(r = realloc(e->recs, (e->nrecs + 1) * sizeof(*r)))) {
		free(became);
		free(note);
		return -ENOMEM;
	}
	e->recs = r;
	r[e->nrecs] = (struct fio_rec){.line = l, .became = became, .note = note,
				       .option = deflt ? strdup(deflt) : NULL};
	if (deflt && !r[e->nrecs].option) {
		free(became);
		free(note);
		return -ENOMEM;
	}
	e->nrecs++;
	return 0;
}

int fio_note(struct fio_emit *e, const struct fio_line *l, const char *deflt, const char *note,
	     const char *became, ...)
{
	char *b = NULL, *n = note ? strdup(note) : NULL;
	va_list ap;
	int r;

	va_start(ap, became);
	r = vasprintf(&b, became, ap);
	va_end(ap);
	if (r < 0 || (note && !n)) {
		free(n);
		return -ENOMEM;
	}
	return rec_add(e, l, deflt, b, n);
}

int fio_emit_fail(struct fio_emit *e, const struct fio_line *l, const char *deflt,
		  const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (l && l->unset)
		return err_set(e->err, e->errlen, -EINVAL, "%s: %s: %s is not set, so the value is "
			       "'%s': %s", l->where, l->typed, l->unset, l->val ? l->val : "", why);
	if (l)
		return err_set(e->err, e->errlen, -EINVAL, "%s: %s: %s", l->where, l->typed, why);
	return err_set(e->err, e->errlen, -EINVAL, "%s (fio's default %s)", why,
		       deflt ? deflt : "");
}

/* The options applied so far, as they would be typed after 'iorate run'. */
static int equivalent_add(struct fio_emit *e, const char *name, const char *value)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s--%s%s%s", e->equivalent ? e->equivalent : "",
		     e->equivalent ? " " : "", name, value ? " " : "", value ? value : "") < 0)
		return -ENOMEM;
	free(e->equivalent);
	e->equivalent = n;
	return 0;
}

int fio_set(struct fio_emit *e, const struct fio_line *l, const char *deflt, const char *name,
	    const char *value, const char *note, ...)
{
	char why[512] = "", *text = NULL, *became = NULL;
	struct compat_setting s = {.name = name, .value = value, .flag = l ? l->typed : deflt,
				   .is_default = !l, .job = e->j};
	va_list ap;
	int r;

	if (note) {
		va_start(ap, note);
		r = vasprintf(&text, note, ap);
		va_end(ap);
		if (r < 0)
			return -ENOMEM;
		s.note = text;
	}
	if ((r = e->sink->set(e->sink->arg, &s, why, sizeof(why)))) {
		free(text);
		if (r == -ENOMEM)
			return r;
		return fio_emit_fail(e, l, deflt, "%s", why[0] ? why : strerror(-r));
	}
	compat_spell_record(name, s.flag);
	if (asprintf(&became, "--%s%s%s", name, value ? " " : "", value ? value : "") < 0) {
		free(text);
		return -ENOMEM;
	}
	if ((r = equivalent_add(e, name, value))) {
		free(text);
		free(became);
		return r;
	}
	return rec_add(e, l, deflt, became, text);
}

uint64_t fio_min_bs(const struct fio_opts *o)
{
	uint64_t m = UINT64_MAX;

	for (int d = 0; d < 2; d++) {
		if ((d == FIO_READ && o->rw == 1) || (d == FIO_WRITE && o->rw == 0))
			continue;
		/* a trimming job's trims in place of its reads */
		int s = d == FIO_READ && o->trim == 1 ? FIO_TRIM : d;
		uint64_t b = o->bsmax[s] ? o->bsmin[s] : o->bs[s];
		m = b < m ? b : m;
	}
	if (o->bssplit) {
		char v[2048], note[1100], *p = v;
		const char *why;
		if (!fio_bssplit_convert(o->bssplit, o->kb_base, v, sizeof(v), note, sizeof(note),
					 &why))
			for (; *p; p += strcspn(p, ":,"), p += *p != '\0') {
				uint64_t b = strtoull(p, NULL, 10);
				m = b && b < m ? b : m;
			}
	}
	return m == UINT64_MAX ? 4096 : m;
}
