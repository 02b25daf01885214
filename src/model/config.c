/* From the names a user types to a checked model configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/config.h"
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
	if (catalog && !catalog_has(c, catalog)) {
		snprintf(err, errlen, FIELD("provider") ": no catalog '%s' (see 'iorate catalog list')",
			 catalog);
		return -ENOENT;
	}
	m->vm = catalog_find_vm(c, catalog, vm);
	if (!m->vm) {
		catalog_suggest(c, "vm", catalog, vm, sub, sizeof(sub));
		snprintf(err, errlen, FIELD("vm") ": no VM size '%s'%s%s%s%s", vm,
			 catalog ? " in catalog " : "", catalog ? catalog : "",
			 *sub ? "; did you mean " : " (see 'iorate catalog list')", sub);
		if (*sub)
			strncat(err, "?", errlen - strlen(err) - 1);
		return -ENOENT;
	}
	if (nspecs > MODEL_MAX_GROUPS) {
		snprintf(err, errlen, FIELD("disk") ": at most %d groups of disks", MODEL_MAX_GROUPS);
		return -EINVAL;
	}
	for (unsigned i = 0; i < nspecs; i++) {
		if ((ret = model_parse_disk(c, m->vm, specs[i], &m->disks[i], sub, sizeof(sub)))) {
			snprintf(err, errlen, FIELD("disk") " %s", sub);
			return ret;
		}
		m->ngroups++;
	}
	m->cache = cache;
	return model_check(c, m, err, errlen);
}
