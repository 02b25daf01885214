/*
 * The bottom of the result's JSON (result_json_int.h): the names of the job's enumerations, the
 * writer's primitives and the reader's, which result_json.c, result_json_read.c and the files
 * beside them (devices, ends, schema 1) share.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_json.h"
#include "result/result_json_int.h"
#include "util/err.h"
#include "util/parse.h"

int rd_fail(struct rd *rd, const char *key, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (rd->rc)
		return rd->rc;
	rd->rc = -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(rd->err, rd->errlen, rd->rc, "%s%s%s%s%s", rd->path,
		       rd->path[0] && key ? "." : "", key ? key : "",
		       rd->path[0] || key ? ": " : "", msg);
}

int rd_nomem(struct rd *rd)
{
	if (!rd->rc)
		rd->rc = err_set(rd->err, rd->errlen, -ENOMEM, "out of memory");
	return rd->rc;
}

size_t rd_enter(struct rd *rd, const char *key, size_t i)
{
	size_t mark = strlen(rd->path), room = sizeof(rd->path) - mark;

	if (key)
		snprintf(rd->path + mark, room, "%s%s", mark ? "." : "", key);
	else
		snprintf(rd->path + mark, room, "[%zu]", i);
	return mark;
}

void rd_leave(struct rd *rd, size_t mark)
{
	rd->path[mark] = '\0';
}

json_t *rd_get(struct rd *rd, const json_t *o, const char *key)
{
	json_t *v;

	if (rd->rc)
		return NULL;
	if (!(v = json_object_get(o, key)) && rd->schema != 1)
		rd_fail(rd, key, "missing");
	return v;
}

json_t *rd_obj(struct rd *rd, const json_t *o, const char *key)
{
	json_t *v = rd_get(rd, o, key);

	if (v && !json_is_object(v)) {
		if (rd->schema != 1 || !json_is_null(v))
			rd_fail(rd, key, "not an object");
		return NULL;
	}
	return v;
}

json_t *rd_arr(struct rd *rd, const json_t *o, const char *key)
{
	json_t *v = rd_get(rd, o, key);

	if (v && !json_is_array(v)) {
		if (rd->schema != 1 || !json_is_null(v))
			rd_fail(rd, key, "not an array");
		return NULL;
	}
	return v;
}

/* A count: a JSON integer >= 0, or decimal digits in a string when it is above 2^63 - 1. */
int rd_u64_of(const json_t *v, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && strspn(json_string_value(v), "0123456789") ==
				     strlen(json_string_value(v)))
		return parse_u64(json_string_value(v), 0, UINT64_MAX, out);
	return -EINVAL;
}

void rd_u64(struct rd *rd, const json_t *o, const char *key, uint64_t *v)
{
	json_t *x = rd_get(rd, o, key);

	if (x && rd_u64_of(x, v))
		rd_fail(rd, key, "not an integer from 0 to 18446744073709551615");
}

void rd_uint(struct rd *rd, const json_t *o, const char *key, unsigned max, unsigned *v)
{
	json_t *x = rd_get(rd, o, key);

	if (!x)
		return;
	if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > max)
		rd_fail(rd, key, "not an integer from 0 to %u", max);
	else
		*v = (unsigned)json_integer_value(x);
}

void rd_double(struct rd *rd, const json_t *o, const char *key, double *v)
{
	json_t *x = rd_get(rd, o, key);

	if (!x)
		return;
	if (json_is_null(x))
		*v = NAN;
	else if (json_is_number(x))
		*v = json_number_value(x);
	else
		rd_fail(rd, key, "not a number");
}

void rd_bool(struct rd *rd, const json_t *o, const char *key, bool *v)
{
	json_t *x = rd_get(rd, o, key);

	if (x && !json_is_boolean(x))
		rd_fail(rd, key, "not true or false");
	else if (x)
		*v = json_is_true(x);
}

