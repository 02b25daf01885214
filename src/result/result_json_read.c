/*
 * struct result from its JSON (schema 2, as result_json.c writes it): a parser of files users
 * hand in, so every member is checked for presence, type and range, and a failure names the key.
 * Schema 1 is result_json_v1.c; the documents that hold runs (several jobs, sweep, mark) are
 * result_json_doc.c.
 */
#include <errno.h>
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

/* An errno, negated or not: the magnitude stays within what the kernel returns. */
static void rd_errno(struct rd *rd, const json_t *o, const char *key, int *v)
{
	json_t *x = rd_get(rd, o, key);

	if (!x)
		return;
	if (!json_is_integer(x) || json_integer_value(x) < -4095 || json_integer_value(x) > 4095)
		rd_fail(rd, key, "not an errno from -4095 to 4095");
	else
		*v = (int)json_integer_value(x);
}

/* Room for one more zeroed element at arr[n], doubling the capacity as it goes. */
static void *grow(void *arr, unsigned n, unsigned *cap, size_t size)
{
	void **a = arr;

	if (n == *cap) {
		unsigned nc = *cap ? *cap * 2 : 4;
		void *g = nc > *cap ? realloc(*a, (size_t)nc * size) : NULL;

		if (!g)
			return NULL;
		*a = g;
		*cap = nc;
	}
	return memset((char *)*a + (size_t)n * size, 0, size);
}

/* A read or write direction object: its counters and histogram (the figures are derived). */
static void read_dir(struct rd *rd, const json_t *o, const char *key, struct dir_stats *d)
{
	json_t *x = rd_obj(rd, o, key);
	size_t m = rd_enter(rd, key, 0);

	dir_stats_init(d);
	if (x && rd->schema == 1) {
		result_json_v1_dir(rd, x, d);
	} else if (x) {
		result_fields_read(rd, x, &result_fields_dir, d, 0);
	}
	rd_leave(rd, m);
}

/* The trim direction, written only where there were trims. */
static void read_trim(struct rd *rd, const json_t *o, struct dir_stats *d)
{
	if (json_is_object(o) && json_object_get(o, "trim"))
		read_dir(rd, o, "trim", d);
	else
		dir_stats_init(d);
}

static void read_params(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *p = rd_obj(rd, o, "params");
	size_t m = rd_enter(rd, "params", 0);

	if (p)
		result_fields_read(rd, p, &result_fields_params, r, 0);
	rd_leave(rd, m);
}

static void read_host(struct rd *rd, const json_t *o, struct host_info *h)
{
	json_t *x = rd_obj(rd, o, "host");
	size_t m = rd_enter(rd, "host", 0);

	if (x)
		result_fields_read(rd, x, &result_fields_host, h, 0);
	rd_leave(rd, m);
}

void result_json_read_cpu(struct rd *rd, const json_t *o, struct cpu_usage *c)
{
	json_t *x = rd_obj(rd, o, "cpu");
	size_t m = rd_enter(rd, "cpu", 0);

	if (x)
		result_fields_read(rd, x, &result_fields_cpu, c, 0);
	rd_leave(rd, m);
}

static void read_kernel(struct rd *rd, const json_t *t, struct kernel_counts *k)
{
	json_t *x = rd_get(rd, t, "kernel");
	size_t m = rd_enter(rd, "kernel", 0);

	if (x && !json_is_null(x) && !json_is_object(x))
		rd_fail(rd, NULL, "not an object or null");
	if (json_is_object(x)) {
		k->valid = true;
		rd_strbuf(rd, x, "device", k->name, sizeof(k->name), false);
		rd_u64(rd, x, "read_bytes", &k->read_bytes);
		rd_u64(rd, x, "write_bytes", &k->write_bytes);
		rd_u64(rd, x, "read_ios", &k->read_ios);
		rd_u64(rd, x, "write_ios", &k->write_ios);
		if (json_object_get(x, "discard_ios")) {
			rd_u64(rd, x, "discard_bytes", &k->discard_bytes);
			rd_u64(rd, x, "discard_ios", &k->discard_ios);
		}
	}
	rd_leave(rd, m);
}

