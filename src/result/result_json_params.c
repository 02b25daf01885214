/*
 * The values of params (result_fields_params, fields.c) that are not one member of the job:
 * params.shape, the caps, latency_target, the engine and the job's targets, each written and
 * read by its own code here, which the table's row names.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_json.h"
#include "result/result_json_int.h"

#define put result_json_put
#define append result_json_append

static json_t *caps_obj(const struct job_caps *c, int *err)
{
	json_t *o = json_object();

	put(o, "iops", result_json_real(c->iops), err);
	put(o, "mbps", result_json_real(c->mbps), err);
	put(o, "burst_iops", result_json_real(c->burst_iops), err);
	put(o, "burst_mbps", result_json_real(c->burst_mbps), err);
	put(o, "burst_seconds", result_json_real(c->burst_seconds), err);
	return o;
}

/* [[a, b], ...]: a block-size mix, or a distribution's zones ([percent, percent or bytes]). */
static json_t *pairs(unsigned n, const void *items, bool zones, bool abs, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < n; i++) {
		json_t *p = json_array();
		if (zones) {
			const struct job_zone *z = &((const struct job_zone *)items)[i];
			append(p, result_json_real(z->access_pct), err);
			append(p, abs ? result_json_u64(z->size_bytes) : result_json_real(z->size_pct),
			       err);
		} else {
			const struct job_bs *b = &((const struct job_bs *)items)[i];
			append(p, result_json_u64(b->bs), err);
			append(p, json_integer(b->pct), err);
		}
		append(a, p, err);
	}
	return a;
}

/* What the job asks beyond one block size and a uniform pattern (all defaults for most). */
static json_t *shape_obj(const struct job *j, int *err)
{
	json_t *o = json_object();

	put(o, "startdelay_ns", result_json_u64(j->startdelay_ns), err);
	put(o, "bs_read", pairs(j->nbs_read, j->bs_read, false, false, err), err);
	put(o, "bs_write", pairs(j->nbs_write, j->bs_write, false, false, err), err);
	put(o, "dist", json_string(result_json_dist[(unsigned)j->dist % 7]), err);
	if (j->dist == DIST_SEQUENCE) {
		json_t *a = json_array();
		for (unsigned i = 0; i < j->nseq; i++)
			append(a, json_integer(j->seq[i]), err);
		put(o, "sequence", a, err);
		put(o, "sequence_stride", json_boolean(j->seq_stride), err);
	}
	put(o, "dist_param", result_json_real(j->dist_param), err);
	put(o, "zones", pairs(j->nzones, j->zones, true, j->dist == DIST_ZONED_ABS, err), err);
	put(o, "random_pct", json_integer(j->random_pct), err);
	put(o, "skip", result_json_u64(j->skip), err);
	put(o, "rewind", result_json_u64(j->rewind), err);
	put(o, "zone_size", result_json_u64(j->zone_size), err);
	put(o, "zone_range", result_json_u64(j->zone_range), err);
	put(o, "zone_skip", result_json_u64(j->zone_skip), err);
	if (j->sprandom) {
		json_t *z = json_object();

		put(z, "op", result_json_real(j->spr_op), err);
		put(z, "regions", json_integer(j->spr_regions), err);
		put(z, "cache", result_json_u64(j->spr_cache), err);
		put(o, "sprandom", z, err);
	}
	if (j->zbd) {
		json_t *z = json_object();

		put(z, "zone_capacity", result_json_u64(j->zone_capacity), err);
		put(z, "max_open_zones", json_integer(j->max_open_zones), err);
		put(z, "job_max_open_zones", json_integer(j->job_max_open_zones), err);
		put(z, "zone_reset_threshold", result_json_real(j->zone_reset_threshold), err);
		put(z, "zone_reset_frequency", result_json_real(j->zone_reset_frequency), err);
		put(z, "read_beyond_wp", json_boolean(j->read_beyond_wp), err);
		put(o, "zbd", z, err);
	}
	put(o, "until_full", json_boolean(j->until_full), err);
	put(o, "seq_per_thread", json_boolean(j->seq_per_thread), err);
	put(o, "thread_stride", result_json_u64(j->thread_stride), err);
	put(o, "io_bytes", result_json_u64(j->io_bytes), err);
	put(o, "thinktime_ns", result_json_u64(j->thinktime_ns), err);
	put(o, "thinktime_blocks", json_integer(j->thinktime_blocks), err);
	put(o, "flow", json_integer(j->flow), err);
	put(o, "flow_id", json_integer(j->flow_id), err);
	put(o, "flow_sleep_ns", result_json_u64(j->flow_sleep_ns), err);
	put(o, "fdatasync_every", json_integer(j->fdatasync_every), err);
	put(o, "end_fsync", json_boolean(j->end_fsync), err);
	put(o, "invalidate", json_boolean(j->invalidate), err);
	put(o, "shared_threads", json_boolean(j->shared_threads), err);
	put(o, "file_service", json_string(result_json_files[(unsigned)j->file_service % 3]), err);
	put(o, "file_service_n", json_integer(j->file_service_n), err);
	put(o, "verify", result_json_str(verify_sum_name((enum verify_sum)j->verify)), err);
	put(o, "verify_block", result_json_u64(j->verify_block), err);
	return o;
}

