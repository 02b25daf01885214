/*
 * Catalog loading: every entry is read through a table of its fields, so an unknown or mistyped
 * field is refused with its file, entry and name instead of being silently ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/catalog.h"
#include "model/embedded.h"

#define MIB_MB 1.048576 /* 1 MiB/s in MB/s */

enum ftype { F_STR, F_NUM, F_MB, F_UINT, F_BOOL, F_ARR, F_SKIP };

struct field {
	const char *key;
	enum ftype type;
	size_t off;
};

#define FD(t, f, ty) {#f, ty, offsetof(struct t, f)}
static const struct field disk_fields[] = {
	FD(cat_disk, name, F_STR), FD(cat_disk, family, F_STR), FD(cat_disk, account, F_STR),
	FD(cat_disk, source, F_STR), FD(cat_disk, date, F_STR), FD(cat_disk, note, F_STR),
	FD(cat_disk, latency_source, F_STR), FD(cat_disk, aliases, F_ARR),
	FD(cat_disk, premium, F_BOOL), FD(cat_disk, cache, F_BOOL), FD(cat_disk, rule, F_BOOL),
	FD(cat_disk, provisioned, F_BOOL), FD(cat_disk, gib, F_NUM), FD(cat_disk, min_gib, F_NUM),
	FD(cat_disk, max_gib, F_NUM), FD(cat_disk, iops, F_NUM), FD(cat_disk, iops_per_gib, F_NUM),
	FD(cat_disk, write_iops_per_gib, F_NUM), FD(cat_disk, iops_free_gib, F_NUM),
	FD(cat_disk, iops_min, F_NUM), FD(cat_disk, iops_max, F_NUM), FD(cat_disk, mbps, F_MB),
	FD(cat_disk, mbps_per_gib, F_MB), FD(cat_disk, mbps_per_iops, F_MB),
	FD(cat_disk, mbps_min, F_MB), FD(cat_disk, mbps_max, F_MB),
	FD(cat_disk, burst_iops, F_NUM), FD(cat_disk, burst_mbps, F_MB),
	FD(cat_disk, burst_seconds, F_NUM), FD(cat_disk, burst_bucket_ios, F_NUM),
	FD(cat_disk, burst_mbps_per_gib, F_MB), FD(cat_disk, burst_mbps_max, F_MB),
	FD(cat_disk, burst_bucket_mb_per_gib, F_MB), FD(cat_disk, ondemand_iops, F_NUM),
	FD(cat_disk, ondemand_mbps, F_MB), FD(cat_disk, io_unit_kib, F_NUM),
	FD(cat_disk, latency_read_ms, F_NUM), FD(cat_disk, latency_write_ms, F_NUM),
	FD(cat_disk, latency_cached_ms, F_NUM), {"mbps_steps", F_SKIP, 0}, {"units", F_SKIP, 0},
	{NULL, 0, 0},
};

static const struct field vm_fields[] = {
	FD(cat_vm, name, F_STR), FD(cat_vm, source, F_STR), FD(cat_vm, date, F_STR),
	FD(cat_vm, note, F_STR), FD(cat_vm, uncached_source, F_STR),
	FD(cat_vm, local_latency_source, F_STR), FD(cat_vm, aliases, F_ARR),
	FD(cat_vm, vcpus, F_UINT), FD(cat_vm, max_disks, F_UINT), FD(cat_vm, mem_gib, F_NUM),
	FD(cat_vm, premium, F_BOOL), FD(cat_vm, cache, F_BOOL), FD(cat_vm, local_shares_cache, F_BOOL),
	FD(cat_vm, uncached_iops, F_NUM), FD(cat_vm, uncached_mbps, F_MB),
	FD(cat_vm, burst_iops, F_NUM), FD(cat_vm, burst_mbps, F_MB), FD(cat_vm, burst_seconds, F_NUM),
	FD(cat_vm, cached_iops, F_NUM), FD(cat_vm, cached_mbps, F_MB), FD(cat_vm, cache_gib, F_NUM),
	FD(cat_vm, local_iops, F_NUM), FD(cat_vm, local_mbps, F_MB), FD(cat_vm, local_gib, F_NUM),
	FD(cat_vm, local_latency_ms, F_NUM), FD(cat_vm, io_unit_kib, F_NUM),
	{"caps_by_family", F_SKIP, 0}, {"units", F_SKIP, 0}, {NULL, 0, 0},
};