static void read_target(struct rd *rd, const json_t *t, struct target_result *tr)
{
	dir_stats_init(&tr->read);
	dir_stats_init(&tr->write);
	dir_stats_init(&tr->trim);
	if (!json_is_object(t)) {
		rd_fail(rd, NULL, "not an object");
		return;
	}
	result_fields_read(rd, t, &result_fields_target, tr, 0);
	read_dir(rd, t, "read", &tr->read);
	read_dir(rd, t, "write", &tr->write);
	read_trim(rd, t, &tr->trim);
	read_kernel(rd, t, &tr->kernel);
}

/*
 * The array at key, element by element into a growing array of size-byte items, so memory
 * follows what the input holds, not what its array sizes claim. Each is counted before it is
 * read so that result_release() frees what a failure left half read.
 */
static void read_array(struct rd *rd, const json_t *o, const char *key, void *items,
		       unsigned *n, size_t size, struct result *r,
		       void (*read)(struct rd *rd, const json_t *x, struct result *r, void *item))
{
	json_t *a = rd_arr(rd, o, key), *x;
	size_t i, m = rd_enter(rd, key, 0);
	unsigned cap = 0;

	json_array_foreach(a, i, x) {
		void *item;
		size_t m2;

		if (rd->rc)
			break;
		if (!(item = grow(items, *n, &cap, size))) {
			rd_nomem(rd);
			break;
		}
		(*n)++;
		m2 = rd_enter(rd, NULL, i);
		read(rd, x, r, item);
		rd_leave(rd, m2);
	}
	rd_leave(rd, m);
}

static void read_target_of(struct rd *rd, const json_t *x, struct result *r, void *item)
{
	read_target(rd, x, item);
}

static void read_targets(struct rd *rd, const json_t *o, struct result *r)
{
	read_array(rd, o, "targets", &r->targets, &r->ntargets, sizeof(*r->targets), r,
		   read_target_of);
}

static void read_point(struct rd *rd, const json_t *x, uint64_t bs, struct series_point *p)
{
	p->credit_iops = p->credit_mbps = -1;
	if (!json_is_object(x)) {
		rd_fail(rd, NULL, "not an object");
		return;
	}
	if (rd->schema == 1) {
		result_json_v1_point(rd, x, bs, p);
		return;
	}
	rd_double(rd, x, "t", &p->t);
	rd_double(rd, x, "seconds", &p->seconds);
	rd_u64(rd, x, "read_ios", &p->read_ios);
	rd_u64(rd, x, "write_ios", &p->write_ios);
	rd_u64(rd, x, "read_bytes", &p->read_bytes);
	rd_u64(rd, x, "write_bytes", &p->write_bytes);
	if (json_object_get(x, "trim_ios")) {
		rd_u64(rd, x, "trim_ios", &p->trim_ios);
		rd_u64(rd, x, "trim_bytes", &p->trim_bytes);
	}
	rd_u64(rd, x, "p99_ns", &p->p99_ns);
	/* Absent in runs written before the series kept the mean. */
	if (json_object_get(x, "lat_mean_ns"))
		rd_u64(rd, x, "lat_mean_ns", &p->lat_mean_ns);
	/* present only when a burst is emulated */
	if (json_object_get(x, "credit_iops"))
		rd_double(rd, x, "credit_iops", &p->credit_iops);
	if (json_object_get(x, "credit_mbps"))
		rd_double(rd, x, "credit_mbps", &p->credit_mbps);
}

static void read_point_of(struct rd *rd, const json_t *x, struct result *r, void *item)
{
	read_point(rd, x, r->job.bs, item);
}

