/*
 * What a fio job's writes carry: buffer_compress_percentage and buffer_compress_chunk,
 * dedupe_percentage with dedupe_mode, dedupe_working_set_percentage and dedupe_global,
 * buffer_pattern, refill_buffers, and scramble_buffers (on in fio unless turned off). fio_job.c
 * calls fio_data_emit() for every job.
 */
#include <stdio.h>

#include "compat/fio.h"
#include "core/job.h"

#define NO_WRITES "the job does not write"
#define VERIFIED "verified writes carry their own blocks"

/* Every option of this file the job has, noted as of no effect for why. */
static int all_moot(struct fio_emit *e, const struct fio_opts *o, const char *why)
{
	int r = 0;

	for (unsigned id = FO_COMPRESS; !r && id <= FO_SCRAMBLE; id++)
		if (o->src[id])
			r = fio_note(e, o->src[id], NULL, why, "(no effect)");
	return r;
}

static int emit_compress(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *c = o->src[FO_COMPRESS_CHUNK];
	char v[24];
	int r;

	if (!o->compress_pct)
		return c ? fio_note(e, c, NULL, "without buffer_compress_percentage",
				    "(no effect)") : 0;
	snprintf(v, sizeof(v), "%u", o->compress_pct);
	if ((r = fio_set(e, o->src[FO_COMPRESS], NULL, "compress", v, "each chunk: random "
			 "bytes, then this percent of %s", o->buf_pattern ? "the pattern" : "zeros")))
		return r;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)o->compress_chunk);
	return c ? fio_set(e, c, NULL, "compress-chunk", v, "%s", o->compress_chunk ? "" :
			   "0: the whole block") : 0;
}

/* dedupe_mode, dedupe_working_set_percentage and dedupe_global without dedupe_percentage. */
static int all_moot_dedupe(struct fio_emit *e, const struct fio_opts *o)
{
	int r = 0;

	for (unsigned id = FO_DEDUPE_MODE; !r && id <= FO_DEDUPE_GLOBAL; id++)
		if (o->src[id])
			r = fio_note(e, o->src[id], NULL, "without dedupe_percentage", "(no effect)");
	return r;
}

static int emit_dedupe(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *m = o->src[FO_DEDUPE_MODE], *ws = o->src[FO_DEDUPE_SET],
			     *g = o->src[FO_DEDUPE_GLOBAL];
	char v[24];
	int r;

	if (!o->dedupe_pct)
		return all_moot_dedupe(e, o);
	snprintf(v, sizeof(v), "%u", o->dedupe_pct);
	if ((r = fio_set(e, o->src[FO_DEDUPE], NULL, "dedupe", v, "%s", o->dedupe_working_set ?
			 "" : "each repeats the last new block (dedupe_mode=repeat)")))
		return r;
	if (!o->dedupe_working_set) {
		if (!r && ws)
			r = fio_note(e, ws, NULL, "without dedupe_mode=working_set", "(no effect)");
		if (!r && g)
			r = fio_note(e, g, NULL, "without dedupe_mode=working_set", "(no effect)");
		return r;
	}
	snprintf(v, sizeof(v), "%u", o->dedupe_set_pct);
	if ((r = fio_set(e, ws ? ws : m, ws ? NULL : "dedupe_working_set_percentage=5",
			 "dedupe-set", v, "repeated blocks are drawn from a working set of this "
			 "percent of the region's blocks")))
		return r;
	if (ws && m && (r = fio_note(e, m, NULL, NULL, "(with dedupe_working_set_percentage)")))
		return r;
	if (g && o->dedupe_global)
		r = fio_set(e, g, NULL, "dedupe-global", NULL, "every job with it draws from the "
			    "same working set");
	else if (g)
		r = fio_note(e, g, NULL, NULL, "(the default: a working set of the job's own)");
	return r;
}

/* buffer_pattern, given to iorate as the bytes it stands for. */
static int emit_pattern(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_BUF_PATTERN];
	struct job probe;
	const char *why;
	char v[2 * JOB_MAX_PATTERN + 3];

	if (!o->buf_pattern)
		return 0;
	if (job_parse_pattern(&probe, o->buf_pattern, &why))
		return fio_emit_fail(e, l, NULL, "%s", why);
	return fio_set(e, l, NULL, "data-pattern", job_pattern_hex(&probe, v, sizeof(v)), "%s",
		       o->compress_pct ? "in the compressible share of each chunk" :
		       "every write holds it, repeated");
}

/* fio refills with compression or dedupe, and scrambles (its default) what it does not. */
static int emit_refill(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *rf = o->src[FO_REFILL], *sc = o->src[FO_SCRAMBLE];
	bool made = o->compress_pct || o->dedupe_pct;

	if (o->refill && !made)
		return fio_set(e, rf, NULL, "refill", NULL, NULL);
	if (rf && o->refill)
		return fio_note(e, rf, NULL, "implied by compression or dedupe", "(no effect)");
	if (sc && !o->scramble)
		return fio_note(e, sc, NULL, NULL, "(no scrambling: each buffer is filled once)");
	if (made || o->zero_buffers || o->buf_pattern)
		return sc ? fio_note(e, sc, NULL, made ? "new contents in every write" :
				     o->buf_pattern ? "with buffer_pattern" : "with zero_buffers",
				     "(no effect)") : 0;
	return fio_set(e, sc, sc ? NULL : "scramble_buffers=1", "scramble", NULL, "each 512 bytes "
		       "of a write carry its offset, so rewritten buffers do not deduplicate");
}

int fio_data_emit(struct fio_emit *e, const struct fio_opts *o)
{
	int r;

	if (o->rw == 0)
		return all_moot(e, o, NO_WRITES);
	if (o->verify)
		return all_moot(e, o, VERIFIED);
	if ((r = emit_compress(e, o)) || (r = emit_dedupe(e, o)) || (r = emit_pattern(e, o)))
		return r;
	if (o->zero_buffers && !o->compress_pct && !o->buf_pattern &&
	    (r = fio_set(e, o->src[FO_ZERO_BUFFERS], NULL, "data-pattern", "0x00", "writes "
			 "carry zeros")))
		return r;
	return emit_refill(e, o);
}