static const struct field fcaps_fields[] = {
	FD(cat_family_caps, family, F_STR), FD(cat_family_caps, iops, F_NUM),
	FD(cat_family_caps, write_iops, F_NUM), FD(cat_family_caps, mbps, F_MB),
	FD(cat_family_caps, write_mbps, F_MB), {"units", F_SKIP, 0}, {NULL, 0, 0},
};

static const struct field account_fields[] = {
	FD(cat_account, name, F_STR), FD(cat_account, source, F_STR), FD(cat_account, date, F_STR),
	FD(cat_account, note, F_STR), FD(cat_account, iops, F_NUM), FD(cat_account, mbps, F_MB),
	{"units", F_SKIP, 0}, {NULL, 0, 0},
};

static const struct field price_fields[] = {
	FD(cat_price, catalog, F_STR), FD(cat_price, kind, F_STR), FD(cat_price, name, F_STR),
	FD(cat_price, tier, F_STR), FD(cat_price, redundancy, F_STR), FD(cat_price, region, F_STR),
	FD(cat_price, currency, F_STR), FD(cat_price, source, F_STR), FD(cat_price, date, F_STR),
	FD(cat_price, note, F_STR), FD(cat_price, per_hour, F_NUM), FD(cat_price, per_month, F_NUM),
	FD(cat_price, per_gib_month, F_NUM), FD(cat_price, per_iops_month, F_NUM),
	FD(cat_price, per_mbps_month, F_NUM), FD(cat_price, per_10k_transactions, F_NUM),
	FD(cat_price, per_gb_month, F_NUM), FD(cat_price, write_per_10k, F_NUM),
	FD(cat_price, read_per_10k, F_NUM), {NULL, 0, 0},
};

/*
 * Reads the fields of one entry into dst. `what` names the entry in messages, e.g.
 * "vms[3] 'DS2'". MB/s fields are scaled when the entry says its units are MiB/s; *scalep (may
 * be NULL) gets that factor, for the F_SKIP fields the caller reads itself.
 */
static int read_fields(json_t *obj, const struct field *tab, void *dst, const char *file,
		       const char *what, double *scalep, char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	double scale = 1;
	json_t *u = json_object_get(obj, "units");

	if (u) {
		if (json_is_string(u) && !strcmp(json_string_value(u), "MiB/s"))
			scale = MIB_MB;
		else if (!json_is_string(u) || strcmp(json_string_value(u), "MB/s")) {
			snprintf(err, errlen, "%s: %s: field 'units': must be \"MB/s\" or \"MiB/s\"",
				 file, what);
			return -EINVAL;
		}
	}
	if (scalep)
		*scalep = scale;
	json_object_foreach(obj, key, v) {
		const struct field *f;
		char *p = (char *)dst;

		for (f = tab; f->key && strcmp(f->key, key); f++)
			;
		if (!f->key) {
			snprintf(err, errlen, "%s: %s: unknown field '%s'", file, what, key);
			return -EINVAL;
		}
		p += f->off;
		switch (f->type) {
		case F_STR:
			if (!json_is_string(v))
				goto type;
			*(const char **)p = json_string_value(v);
			break;
		case F_NUM:
		case F_MB:
			if (!json_is_number(v) || json_number_value(v) < 0)
				goto type;
			*(double *)p = json_number_value(v) * (f->type == F_MB ? scale : 1);
			break;
		case F_UINT:
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) > 1000000)
				goto type;
			*(unsigned *)p = (unsigned)json_integer_value(v);
			break;
		case F_BOOL:
			if (!json_is_boolean(v))
				goto type;
			*(bool *)p = json_is_true(v);
			break;
		case F_ARR:
			if (!json_is_array(v))
				goto type;
			*(void **)p = v;
			break;
		case F_SKIP:
			break;
		}
		continue;
type:
		snprintf(err, errlen, "%s: %s: field '%s': expected %s", file, what, key,
			 f->type == F_STR ? "a string" : f->type == F_BOOL ? "true or false" :
			 f->type == F_ARR ? "an array of names" : "a non-negative number");
		return -EINVAL;
	}
	return 0;
}