static void read_series(struct rd *rd, const json_t *o, struct result *r)
{
	/* Runs written before the interval was recorded have a point per second. */
	r->interval_ns = JOB_INTERVAL_LONG;
	if (json_object_get(o, "interval_ns")) {
		rd_u64(rd, o, "interval_ns", &r->interval_ns);
		if (!rd->rc && !r->interval_ns)
			rd_fail(rd, "interval_ns", "must be above 0");
	}
	read_array(rd, o, "series", &r->series, &r->nseries, sizeof(*r->series), r,
		   read_point_of);
}

/* A rank's targets are targets[first_target ..][0 .. its count), which must exist. */
static void read_rank(struct rd *rd, const json_t *x, const struct result *r,
		      struct rank_result *k)
{
	json_t *t;

	dir_stats_init(&k->read);
	dir_stats_init(&k->write);
	dir_stats_init(&k->trim);
	if (!json_is_object(x)) {
		rd_fail(rd, NULL, "not an object");
		return;
	}
	rd_uint(rd, x, "rank", UINT_MAX, &k->rank);
	rd_strbuf(rd, x, "host", k->host, sizeof(k->host), false);
	rd_uint(rd, x, "first_target", UINT_MAX, &k->first_target);
	if ((t = rd_arr(rd, x, "targets")) && (json_array_size(t) > r->ntargets ||
					       k->first_target > r->ntargets - json_array_size(t)))
		rd_fail(rd, "targets", "%zu from %u: past the run's %u targets",
			json_array_size(t), k->first_target, r->ntargets);
	k->ntargets = (unsigned)json_array_size(t);
	rd_double(rd, x, "seconds", &k->seconds);
	rd_bool(rd, x, "interrupted", &k->interrupted);
	rd_strbuf(rd, x, "error", k->error, sizeof(k->error), true);
	read_dir(rd, x, "read", &k->read);
	read_dir(rd, x, "write", &k->write);
	read_trim(rd, x, &k->trim);
	result_json_read_cpu(rd, x, &k->cpu);
}

static void read_rank_of(struct rd *rd, const json_t *x, struct result *r, void *item)
{
	read_rank(rd, x, r, item);
}

/* iorate-mpi's ranks and their summary; both absent from a run of iorate. */
static void read_ranks(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *m = rd_obj(rd, o, "mpi");
	unsigned n = 0;

	read_array(rd, o, "ranks", &r->ranks, &r->nranks, sizeof(*r->ranks), r, read_rank_of);
	size_t mk = rd_enter(rd, "mpi", 0);
	rd_uint(rd, m, "ranks", UINT_MAX, &n);
	rd_uint(rd, m, "hosts", UINT_MAX, &r->nhosts);
	rd_double(rd, m, "start_skew_us", &r->start_skew_us);
	if (!rd->rc && n != r->nranks)
		rd_fail(rd, "ranks", "%u, but the array ranks holds %u", n, r->nranks);
	rd_leave(rd, mk);
}

static void read_schedule(struct rd *rd, const json_t *o, struct result *r)
{
	if (json_object_get(o, "zone_resets"))
		rd_u64(rd, o, "zone_resets", &r->zone_resets);

	json_t *x = rd_obj(rd, o, "schedule");
	size_t m = rd_enter(rd, "schedule", 0);

	if (x) {
		rd_u64(rd, x, "late_ios", &r->sched_ios_late);
		rd_double(rd, x, "max_lag_s", &r->sched_max_lag_s);
		rd_double(rd, x, "behind_s", &r->sched_behind_s);
	}
	rd_leave(rd, m);

	/* Absent before it was recorded, and from runs without emulated caps. */
	json_t *t = json_object_get(o, "throttle") ? rd_obj(rd, o, "throttle") : NULL, *h;
	size_t mt = rd_enter(rd, "throttle", 0);

	if (t && (h = rd_obj(rd, t, "held_s"))) {
		size_t mh = rd_enter(rd, "held_s", 0);

		for (unsigned b = 0; b < CAP_BUCKETS; b++)
			rd_double(rd, h, job_cap_bucket_name(b), &r->held_s[b]);
		r->has_held = true;
		rd_leave(rd, mh);
	}
	rd_leave(rd, mt);
}

