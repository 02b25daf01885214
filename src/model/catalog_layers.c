/*
 * The catalog's layers (docs/catalog.md, "Layers"): the built-in files, then those installed
 * with iorate, then the user's. A file of a higher layer is read after the lower ones, and each
 * of its entries takes the place of the entry of a lower layer with the same catalog and name,
 * in that entry's position: lookups keep their order (current catalogs first), and an edited
 * installed file changes what every command sees. Figures that differ are kept as conflicts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "model/catalog.h"
#include "model/catalog_int.h"
#include "paths.h"
#include "util/err.h"
#include "util/xdg.h"

#ifndef IORATE_CATALOG_DIR_DEFAULT
#define IORATE_CATALOG_DIR_DEFAULT "/usr/local/share/iorate/catalog"
#endif

const char *catalog_installed_dir(char *buf, size_t len)
{
	const char *env = getenv("IORATE_CATALOG_DIR");
	int n = snprintf(buf, len, "%s", env && *env ? env : IORATE_CATALOG_DIR_DEFAULT);

	return n > 0 && (size_t)n < len ? buf : NULL;
}

const char *catalog_user_dir(char *buf, size_t len)
{
	return xdg_path(XDG_DATA, "catalog", buf, len) ? NULL : buf;
}

/*
 * One kind of entry, seen through offsets so that one overlay serves them all: its array in
 * the catalog, and where an entry keeps its catalog, name, JSON and layer.
 */
struct kind {
	const char *name;
	size_t arr, count, size, catalog, ename, json, layer, file;
};

#define KIND(word, a, t) {.name = word, .arr = offsetof(struct catalog, a), \
	.count = offsetof(struct catalog, n##a), .size = sizeof(struct t), \
	.catalog = offsetof(struct t, catalog), .ename = offsetof(struct t, name), \
	.json = offsetof(struct t, json), .layer = offsetof(struct t, layer), \
	.file = offsetof(struct t, file)}

static const struct kind kinds[] = {
	KIND("vm", vms, cat_vm), KIND("disk", disks, cat_disk), KIND("price", prices, cat_price),
	KIND("account", accounts, cat_account), KIND("series", series, cat_series),
};

#define FIELD_OF(e, off, type) (*(type *)((char *)(e) + (off)))

static char *entry_at(const struct catalog *c, const struct kind *k, size_t i)
{
	return FIELD_OF(c, k->arr, char *) + i * k->size;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcasecmp(a, b));
}

/* Whether b replaces a: the same catalog and name (a price: and where, in what, which tier). */
static bool same_entry(const struct kind *k, const char *a, const char *b)
{
	const char *na = FIELD_OF(a, k->ename, const char *), *nb = FIELD_OF(b, k->ename, const char *);

	if (!catalog_name_eq(na, nb))
		return false;
	if (k->arr == offsetof(struct catalog, prices)) {
		const struct cat_price *p = (const void *)a, *q = (const void *)b;

		return same_str(p->catalog, q->catalog) && !strcmp(p->kind, q->kind) &&
		       same_str(p->region, q->region) && same_str(p->currency, q->currency) &&
		       same_str(p->tier, q->tier) && same_str(p->redundancy, q->redundancy);
	}
	na = FIELD_OF(a, k->catalog, const char *), nb = FIELD_OF(b, k->catalog, const char *);
	return !strcmp(na, nb);
}

/* Words that say where a figure comes from, not what it is: they may differ freely. */
static bool provenance(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "source") || !strcmp(key, "date") || !strcmp(key, "note") ||
	       (n > 7 && !strcmp(key + n - 7, "_source"));
}

static bool same_value(json_t *a, json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal(a, b);
}

static int add_conflict(struct catalog *c, const struct cat_conflict *x)
{
	if (catalog_grow((void **)&c->conflicts, c->nconflicts, sizeof(*x)))
		return -ENOMEM;
	c->conflicts[c->nconflicts++] = *x;
	return 0;
}

/* Every field the two entries give otherwise, or that one gives and the other does not. */
static int compare(struct catalog *c, const struct kind *k, const char *was, const char *is)
{
	json_t *a = (json_t *)FIELD_OF(was, k->json, const void *);
	json_t *b = (json_t *)FIELD_OF(is, k->json, const void *), *va, *vb;
	struct cat_conflict x = {.layer = FIELD_OF(is, k->layer, enum cat_layer),
		.below = FIELD_OF(was, k->layer, enum cat_layer), .file = FIELD_OF(is, k->file,
		const char *), .catalog = FIELD_OF(is, k->catalog, const char *), .kind = k->name,
		.name = FIELD_OF(is, k->ename, const char *), .entry = b};
	const char *key;

	json_object_foreach(b, key, vb)
		if (!provenance(key) && (!(va = json_object_get(a, key)) || !same_value(va, vb))) {
			x.field = key, x.is = vb, x.was = va;
			if (add_conflict(c, &x))
				return -ENOMEM;
		}
	json_object_foreach(a, key, va)
		if (!provenance(key) && !json_object_get(b, key)) {
			x.field = key, x.is = NULL, x.was = va;
			if (add_conflict(c, &x))
				return -ENOMEM;
		}
	return 0;
}

