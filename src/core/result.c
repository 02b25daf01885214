#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	job_init(&r->job);
	dir_stats_init(&r->read);
	dir_stats_init(&r->write);
}

void result_release(struct result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->ntargets; i++)
		free(r->targets[i].path);
	free(r->targets);
	free(r->series);
	for (unsigned i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->ranks);
	job_release(&r->job);
	r->ranks = NULL;
	r->nranks = 0;
	r->targets = NULL;
	r->ntargets = 0;
	r->series = NULL;
	r->nseries = 0;
	r->nnotes = 0;
}

/*
 * Notes are advice attached to a result; running out of memory or of slots loses the advice but
 * not the measurement, so this returns nothing.
 */
void result_add_note(struct result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->nnotes >= RESULT_MAX_NOTES)
		return;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	r->notes[r->nnotes++] = s;
}

void result_dir_total(const struct dir_stats *rd, const struct dir_stats *wr, struct dir_stats *t)
{
	dir_stats_init(t);
	dir_stats_merge(t, rd);
	dir_stats_merge(t, wr);
}
