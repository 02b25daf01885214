/*
 * One job of fio (one clone of numjobs) as settings of 'iorate run', each applied through the
 * sink and recorded with the option of fio it came from, or fio's default where that differs
 * from iorate's: the engine, the pattern and mix, block sizes, depth, cache, time and size,
 * rates, pauses and syncs. Files and regions are in fio_files.c; fio_emit.c applies and records.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "util/jsonout.h"
#include "util/parse.h"

/* A job of fio without time_based and runtime ends when its size is done, whenever that is. */
#define NO_TIME_BOUND "none"

/* ---- engine and depth ---- */

static int emit_engine(struct fio_emit *e, const struct fio_opts *o, bool *sync)
{
	const struct fio_line *l = o->src[FO_ENGINE];
	const char *differs, *eng = fio_engine_map(o->engine, sync, &differs);
	const char *calls = !strcmp(eng, "pvsync") ? "preadv and pwritev"
			    : !strcmp(eng, "pvsync2") ? "preadv2 and pwritev2" : "pread and pwrite";

	/* iorate has no engine that makes fio's system calls: the nearest, said everywhere. */
	if (differs) {
		int r = fio_set(e, l, NULL, "engine", eng,
				"fio's %s engine runs as iorate's %s: %s", o->engine, eng, differs);
		/* After the setting, which clears them (a later --engine names its own). */
		snprintf(e->j->engine_for, sizeof(e->j->engine_for), "fio's %s", o->engine);
		snprintf(e->j->engine_differs, sizeof(e->j->engine_differs), "%s", differs);
		return r;
	}
	if (!strcmp(o->engine, "posixaio"))
		return fio_set(e, l, NULL, "engine", eng,
			       "glibc's aio_read and aio_write, as fio's posixaio");
	return fio_set(e, l, "ioengine=psync", "engine", eng, *sync ? "one I/O at a time per "
		       "thread, with %s" : NULL, calls);
}

static int emit_depth(struct fio_emit *e, const struct fio_opts *o, bool sync)
{
	const struct fio_line *l = o->src[FO_IODEPTH], *b = o->src[FO_BATCH];
	char v[32];
	int r;

	if (sync && o->iodepth > 1)
		return fio_set(e, l, NULL, "depth", "1", "fio's %s engine completes each I/O "
			       "before the next, whatever iodepth says", o->engine);
	snprintf(v, sizeof(v), "%u", o->iodepth);
	if ((r = fio_set(e, l, l ? NULL : "iodepth=1", "depth", v, NULL)) || !b)
		return r;
	if (sync)
		return fio_note(e, b, NULL, "one I/O at a time: nothing to batch", "(no effect)");
	/* iodepth_batch=0 submits whatever is ready, all free slots at once. */
	snprintf(v, sizeof(v), "%u", !o->batch || o->batch > o->iodepth ? o->iodepth : o->batch);
	return fio_set(e, b, NULL, "batch", v, NULL);
}

/* ---- pattern, mix, distribution, seed ---- */

static int emit_mix(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_RW], *m = o->src[FO_RWMIX];
	char v[16];

	if (o->trim == 1) {
		if (m && fio_note(e, m, NULL, "the pattern is not mixed", "(no effect)"))
			return -ENOMEM;
		return fio_set(e, l, NULL, "trim", "100", "trims only: a hole punched in a file, "
			       "BLKDISCARD on a device");
	}
	if (o->rw != 2) {
		int r;
		snprintf(v, sizeof(v), "%d", o->rw ? 100 : 0);
		if (m && fio_note(e, m, NULL, "the pattern is not mixed", "(no effect)"))
			return -ENOMEM;
		if ((r = fio_set(e, l, "rw=read", "write", v, o->rw ? "writes only" : "reads only")))
			return r;
		return o->trim == 2 ? fio_set(e, l, NULL, "trim-write", NULL, "each write trims "
					      "its blocks first, the trims counted apart")
				    : 0;
	}
	snprintf(v, sizeof(v), "%d", o->mix_write < 0 ? 50 : o->mix_write);
	return fio_set(e, m ? m : l, NULL, "write", v, "percent of the I/Os that write%s",
		       m ? "" : " (fio's default mix is 50/50)");
}

