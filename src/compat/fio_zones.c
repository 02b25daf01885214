/*
 * Where a fio job's I/O goes beyond its region: fill_device (write until the target is full,
 * whatever size says), and fio's strided zones (zonemode=strided with zonesize, zonerange and zoneskip): I/O stays in a
 * zone until zonesize bytes were moved, then the next zone starts zonerange + zoneskip further
 * on. fio refuses a zonesize without zonemode=strided and the mode without a zonesize, and so
 * does the translation. fio_job.c calls fio_zones_emit() for every job.
 */
#include "compat/fio.h"
#include "util/parse.h"

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

	if ((r = emit_fill(e, o)))
		return r;
	const struct fio_line *m = o->src[FO_ZONEMODE], *sz = o->src[FO_ZONESIZE],
			     *rg = o->src[FO_ZONERANGE], *sk = o->src[FO_ZONESKIP];
	char v[32];

	if (!o->strided) {
		if (o->zonesize || o->zonerange || o->zoneskip)
			return fio_emit_fail(e, sz ? sz : rg ? rg : sk, NULL, "fio refuses it "
					     "without zonemode=strided");
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
