#include "engine/engine.h"

#include <string.h>

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