/* rw=...:N: a gap after each sequential I/O; random, a new offset every N I/Os. */
static int emit_rw_mod(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_RW];
	char v[32];

	if (o->rw_back) {
		char b[32];
		snprintf(v, sizeof(v), "-%s", fmt_size(o->rw_back, b, sizeof(b)));
		return fio_set(e, l, NULL, "gap", v,
			       "each I/O starts this far before the end of the one before: backwards "
			       "for more than a block; fio goes from its first block to the end and "
			       "down");
	}
	if (!o->rw_mod)
		return 0;
	if (!o->random)
		return fio_set(e, l, NULL, "gap", fmt_size(o->rw_mod, v, sizeof(v)),
			       "bytes skipped after each I/O");
	if (o->rw_mod == 1)
		return fio_note(e, l, NULL, "a new random offset for every I/O", "(no effect)");
	snprintf(v, sizeof(v), "%llu", (unsigned long long)((100 + o->rw_mod / 2) / o->rw_mod));
	return fio_set(e, l, NULL, "random-pct", v, "fio takes a new random offset every %llu "
		       "I/Os and continues sequentially in between; iorate makes each I/O random "
		       "with that chance (rounded to a whole percent)",
		       (unsigned long long)o->rw_mod);
}

static int emit_random_pct(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_PCT_RANDOM];
	unsigned p = (unsigned)o->pct_random[fio_dir(o)];
	char v[16];

	if (!l)
		return 0;
	if (!o->random)
		return fio_note(e, l, NULL, "only random patterns", "(no effect)");
	if (o->rw == 2 && o->pct_random[FIO_READ] != o->pct_random[FIO_WRITE])
		return fio_emit_fail(e, l, NULL, "iorate takes one share of random I/O for reads "
				     "and writes");
	if (o->rw_mod > 1)
		return fio_emit_fail(e, l, NULL, "iorate cannot combine it with rw=...:%llu",
				     (unsigned long long)o->rw_mod);
	if (p == 100)
		return fio_note(e, l, NULL, "every I/O random", "(no effect)");
	if (p == 0)
		return fio_set(e, l, NULL, "sequential", NULL, "no I/O random");
	snprintf(v, sizeof(v), "%u", p);
	return fio_set(e, l, NULL, "random-pct", v, "the others continue sequentially");
}

static int emit_pattern(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_RW], *nm = o->src[FO_NORANDOMMAP];
	int r;

	if (o->random)
		r = fio_set(e, l, NULL, "random", NULL, "%s", o->norandommap ? "" :
			    "fio touches every block once per pass (its random map); iorate draws "
			    "offsets with replacement, as fio does with norandommap");
	else
		r = fio_set(e, l, "rw=read", "sequential", NULL, "each job sweeps its region from "
			    "its start");
	if (!r && nm)
		r = fio_note(e, nm, NULL, o->random ? "iorate draws offsets with replacement" :
			     "only random patterns", o->random ? "(always)" : "(no effect)");
	if (!r && o->src[FO_RW_SEQUENCER])
		r = fio_note(e, o->src[FO_RW_SEQUENCER], NULL, NULL, "(the default)");
	if (!r)
		r = emit_mix(e, o);
	if (!r)
		r = emit_rw_mod(e, o);
	if (!r)
		r = emit_random_pct(e, o);
	return r;
}

