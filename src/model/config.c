/* From the names a user types to a checked model configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/config.h"
#include "util/err.h"
#include "util/field.h"

int model_catalog_open(struct catalog *c, char *const *files, unsigned nfiles, char *err,
		       size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < nfiles; i++)
		if ((ret = catalog_load_file(c, files[i], err, errlen)))
			return ret;
	return catalog_load_builtin(c, err, errlen);
}

int model_config_resolve(const struct catalog *c, const char *vm, const char *catalog,
			 char *const *specs, unsigned nspecs, enum model_cache cache,
			 struct model_config *m, char *err, size_t errlen)
{
	char sub[200];
	int ret;

	memset(m, 0, sizeof(*m));
	if (catalog && !catalog_has(c, catalog))
		return err_set(err, errlen, -ENOENT, FIELD("provider") ": no catalog '%s' (see "
			       "'iorate catalog list')", catalog);
	m->vm = catalog_find_vm(c, catalog, vm);
	if (!m->vm) {
		catalog_suggest(c, "vm", catalog, vm, sub, sizeof(sub));
		return err_set(err, errlen, -ENOENT, FIELD("vm") ": no VM size '%s'%s%s%s%s%s", vm,
			       catalog ? " in catalog " : "", catalog ? catalog : "",
			       *sub ? "; did you mean " : " (see 'iorate catalog list')", sub,
			       *sub ? "?" : "");
	}
	if (nspecs > MODEL_MAX_GROUPS)
		return err_set(err, errlen, -EINVAL, FIELD("disk") ": at most %d groups of disks",
			       MODEL_MAX_GROUPS);
	for (unsigned i = 0; i < nspecs; i++) {
		if ((ret = model_parse_disk(c, m->vm, specs[i], &m->disks[i], sub, sizeof(sub))))
			return err_set(err, errlen, ret, FIELD("disk") " %s", sub);
		m->ngroups++;
	}
	m->cache = cache;
	return model_check(c, m, err, errlen);
}
