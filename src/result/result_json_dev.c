/*
 * The devices under a run's targets as JSON (`diskstats`, docs/json.md) and back: the kernel's
 * counters over the window and iorate's I/O to the targets above each device, then the figures
 * derived from them (written for readers, not read back).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_json.h"
#include "result/result_json_int.h"

#define put result_json_put
#define append result_json_append

static json_t *kernel_obj(const struct disk_counts *d, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_disk, d, 0, err);
	return o;
}

static json_t *view_obj(const struct device_view *v, int *err)
{
	json_t *o = json_object(), *i = json_object();
	struct device_figures f;

	device_view_figures(v, &f);
	put(o, "device", result_json_str(v->name), err);
	put(o, "role", json_string(device_role_name(v->role)), err);
	put(o, "of", v->of[0] ? result_json_str(v->of) : json_null(), err);
	put(o, "seconds", result_json_real(v->seconds), err);
	put(o, "kernel", kernel_obj(&v->disk, err), err);
	result_fields_put(i, &result_fields_view, v, 0, err);
	put(o, "iorate", i, err);
	put(o, "util_pct", result_json_real(f.util_pct), err);
	put(o, "read_avg_bytes", result_json_real(f.read_avg_bytes), err);
	put(o, "write_avg_bytes", result_json_real(f.write_avg_bytes), err);
	put(o, "read_await_ms", result_json_real(f.read_await_ms), err);
	put(o, "write_await_ms", result_json_real(f.write_await_ms), err);
	put(o, "await_ms", result_json_real(f.await_ms), err);
	put(o, "queue_ms_per_io", result_json_real(f.queue_ms), err);
	put(o, "queue_depth", result_json_real(f.queue_depth), err);
	put(o, "read_merged_pct", result_json_real(f.read_merged_pct), err);
	put(o, "write_merged_pct", result_json_real(f.write_merged_pct), err);
	return o;
}

json_t *result_json_views(const struct device_view *v, unsigned n, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < n; i++)
		append(a, view_obj(&v[i], err), err);
	return a;
}

/* Whether the kernel counted what key holds: a number there, not null. */
static bool counted(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);

	return x && !json_is_null(x);
}

static void read_kernel(struct rd *rd, const json_t *o, struct disk_counts *d)
{
	json_t *k = rd_obj(rd, o, "kernel");
	size_t m = rd_enter(rd, "kernel", 0);

	if (k) {
		result_fields_read(rd, k, &result_fields_disk, d, 0);
		/* The kernel has all four discard counters or none, and both flush counters. */
		if (!rd->rc && (counted(k, "discard_ios") != counted(k, "discard_merges") ||
				counted(k, "discard_ios") != counted(k, "discard_bytes") ||
				counted(k, "discard_ios") != counted(k, "discard_ms")))
			rd_fail(rd, "discard_ios", "the discard counters are all null or none is");
		if (!rd->rc && counted(k, "flush_ios") != counted(k, "flush_ms"))
			rd_fail(rd, "flush_ios", "the flush counters are both null or neither is");
		d->has_discard = counted(k, "discard_ios");
		d->has_flush = counted(k, "flush_ios");
	}
	rd_leave(rd, m);
}

static void read_view(struct rd *rd, const json_t *o, struct device_view *v)
{
	const char *role = json_string_value(rd_get(rd, o, "role"));
	json_t *i;
	size_t m;

	rd_strbuf(rd, o, "device", v->name, sizeof(v->name), false);
	if (!rd->rc && !v->name[0])
		rd_fail(rd, "device", "empty");
	if (!rd->rc && (!role || device_role_parse(role, &v->role)))
		rd_fail(rd, "role", "not \"target\", \"disk\" or \"member\"");
	rd_strbuf(rd, o, "of", v->of, sizeof(v->of), true);
	/* Only a disk or a member is under another device. */
	if (!rd->rc && (v->role == DEVICE_TARGET) != !v->of[0])
		rd_fail(rd, "of", "a device name for a disk or a member, null for a target");
	rd_double(rd, o, "seconds", &v->seconds);
	read_kernel(rd, o, &v->disk);
	i = rd_obj(rd, o, "iorate");
	m = rd_enter(rd, "iorate", 0);
	if (i)
		result_fields_read(rd, i, &result_fields_view, v, 0);
	rd_leave(rd, m);
}

void result_json_read_views(struct rd *rd, const json_t *o, struct device_view **views,
			    unsigned *n)
{
	json_t *a = json_object_get(o, "diskstats"), *x;
	size_t i, m;

	if (!a)
		return; /* absent: no device under the targets, or written before it was kept */
	m = rd_enter(rd, "diskstats", 0);
	if (!json_is_array(a) || json_array_size(a) > UINT_MAX - 1)
		rd_fail(rd, NULL, "not an array");
	json_array_foreach(a, i, x) {
		struct device_view *g;
		size_t m2;

		if (rd->rc)
			break;
		if (!(g = realloc(*views, (*n + 1) * sizeof(*g)))) {
			rd_nomem(rd);
			break;
		}
		*views = g;
		g = &g[(*n)++];
		memset(g, 0, sizeof(*g));
		m2 = rd_enter(rd, NULL, i);
		if (!json_is_object(x))
			rd_fail(rd, NULL, "not an object");
		else
			read_view(rd, x, g);
		rd_leave(rd, m2);
	}
	rd_leave(rd, m);
}
