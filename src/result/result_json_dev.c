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

/* A counter the kernel may not have: null without it. */
static json_t *maybe(bool has, uint64_t v)
{
	return has ? result_json_u64(v) : json_null();
}

static json_t *kernel_obj(const struct disk_counts *d, int *err)
{
	json_t *o = json_object();

	put(o, "read_ios", result_json_u64(d->read_ios), err);
	put(o, "read_merges", result_json_u64(d->read_merges), err);
	put(o, "read_bytes", result_json_u64(d->read_bytes), err);
	put(o, "read_ms", result_json_u64(d->read_ms), err);
	put(o, "write_ios", result_json_u64(d->write_ios), err);
	put(o, "write_merges", result_json_u64(d->write_merges), err);
	put(o, "write_bytes", result_json_u64(d->write_bytes), err);
	put(o, "write_ms", result_json_u64(d->write_ms), err);
	put(o, "in_flight", result_json_u64(d->in_flight), err);
	put(o, "busy_ms", result_json_u64(d->busy_ms), err);
	put(o, "queue_ms", result_json_u64(d->queue_ms), err);
	put(o, "discard_ios", maybe(d->has_discard, d->discard_ios), err);
	put(o, "discard_merges", maybe(d->has_discard, d->discard_merges), err);
	put(o, "discard_bytes", maybe(d->has_discard, d->discard_bytes), err);
	put(o, "discard_ms", maybe(d->has_discard, d->discard_ms), err);
	put(o, "flush_ios", maybe(d->has_flush, d->flush_ios), err);
	put(o, "flush_ms", maybe(d->has_flush, d->flush_ms), err);
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
	put(i, "read_bytes", result_json_u64(v->read_bytes), err);
	put(i, "write_bytes", result_json_u64(v->write_bytes), err);
	put(i, "read_ios", result_json_u64(v->read_ios), err);
	put(i, "write_ios", result_json_u64(v->write_ios), err);
	if (v->trim_ios) {
		put(i, "trim_bytes", result_json_u64(v->trim_bytes), err);
		put(i, "trim_ios", result_json_u64(v->trim_ios), err);
	}
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

/* A counter the kernel may not have: *has false when it is null. */
static void rd_maybe(struct rd *rd, const json_t *o, const char *key, bool *has, uint64_t *v)
{
	json_t *x = rd_get(rd, o, key);

	*has = x && !json_is_null(x);
	if (*has)
		rd_u64(rd, o, key, v);
}

static void read_kernel(struct rd *rd, const json_t *o, struct disk_counts *d)
{
	json_t *k = rd_obj(rd, o, "kernel");
	size_t m = rd_enter(rd, "kernel", 0);
	bool has[6];

	if (k) {
		rd_u64(rd, k, "read_ios", &d->read_ios);
		rd_u64(rd, k, "read_merges", &d->read_merges);
		rd_u64(rd, k, "read_bytes", &d->read_bytes);
		rd_u64(rd, k, "read_ms", &d->read_ms);
		rd_u64(rd, k, "write_ios", &d->write_ios);
		rd_u64(rd, k, "write_merges", &d->write_merges);
		rd_u64(rd, k, "write_bytes", &d->write_bytes);
		rd_u64(rd, k, "write_ms", &d->write_ms);
		rd_u64(rd, k, "in_flight", &d->in_flight);
		rd_u64(rd, k, "busy_ms", &d->busy_ms);
		rd_u64(rd, k, "queue_ms", &d->queue_ms);
		rd_maybe(rd, k, "discard_ios", &has[0], &d->discard_ios);
		rd_maybe(rd, k, "discard_merges", &has[1], &d->discard_merges);
		rd_maybe(rd, k, "discard_bytes", &has[2], &d->discard_bytes);
		rd_maybe(rd, k, "discard_ms", &has[3], &d->discard_ms);
		rd_maybe(rd, k, "flush_ios", &has[4], &d->flush_ios);
		rd_maybe(rd, k, "flush_ms", &has[5], &d->flush_ms);
		/* The kernel has all four discard counters or none, and both flush counters. */
		if (!rd->rc && (has[0] != has[1] || has[0] != has[2] || has[0] != has[3]))
			rd_fail(rd, "discard_ios", "the discard counters are all null or none is");
		if (!rd->rc && has[4] != has[5])
			rd_fail(rd, "flush_ios", "the flush counters are both null or neither is");
		d->has_discard = has[0];
		d->has_flush = has[4];
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
	if (i) {
		rd_u64(rd, i, "read_bytes", &v->read_bytes);
		rd_u64(rd, i, "write_bytes", &v->write_bytes);
		rd_u64(rd, i, "read_ios", &v->read_ios);
		rd_u64(rd, i, "write_ios", &v->write_ios);
		/* only where iorate trimmed */
		if (json_object_get(i, "trim_ios")) {
			rd_u64(rd, i, "trim_bytes", &v->trim_bytes);
			rd_u64(rd, i, "trim_ios", &v->trim_ios);
		}
	}
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