static int emit_dist(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_DIST];
	char v[1024];
	const char *why;

	if (!l)
		return 0;
	if (!o->random)
		return fio_note(e, l, NULL, "only random patterns", "(no effect)");
	if (fio_dist_convert(o->dist, o->kb_base, v, sizeof(v), &why))
		return fio_emit_fail(e, l, NULL, "%s", why);
	int r = fio_set(e, l, NULL, "distribution", v, "%s", strncmp(v, "normal", 6) ? "" :
			"fio's bell (12 draws averaged, its deviation a uniform spread) as one "
			"sigma, in percent of the region");
	if (r || !o->src[FO_SEQ_STRIDE])
		return r;
	if (strncmp(v, "sequence", 8))
		return fio_note(e, o->src[FO_SEQ_STRIDE], NULL, "without random_distribution="
				"sequence", "(no effect)");
	return o->seq_stride ? fio_set(e, o->src[FO_SEQ_STRIDE], NULL, "sequence-stride", NULL,
				       NULL) : 0;
}

/* fio seeds each job from randseed and its number; iorate from randseed plus the job's. */
static int emit_seed(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *s = o->src[FO_RANDSEED], *rr = o->src[FO_RANDREPEAT];
	char v[32];

	if (!o->randrepeat && !s)
		return fio_note(e, rr, NULL, "new offsets each run", "(no --seed)");
	snprintf(v, sizeof(v), "%llu", (unsigned long long)(o->randseed + e->jobno));
	if (s && rr && fio_note(e, rr, NULL, "randseed gives the seed", "(with randseed)"))
		return -ENOMEM;
	return fio_set(e, s ? s : rr, "randrepeat=1", "seed", v, "repeatable offsets: randseed "
		       "%llu plus the job's number %u (iorate's own sequence, not fio's)",
		       (unsigned long long)o->randseed, e->jobno);
}

/* ---- block sizes ---- */

/*
 * bsrange=LO-HI as a mix: fio draws LO + HI x U (U uniform in [0, 1)), rounds down to a multiple
 * of LO and caps at HI, so each multiple of LO below HI has the share LO/HI, and HI the rest.
 * Above 16 sizes (iorate's most), 16 of them evenly spread in equal shares.
 */
static int range_mix(uint64_t lo, uint64_t hi, char *out, size_t len, bool *approx)
{
	uint64_t c = hi / lo + (hi % lo != 0) - 1; /* multiples of lo below hi; hi + lo may wrap */
	size_t used = 0;
	unsigned sum = 0;

	*approx = c + 1 > JOB_MAX_BS;
	for (uint64_t i = 0; i <= c && i < JOB_MAX_BS; i++) {
		uint64_t m = *approx ? 1 + i * c / (JOB_MAX_BS - 1) : i + 1;
		uint64_t bs;
		if (__builtin_mul_overflow(m, lo, &bs) || bs > hi)
			bs = hi;
		bool last = i == c || i == JOB_MAX_BS - 1;
		unsigned pct = last ? 100 - sum
			       : *approx ? (unsigned)((i + 1) * 100 / JOB_MAX_BS - sum)
					 : (unsigned)llround(100.0 * (double)(i + 1) * (double)lo /
							     (double)hi) - sum;
		sum += pct;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%llu/%u",
					 used ? ":" : "", (unsigned long long)bs, pct);
	}
	return used < len ? 0 : -EINVAL;
}

static int emit_bsrange(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_BSRANGE];
	char r[512], w[512], v[1100], b[32];
	bool ar, aw;
	int rc;

	/* A trimming job's trims take the place of reads: their range is the reads' part. */
	const int rd = o->trim == 1 ? FIO_TRIM : FIO_READ;

	/* A range of one size is that size. */
	if (o->bsmin[rd] == o->bsmax[rd] && o->bsmin[1] == o->bsmax[1] &&
	    (o->bsmin[rd] == o->bsmin[1] || o->rw != 2))
		return fio_set(e, l, NULL, "bs", fmt_size(o->bsmin[fio_dir(o)], b, sizeof(b)),
			       "a range of one size");
	if (range_mix(o->bsmin[rd], o->bsmax[rd], r, sizeof(r), &ar) ||
	    range_mix(o->bsmin[1], o->bsmax[1], w, sizeof(w), &aw))
		return fio_emit_fail(e, l, NULL, "is too wide a range");
	snprintf(v, sizeof(v), "%s,%s", r, w);
	if ((rc = fio_set(e, l, NULL, "bs", fmt_size(fio_min_bs(o), b, sizeof(b)),
			  "the smallest size: random offsets are multiples of it, as in fio")))
		return rc;
	return fio_set(e, l, NULL, "bssplit", v, "fio draws each size uniformly from the range "
		       "in steps of its low end; %s", ar || aw ? "approximated by 16 sizes spread "
		       "evenly, in equal shares (iorate mixes 16 sizes at most)" : "the same sizes "
		       "and shares (rounded to whole percents)");
}