/* A checksum mismatch's two checksums (absent when not known), as hex text. */
static void read_verify_sums(struct rd *rd, const json_t *s, struct verify_bad *b)
{
	const char *h, *d;
	enum verify_sum kh = VERIFY_NONE, kd = VERIFY_NONE;

	if (!s)
		return;
	h = json_string_value(json_object_get(s, "header"));
	d = json_string_value(json_object_get(s, "data"));
	if (!h || !d || verify_sum_unhex(h, b->sum_header, &kh) ||
	    verify_sum_unhex(d, b->sum_data, &kd) || kh != kd) {
		rd_fail(rd, "sum", "not two checksums of one kind in hex (header, data)");
		return;
	}
	b->sum = kh;
}

static void read_verify_bad(struct rd *rd, const json_t *x, struct verify_bad *b)
{
	const char *why = json_string_value(rd_get(rd, x, "why"));
	json_t *f = rd_get(rd, x, "found");
	size_t m;

	rd_uint(rd, x, "target", UINT_MAX, &b->target);
	rd_u64(rd, x, "offset", &b->offset);
	if (!why || verify_why_parse(why, &b->why))
		rd_fail(rd, "why", "not a reason a block is bad (unwritten, sum, stale, ...)");
	rd_uint(rd, x, "expected_gen", UINT32_MAX, &b->want_gen);
	read_verify_sums(rd, json_object_get(x, "sum"), b);
	b->has_found = f && !json_is_null(f);
	if (!b->has_found)
		return;
	m = rd_enter(rd, "found", 0);
	rd_u64(rd, f, "seed", &b->found.seed);
	rd_u64(rd, f, "offset", &b->found.offset);
	rd_uint(rd, f, "gen", UINT32_MAX, &b->found.gen);
	rd_uint(rd, f, "target", UINT32_MAX, &b->found.target);
	rd_uint(rd, f, "thread", UINT32_MAX, &b->found.thread);
	rd_uint(rd, f, "block", UINT32_MAX, &b->found.block);
	rd_leave(rd, m);
}

/* One extent of a target's written ranges: [offset, len], whole blocks, after the one before. */
static void read_extent(struct rd *rd, const json_t *p, uint32_t block, uint64_t *end,
			struct verify_extent *x)
{
	if (!json_is_array(p) || json_array_size(p) != 2 ||
	    rd_u64_of(json_array_get(p, 0), &x->offset) || rd_u64_of(json_array_get(p, 1), &x->len))
		rd_fail(rd, NULL, "not [offset, length] in bytes");
	else if (!x->len || x->offset + x->len < x->offset || x->offset < *end)
		rd_fail(rd, NULL, "empty, past 2^64, or not after the extent before it");
	else if (!block || x->offset % block || x->len % block)
		rd_fail(rd, NULL, "not whole blocks of %u bytes", block);
	*end = x->offset + x->len;
}

/* What the run wrote of one target (written[] of verify). */
static void read_written_one(struct rd *rd, const json_t *x, uint32_t block,
			     struct verify_written *w)
{
	json_t *e = rd_arr(rd, x, "extents"), *p;
	uint64_t end = 0;
	size_t i;

