/*
 * The bottom of the fio translation (fio.h): a refusal of a job file's line or a command line's
 * option, recorded once however often it recurs, so every file of the family can refuse.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "util/err.h"

/* FNV-1a: a refusal is looked up in a hash, so naming each once stays linear. */
static uint64_t str_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of line in f->refused_set: its index + 1 there, or 0 where it would go. */
static unsigned *refused_slot(const struct compat_fio *f, const char *line)
{
	unsigned mask = f->refused_setcap - 1, *slot;

	for (uint64_t h = str_hash(line);; h++) {
		slot = &f->refused_set[h & mask];
		if (!*slot || !strcmp(f->refused[*slot - 1], line))
			return slot;
	}
}

/* Room for one more refusal: the list doubles, the hash stays at most half full. */
static int refused_grow(struct compat_fio *f)
{
	if (f->nrefused == f->refused_cap) {
		unsigned cap = f->refused_cap ? f->refused_cap * 2 : 16;
		char **n = realloc(f->refused, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->refused = n;
		f->refused_cap = cap;
	}
	if (2 * (f->nrefused + 1) > f->refused_setcap) {
		unsigned cap = f->refused_setcap ? f->refused_setcap * 2 : 64;
		unsigned *old = f->refused_set;
		if (!(f->refused_set = calloc(cap, sizeof(*f->refused_set)))) {
			f->refused_set = old;
			return -ENOMEM;
		}
		free(old);
		f->refused_setcap = cap;
		for (unsigned i = 0; i < f->nrefused; i++)
			*refused_slot(f, f->refused[i]) = i + 1;
	}
	return 0;
}

int fio_refuse(struct compat_fio *f, const struct fio_line *l, bool engine, const char *fmt, ...)
{
	char *why = NULL, *line = NULL;
	unsigned *slot;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&why, fmt, ap);
	va_end(ap);
	/* An unset ${NAME} is the likely reason: named first (fio reads it as empty). */
	if (r >= 0 && l->unset)
		r = l->val && l->val[0] ? asprintf(&line, "%s: %s: %s is not set, so the value is "
						   "'%s': %s", l->where, l->typed, l->unset,
						   l->val, why)
					: asprintf(&line, "%s: %s: %s is not set", l->where,
						   l->typed, l->unset);
	else if (r >= 0)
		r = asprintf(&line, "%s: %s: %s", l->where, l->typed, why);
	if (r < 0) {
		free(why);
		return -ENOMEM;
	}
	free(why);
	if (refused_grow(f)) {
		free(line);
		return -ENOMEM;
	}
	/* A [global] line is read once per job: named once. */
	if (*(slot = refused_slot(f, line))) {
		free(line);
		return 0;
	}
	f->refused[f->nrefused++] = line;
	*slot = f->nrefused;
	f->refused_engines += engine;
	return 0;
}