static int need(const char *val, const char *field, const char *file, const char *what,
		char *err, size_t errlen)
{
	if (val && *val)
		return 0;
	snprintf(err, errlen, "%s: %s: missing field '%s' (every entry carries name, source and "
		 "date)", file, what, field);
	return -EINVAL;
}

static int grow(void **arr, size_t n, size_t size)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (!p)
		return -ENOMEM;
	*arr = p;
	memset((char *)p + n * size, 0, size);
	return 0;
}

static void entry_name(char *what, size_t len, const char *list, size_t i, json_t *obj)
{
	json_t *n = json_object_get(obj, "name");

	snprintf(what, len, "%s[%zu]%s%s%s", list, i, json_is_string(n) ? " '" : "",
		 json_is_string(n) ? json_string_value(n) : "", json_is_string(n) ? "'" : "");
}

static int load_disk(struct catalog *c, json_t *o, const char *cat, const char *prov,
		     const char *file, size_t i, char *err, size_t errlen)
{
	char what[96];
	struct cat_disk *d;
	json_t *steps, *s;
	double scale;
	size_t k;
	int ret;

	entry_name(what, sizeof(what), "disks", i, o);
	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: %s: expected an object", file, what);
		return -EINVAL;
	}
	if ((ret = grow((void **)&c->disks, c->ndisks, sizeof(*d))))
		return ret;
	d = &c->disks[c->ndisks];
	d->catalog = cat, d->provider = prov, d->file = file;
	if ((ret = read_fields(o, disk_fields, d, file, what, &scale, err, errlen)) ||
	    (ret = need(d->name, "name", file, what, err, errlen)) ||
	    (ret = need(d->source, "source", file, what, err, errlen)) ||
	    (ret = need(d->date, "date", file, what, err, errlen)))
		return ret;
	steps = json_object_get(o, "mbps_steps");
	json_array_foreach(steps, k, s) {
		if (k >= 8 || !json_is_array(s) || json_array_size(s) != 2 ||
		    !json_is_number(json_array_get(s, 0)) || !json_is_number(json_array_get(s, 1))) {
			snprintf(err, errlen, "%s: %s: field 'mbps_steps': expected up to 8 pairs "
				 "[GiB, MB/s]", file, what);
			return -EINVAL;
		}
		d->mbps_steps[k][0] = json_number_value(json_array_get(s, 0));
		d->mbps_steps[k][1] = json_number_value(json_array_get(s, 1)) * scale;
		d->nsteps = (unsigned)k + 1;
	}
	if (!d->family)
		d->family = d->name;
	if (!d->rule && d->gib <= 0) {
		snprintf(err, errlen, "%s: %s: field 'gib': a fixed-size disk needs its size "
			 "(or \"rule\": true for per-GiB rules)", file, what);
		return -EINVAL;
	}
	c->ndisks++;
	return 0;
}

static int load_vm(struct catalog *c, json_t *o, const char *cat, const char *prov,
		   const char *file, size_t i, char *err, size_t errlen)
{
	char what[96], sub[128];
	struct cat_vm *v;
	json_t *fc, *e;
	size_t k;
	int ret;

	entry_name(what, sizeof(what), "vms", i, o);
	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: %s: expected an object", file, what);
		return -EINVAL;
	}
	if ((ret = grow((void **)&c->vms, c->nvms, sizeof(*v))))
		return ret;
	v = &c->vms[c->nvms];
	v->catalog = cat, v->provider = prov, v->file = file;
	if ((ret = read_fields(o, vm_fields, v, file, what, NULL, err, errlen)) ||
	    (ret = need(v->name, "name", file, what, err, errlen)) ||
	    (ret = need(v->source, "source", file, what, err, errlen)) ||
	    (ret = need(v->date, "date", file, what, err, errlen)))
		return ret;
	fc = json_object_get(o, "caps_by_family");
	json_array_foreach(fc, k, e) {
		snprintf(sub, sizeof(sub), "%s caps_by_family[%zu]", what, k);
		if (k >= 8 || !json_is_object(e)) {
			snprintf(err, errlen, "%s: %s: expected an object (at most 8)", file, sub);
			return -EINVAL;
		}
		if ((ret = read_fields(e, fcaps_fields, &v->fcaps[k], file, sub, NULL, err,
				       errlen)) ||
		    (ret = need(v->fcaps[k].family, "family", file, sub, err, errlen)))
			return ret;
		v->nfcaps = (unsigned)k + 1;
	}
	c->nvms++;
	return 0;
}

