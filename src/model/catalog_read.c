/*
 * The bottom of the catalog's files (catalog_int.h): the table-driven reading of an entry's
 * fields, their units, and the names and errors every kind of entry shares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/json_in.h"
#include "model/catalog.h"
#include "model/catalog_int.h"
#include "model/embedded.h"
#include "model/prices.h"
#include "util/err.h"

static int unit_scale(json_t *u, double *scale)
{
	const char *v = json_string_value(u);

	if (v && !strcmp(v, "MB/s"))
		*scale = 1;
	else if (v && !strcmp(v, "MiB/s"))
		*scale = MIB_MB;
	else
		return -EINVAL;
	return 0;
}

/* A field of the table that holds MB/s (a figure, or an array of them). */
static bool mb_field(const struct field *tab, const char *key)
{
	for (const struct field *f = tab; f->key; f++)
		if (!strcmp(f->key, key))
			return f->type == F_MB || f->type == F_MBARR;
	return false;
}

/*
 * "units" is one unit for every MB/s figure of the entry ("MB/s" or "MiB/s"), or an object that
 * gives each figure its own ({"default": "MB/s", "uncached_mbps": "MiB/s"}): sources differ.
 */
static int check_units(json_t *obj, const struct field *tab, const char *file, const char *what,
		       char *err, size_t errlen)
{
	json_t *u = json_object_get(obj, "units"), *v;
	const char *key;
	double scale;

	if (!u || !unit_scale(u, &scale))
		return 0;
	if (!json_is_object(u))
		goto bad;
	json_object_foreach(u, key, v) {
		if (strcmp(key, "default") && !mb_field(tab, key))
			return err_set(err, errlen, -EINVAL, "%s: %s: field 'units': '%s' is not a "
				       "throughput figure of this entry", file, what, key);
		if (unit_scale(v, &scale))
			goto bad;
	}
	return 0;
bad:
	return err_set(err, errlen, -EINVAL, "%s: %s: field 'units': must be \"MB/s\", \"MiB/s\" "
		       "or an object of them by figure", file, what);
}

bool catalog_field_mib(const void *entry, const char *key)
{
	json_t *u = json_object_get((json_t *)entry, "units");
	double scale = 1;

	if (json_is_object(u))
		u = json_object_get(u, key) ?: json_object_get(u, "default");
	return u && !unit_scale(u, &scale) && scale != 1;
}

double catalog_field_scale(json_t *obj, const char *key)
{
	return catalog_field_mib(obj, key) ? MIB_MB : 1;
}

/*
 * Reads the fields of one entry into dst. `what` names the entry in messages, e.g.
 * "vms[3] 'DS2'". MB/s fields are scaled when the entry says a figure is in MiB/s.
 */
int catalog_read_fields(json_t *obj, const struct field *tab, void *dst, const char *file,
			const char *what, char *err, size_t errlen)
{
	const char *key;
	json_t *v;
	int ret;

	if ((ret = check_units(obj, tab, file, what, err, errlen)))
		return ret;
	json_object_foreach(obj, key, v) {
		const struct field *f;
		char *p = (char *)dst;

		for (f = tab; f->key && strcmp(f->key, key); f++)
			;
		if (!f->key)
			return err_set(err, errlen, -EINVAL, "%s: %s: unknown field '%s'", file,
				       what, key);
		p += f->off;
		switch (f->type) {
		case F_STR:
		case F_TEXT:
			if (!json_is_string(v))
				goto type;
			if (f->type == F_STR)
				*(const char **)p = json_string_value(v);
			break;
		case F_NUM:
		case F_MB:
			if (!json_is_number(v) || json_number_value(v) < 0)
				goto type;
			*(double *)p = json_number_value(v) *
				       (f->type == F_MB ? catalog_field_scale(obj, key) : 1);
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
		case F_MBARR:
		case F_CALLER:
			break;
		}
		continue;
type:
		return err_set(err, errlen, -EINVAL, "%s: %s: field '%s': expected %s", file, what,
			       key, f->type == F_STR || f->type == F_TEXT ? "a string" :
			       f->type == F_BOOL ? "true or false" :
			       f->type == F_ARR ? "an array of names" : "a non-negative number");
	}
	return 0;
}

int catalog_need(const char *val, const char *field, const char *file, const char *what,
		 char *err, size_t errlen)
{
	if (val && *val)
		return 0;
	return err_set(err, errlen, -EINVAL, "%s: %s: missing field '%s' (every entry carries "
		       "name, source and date)", file, what, field);
}

int catalog_grow(void **arr, size_t n, size_t size)
{
	void *p;

	/*
	 * Room for 8, then doubled at 8, 16, 32...: a file of n prices is copied O(n) times, not
	 * O(n^2). An array only grows by one or shrinks (an overlay), so it has the room it had.
	 */
	if (n == 0 || (n >= 8 && !(n & (n - 1)))) {
		size_t bytes;
		if (__builtin_mul_overflow(n ? 2 * n : 8, size, &bytes) ||
		    !(p = realloc(*arr, bytes)))
			return -ENOMEM;
		*arr = p;
	}
	memset((char *)*arr + n * size, 0, size);
	return 0;
}

void catalog_entry_name(char *what, size_t len, const char *list, size_t i, json_t *obj)
{
	json_t *n = json_object_get(obj, "name");

	snprintf(what, len, "%s[%zu]%s%s%s", list, i, json_is_string(n) ? " '" : "",
		 json_is_string(n) ? json_string_value(n) : "", json_is_string(n) ? "'" : "");
}