static int emit_bs(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_BS], *sp = o->src[FO_BSSPLIT];
	char v[2100], b[32], w[32], note[1100];
	const char *why;
	int r;

	if (sp || o->src[FO_BSRANGE]) {
		if (l && fio_note(e, l, NULL, sp ? "bssplit gives the sizes" : "bsrange gives the "
				  "sizes", "(no effect)"))
			return -ENOMEM;
		if (!sp)
			return emit_bsrange(e, o);
		if (fio_bssplit_convert(o->bssplit, o->kb_base, v, sizeof(v), note, sizeof(note),
					&why))
			return fio_emit_fail(e, sp, NULL, "%s", why);
		if ((r = fio_set(e, sp, NULL, "bs", fmt_size(fio_min_bs(o), b, sizeof(b)),
				 "the smallest size: random offsets are multiples of it, as in "
				 "fio")))
			return r;
		return fio_set(e, sp, NULL, "bssplit", v, note[0] ? "%s" : NULL, note);
	}
	if (o->rw == 2 && o->bs[FIO_READ] != o->bs[FIO_WRITE]) {
		snprintf(v, sizeof(v), "%s/100,%s/100", fmt_size(o->bs[0], b, sizeof(b)),
			 fmt_size(o->bs[1], w, sizeof(w)));
		if ((r = fio_set(e, l, NULL, "bs", fmt_size(fio_min_bs(o), b, sizeof(b)),
				 "the smaller size aligns the offsets")))
			return r;
		return fio_set(e, l, NULL, "bssplit", v, "reads of one size, writes of the other");
	}
	int d = fio_dir(o);
	return fio_set(e, l, "bs=4k", "bs", fmt_size(o->bs[d], b, sizeof(b)), "%s",
		       l && (o->bs[d] != o->bs[FIO_READ] || o->bs[d] != o->bs[FIO_WRITE]) ?
		       "the size of the direction the job issues" : "");
}

static int emit_align(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_BA];
	char b[32];

	if (!l)
		return 0;
	if (o->rw == 2 && o->ba[0] != o->ba[1])
		return fio_emit_fail(e, l, NULL, "iorate aligns reads and writes alike");
	if (!o->random)
		return fio_note(e, l, NULL, "only random patterns", "(no effect)");
	return fio_set(e, l, NULL, "align", fmt_size(o->ba[fio_dir(o)], b, sizeof(b)), NULL);
}

/* ---- cache ---- */

static int emit_cache(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_DIRECT], *s = o->src[FO_SYNC];
	const char *mode = o->direct ? (o->sync ? "directsync" : "direct")
				     : (o->sync ? "writethrough" : "buffered");
	int r;

	r = fio_set(e, l, "direct=0", "cache", mode, "%s", o->direct ? "O_DIRECT" :
		    "fio goes through the page cache unless direct=1");
	if (!r && s)
		r = fio_note(e, s, NULL, o->sync == 1 ? "O_SYNC; iorate's is O_DSYNC (the data and "
			     "what reading it back needs)" : o->sync ? "O_DSYNC" : NULL,
			     "--cache %s", mode);
	return r;
}