/* The string of key, NULL for null when nullable; NULL (recorded) otherwise. */
const char *rd_str_of(struct rd *rd, const json_t *o, const char *key, bool nullable,
		      bool *isnull)
{
	json_t *x = rd_get(rd, o, key);

	*isnull = false;
	if (!x)
		return NULL;
	if (json_is_string(x))
		return json_string_value(x);
	if (nullable && json_is_null(x))
		*isnull = true;
	else
		rd_fail(rd, key, nullable ? "not a string or null" : "not a string");
	return NULL;
}

void rd_strbuf(struct rd *rd, const json_t *o, const char *key, char *buf, size_t size,
	       bool nullable)
{
	bool isnull;
	const char *s = rd_str_of(rd, o, key, nullable, &isnull);

	if (isnull)
		buf[0] = '\0';
	else if (s && strlen(s) >= size)
		rd_fail(rd, key, "longer than %zu bytes", size - 1);
	else if (s)
		memcpy(buf, s, strlen(s) + 1);
}

void rd_enum(struct rd *rd, const json_t *o, const char *key, const char *const *names,
	     unsigned n, unsigned *v)
{
	bool isnull;
	const char *s = rd_str_of(rd, o, key, false, &isnull);

	if (!s)
		return;
	for (unsigned i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*v = i;
			return;
		}
	}
	char list[128] = "";

	for (unsigned i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 names[i]);
	rd_fail(rd, key, "not one of %s", list);
}

void rd_strdup(struct rd *rd, const json_t *o, const char *key, char **v, bool nullable)
{
	bool isnull;
	const char *s = rd_str_of(rd, o, key, nullable, &isnull);

	if (s && !(*v = strdup(s)))
		rd_nomem(rd);
}

void rd_strings(struct rd *rd, const json_t *o, const char *key, void *ctx,
		int (*add)(void *ctx, const char *s))
{
	json_t *a = rd_arr(rd, o, key), *v;
	size_t i, m = rd_enter(rd, key, 0);
	int r;

	json_array_foreach(a, i, v) {
		if (rd->rc)
			break;
		if (!json_is_string(v)) {
			size_t m2 = rd_enter(rd, NULL, i);

			rd_fail(rd, NULL, "not a string");
			rd_leave(rd, m2);
		} else if ((r = add(ctx, json_string_value(v))) == -ENOMEM) {
			rd_nomem(rd);
		} else if (r) {
			rd_fail(rd, NULL, "more than %u", RESULT_MAX_NOTES);
		}
	}
	rd_leave(rd, m);
}

int result_json_add_target(void *job, const char *s)
{
	return job_add_target(job, s);
}

/* Unlike result_add_note(), a note that does not fit is a failure: the JSON holds too many. */
int result_json_add_note(void *res, const char *s)
{
	struct result *r = res;

	if (r->nnotes >= RESULT_MAX_NOTES)
		return -ERANGE;
	if (!(r->notes[r->nnotes] = strdup(s)))
		return -ENOMEM;
	r->nnotes++;
	return 0;
}

/* The words of the job's enumerations, as the JSON writes them. */
const char *const result_json_pattern[2] = {"random", "sequential"};
const char *const result_json_cache[4] = {"direct", "buffered", "writethrough", "directsync"};
const char *const result_json_fill[2] = {"random", "zero"};
const char *const result_json_arrival[3] = {"closed", "fixed", "poisson"};
const char *const result_json_dist[7] = {"uniform", "zipf", "pareto", "normal", "zoned",
					 "zoned_abs", "sequence"};
const char *const result_json_files[3] = {"roundrobin", "sequential", "random"};

/* jansson's *_new() take v even when they fail, and free it: only a v not handed over is freed. */
void result_json_put(json_t *o, const char *key, json_t *v, int *err)
{
	if (!o || !v) {
		json_decref(v);
		*err = -ENOMEM;
	} else if (json_object_set_new(o, key, v) < 0) {
		*err = -ENOMEM;
	}
}

void result_json_append(json_t *a, json_t *v, int *err)
{
	if (!a || !v) {
		json_decref(v);
		*err = -ENOMEM;
	} else if (json_array_append_new(a, v) < 0) {
		*err = -ENOMEM;
	}
}

json_t *result_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *result_json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

json_t *result_json_str(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);

	if (v)
		return v;
	char *c = strdup(s);

	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(c);
	free(c);
	return v;
}
