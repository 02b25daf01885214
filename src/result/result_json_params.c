/*
 * The values of params and params.shape (result_fields_params and result_fields_shape,
 * fields.c) that are not one member of the job: the caps, latency_target, the engine, the
 * job's targets, the block-size mixes, the sequence, the zones, sprandom, zbd and verify, each
 * written and read by its own code here, which the table's row names.
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

/* The shape's own values; base is the struct job. */
json_t *result_json_put_bs_read(const void *base, int *err)
{
	const struct job *j = base;

	return pairs(j->nbs_read, j->bs_read, false, false, err);
}

void result_json_get_bs_read(struct rd *rd, const json_t *o, const char *key, void *base)
{
	struct job *j = base;

	read_pairs(rd, o, key, false, false, j->bs_read, JOB_MAX_BS, &j->nbs_read);
}

json_t *result_json_put_bs_write(const void *base, int *err)
{
	const struct job *j = base;

	return pairs(j->nbs_write, j->bs_write, false, false, err);
}

void result_json_get_bs_write(struct rd *rd, const json_t *o, const char *key, void *base)
{
	struct job *j = base;

	read_pairs(rd, o, key, false, false, j->bs_write, JOB_MAX_BS, &j->nbs_write);
}

/* The zones' sizes are bytes with zoned_abs (dist, read before them), percents otherwise. */
json_t *result_json_put_zones(const void *base, int *err)
{
	const struct job *j = base;

	return pairs(j->nzones, j->zones, true, j->dist == DIST_ZONED_ABS, err);
}

void result_json_get_zones(struct rd *rd, const json_t *o, const char *key, void *base)
{
	struct job *j = base;

	read_pairs(rd, o, key, true, j->dist == DIST_ZONED_ABS, j->zones, JOB_MAX_ZONES,
		   &j->nzones);
}

bool result_json_is_sequence(const void *base)
{
	return ((const struct job *)base)->dist == DIST_SEQUENCE;
}

json_t *result_json_put_sequence(const void *base, int *err)
{
	const struct job *j = base;
	json_t *a = json_array();

	for (unsigned i = 0; i < j->nseq; i++)
		append(a, json_integer(j->seq[i]), err);
	return a;
}

/* shape.sequence: the block indices of the sequence distribution, 1 to 64 of them. */
void result_json_get_sequence(struct rd *rd, const json_t *s, const char *key, void *base)
{
	const json_t *a = json_object_get(s, key), *v;
	struct job *j = base;
	size_t i;

	if (j->dist != DIST_SEQUENCE)
		return;
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > JOB_MAX_SEQ) {
		rd_fail(rd, key, "not an array of 1 to %d block indices", JOB_MAX_SEQ);
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > UINT32_MAX) {
			rd_fail(rd, key, "holds what is not a block index");
			return;
		}
		j->seq[i] = (uint32_t)json_integer_value(v);
	}
	j->nseq = (unsigned)json_array_size(a);
}

bool result_json_has_sprandom(const void *base)
{
	return ((const struct job *)base)->sprandom;
}

json_t *result_json_put_sprandom(const void *base, int *err)
{
	const struct job *j = base;
	json_t *z = json_object();

	put(z, "op", result_json_real(j->spr_op), err);
	put(z, "regions", json_integer(j->spr_regions), err);
	put(z, "cache", result_json_u64(j->spr_cache), err);
	return z;
}

/* Present only in a run that had it. */
void result_json_get_sprandom(struct rd *rd, const json_t *s, const char *key, void *base)
{
	json_t *z = json_object_get(s, key) ? rd_obj(rd, s, key) : NULL;
	size_t m = rd_enter(rd, key, 0);
	struct job *j = base;

	if (z) {
		j->sprandom = true;
		rd_double(rd, z, "op", &j->spr_op);
		rd_uint(rd, z, "regions", UINT_MAX, &j->spr_regions);
		rd_u64(rd, z, "cache", &j->spr_cache);
	}
	rd_leave(rd, m);
}

bool result_json_has_zbd(const void *base)
{
	return ((const struct job *)base)->zbd;
}

json_t *result_json_put_zbd(const void *base, int *err)
{
	const struct job *j = base;
	json_t *z = json_object();

	put(z, "zone_capacity", result_json_u64(j->zone_capacity), err);
	put(z, "max_open_zones", json_integer(j->max_open_zones), err);
	put(z, "job_max_open_zones", json_integer(j->job_max_open_zones), err);
	put(z, "zone_reset_threshold", result_json_real(j->zone_reset_threshold), err);
	put(z, "zone_reset_frequency", result_json_real(j->zone_reset_frequency), err);
	put(z, "read_beyond_wp", json_boolean(j->read_beyond_wp), err);
	return z;
}

/* Present only in a run that had it. */
void result_json_get_zbd(struct rd *rd, const json_t *s, const char *key, void *base)
{
	json_t *z = json_object_get(s, key) ? rd_obj(rd, s, key) : NULL;
	size_t m = rd_enter(rd, key, 0);
	struct job *j = base;

	if (z) {
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

json_t *result_json_put_verify(const void *base, int *err)
{
	const struct job *j = base;

	(void)err;
	return result_json_str(verify_sum_name((enum verify_sum)j->verify));
}

/* --verify as the job asked it (absent in runs recorded before it). */
void result_json_get_verify(struct rd *rd, const json_t *s, const char *key, void *base)
{
	json_t *v = json_object_get(s, key);
	enum verify_sum sum = VERIFY_NONE;

	if (!v)
		return;
	if (!json_is_null(v) && (!json_is_string(v) || verify_sum_parse(json_string_value(v), &sum)))
		rd_fail(rd, key, "not null or a checksum iorate makes (crc32c, md5, sha256)");
	((struct job *)base)->verify = sum;
}