static void read_caps(struct rd *rd, const json_t *o, const char *key, struct job_caps *c)
{
	json_t *x = rd_obj(rd, o, key);
	size_t m = rd_enter(rd, key, 0);

	if (x) {
		rd_double(rd, x, "iops", &c->iops);
		rd_double(rd, x, "mbps", &c->mbps);
		rd_double(rd, x, "burst_iops", &c->burst_iops);
		rd_double(rd, x, "burst_mbps", &c->burst_mbps);
		rd_double(rd, x, "burst_seconds", &c->burst_seconds);
	}
	rd_leave(rd, m);
}

/* [[a, b], ...] into a block-size mix (zones false) or a distribution's zones (in bytes when
 * abs). */
static void read_pairs(struct rd *rd, const json_t *o, const char *key, bool zones, bool abs,
		       void *items, unsigned max, unsigned *n)
{
	json_t *a = rd_arr(rd, o, key), *x;
	size_t i, m = rd_enter(rd, key, 0);

	json_array_foreach(a, i, x) {
		size_t m2 = rd_enter(rd, NULL, i);
		if (!json_is_array(x) || json_array_size(x) != 2 || i >= max)
			rd_fail(rd, NULL, "not a pair, or more than %u of them", max);
		else if (zones) {
			struct job_zone *z = &((struct job_zone *)items)[i];
			if (!json_is_number(json_array_get(x, 0)) ||
			    !json_is_number(json_array_get(x, 1)))
				rd_fail(rd, NULL, "not [access percent, size percent]");
			*z = (struct job_zone){.access_pct = json_number_value(json_array_get(x, 0))};
			if (abs && (!json_is_integer(json_array_get(x, 1)) ||
				    json_integer_value(json_array_get(x, 1)) < 0))
				rd_fail(rd, NULL, "not [access percent, bytes]");
			else if (abs)
				z->size_bytes = (uint64_t)json_integer_value(json_array_get(x, 1));
			else
				z->size_pct = json_number_value(json_array_get(x, 1));
		} else {
			struct job_bs *b = &((struct job_bs *)items)[i];
			json_t *bs = json_array_get(x, 0), *pct = json_array_get(x, 1);
			if (!json_is_integer(bs) || !json_is_integer(pct) ||
			    json_integer_value(bs) <= 0 || json_integer_value(pct) < 0 ||
			    json_integer_value(pct) > 100)
				rd_fail(rd, NULL, "not [bytes, percent]");
			b->bs = (uint64_t)json_integer_value(bs);
			b->pct = (unsigned)json_integer_value(pct);
		}
		rd_leave(rd, m2);
		if (rd->rc)
			break;
		*n = (unsigned)i + 1;
	}
	rd_leave(rd, m);
}

/* --verify as the job asked it (absent in runs recorded before it). */
static void read_job_verify(struct rd *rd, const json_t *s, struct job *j)
{
	json_t *v = json_object_get(s, "verify");
	enum verify_sum sum = VERIFY_NONE;

	if (!v)
		return;
	if (!json_is_null(v) && (!json_is_string(v) || verify_sum_parse(json_string_value(v), &sum)))
		rd_fail(rd, "verify", "not null or a checksum iorate makes (crc32c, md5, sha256)");
	j->verify = sum;
	rd_u64(rd, s, "verify_block", &j->verify_block);
}

