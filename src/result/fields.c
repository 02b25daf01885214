/*
 * The field tables of a run's JSON (fields.h) and the two walks over them: the writer's and the
 * reader's. A row's place in its table is its key's place in the JSON.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "result/fields.h"
#include "result/result_json.h"
#include "result/result_json_int.h"

/* Row makers: the key, its type and unit, where it lives; what differs follows as fields. */
#define ROW(key, t, u, st, o) .name = (key), .type = (t), .unit = (u), .store = (st), .off = (o)
#define U64(key, t, u, o, ...) {ROW(key, t, u, STORE_U64, o), __VA_ARGS__}
#define UINT(key, u, o, mx, ...) {ROW(key, FIELD_COUNT, u, STORE_UINT, o), .max = (mx), \
	__VA_ARGS__}
#define REAL(key, u, o, ...) {ROW(key, FIELD_REAL, u, STORE_DOUBLE, o), __VA_ARGS__}
#define BOOL(key, o, ...) {ROW(key, FIELD_BOOL, NULL, STORE_BOOL, o), __VA_ARGS__}
#define ENUM(key, o, nm, ...) {ROW(key, FIELD_ENUM, NULL, STORE_UINT, o), .names = (nm), \
	.nnames = sizeof(nm) / sizeof((nm)[0]), __VA_ARGS__}
#define STRP(key, o, ...) {ROW(key, FIELD_STRING, NULL, STORE_STRP, o), __VA_ARGS__}
#define STRBUF(key, o, sz, ...) {ROW(key, FIELD_STRING, NULL, STORE_STRBUF, o), .size = (sz), \
	__VA_ARGS__}
/* A value with its own code: an object, an array, or a scalar that is not one member. */
#define OWN(key, t, p, g, ...) {ROW(key, t, NULL, STORE_NONE, 0), .put = (p), .get = (g), \
	__VA_ARGS__}
/* Seconds written beside the exact nanoseconds they come from. */
#define SECONDS(key, o) {ROW(key, FIELD_REAL, "seconds", STORE_U64, o), .div = 1e9, \
	.flags = FIELD_DERIVED}

/* STORE_UINT reads and writes an enum member as the unsigned int GCC makes it. */
_Static_assert(sizeof(enum job_pattern) == sizeof(unsigned), "an enum is an unsigned int");

#define J(m) offsetof(struct result, job.m)
#define RES(m) offsetof(struct result, m)

static bool trims(const void *base)
{
	return job_trims(&((const struct result *)base)->job);
}

/* params' objects whose code lives with the job's other JSON (result_json_ends.c). */
static json_t *put_ends(const void *b, int *err)
{
	return result_json_ends(&((const struct result *)b)->job, err);
}

static void get_ends(struct rd *rd, const json_t *o, const char *key, void *b)
{
	(void)key;
	result_json_read_ends(rd, o, &((struct result *)b)->job);
}

static json_t *put_ioprio(const void *b, int *err)
{
	(void)err;
	return result_json_ioprio(&((const struct result *)b)->job);
}

static void get_ioprio(struct rd *rd, const json_t *o, const char *key, void *b)
{
	(void)key;
	result_json_read_ioprio(rd, o, &((struct result *)b)->job);
}

static json_t *put_cmdprio(const void *b, int *err)
{
	return result_json_cmdprio(&((const struct result *)b)->job, err);
}

static void get_cmdprio(struct rd *rd, const json_t *o, const char *key, void *b)
{
	(void)key;
	result_json_read_cmdprio(rd, o, &((struct result *)b)->job);
}

static json_t *put_data(const void *b, int *err)
{
	return result_json_data(&((const struct result *)b)->job, err);
}

static void get_data(struct rd *rd, const json_t *o, const char *key, void *b)
{
	(void)key;
	result_json_read_data(rd, o, &((struct result *)b)->job);
}

static json_t *put_steady(const void *b, int *err)
{
	return result_json_steady(&((const struct result *)b)->job, err);
}

static void get_steady(struct rd *rd, const json_t *o, const char *key, void *b)
{
	(void)key;
	result_json_read_steady(rd, o, &((struct result *)b)->job);
}