/*
 * The entries of one kind appended from `from` on: each that has a counterpart of a lower
 * layer takes its place (a series frees the rows it replaces), the others stay, in order.
 */
static int overlay_kind(struct catalog *c, const struct kind *k, size_t from)
{
	size_t *n = &FIELD_OF(c, k->count, size_t), w = from;
	int ret;

	for (size_t j = from; j < *n; j++) {
		char *e = entry_at(c, k, j), *low = NULL;
		enum cat_layer layer = FIELD_OF(e, k->layer, enum cat_layer);

		for (size_t i = 0; i < from && !low; i++)
			if (FIELD_OF(entry_at(c, k, i), k->layer, enum cat_layer) < layer &&
			    same_entry(k, entry_at(c, k, i), e))
				low = entry_at(c, k, i);
		if (low && (ret = compare(c, k, low, e))) {
			/* Out of memory: the array is kept whole, each entry once, nothing freed twice. */
			memmove(entry_at(c, k, w), e, (*n - j) * k->size);
			*n = w + (*n - j);
			return ret;
		}
		if (low && k->arr == offsetof(struct catalog, series))
			free(((struct cat_series *)(void *)low)->rows);
		memmove(low ? low : entry_at(c, k, w++), e, k->size);
	}
	*n = w;
	return 0;
}

static bool json_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && len > 5 && !strcmp(n + len - 5, ".json");
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static void counts(const struct catalog *c, size_t *from)
{
	for (size_t k = 0; k < NKINDS; k++)
		from[k] = FIELD_OF(c, kinds[k].count, size_t);
}

/* The entries of every kind appended since from[], laid over the lower layers. */
static int overlay(struct catalog *c, const size_t *from)
{
	int ret = 0;

	for (size_t k = 0; !ret && k < NKINDS; k++)
		ret = overlay_kind(c, &kinds[k], from[k]);
	return ret;
}

/* One file of a directory: loaded, then laid over the lower layers when `over`. */
static int load_one(struct catalog *c, const char *dir, const char *name, bool over,
		    char *err, size_t errlen)
{
	size_t from[NKINDS];
	char *path = NULL;
	int ret;

	counts(c, from);
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	ret = catalog_load_file(c, path, err, errlen);
	free(path);
	return ret || !over ? ret : overlay(c, from);
}

int catalog_load_layer_text(struct catalog *c, const char *name, const char *text, char *err,
			    size_t errlen)
{
	size_t from[NKINDS];
	int ret;

	counts(c, from);
	if ((ret = catalog_load_text(c, name, text, err, errlen)))
		return ret;
	if ((ret = overlay(c, from)) == -ENOMEM)
		return err_set(err, errlen, ret, "out of memory");
	return ret;
}

enum pick { PRICES, NOT_PRICES, ALL };

/* The *.json files of dir (those whose names start with "prices-", the others, or all). */
static int load_dir(struct catalog *c, const char *dir, enum pick pick, bool overlay,
		    char *err, size_t errlen)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, by_name), ret = 0;

	if (n < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return err_set(err, errlen, -errno, "%s: %s", dir, strerror(errno));
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		bool prices = !strncmp(name, "prices-", 7);

		if (!ret && json_name(name) && (pick == ALL || prices == (pick == PRICES)))
			ret = load_one(c, dir, name, overlay, err, errlen);
		free(names[i]);
	}
	free(names);
	return ret;
}

int catalog_open_layers(struct catalog *c, const struct catalog_layers *l, char *err,
			size_t errlen)
{
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->layer = CAT_FILE;
	for (unsigned i = 0; i < l->nfiles && !ret; i++)
		ret = catalog_load_file(c, l->files[i], err, errlen);
	/* Downloaded prices come before the built-in ones: they are the current ones. */
	c->layer = CAT_USER;
	if (!ret && l->user)
		ret = load_dir(c, l->user, PRICES, false, err, errlen);
	c->layer = CAT_BUILTIN;
	if (!ret)
		ret = catalog_load_builtin_files(c, err, errlen);
	c->layer = CAT_INSTALLED;
	if (!ret && l->installed)
		ret = load_dir(c, l->installed, ALL, true, err, errlen);
	c->layer = CAT_USER;
	if (!ret && l->user)
		ret = load_dir(c, l->user, NOT_PRICES, true, err, errlen);
	if (ret == -ENOMEM)
		return err_set(err, errlen, ret, "out of memory");
	if (!ret)
		catalog_finish(c);
	return ret;
}

int catalog_open_default(struct catalog *c, char *err, size_t errlen)
{
	char inst[4096], user[4096];
	struct catalog_layers l = {.installed = catalog_installed_dir(inst, sizeof(inst)),
				   .user = catalog_user_dir(user, sizeof(user))};

	return catalog_open_layers(c, &l, err, errlen);
}
