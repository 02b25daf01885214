/*
 * Where a fio job's I/O goes beyond its region: fill_device (write until the target is full,
 * whatever size says); fio's strided zones (zonemode=strided with zonesize, zonerange and
 * zoneskip): I/O stays in a zone until zonesize bytes were moved, then the next zone starts
 * zonerange + zoneskip further on; and zonemode=zbd, which on a regular file or a device that
 * is not zoned fio emulates, as iorate's --zbd does (src/core/zbd.h). fio refuses a zonesize
 * without a zone mode and a mode without a zonesize, and so does the translation. fio_job.c
 * calls fio_zones_resolve() and fio_zones_emit() for every job.
 */
#include <errno.h>
#include <stdlib.h>

#include "compat/fio.h"
#include "util/parse.h"

int fio_zones_resolve(struct fio_emit *e, struct fio_opts *o)
{
	uint64_t *v[] = {&o->size, &o->io_size, &o->offset, &o->offset_inc};
	const bool z[] = {o->size_z, o->io_size_z, o->offset_z, o->offset_inc_z};
	const enum fio_id id[] = {FO_SIZE, FO_IO_SIZE, FO_OFFSET, FO_OFFSET_INC};

	for (unsigned i = 0; i < 4; i++) {
		if (!z[i])
			continue;
		if (!o->zonesize)
			return fio_emit_fail(e, o->src[id[i]], NULL, "counts zones, which fio needs "
					     "zonesize for");
		if (__builtin_mul_overflow(*v[i], o->zonesize, v[i]))
			return fio_emit_fail(e, o->src[id[i]], NULL, "does not fit in 64 bits");
	}
	return 0;
}

/* A fraction of zone_reset_threshold or _frequency, or -1 (refused, the reason recorded). */
static double fraction(struct fio_emit *e, const struct fio_line *l, const char *s, int *r)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0 && v <= 1)) {
		*r = fio_emit_fail(e, l, NULL, "is not a fraction from 0 to 1");
		return -1;
	}
	return v;
}

/* sprandom (fio 3.41 and later): SSD preconditioning, iorate's --sprandom. */
static int emit_spr(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_SPR];
	char v[32];
	int r = 0;

	if (!o->sprandom) {
		const struct fio_line *x = o->src[FO_SPR_OP] ? o->src[FO_SPR_OP]
					 : o->src[FO_SPR_REGIONS] ? o->src[FO_SPR_REGIONS]
					 : o->src[FO_SPR_CS];
		return x ? fio_note(e, x, NULL, "of no effect without sprandom=1", "(no effect)")
			 : l ? fio_note(e, l, NULL, NULL, "(the default: no preconditioning)") : 0;
	}
	if (o->src[FO_NORANDOMMAP] && !o->norandommap)
		return fio_emit_fail(e, o->src[FO_NORANDOMMAP], NULL, "fio refuses it with "
				     "sprandom=1 (which needs norandommap=1)");
	if ((r = fio_set(e, l, NULL, "sprandom", NULL, "the region written once over its "
			 "physical capacity, its regions' invalid blocks as at steady state; the "
			 "job ends with the pass (its size and io_size aside, as fio's)")))
		return r;
	if (o->spr_op) {
		char *end;
		double op = strtod(o->spr_op, &end);

		if (end == o->spr_op || *end || !(op > 0 && op < 1))
			return fio_emit_fail(e, o->src[FO_SPR_OP], NULL, "is not a fraction above 0 "
					     "and below 1");
		if ((r = fio_set(e, o->src[FO_SPR_OP], NULL, "spr-op", o->spr_op,
				 "the device's over-provisioning")))
			return r;
	}
	if (o->spr_regions) {
		snprintf(v, sizeof(v), "%u", o->spr_regions);
		if ((r = fio_set(e, o->src[FO_SPR_REGIONS], NULL, "spr-num-regions", v, NULL)))
			return r;
	}
	if (o->spr_cs)
		r = fio_set(e, o->src[FO_SPR_CS], NULL, "spr-cs", fmt_size(o->spr_cs, v, sizeof(v)),
			    "rewrites wait a region past the device's cache");
	return r;
}