#define S(m) offsetof(struct job, m)

/* params.shape: the workload beyond one block size and a uniform pattern (struct job). */
static const struct result_field shape_rows[] = {
	U64("startdelay_ns", FIELD_NS, "nanoseconds", S(startdelay_ns), .since = 2),
	OWN("bs_read", FIELD_ARRAY, result_json_put_bs_read, result_json_get_bs_read, .since = 2),
	OWN("bs_write", FIELD_ARRAY, result_json_put_bs_write, result_json_get_bs_write,
	    .since = 2),
	ENUM("dist", S(dist), result_json_dist, .since = 2),
	OWN("sequence", FIELD_ARRAY, result_json_put_sequence, result_json_get_sequence,
	    .since = 2, .when = result_json_is_sequence),
	BOOL("sequence_stride", S(seq_stride), .since = 2, .when = result_json_is_sequence),
	REAL("dist_param", NULL, S(dist_param), .since = 2, .flags = FIELD_NULLABLE),
	OWN("zones", FIELD_ARRAY, result_json_put_zones, result_json_get_zones, .since = 2),
	UINT("random_pct", "percent", S(random_pct), 100, .since = 2),
	U64("skip", FIELD_BYTES, "bytes", S(skip), .since = 2),
	U64("rewind", FIELD_BYTES, "bytes", S(rewind), .since = 2, .flags = FIELD_OPTIONAL),
	U64("zone_size", FIELD_BYTES, "bytes", S(zone_size), .since = 2, .flags = FIELD_OPTIONAL),
	U64("zone_range", FIELD_BYTES, "bytes", S(zone_range), .since = 2,
	    .flags = FIELD_OPTIONAL),
	U64("zone_skip", FIELD_BYTES, "bytes", S(zone_skip), .since = 2, .flags = FIELD_OPTIONAL),
	OWN("sprandom", FIELD_OBJECT, result_json_put_sprandom, result_json_get_sprandom,
	    .since = 2, .when = result_json_has_sprandom),
	OWN("zbd", FIELD_OBJECT, result_json_put_zbd, result_json_get_zbd, .since = 2,
	    .when = result_json_has_zbd),
	BOOL("until_full", S(until_full), .since = 2, .flags = FIELD_OPTIONAL),
	BOOL("seq_per_thread", S(seq_per_thread), .since = 2),
	U64("thread_stride", FIELD_BYTES, "bytes", S(thread_stride), .since = 2),
	U64("io_bytes", FIELD_BYTES, "bytes", S(io_bytes), .since = 2),
	U64("thinktime_ns", FIELD_NS, "nanoseconds", S(thinktime_ns), .since = 2),
	UINT("thinktime_blocks", NULL, S(thinktime_blocks), UINT_MAX, .since = 2),
	UINT("flow", NULL, S(flow), 1000, .since = 2, .flags = FIELD_OPTIONAL),
	UINT("flow_id", NULL, S(flow_id), UINT_MAX, .since = 2, .flags = FIELD_OPTIONAL),
	U64("flow_sleep_ns", FIELD_NS, "nanoseconds", S(flow_sleep_ns), .since = 2,
	    .flags = FIELD_OPTIONAL),
	UINT("fdatasync_every", NULL, S(fdatasync_every), UINT_MAX, .since = 2),
	BOOL("end_fsync", S(end_fsync), .since = 2),
	BOOL("invalidate", S(invalidate), .since = 2),
	BOOL("shared_threads", S(shared_threads), .since = 2),
	ENUM("file_service", S(file_service), result_json_files, .since = 2),
	UINT("file_service_n", NULL, S(file_service_n), UINT_MAX, .since = 2),
	OWN("verify", FIELD_STRING, result_json_put_verify, result_json_get_verify, .since = 2,
	    .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	U64("verify_block", FIELD_BYTES, "bytes", S(verify_block), .since = 2,
	    .flags = FIELD_OPTIONAL),
};

#define TABLE(r) .rows = (r), .n = sizeof(r) / sizeof((r)[0])

const struct result_fields result_fields_shape = {
	.block = "params.shape", .doc = "`params`", .doc_table = 2, TABLE(shape_rows),
};

static json_t *put_shape(const void *b, int *err)
{
	json_t *o = json_object();

	result_fields_put(o, &result_fields_shape, &((const struct result *)b)->job, 0, err);
	return o;
}

/* Absent in runs recorded before shapes, which kept whatever the page cache held. */
static void get_shape(struct rd *rd, const json_t *o, const char *key, void *b)
{
	json_t *s = json_object_get(o, key);
	size_t m = rd_enter(rd, key, 0);
	struct job *j = &((struct result *)b)->job;

	if (s)
		result_fields_read(rd, s, &result_fields_shape, j, 0);
	else
		j->invalidate = false;
	rd_leave(rd, m);
}

static const struct result_field params_rows[] = {
	U64("bs", FIELD_BYTES, "bytes", J(bs)),
	SECONDS("time", J(time_ns)),
	U64("time_ns", FIELD_NS, "nanoseconds", J(time_ns), .since = 2),
	SECONDS("warmup", J(warmup_ns)),
	U64("warmup_ns", FIELD_NS, "nanoseconds", J(warmup_ns), .since = 2),
	SECONDS("cooldown", J(cooldown_ns)),
	U64("cooldown_ns", FIELD_NS, "nanoseconds", J(cooldown_ns), .since = 2),
	U64("interval_ns", FIELD_NS, "nanoseconds", J(interval_ns), .since = 2,
	    .flags = FIELD_OPTIONAL),
	UINT("threads", NULL, J(threads), UINT_MAX),
	UINT("depth", NULL, J(depth), UINT_MAX),
	UINT("write", "percent", J(write_pct), 100),
	UINT("trim", "percent", J(trim_pct), 100, .since = 2, .when = trims),
	BOOL("trim_write", J(trim_write), .since = 2, .when = trims),
	ENUM("pattern", J(pattern), result_json_pattern),
	ENUM("cache", J(cache), result_json_cache),
	OWN("engine", FIELD_STRING, result_json_put_engine, result_json_get_engine),
	STRBUF("engine_why", RES(engine_why), sizeof(((struct result *)0)->engine_why)),
	U64("size", FIELD_BYTES, "bytes", J(size)),
	U64("offset", FIELD_BYTES, "bytes", J(offset)),
	U64("range", FIELD_BYTES, "bytes", J(range)),
	U64("align", FIELD_BYTES, "bytes", J(align)),
	UINT("fsync_every", NULL, J(fsync_every), UINT_MAX),
	U64("seed", FIELD_COUNT, NULL, J(seed)),
	BOOL("seed_set", J(seed_set)),
	ENUM("fill", J(fill), result_json_fill),
	REAL("rate_iops", "I/Os per second", J(rate_iops)),
	ENUM("arrival", J(arrival), result_json_arrival),
	/* Runs written before --batch defaulted to the engine's way (0) submitted each I/O. */
	UINT("batch", NULL, J(batch), UINT_MAX, .since = 2, .flags = FIELD_ABSENT, .absent_is = 1),
	U64("cap_io_unit", FIELD_BYTES, "bytes", J(cap_io_unit)),
	STRP("emulate", J(emulate), .since = 2, .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	STRP("name", J(name), .since = 2, .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	UINT("group", NULL, J(group), UINT_MAX, .since = 2, .flags = FIELD_OPTIONAL),
	OWN("shape", FIELD_OBJECT, put_shape, get_shape, .since = 2,
	    .flags = FIELD_OPTIONAL),
	OWN("ends", FIELD_OBJECT, put_ends, get_ends, .since = 2, .flags = FIELD_OPTIONAL),
	OWN("ioprio", FIELD_STRING, put_ioprio, get_ioprio, .since = 2,
	    .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	OWN("cmdprio", FIELD_OBJECT, put_cmdprio, get_cmdprio, .since = 2,
	    .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	BOOL("sqpoll", J(sqpoll), .since = 2, .flags = FIELD_OPTIONAL),
	BOOL("atomic", J(atomic), .since = 2, .flags = FIELD_OPTIONAL),
	BOOL("hipri", J(hipri), .since = 2, .flags = FIELD_OPTIONAL),
	BOOL("nowait", J(nowait), .since = 2, .flags = FIELD_OPTIONAL),
	BOOL("dontcache", J(dontcache), .since = 2, .flags = FIELD_OPTIONAL),
	OWN("latency_target", FIELD_OBJECT, result_json_put_lat_target,
	    result_json_get_lat_target, .since = 2, .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	OWN("data", FIELD_OBJECT, put_data, get_data, .since = 2, .flags = FIELD_OPTIONAL),
	OWN("steady", FIELD_OBJECT, put_steady, get_steady, .since = 2,
	    .flags = FIELD_NULLABLE | FIELD_OPTIONAL),
	OWN("cap", FIELD_OBJECT, result_json_put_cap, result_json_get_cap),
	OWN("vm_cap", FIELD_OBJECT, result_json_put_vm_cap, result_json_get_vm_cap),
	BOOL("keep", J(keep), .since = 2),
	BOOL("allow_write_device", J(allow_write_device), .since = 2),
	BOOL("force", J(force), .since = 2),
	BOOL("no_latency", J(no_latency), .since = 2),
	BOOL("verbose", J(verbose), .since = 2),
	U64("ios_per_thread", FIELD_COUNT, NULL, J(ios_per_thread), .since = 2),
	STRP("trace", J(trace_path), .since = 2, .flags = FIELD_NULLABLE),
	OWN("targets", FIELD_ARRAY, result_json_put_targets, result_json_get_targets, .since = 2),
};

const struct result_fields result_fields_params = {
	.block = "params", .doc = "`params`", .doc_table = 1, TABLE(params_rows),
};

/* A direction's figures: derived from its counters, written for readers, never read. */
static const struct result_field fig_rows[] = {
	U64("ios", FIELD_COUNT, "I/Os", offsetof(struct dir_summary, ios), .flags = FIELD_DERIVED,
	    .csv = "ios"),
	U64("bytes", FIELD_BYTES, "bytes", offsetof(struct dir_summary, bytes),
	    .flags = FIELD_DERIVED, .csv = "bytes"),
	U64("errors", FIELD_COUNT, "I/Os", offsetof(struct dir_summary, errors),
	    .flags = FIELD_DERIVED),
	REAL("iops", "I/Os per second", offsetof(struct dir_summary, iops),
	     .flags = FIELD_DERIVED | FIELD_NULLABLE, .csv = "iops", .csv_decimals = 3),
	REAL("mibps", "MiB/s", offsetof(struct dir_summary, mibps),
	     .flags = FIELD_DERIVED | FIELD_NULLABLE, .csv = "mibps", .csv_decimals = 6),
	REAL("mbps", "MB/s", offsetof(struct dir_summary, mbps),
	     .flags = FIELD_DERIVED | FIELD_NULLABLE, .csv = "mbps", .csv_decimals = 6),
	OWN("lat_us", FIELD_OBJECT, result_json_put_lat, NULL,
	    .flags = FIELD_DERIVED | FIELD_NULLABLE),
};

const struct result_fields result_fields_fig = {
	.block = "direction figures", .doc = "Direction objects", .doc_table = 1, TABLE(fig_rows),
};

#define D(m) offsetof(struct dir_stats, m)

/* A direction's counters: the figures write the first three, the rest follow them. */
static const struct result_field dir_rows[] = {
	U64("ios", FIELD_COUNT, "I/Os", D(ios), .flags = FIELD_FIGURE),
	U64("bytes", FIELD_BYTES, "bytes", D(bytes), .flags = FIELD_FIGURE),
	U64("errors", FIELD_COUNT, "I/Os", D(errors), .flags = FIELD_FIGURE),
	U64("lat_n", FIELD_COUNT, "I/Os", D(lat_n), .since = 2),
	U64("lat_sum_ns", FIELD_NS, "ns", D(lat_sum), .since = 2),
	REAL("lat_sumsq", "ns²", D(lat_sumsq), .since = 2, .flags = FIELD_NULLABLE),
	U64("lat_min_ns", FIELD_NS, "ns", D(lat_min), .since = 2,
	    .flags = FIELD_MIN_NULL | FIELD_NULLABLE),
	U64("lat_max_ns", FIELD_NS, "ns", D(lat_max), .since = 2),
	OWN("hist", FIELD_ARRAY, result_json_put_hist, result_json_get_hist, .since = 2),
};

const struct result_fields result_fields_dir = {
	.block = "direction counters", .doc = "Direction objects", .doc_table = 2, TABLE(dir_rows),
};

#define T(m) offsetof(struct target_result, m)

static bool target_opened(const void *base)
{
	return ((const struct target_result *)base)->opened != NULL;
}

/* A target's scalars; its directions and the kernel's counts follow, written by their code. */
static const struct result_field target_rows[] = {
	STRP("path", T(path), .flags = FIELD_NULLABLE),
	STRP("opened", T(opened), .since = 2, .when = target_opened),
	STRBUF("device", T(device), sizeof(((struct target_result *)0)->device),
	       .flags = FIELD_NULLABLE | FIELD_EMPTY_NULL),
	BOOL("blockdev", T(is_blockdev)),
	BOOL("created", T(created)),
	U64("size", FIELD_BYTES, "bytes", T(size)),
	U64("region_offset", FIELD_BYTES, "bytes", T(region_offset), .since = 2),
	U64("region_len", FIELD_BYTES, "bytes", T(region_len), .since = 2),
	OWN("read", FIELD_OBJECT, NULL, NULL, .flags = FIELD_BY_CALLER),
	OWN("write", FIELD_OBJECT, NULL, NULL, .flags = FIELD_BY_CALLER),
	OWN("trim", FIELD_OBJECT, NULL, NULL, .flags = FIELD_BY_CALLER | FIELD_OPTIONAL),
	OWN("total", FIELD_OBJECT, NULL, NULL, .flags = FIELD_BY_CALLER | FIELD_DERIVED),
	OWN("kernel", FIELD_OBJECT, NULL, NULL, .flags = FIELD_BY_CALLER | FIELD_NULLABLE),
};

const struct result_fields result_fields_target = {
	.block = "targets[]", .doc = "`targets[]`", .doc_table = 1, TABLE(target_rows),
};

#define K(m) offsetof(struct disk_counts, m)
#define DISCARD(key, t, u, m) U64(key, t, u, K(m), .flags = FIELD_HAS | FIELD_NULLABLE, \
				  .has = K(has_discard))
#define FLUSH(key, t, u, m) U64(key, t, u, K(m), .flags = FIELD_HAS | FIELD_NULLABLE, \
				.has = K(has_flush))

/* diskstats[].kernel: the change in /proc/diskstats over the window. */
static const struct result_field disk_rows[] = {
	U64("read_ios", FIELD_COUNT, "requests", K(read_ios)),
	U64("read_merges", FIELD_COUNT, "requests", K(read_merges)),
	U64("read_bytes", FIELD_BYTES, "bytes", K(read_bytes)),
	U64("read_ms", FIELD_COUNT, "ms", K(read_ms)),
	U64("write_ios", FIELD_COUNT, "requests", K(write_ios)),
	U64("write_merges", FIELD_COUNT, "requests", K(write_merges)),
	U64("write_bytes", FIELD_BYTES, "bytes", K(write_bytes)),
	U64("write_ms", FIELD_COUNT, "ms", K(write_ms)),
	U64("in_flight", FIELD_COUNT, "requests", K(in_flight)),
	U64("busy_ms", FIELD_COUNT, "ms", K(busy_ms)),
	U64("queue_ms", FIELD_COUNT, "ms", K(queue_ms)),
	DISCARD("discard_ios", FIELD_COUNT, "requests", discard_ios),
	DISCARD("discard_merges", FIELD_COUNT, "requests", discard_merges),
	DISCARD("discard_bytes", FIELD_BYTES, "bytes", discard_bytes),
	DISCARD("discard_ms", FIELD_COUNT, "ms", discard_ms),
	FLUSH("flush_ios", FIELD_COUNT, "requests", flush_ios),
	FLUSH("flush_ms", FIELD_COUNT, "ms", flush_ms),
};

const struct result_fields result_fields_disk = {
	.block = "diskstats[].kernel", .doc = "`diskstats[]`", .doc_table = 2, TABLE(disk_rows),
};

#define V(m) offsetof(struct device_view, m)

static bool view_trims(const void *base)
{
	return ((const struct device_view *)base)->trim_ios != 0;
}

/* diskstats[].iorate: iorate's own I/O to the targets above the device. */
static const struct result_field view_rows[] = {
	U64("read_bytes", FIELD_BYTES, "bytes", V(read_bytes)),
	U64("write_bytes", FIELD_BYTES, "bytes", V(write_bytes)),
	U64("read_ios", FIELD_COUNT, "I/Os", V(read_ios)),
	U64("write_ios", FIELD_COUNT, "I/Os", V(write_ios)),
	U64("trim_bytes", FIELD_BYTES, "bytes", V(trim_bytes), .since = 2, .when = view_trims),
	U64("trim_ios", FIELD_COUNT, "I/Os", V(trim_ios), .since = 2, .when = view_trims),
};

const struct result_fields result_fields_view = {
	.block = "diskstats[].iorate", .doc = "`diskstats[]`", .doc_table = 3, TABLE(view_rows),
};

#define H(m) offsetof(struct host_info, m)
#define HSIZE(m) sizeof(((struct host_info *)0)->m)

/* host: the machine that ran it. */
static const struct result_field host_rows[] = {
	STRBUF("hostname", H(hostname), HSIZE(hostname)),
	STRBUF("kernel", H(kernel), HSIZE(kernel)),
	STRBUF("cpu", H(cpu), HSIZE(cpu)),
	UINT("ncpus", NULL, H(ncpus), UINT_MAX),
	U64("mem_bytes", FIELD_BYTES, "bytes", H(mem_bytes)),
	STRBUF("clock", H(clock), HSIZE(clock)),
};

const struct result_fields result_fields_host = {
	.block = "host", .doc = "`host`", .doc_table = 1, TABLE(host_rows),
};

#define C(m) offsetof(struct cpu_usage, m)

/* cpu: CPU use over the window (a rank's, a group's and the total's alike). */
static const struct result_field cpu_rows[] = {
	UINT("ncpus", NULL, C(ncpus), UINT_MAX),
	REAL("user", "percent", C(user), .flags = FIELD_NULLABLE),
	REAL("system", "percent", C(system), .flags = FIELD_NULLABLE),
	REAL("iowait", "percent", C(iowait), .flags = FIELD_NULLABLE),
	REAL("idle", "percent", C(idle), .flags = FIELD_NULLABLE),
	REAL("iorate_user", "percent", C(proc_user), .flags = FIELD_NULLABLE),
	REAL("iorate_system", "percent", C(proc_system), .flags = FIELD_NULLABLE),
};

const struct result_fields result_fields_cpu = {
	.block = "cpu", .doc = "`cpu`", .doc_table = 1, TABLE(cpu_rows),
};

const struct result_fields *const result_fields_all[] = {
	&result_fields_params, &result_fields_fig, &result_fields_dir, &result_fields_target,
	&result_fields_disk, &result_fields_view, &result_fields_host, &result_fields_cpu,
	&result_fields_shape,
};
const size_t result_fields_nall = sizeof(result_fields_all) / sizeof(result_fields_all[0]);

uint64_t result_field_u64(const struct result_field *f, const void *base)
{
	const char *p = (const char *)base + f->off;

	switch (f->store) {
	case STORE_U64:
		return *(const uint64_t *)p;
	case STORE_UINT:
		return *(const unsigned *)p;
	case STORE_BOOL:
		return *(const bool *)p;
	default:
		return 0;
	}
}

double result_field_real(const struct result_field *f, const void *base)
{
	if (f->store == STORE_DOUBLE)
		return *(const double *)((const char *)base + f->off);
	if (f->div > 0)
		return (double)result_field_u64(f, base) / f->div;
	return (double)result_field_u64(f, base);
}

/* One row's JSON value: a new reference, NULL when out of memory. */
static json_t *field_json(const struct result_field *f, const void *base, int *err)
{
	const char *p = (const char *)base + f->off;
	uint64_t u;

	switch (f->store) {
	case STORE_NONE:
		return f->put(base, err);
	case STORE_U64:
		u = *(const uint64_t *)p;
		if (f->div > 0)
			return result_json_real((double)u / f->div);
		if ((f->flags & FIELD_MIN_NULL) && u == UINT64_MAX)
			return json_null();
		if ((f->flags & FIELD_HAS) && !*(const bool *)((const char *)base + f->has))
			return json_null();
		return result_json_u64(u);
	case STORE_UINT:
		if (f->type == FIELD_ENUM)
			return json_string(f->names[*(const unsigned *)p % f->nnames]);
		return json_integer(*(const unsigned *)p);
	case STORE_DOUBLE:
		return result_json_real(*(const double *)p);
	case STORE_BOOL:
		return json_boolean(*(const bool *)p);
	case STORE_STRP:
		return result_json_str(*(char *const *)p);
	case STORE_STRBUF:
		if ((f->flags & FIELD_EMPTY_NULL) && !p[0])
			return json_null();
		return result_json_str(p);
	}
	return NULL;
}

void result_fields_put(json_t *o, const struct result_fields *t, const void *base, unsigned skip,
		       int *err)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct result_field *f = &t->rows[i];

		if ((f->flags & (skip | FIELD_BY_CALLER)) || (f->when && !f->when(base)))
			continue;
		result_json_put(o, f->name, field_json(f, base, err), err);
	}
}

/* One row read from o into base; a missing key is refused unless the row may be absent. */
static void field_read(struct rd *rd, const json_t *o, const struct result_field *f, void *base)
{
	char *p = (char *)base + f->off;
	bool present = json_object_get(o, f->name) != NULL;
	unsigned v = 0;

	if (f->store == STORE_NONE) {
		f->get(rd, o, f->name, base);
		return;
	}
	if (!present && (f->flags & FIELD_ABSENT))
		*(unsigned *)p = (unsigned)f->absent_is;
	if (!present && ((f->flags & FIELD_OPTIONAL) || f->when))
		return;
	switch (f->store) {
	case STORE_U64:
		/* null: none recorded (MIN_NULL: the UINT64_MAX set), not counted (HAS) */
		if (!(f->flags & (FIELD_MIN_NULL | FIELD_HAS)) ||
		    !json_is_null(rd_get(rd, o, f->name)))
			rd_u64(rd, o, f->name, (uint64_t *)p);
		if (f->flags & FIELD_HAS) {
			const json_t *x = json_object_get(o, f->name);

			*(bool *)((char *)base + f->has) = x && !json_is_null(x);
		}
		break;
	case STORE_UINT:
		if (f->type != FIELD_ENUM) {
			rd_uint(rd, o, f->name, f->max, (unsigned *)p);
			break;
		}
		rd_enum(rd, o, f->name, f->names, f->nnames, &v);
		*(unsigned *)p = v;
		break;
	case STORE_DOUBLE:
		rd_double(rd, o, f->name, (double *)p);
		break;
	case STORE_BOOL:
		rd_bool(rd, o, f->name, (bool *)p);
		break;
	case STORE_STRP:
		rd_strdup(rd, o, f->name, (char **)p, f->flags & FIELD_NULLABLE);
		break;
	case STORE_STRBUF:
		rd_strbuf(rd, o, f->name, p, f->size, f->flags & FIELD_NULLABLE);
		break;
	default:
		break;
	}
}

void result_fields_read(struct rd *rd, const json_t *o, const struct result_fields *t,
			void *base, unsigned skip)
{
	for (size_t i = 0; i < t->n; i++)
		if (!(t->rows[i].flags & (skip | FIELD_DERIVED | FIELD_BY_CALLER)))
			field_read(rd, o, &t->rows[i], base);
}