/* ---- time and the end of the job ---- */

static int emit_time(struct fio_emit *e, const struct fio_opts *o, uint64_t bytes)
{
	const struct fio_line *rt = o->src[FO_RUNTIME], *tb = o->src[FO_TIME_BASED];
	const struct fio_line *lp = o->src[FO_LOOPS];
	char v[48];
	int r;

	duration_str(o->runtime_ns, v, sizeof(v));
	if (o->time_based && o->runtime_ns) {
		if ((r = fio_note(e, tb, NULL, "the job runs for runtime whatever its size, going "
				  "round its region", "(with runtime)")) ||
		    (lp && (r = fio_note(e, lp, NULL, "time_based", "(no effect)"))))
			return r;
		return fio_set(e, rt, NULL, "time", v, NULL);
	}
	if (tb && (r = fio_note(e, tb, NULL, "fio drops time_based without a runtime and ends "
				"the job at its size", "(no effect)")))
		return r;
	if (lp && (r = fio_note(e, lp, NULL, "the job does its size this many times",
				"--io-size x %u", o->loops)))
		return r;
	if (rt)
		r = fio_set(e, rt, NULL, "time", v, "a bound: the job ends at its size or at this, "
			    "whichever comes first");
	else
		r = fio_set(e, NULL, "runtime=0", "time", NO_TIME_BOUND, "no time bound: the job "
			    "ends when it has done its size, as fio's");
	/* fill_device without a size: the target's being full ends the job (fio_zones.c). */
	if (r || (o->fill_device && !bytes))
		return r;
	fmt_size(bytes, v, sizeof(v));
	return fio_set(e, o->src[FO_IO_SIZE] ? o->src[FO_IO_SIZE] : o->src[FO_SIZE],
		       "size=(the files' size)", "io-size", v, "the bytes the job does before it "
		       "ends (fio's io_size, or its size%s)", o->loops > 1 ? ", times loops" : "");
}

static int emit_delays(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *n = o->src[FO_NUMBER_IOS];
	char v[48];
	int r = 0;

	if (o->ramp_ns) {
		r = fio_set(e, o->src[FO_RAMP], NULL, "warmup", duration_str(o->ramp_ns, v, sizeof(v)),
			    "run, not counted");
	}
	if (!r && o->startdelay_ns) {
		r = fio_set(e, o->src[FO_STARTDELAY], NULL, "start-delay",
			    duration_str(o->startdelay_ns, v, sizeof(v)), NULL);
	}
	if (!r && !o->startdelay_ns && o->src[FO_STARTDELAY])
		r = fio_note(e, o->src[FO_STARTDELAY], NULL, NULL, "(no delay)");
	if (!r && !o->ramp_ns && o->src[FO_RAMP])
		r = fio_note(e, o->src[FO_RAMP], NULL, NULL, "(no warm-up)");
	if (!r && o->number_ios) {
		uint64_t ios;
		if (__builtin_mul_overflow(o->number_ios, (uint64_t)o->loops, &ios))
			return fio_emit_fail(e, n, NULL, "times loops does not fit in 64 bits");
		snprintf(v, sizeof(v), "%llu", (unsigned long long)ios);
		r = fio_set(e, n, NULL, "ios", v, "the job ends after this many I/Os, if nothing "
			    "ends it first");
	}
	return r;
}

/* ---- syncs, pauses, contents, cache invalidation ---- */