/* zonemode=zbd: emulated zones, with what fio asks of them. */
static int emit_zbd(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *m = o->src[FO_ZONEMODE], *sz = o->src[FO_ZONESIZE];
	char v[32];
	int r = 0;

	if (!o->zonesize)
		return fio_emit_fail(e, m, NULL, "fio needs zonesize with it on a file or a device "
				     "that is not zoned");
	if (o->zoneskip)
		return fio_note(e, o->src[FO_ZONESKIP], NULL, "fio ignores zoneskip with "
				"zonemode=zbd", "(no effect)");
	if (o->zonerange && o->zonerange != o->zonesize)
		return fio_emit_fail(e, o->src[FO_ZONERANGE], NULL, "fio needs it equal to "
				     "zonesize with zonemode=zbd");
	if ((r = fio_set(e, m, NULL, "zbd", NULL, "zones written only at their write pointers, "
			 "emulated as fio does on a file or a device that is not zoned")) ||
	    (r = fio_set(e, sz, NULL, "zone-size", fmt_size(o->zonesize, v, sizeof(v)),
			 "bytes per zone")))
		return r;
	if (o->zonecap && (r = fio_set(e, o->src[FO_ZONECAP], NULL, "zone-capacity",
				       fmt_size(o->zonecap, v, sizeof(v)), "writable bytes per zone")))
		return r;
	if (o->max_open) {
		snprintf(v, sizeof(v), "%u", o->max_open);
		if ((r = fio_set(e, o->src[FO_MAX_OPEN], NULL, "max-open-zones", v, NULL)))
			return r;
	}
	if (o->job_max_open) {
		snprintf(v, sizeof(v), "%u", o->job_max_open);
		if ((r = fio_set(e, o->src[FO_JOB_MAX_OPEN], NULL, "job-max-open-zones", v, NULL)))
			return r;
	}
	if (o->zrf) {
		double f = fraction(e, o->src[FO_ZRF], o->zrf, &r), t = 0;

		if (f < 0 || (o->zrt && (t = fraction(e, o->src[FO_ZRT], o->zrt, &r)) < 0))
			return r;
		if (f > 0 && ((o->zrt && t > 0 && (r = fio_set(e, o->src[FO_ZRT], NULL,
						"zone-reset-threshold", o->zrt, NULL))) ||
			      (r = fio_set(e, o->src[FO_ZRF], NULL, "zone-reset-frequency", o->zrf,
					   "writes that reset their zone first, past the threshold"))))
			return r;
	} else if (o->zrt && (r = fio_note(e, o->src[FO_ZRT], NULL, "fio resets zones by it only "
					   "with zone_reset_frequency", "(no effect)"))) {
		return r;
	}
	if (o->read_beyond_wp)
		r = fio_set(e, o->src[FO_RBWP], NULL, "read-beyond-wp", NULL, NULL);
	return r;
}

/* fill_device=1: the region is the target's free space; a size still ends the job first. */
static int emit_fill(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_FILL_DEVICE];

	if (!o->fill_device)
		return l ? fio_note(e, l, NULL, NULL, "(the default: the job's size)") : 0;
	return fio_set(e, l, NULL, "until-full", NULL, "sequential writes until the target is "
		       "full (a file grows over its filesystem's free space, a device to its end), "
		       "or its size is done");
}

int fio_zones_emit(struct fio_emit *e, const struct fio_opts *o)
{
	int r;

	if ((r = emit_fill(e, o)) || (r = emit_spr(e, o)))
		return r;
	const struct fio_line *m = o->src[FO_ZONEMODE], *sz = o->src[FO_ZONESIZE],
			     *rg = o->src[FO_ZONERANGE], *sk = o->src[FO_ZONESKIP];
	char v[32];

	if (o->zbd)
		return emit_zbd(e, o);
	if (!o->zbd) {
		const struct fio_line *zl = o->src[FO_ZONECAP] ? o->src[FO_ZONECAP]
					  : o->src[FO_MAX_OPEN] ? o->src[FO_MAX_OPEN]
					  : o->src[FO_JOB_MAX_OPEN] ? o->src[FO_JOB_MAX_OPEN]
					  : o->src[FO_ZRT] ? o->src[FO_ZRT] : o->src[FO_ZRF] ? o->src[FO_ZRF]
					  : o->src[FO_RBWP];
		if (zl && (r = fio_note(e, zl, NULL, "of no effect without zonemode=zbd",
					"(no effect)")))
			return r;
	}
	if (!o->strided) {
		if (o->zonesize || o->zonerange || o->zoneskip)
			return fio_emit_fail(e, sz ? sz : rg ? rg : sk, NULL, "fio refuses it "
					     "without zonemode=strided or zbd");
		return m ? fio_note(e, m, NULL, NULL, "(no zones: the default)") : 0;
	}
	if (!o->zonesize)
		return fio_emit_fail(e, m, NULL, "fio needs zonesize with it");
	if ((r = fio_set(e, sz, NULL, "zone-size", fmt_size(o->zonesize, v, sizeof(v)), "bytes "
			 "moved in a zone before the next")) ||
	    (r = fio_note(e, m, NULL, NULL, "(with zonesize)")))
		return r;
	if (o->zonerange && (r = fio_set(e, rg, NULL, "zone-range",
					 fmt_size(o->zonerange, v, sizeof(v)), "a zone's length")))
		return r;
	if (o->zoneskip)
		return fio_set(e, sk, NULL, "zone-skip", fmt_size(o->zoneskip, v, sizeof(v)),
			       "bytes skipped between zones");
	return sk ? fio_note(e, sk, NULL, NULL, "(no skip)") : 0;
}