/* shape.sequence: the block indices of the sequence distribution, 1 to 64 of them. */
static void read_sequence(struct rd *rd, const json_t *s, struct job *j)
{
	const json_t *a = json_object_get(s, "sequence"), *v;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > JOB_MAX_SEQ) {
		rd_fail(rd, "sequence", "not an array of 1 to %d block indices", JOB_MAX_SEQ);
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > UINT32_MAX) {
			rd_fail(rd, "sequence", "holds what is not a block index");
			return;
		}
		j->seq[i] = (uint32_t)json_integer_value(v);
	}
	j->nseq = (unsigned)json_array_size(a);
	rd_bool(rd, s, "sequence_stride", &j->seq_stride);
}

/* Sub-objects of the shape present only in a run that had them: SPRandom and emulated zones. */
static void read_extras(struct rd *rd, const json_t *s, struct job *j)
{
	static const char *const keys[] = {"sprandom", "zbd"};

	for (unsigned k = 0; k < 2; k++) {
		json_t *z = json_object_get(s, keys[k]) ? rd_obj(rd, s, keys[k]) : NULL;
		size_t m = rd_enter(rd, keys[k], 0);

		if (z && k == 0) {
			j->sprandom = true;
			rd_double(rd, z, "op", &j->spr_op);
			rd_uint(rd, z, "regions", UINT_MAX, &j->spr_regions);
			rd_u64(rd, z, "cache", &j->spr_cache);
		} else if (z) {
			j->zbd = true;
			rd_u64(rd, z, "zone_capacity", &j->zone_capacity);
			rd_uint(rd, z, "max_open_zones", UINT_MAX, &j->max_open_zones);
			rd_uint(rd, z, "job_max_open_zones", UINT_MAX, &j->job_max_open_zones);
			rd_double(rd, z, "zone_reset_threshold", &j->zone_reset_threshold);
			rd_double(rd, z, "zone_reset_frequency", &j->zone_reset_frequency);
			rd_bool(rd, z, "read_beyond_wp", &j->read_beyond_wp);
		}
		rd_leave(rd, m);
	}
}

/* What the job asked beyond one size and a uniform pattern (absent in older runs: defaults). */
static void read_shape(struct rd *rd, const json_t *p, struct job *j)
{
	json_t *s = json_object_get(p, "shape");
	size_t m = rd_enter(rd, "shape", 0);
	unsigned dist = 0, files = 0;

	if (s) {
		rd_u64(rd, s, "startdelay_ns", &j->startdelay_ns);
		read_pairs(rd, s, "bs_read", false, false, j->bs_read, JOB_MAX_BS, &j->nbs_read);
		read_pairs(rd, s, "bs_write", false, false, j->bs_write, JOB_MAX_BS, &j->nbs_write);
		rd_enum(rd, s, "dist", result_json_dist, 7, &dist);
		if (dist == DIST_SEQUENCE)
			read_sequence(rd, s, j);
		rd_double(rd, s, "dist_param", &j->dist_param);
		read_pairs(rd, s, "zones", true, dist == DIST_ZONED_ABS, j->zones, JOB_MAX_ZONES,
			   &j->nzones);
		rd_uint(rd, s, "random_pct", 100, &j->random_pct);
		rd_u64(rd, s, "skip", &j->skip);
		/* Absent in runs written before backward sweeps, strided zones and fills. */
		static const char *const later[] = {"rewind", "zone_size", "zone_range", "zone_skip"};
		uint64_t *lv[] = {&j->rewind, &j->zone_size, &j->zone_range, &j->zone_skip};
		for (unsigned i = 0; i < 4; i++)
			if (json_object_get(s, later[i]))
				rd_u64(rd, s, later[i], lv[i]);
		if (json_object_get(s, "until_full"))
			rd_bool(rd, s, "until_full", &j->until_full);
		read_extras(rd, s, j);
		rd_bool(rd, s, "seq_per_thread", &j->seq_per_thread);
		rd_u64(rd, s, "thread_stride", &j->thread_stride);
		rd_u64(rd, s, "io_bytes", &j->io_bytes);
		rd_u64(rd, s, "thinktime_ns", &j->thinktime_ns);
		rd_uint(rd, s, "thinktime_blocks", UINT_MAX, &j->thinktime_blocks);
		/* Absent in runs written before flow control. */
		if (json_object_get(s, "flow")) {
			rd_uint(rd, s, "flow", 1000, &j->flow);
			rd_uint(rd, s, "flow_id", UINT_MAX, &j->flow_id);
			rd_u64(rd, s, "flow_sleep_ns", &j->flow_sleep_ns);
		}
		rd_uint(rd, s, "fdatasync_every", UINT_MAX, &j->fdatasync_every);
		rd_bool(rd, s, "end_fsync", &j->end_fsync);
		rd_bool(rd, s, "invalidate", &j->invalidate);
		rd_bool(rd, s, "shared_threads", &j->shared_threads);
		rd_enum(rd, s, "file_service", result_json_files, 3, &files);
		rd_uint(rd, s, "file_service_n", UINT_MAX, &j->file_service_n);
		read_job_verify(rd, s, j);
		j->dist = (enum job_dist)dist;
		j->file_service = (enum job_file_service)files;
	} else {
		/* Runs recorded before shapes kept whatever the page cache held. */
		j->invalidate = false;
	}
	rd_leave(rd, m);
}

