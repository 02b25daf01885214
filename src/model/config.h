#ifndef IORATE_MODEL_CONFIG_H
#define IORATE_MODEL_CONFIG_H
#include <stddef.h>

#include "model/catalog.h"
#include "model/predict.h"

/*
 * Loads --catalog files (first, so their entries win) and then the built-in catalogs, without
 * the installed and user layers (catalog_open_layers() adds them).
 */
int model_catalog_open(struct catalog *c, char *const *files, unsigned nfiles, char *err,
		       size_t errlen);

/*
 * Resolves --vm NAME (optionally restricted to one catalog) and each --disk SPEC into a checked
 * configuration. -ENOENT for unknown names (err suggests close ones), -EINVAL for impossible
 * combinations; err then reads "<option>: <why>".
 */
int model_config_resolve(const struct catalog *c, const char *vm, const char *catalog,
			 char *const *specs, unsigned nspecs, enum model_cache cache,
			 struct model_config *m, char *err, size_t errlen);

#endif