static int load_simple(struct catalog *c, json_t *o, const char *list, bool price,
		       const char *cat, const char *file, size_t i, char *err, size_t errlen)
{
	char what[96];
	int ret;

	entry_name(what, sizeof(what), list, i, o);
	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: %s: expected an object", file, what);
		return -EINVAL;
	}
	if (price) {
		struct cat_price *p;

		if ((ret = grow((void **)&c->prices, c->nprices, sizeof(*p))))
			return ret;
		p = &c->prices[c->nprices];
		if ((ret = read_fields(o, price_fields, p, file, what, NULL, err, errlen)) ||
		    (ret = need(p->kind, "kind", file, what, err, errlen)) ||
		    (ret = need(p->name, "name", file, what, err, errlen)) ||
		    (ret = need(p->source, "source", file, what, err, errlen)) ||
		    (ret = need(p->date, "date", file, what, err, errlen)))
			return ret;
		c->nprices++;
		return 0;
	}
	struct cat_account *a;

	if ((ret = grow((void **)&c->accounts, c->naccounts, sizeof(*a))))
		return ret;
	a = &c->accounts[c->naccounts];
	a->catalog = cat;
	if ((ret = read_fields(o, account_fields, a, file, what, NULL, err, errlen)) ||
	    (ret = need(a->name, "name", file, what, err, errlen)) ||
	    (ret = need(a->source, "source", file, what, err, errlen)) ||
	    (ret = need(a->date, "date", file, what, err, errlen)))
		return ret;
	c->naccounts++;
	return 0;
}