/* params.latency_target: null, or the search's settings; absent in runs written before it. */
static void read_lat_target(struct rd *rd, const json_t *p, struct job *j)
{
	const json_t *l = json_object_get(p, "latency_target");

	if (!l || json_is_null(l))
		return;
	if (!json_is_object(l)) {
		rd_fail(rd, "latency_target", "not null or an object");
		return;
	}
	rd_u64(rd, l, "target_ns", &j->lat_target_ns);
	rd_u64(rd, l, "window_ns", &j->lat_window_ns);
	rd_double(rd, l, "percentile", &j->lat_pct);
	rd_bool(rd, l, "run", &j->lat_run);
	if (!j->lat_target_ns || !(j->lat_pct > 0 && j->lat_pct <= 100))
		rd_fail(rd, "latency_target", "a target above 0 and a percentile above 0, at most "
			"100");
}


json_t *result_json_put_shape(const void *base, int *err)
{
	return shape_obj(&((const struct result *)base)->job, err);
}

void result_json_get_shape(struct rd *rd, const json_t *o, const char *key, void *base)
{
	(void)key;
	read_shape(rd, o, &((struct result *)base)->job);
}

json_t *result_json_put_cap(const void *base, int *err)
{
	return caps_obj(&((const struct result *)base)->job.cap, err);
}

void result_json_get_cap(struct rd *rd, const json_t *o, const char *key, void *base)
{
	read_caps(rd, o, key, &((struct result *)base)->job.cap);
}

json_t *result_json_put_vm_cap(const void *base, int *err)
{
	return caps_obj(&((const struct result *)base)->job.vm_cap, err);
}

void result_json_get_vm_cap(struct rd *rd, const json_t *o, const char *key, void *base)
{
	read_caps(rd, o, key, &((struct result *)base)->job.vm_cap);
}

json_t *result_json_put_lat_target(const void *base, int *err)
{
	const struct job *j = &((const struct result *)base)->job;
	json_t *l;

	if (!j->lat_target_ns)
		return json_null();
	l = json_object();
	put(l, "target_ns", result_json_u64(j->lat_target_ns), err);
	put(l, "window_ns", result_json_u64(j->lat_window_ns), err);
	put(l, "percentile", result_json_real(j->lat_pct > 0 ? j->lat_pct : 100), err);
	put(l, "run", json_boolean(j->lat_run), err);
	return l;
}

void result_json_get_lat_target(struct rd *rd, const json_t *o, const char *key, void *base)
{
	(void)key;
	read_lat_target(rd, o, &((struct result *)base)->job);
}

/* The engine used; a job not yet run names the one it asks for. */
json_t *result_json_put_engine(const void *base, int *err)
{
	const struct result *r = base;

	(void)err;
	return result_json_str(r->engine[0] ? r->engine : r->job.engine);
}

/* Read back as both: the runner sets the job's engine to the one it used. */
void result_json_get_engine(struct rd *rd, const json_t *o, const char *key, void *base)
{
	struct result *r = base;

	rd_strbuf(rd, o, key, r->engine, sizeof(r->engine), false);
	memcpy(r->job.engine, r->engine, sizeof(r->job.engine));
}

json_t *result_json_put_targets(const void *base, int *err)
{
	const struct job *j = &((const struct result *)base)->job;
	json_t *a = json_array();

	for (unsigned i = 0; i < j->ntargets; i++)
		append(a, result_json_str(j->targets[i]), err);
	return a;
}

void result_json_get_targets(struct rd *rd, const json_t *o, const char *key, void *base)
{
	rd_strings(rd, o, key, &((struct result *)base)->job, result_json_add_target);
}
