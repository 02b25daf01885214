#include "engine/engine.h"

#include <string.h>

#include "util/suggest.h"

/* The engines built into this binary; the first that probes is the default (see runner). */
static const struct engine_ops *const engines[] = {
#ifdef HAVE_LIBURING
	&engine_uring,
#endif
	&engine_sync,
#ifdef HAVE_LIBAIO
	&engine_aio,
#endif
	&engine_posixaio,
	&engine_pvsync,
	&engine_pvsync2,
	&engine_null,
	&engine_fault,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

/* fio's names for the engines that make the same system calls as one of iorate's. */
static const struct {
	const char *fio, *ours;
} aliases[] = {
	{.fio = "io_uring", .ours = "uring"}, {.fio = "libaio", .ours = "aio"},
	{.fio = "psync", .ours = "sync"},
};

const char *engine_canonical(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].fio, name))
			name = aliases[i].ours;
	const struct engine_ops *e = engine_find(name);

	return e ? e->name : NULL;
}

void engine_suggest(struct suggest *s)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		suggest_add(s, engines[i]->name, NULL);
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (engine_find(aliases[i].ours))
			suggest_add(s, aliases[i].fio, NULL);
}

const char *engine_names(void)
{
	static char buf[128];

	if (!buf[0])
		for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
			if (i)
				strcat(buf, ", ");
			strcat(buf, engines[i]->name);
		}
	return buf;
}