static int load_json(struct catalog *c, json_t *root, const char *file, char *err, size_t errlen)
{
	static const char *const top[] = {"catalog", "provider", "title", "disks", "vms",
					  "accounts", "prices", NULL};
	const char *key, *cat, *prov;
	json_t *v, *e;
	size_t i;
	int ret;

	if (!json_is_object(root)) {
		snprintf(err, errlen, "%s: expected a JSON object", file);
		return -EINVAL;
	}
	json_object_foreach(root, key, v) {
		for (i = 0; top[i] && strcmp(top[i], key); i++)
			;
		if (!top[i]) {
			snprintf(err, errlen, "%s: unknown top-level field '%s' (expected catalog, "
				 "provider, title, disks, vms, accounts, prices)", file, key);
			return -EINVAL;
		}
		if (i >= 3 && !json_is_array(v)) {
			snprintf(err, errlen, "%s: field '%s': expected an array", file, key);
			return -EINVAL;
		}
	}
	cat = json_string_value(json_object_get(root, "catalog"));
	prov = json_string_value(json_object_get(root, "provider"));
	if (!cat || !*cat) {
		snprintf(err, errlen, "%s: missing field 'catalog' (the catalog's name, e.g. "
			 "\"azure-2015\")", file);
		return -EINVAL;
	}
	if (!prov)
		prov = cat;
	json_array_foreach(json_object_get(root, "disks"), i, e)
		if ((ret = load_disk(c, e, cat, prov, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "vms"), i, e)
		if ((ret = load_vm(c, e, cat, prov, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "accounts"), i, e)
		if ((ret = load_simple(c, e, "accounts", false, cat, file, i, err, errlen)))
			return ret;
	json_array_foreach(json_object_get(root, "prices"), i, e)
		if ((ret = load_simple(c, e, "prices", true, cat, file, i, err, errlen)))
			return ret;
	if (!catalog_has(c, cat)) {
		char **n = realloc(c->names, (c->nnames + 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->names = n;
		c->names[c->nnames++] = (char *)cat;
	}
	return 0;
}

static int keep_root(struct catalog *c, json_t *root)
{
	void **r = realloc(c->roots, (c->nroots + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	c->roots = r;
	c->roots[c->nroots++] = root;
	return 0;
}

/* The text between the first pair of single quotes after `after` in s, into out. */
static bool quoted(const char *s, const char *after, char *out, size_t len)
{
	const char *a = strstr(s, after), *b;

	if (!a || !(a = strchr(a + strlen(after), '\'')) ||
	    !(b = strchr(a + 1, '\'')) || (size_t)(b - a - 1) >= len)
		return false;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return true;
}

/*
 * jansson keeps no positions for values, so a field error ("NAME: disks[0] 'P30': unknown field
 * 'iosp'") is located in the text: the entry's name, then the field's key after it. The message
 * becomes "NAME:LINE: ...". Left as it is when the text does not say.
 */
static void add_line(const char *name, const char *text, char *err, size_t errlen)
{
	char entry[128], field[128], key[140], rest[512];
	const char *at = text, *p;
	size_t nlen = strlen(name);
	int line = 1;

	if (!text || strncmp(err, name, nlen) || err[nlen] != ':' || err[nlen + 1] != ' ')
		return;
	if (quoted(err + nlen, "", entry, sizeof(entry))) {
		snprintf(key, sizeof(key), "\"%s\"", entry);
		if ((p = strstr(at, key)))
			at = p;
	}
	if (quoted(err + nlen, "field ", field, sizeof(field))) {
		snprintf(key, sizeof(key), "\"%s\"", field);
		if ((p = strstr(at, key)))
			at = p;
	}
	if (at == text)
		return;
	for (p = text; p < at; p++)
		line += *p == '\n';
	snprintf(rest, sizeof(rest), "%s", err + nlen + 2);
	snprintf(err, errlen, "%s:%d: %s", name, line, rest);
}

int catalog_load_text(struct catalog *c, const char *name, const char *text, char *err,
		      size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	int ret;

	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
		return -EINVAL;
	}
	/* The root is kept even on error: entries already appended point into it. */
	if ((ret = keep_root(c, root))) {
		json_decref(root);
		return ret;
	}
	if ((ret = load_json(c, root, name, err, errlen)) == -EINVAL)
		add_line(name, text, err, errlen);
	return ret;
}

int catalog_load_file(struct catalog *c, const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	json_t *pathstr;
	int ret;

	if (!root) {
		if (je.line < 0)
			snprintf(err, errlen, "%s: %s", path, je.text);
		else
			snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -EINVAL;
	}
	if ((ret = keep_root(c, root))) {
		json_decref(root);
		return ret;
	}
	/* Keep the path alive as long as the entries that name it. */
	pathstr = json_string(path);
	if (!pathstr)
		return -ENOMEM;
	if ((ret = keep_root(c, pathstr))) {
		json_decref(pathstr);
		return ret;
	}
	if ((ret = load_json(c, root, json_string_value(pathstr), err, errlen)) == -EINVAL) {
		FILE *f = fopen(path, "r");
		char *text = NULL;
		size_t len = 0;
		if (f && getdelim(&text, &len, '\0', f) > 0)
			add_line(path, text, err, errlen);
		free(text);
		if (f)
			fclose(f);
	}
	return ret;
}

int catalog_load_builtin(struct catalog *c, char *err, size_t errlen)
{
	/* Current catalogs first, so an unqualified name finds today's entry. */
	static const char *const order[] = {"azure.json", "aws.json", "gcp.json",
					    "azure-2015.json", NULL};
	const struct embedded_file *f;
	int ret;

	for (size_t i = 0; order[i]; i++)
		for (f = embedded_files; f->name; f++)
			if (!strcmp(f->name, order[i]) &&
			    (ret = catalog_load_text(c, f->name, f->data, err, errlen)))
				return ret;
	for (f = embedded_files; f->name; f++) {
		bool listed = false;

		for (size_t i = 0; order[i]; i++)
			listed |= !strcmp(order[i], f->name);
		if (!listed && (ret = catalog_load_text(c, f->name, f->data, err, errlen)))
			return ret;
	}
	return 0;
}

void catalog_release(struct catalog *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nroots; i++)
		json_decref(c->roots[i]);
	free(c->roots);
	free(c->disks);
	free(c->vms);
	free(c->accounts);
	free(c->prices);
	free(c->names);
	memset(c, 0, sizeof(*c));
}