	rd_uint(rd, x, "target", UINT_MAX - 1, &w->target);
	rd_u64(rd, x, "blocks", &w->blocks);
	rd_bool(rd, x, "truncated", &w->truncated);
	if (rd->rc || !e)
		return;
	if (json_array_size(e) > VERIFY_EXTENTS_MAX) {
		rd_fail(rd, "extents", "more than %u", VERIFY_EXTENTS_MAX);
		return;
	}
	if (json_array_size(e) && !(w->ext = calloc(json_array_size(e), sizeof(*w->ext)))) {
		rd_nomem(rd);
		return;
	}
	json_array_foreach(e, i, p) {
		size_t m = rd_enter(rd, "extents", 0);
		rd_enter(rd, NULL, i);
		read_extent(rd, p, block, &end, &w->ext[i]);
		rd_leave(rd, m);
		if (rd->rc)
			return;
		w->n++;
	}
	if (w->truncated ? verify_written_kept(w, block) > w->blocks
			 : verify_written_kept(w, block) != w->blocks)
		rd_fail(rd, "blocks", "%llu, not the blocks the extents hold%s",
			(unsigned long long)w->blocks, w->truncated ? " or more" : "");
}

/* written[] of verify (absent: a run that did not write, or recorded before it). */
static void read_written(struct rd *rd, const json_t *x, struct verify_result *v)
{
	json_t *a = json_object_get(x, "written"), *e;
	size_t i;

	if (!a)
		return;
	if (!json_is_array(a) || json_array_size(a) > UINT_MAX / 2) {
		rd_fail(rd, "written", "not an array");
		return;
	}
	if (json_array_size(a) && !(v->written = calloc(json_array_size(a), sizeof(*v->written)))) {
		rd_nomem(rd);
		return;
	}
	json_array_foreach(a, i, e) {
		size_t m = rd_enter(rd, "written", 0);
		rd_enter(rd, NULL, i);
		/* Counted first, so that a failure frees what was read. */
		v->nwritten++;
		if (!json_is_object(e))
			rd_fail(rd, NULL, "not an object");
		else
			read_written_one(rd, e, v->block, &v->written[i]);
		rd_leave(rd, m);
		if (rd->rc)
			return;
	}
}

/* --verify's findings (absent when the run did not verify). */
static void read_verify(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *x = json_object_get(o, "verify"), *a, *e;
	struct verify_result *v = &r->verify;
	const char *sum;
	size_t i, m;
	uint64_t bad = 0;

	if (!x)
		return;
	m = rd_enter(rd, "verify", 0);
	sum = json_string_value(rd_get(rd, x, "sum"));
	if (!sum || verify_sum_parse(sum, &v->sum))
		rd_fail(rd, "sum", "not a checksum iorate makes (crc32c, md5, sha256)");
	rd_uint(rd, x, "block", UINT32_MAX, &v->block);
	rd_u64(rd, x, "checked", &v->checked);
	rd_u64(rd, x, "bad", &bad);
	rd_u64(rd, x, "unknown", &v->unknown);
	a = rd_arr(rd, x, "bad_blocks");
	json_array_foreach(a, i, e) {
		struct verify_bad b = {0};
		size_t m2 = rd_enter(rd, NULL, i);
		if (!json_is_object(e))
			rd_fail(rd, NULL, "not an object");
		else
			read_verify_bad(rd, e, &b);
		rd_leave(rd, m2);
		if (rd->rc)
			break;
		verify_result_add(v, &b);
	}
	if (!rd->rc && (v->nbads != json_array_size(a) || bad < v->nbads))
		rd_fail(rd, "bad", "%llu, fewer than the bad blocks listed (or more than %u listed)",
			(unsigned long long)bad, VERIFY_KEEP);
	v->bad = bad;
	read_written(rd, x, v);
	rd_leave(rd, m);
}

/* error is the one line reports print: errmsg, or strerror(error_code) when errmsg is "". */
static void read_error(struct rd *rd, const json_t *o, struct result *r)
{
	rd_strbuf(rd, o, "error", r->errmsg, sizeof(r->errmsg), true);
	rd_errno(rd, o, "error_code", &r->error);
	if (r->error &&
	    !strcmp(r->errmsg, strerror(r->error < 0 ? -r->error : r->error)))
		r->errmsg[0] = '\0';
}