static int emit_syncs(struct fio_emit *e, const struct fio_opts *o)
{
	char v[24];
	int r = 0;

	if (o->src[FO_FSYNC] && o->fsync) {
		snprintf(v, sizeof(v), "%u", o->fsync);
		r = fio_set(e, o->src[FO_FSYNC], NULL, "fsync", v, NULL);
	}
	if (!r && o->src[FO_FDATASYNC] && o->fdatasync) {
		snprintf(v, sizeof(v), "%u", o->fdatasync);
		r = fio_set(e, o->src[FO_FDATASYNC], NULL, "fdatasync", v, NULL);
	}
	if (!r && o->end_fsync)
		r = fio_set(e, o->src[FO_END_FSYNC], NULL, "end-fsync", NULL, "%s",
			    strcmp(o->src[FO_END_FSYNC]->key, "fsync_on_close") ? "" :
			    "fio syncs each file as it closes it, at the end of the job");
	if (!r && o->src[FO_INVALIDATE])
		r = o->invalidate ? fio_note(e, o->src[FO_INVALIDATE], NULL, NULL, "(the default)")
				  : fio_set(e, o->src[FO_INVALIDATE], NULL, "no-invalidate", NULL,
					    NULL);
	if (!r && o->zero_buffers)
		r = fio_set(e, o->src[FO_ZERO_BUFFERS], NULL, "fill", "zero", NULL);
	if (!r && o->verify)
		r = fio_set(e, o->src[FO_VERIFY], NULL, "verify-sum", o->verify, "%s",
			    o->verify_note ? o->verify_note : "");
	else if (!r && o->src[FO_VERIFY])
		r = fio_note(e, o->src[FO_VERIFY], NULL, NULL, "%s",
			     o->verify_note ? o->verify_note : "(no verification: the default)");
	if (!r && o->verify && o->verify_interval) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->verify_interval);
		r = fio_set(e, o->src[FO_VERIFY_INTERVAL], NULL, "verify-block", v, NULL);
	}
	return r;
}

static int emit_think(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *b = o->src[FO_THINK_BLOCKS];
	char v[32];
	int r;

	if (!o->think_ns)
		return b ? fio_note(e, b, NULL, "no thinktime", "(no effect)") : 0;
	if ((r = fio_set(e, o->src[FO_THINKTIME], NULL, "thinktime",
			 duration_str(o->think_ns, v, sizeof(v)), NULL)) || !b)
		return r;
	snprintf(v, sizeof(v), "%u", o->think_blocks);
	return fio_set(e, b, NULL, "thinktime-blocks", v, NULL);
}

/* ---- rates ---- */

/* A rate as 'iorate run' reads it back exactly: "300", "1.048576". */
static const char *rate_str(double v, char *buf, size_t len)
{
	if (v == floor(v) && v < 9007199254740992.0)
		snprintf(buf, len, "%.0f", v);
	else
		jsonout_real(v, buf, len);
	return buf;
}

/*
 * fio's rate (bytes/s) and rate_iops bind each direction of a job apart; iorate caps the job's
 * I/O as a whole. One direction: its rate. Both: where the first of them binds, at the mix's
 * shares (reads at 1m are 70% of a 70/30 mix at 1.43m).
 */
static double job_rate(struct fio_emit *e, const struct fio_opts *o, const uint64_t *rate,
		       const struct fio_line *l, int *r)
{
	double w = (o->mix_write < 0 ? 50 : o->mix_write) / 100.0, cap = 0;

	*r = 0;
	if (o->rw != 2)
		return (double)rate[fio_dir(o)];
	if (rate[FIO_READ] && w < 1)
		cap = (double)rate[FIO_READ] / (1 - w);
	if (rate[FIO_WRITE] && w > 0 && (!cap || (double)rate[FIO_WRITE] / w < cap))
		cap = (double)rate[FIO_WRITE] / w;
	if (!cap && (rate[FIO_READ] || rate[FIO_WRITE]))
		*r = fio_emit_fail(e, l, NULL, "limits a direction the job does not issue");
	return cap;
}

