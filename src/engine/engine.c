#include "engine/engine.h"

#include <string.h>

#include "util/fio_names.h"
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

const char *engine_canonical(const char *name)
{
	const struct fio_engine_name *f = fio_engine_lookup(name);
	const struct engine_ops *e;

	/* fio's name of an engine that makes the same calls as one of ours. */
	if (f && !f->differs)
		name = f->ours;
	e = engine_find(name);

	return e ? e->name : NULL;
}

void engine_suggest(struct suggest *s)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		suggest_add(s, engines[i]->name, NULL);
	for (size_t i = 0; i < fio_nengine_names; i++)
		if (!fio_engine_names[i].differs &&
		    strcmp(fio_engine_names[i].fio, fio_engine_names[i].ours) &&
		    engine_find(fio_engine_names[i].ours))
			suggest_add(s, fio_engine_names[i].fio, NULL);
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