/* Both schemas: schema 1 is checked before and completed after (result_json_v1.c). */
static void read_run(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *t;
	size_t m;

	if (rd->schema == 1) {
		result_json_v1_check(rd, o);
		r->started = true; /* every run it printed had started */
	}
	rd_strbuf(rd, o, "version", r->version, sizeof(r->version), false);
	rd_strdup(rd, o, "command_line", &r->job.command_line, true);
	rd_strbuf(rd, o, "origin", r->job.origin, sizeof(r->job.origin), false);
	rd_u64(rd, o, "start_unix_ms", &r->start_unix_ms);
	rd_bool(rd, o, "interrupted", &r->interrupted);
	read_error(rd, o, r);
	rd_bool(rd, o, "started", &r->started);
	rd_strings(rd, o, "notes", r, result_json_add_note);
	read_params(rd, o, r);
	read_host(rd, o, &r->host);
	result_json_read_cpu(rd, o, &r->cpu);
	rd_double(rd, o, "seconds", &r->seconds);
	read_schedule(rd, o, r);
	read_targets(rd, o, r);
	t = rd_obj(rd, o, "total");
	m = rd_enter(rd, "total", 0);
	read_dir(rd, t, "read", &r->read);
	read_dir(rd, t, "write", &r->write);
	read_trim(rd, t, &r->trim);
	rd_leave(rd, m);
	if ((t = json_object_get(o, "latency_target")) && json_is_object(t)) {
		m = rd_enter(rd, "latency_target", 0);
		rd_uint(rd, t, "threads", UINT_MAX, &r->lat.threads);
		rd_uint(rd, t, "finished", UINT_MAX, &r->lat.finished);
		rd_uint(rd, t, "depth_min", UINT_MAX, &r->lat.depth_min);
		rd_uint(rd, t, "depth_max", UINT_MAX, &r->lat.depth_max);
		rd_double(rd, t, "seconds", &r->lat.seconds);
		rd_u64(rd, t, "worst_ns", &r->lat.worst_ns);
		read_dir(rd, t, "final", &r->lat.fin);
		rd_leave(rd, m);
	}
	if ((t = json_object_get(o, "prio"))) {
		m = rd_enter(rd, "prio", 0);
		read_dir(rd, t, "read", &r->prio[0]);
		read_dir(rd, t, "write", &r->prio[1]);
		rd_leave(rd, m);
	}
	read_series(rd, o, r);
	result_json_read_views(rd, o, &r->devices, &r->ndevices);
	result_json_read_errnos(rd, o, r);
	read_verify(rd, o, r);
	if (json_object_get(o, "ranks") || json_object_get(o, "mpi"))
		read_ranks(rd, o, r);
	if (rd->schema == 1)
		result_json_v1_finish(rd, o, r);
}

int result_json_read_run(const json_t *o, const char *prefix, struct result *r, char *err,
			 size_t errlen)
{
	struct rd rd = {.err = err, .errlen = errlen};
	json_t *s = json_object_get(o, "schema");

	snprintf(rd.path, sizeof(rd.path), "%s", prefix);
	result_init(r);
	if (!json_is_object(o))
		rd_fail(&rd, NULL, "not a JSON object");
	else if (!json_is_integer(s))
		rd_fail(&rd, "schema", "missing: not the JSON of 'iorate run --json'");
	else if (json_integer_value(s) == 1 || json_integer_value(s) == RESULT_JSON_SCHEMA) {
		rd.schema = (int)json_integer_value(s);
		read_run(&rd, o, r);
	} else
		rd_fail(&rd, "schema", "%lld is not a schema this iorate reads (1 or %d)",
			(long long)json_integer_value(s), RESULT_JSON_SCHEMA);
	if (rd.rc) {
		result_release(r);
		result_init(r);
	}
	return rd.rc;
}

int result_from_json(const json_t *o, struct result *r, char *err, size_t errlen)
{
	return result_json_read_run(o, "", r, err, errlen);
}