static int emit_rate(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *lb = o->src[FO_RATE], *li = o->src[FO_RATE_IOPS];
	bool many = e->j->ntargets > 1;
	char v[48];
	int r = 0;
	double bps = lb ? job_rate(e, o, o->rate, lb, &r) : 0;
	double iops = !r && li ? job_rate(e, o, o->rate_iops, li, &r) : 0;

	if (r || (!bps && !iops))
		return r ? r : o->poisson ? fio_note(e, o->src[FO_RATE_PROCESS], NULL, "no rate",
						     "(no effect)") : 0;
	if (o->poisson) {
		/* Open loop: I/Os arrive on a Poisson schedule, per target. */
		if (many)
			return fio_emit_fail(e, o->src[FO_RATE_PROCESS], NULL, "iorate's open loop "
					     "runs per file; the job has %u", e->j->ntargets);
		rate_str(iops ? iops : bps / (double)fio_min_bs(o), v, sizeof(v));
		if ((r = fio_set(e, iops ? li : lb, NULL, "rate-iops", v, "%s", iops ? "I/Os "
				 "per second, open loop" : "rate / block size, open loop")))
			return r;
		return fio_set(e, o->src[FO_RATE_PROCESS], NULL, "arrival", "poisson", NULL);
	}
	if (bps) {
		rate_str(bps / 1e6, v, sizeof(v));
		r = fio_set(e, lb, NULL, many ? "vm-cap-mbps" : "cap-mbps", v, "%.0f bytes/s%s",
			    bps, many ? " over the job's files together" : "");
	}
	if (!r && iops) {
		rate_str(iops, v, sizeof(v));
		r = fio_set(e, li, NULL, many ? "vm-cap-iops" : "cap-iops", v, "%s",
			    many ? "over the job's files together" : "");
	}
	if (!r && o->src[FO_RATE_PROCESS])
		r = fio_note(e, o->src[FO_RATE_PROCESS], NULL, NULL, "(the default: a cap)");
	return r;
}

/* ---- what names and groups the job ---- */

static int emit_names(struct fio_emit *e, const struct fio_opts *o)
{
	int r = 0;

	if (o->src[FO_NAME])
		r = fio_note(e, o->src[FO_NAME], NULL, NULL, "name %s", o->name);
	if (!r && o->src[FO_DESC])
		r = fio_note(e, o->src[FO_DESC], NULL, NULL, "(description)");
	if (!r && o->src[FO_STONEWALL])
		r = fio_note(e, o->src[FO_STONEWALL], NULL, "it starts when the jobs before it "
			     "have ended", "group %u", e->j->group);
	if (!r && o->src[FO_WAIT_FOR])
		r = fio_note(e, o->src[FO_WAIT_FOR], NULL, "iorate waits for the whole run group "
			     "of that job", "group %u", e->j->group);
	/* fio's groupid, which its reports print and group_reporting merges by */
	e->j->report_group = o->report_group;
	e->j->group_reporting = o->group_reporting;
	if (!r && o->src[FO_NEW_GROUP])
		r = fio_note(e, o->src[FO_NEW_GROUP], NULL, o->exitall_run
			     ? "a reporting group, which exitall's exit_what=group ends together"
			     : "a reporting group: fio's reports (fio-json, fio-terse) number it",
			     "reporting group %u", o->report_group);
	if (!r && o->src[FO_GROUP_REPORTING])
		r = fio_note(e, o->src[FO_GROUP_REPORTING], NULL, "fio's reports (fio-json, "
			     "fio-terse) merge it with the jobs of its reporting group that have "
			     "it; iorate's own print each job, each group and the total",
			     "merged in reporting group %u", o->report_group);
	if (!r && o->src[FO_KB_BASE])
		r = fio_note(e, o->src[FO_KB_BASE], NULL, NULL, "sizes read in powers of %u",
			     o->kb_base);
	if (!r && o->src[FO_NUMJOBS])
		r = fio_note(e, o->src[FO_NUMJOBS], NULL, "each of fio's jobs is a job of iorate "
			     "with one thread", "job %u of %u", e->ex->clone + 1, o->numjobs);
	return r;
}

/* ---- log files ---- */

/* A bare write_*_log names the files after the job, as fio does. */
static int emit_log(struct fio_emit *e, const struct fio_opts *o, enum fio_id id,
		    const char *val, const char *name)
{
	if (!o->src[id])
		return 0;
	return fio_set(e, o->src[id], NULL, name, *val ? val : e->j->name, NULL);
}

static int emit_logs(struct fio_emit *e, const struct fio_opts *o)
{
	static const enum fio_id tuning[] = {FO_LOG_AVG, FO_LOG_HIST_MSEC, FO_LOG_MAX,
					     FO_LOG_OFFSET, FO_LOG_PRIO, FO_PER_JOB_LOGS};
	bool any = o->src[FO_LOG_BW] || o->src[FO_LOG_IOPS] || o->src[FO_LOG_LAT] ||
		   o->src[FO_LOG_HIST];
	char v[32];
	int r;

	if (!any) {
		for (unsigned i = 0; i < sizeof(tuning) / sizeof(tuning[0]); i++)
			if (o->src[tuning[i]] &&
			    (r = fio_note(e, o->src[tuning[i]], NULL, "no log is written",
					  "(no effect)")))
				return r;
		return 0;
	}
	if ((r = emit_log(e, o, FO_LOG_BW, o->log_bw, "log-bw")) ||
	    (r = emit_log(e, o, FO_LOG_IOPS, o->log_iops, "log-iops")) ||
	    (r = emit_log(e, o, FO_LOG_LAT, o->log_lat, "log-lat")) ||
	    (r = emit_log(e, o, FO_LOG_HIST, o->log_hist, "log-hist")))
		return r;
	if (o->log_avg_ms) {
		snprintf(v, sizeof(v), "%llums", (unsigned long long)o->log_avg_ms);
		if ((r = fio_set(e, o->src[FO_LOG_AVG], NULL, "log-avg", v, NULL)))
			return r;
	}
	if (o->log_hist_ms) {
		snprintf(v, sizeof(v), "%llums", (unsigned long long)o->log_hist_ms);
		if ((r = fio_set(e, o->src[FO_LOG_HIST_MSEC], NULL, "log-hist-interval", v, NULL)))
			return r;
	}
	if ((o->log_max && (r = fio_set(e, o->src[FO_LOG_MAX], NULL, "log-max", NULL, NULL))) ||
	    (o->log_offset &&
	     (r = fio_set(e, o->src[FO_LOG_OFFSET], NULL, "log-offset", NULL, NULL))) ||
	    (o->log_prio && (r = fio_set(e, o->src[FO_LOG_PRIO], NULL, "log-prio", NULL, NULL))))
		return r;
	if (!o->per_job_logs)
		return fio_set(e, o->src[FO_PER_JOB_LOGS], NULL, "log-shared", NULL, NULL);
	return 0;
}

int fio_job_emit(struct fio_emit *e, const struct fio_opts *opts, const char *jobname,
		 unsigned clone)
{
	uint64_t bytes = 0;
	bool sync;
	int r;
	/* A copy whose sizes counted in zones are bytes. */
	struct fio_opts zo = *opts, *o = &zo;

	if ((r = fio_zones_resolve(e, o)) || (r = emit_engine(e, o, &sync)) || (r = emit_depth(e, o, sync)) ||
	    (r = emit_pattern(e, o)) || (r = emit_bs(e, o)) || (r = emit_align(e, o)) ||
	    (r = emit_dist(e, o)) || (r = emit_seed(e, o)) || (r = emit_cache(e, o)) ||
	    (r = fio_files_emit(e, o, jobname, clone, &bytes)) || (r = emit_time(e, o, bytes)) ||
	    (r = emit_delays(e, o)) || (r = emit_syncs(e, o)) || (r = emit_think(e, o)) ||
	    (r = emit_rate(e, o)) || (r = fio_ends_emit(e, o)) || (r = fio_data_emit(e, o)) ||
	    (r = fio_zones_emit(e, o)) || (r = emit_logs(e, o)))
		return r;
	return emit_names(e, o);
}
