#include "core/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/job.h"

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int workload_init(struct workload *w, uint64_t base, uint64_t len, uint64_t bs, uint64_t align,
		  bool sequential, unsigned write_pct, uint64_t seed, unsigned target,
		  unsigned thread, unsigned nthreads)
{
	uint64_t sm = seed ^ ((uint64_t)target << 40) ^ ((uint64_t)thread << 20);

	if (bs == 0 || len < bs || nthreads == 0)
		return -EINVAL;
	workload_seed(w, sm);
	w->base = base;
	w->shape = NULL;
	w->cursor = base;
	w->end = base + len;
	w->sequential = sequential;
	if (sequential) {
		/* Threads interleave block by block (thread k takes k, k+T, k+2T, ...), so together
		 * they sweep the region in order, as DiskSpd's -si does with a shared offset. */
		w->align = bs;
		w->slots = len / bs;
		w->stride = nthreads % w->slots;
		w->next = thread % w->slots;
	} else {
		w->align = align ? align : bs;
		w->slots = (len - bs) / w->align + 1;
		w->stride = 0;
		w->next = 0;
	}
	w->mixed = write_pct > 0 && write_pct < 100;
	w->all_write = write_pct >= 100;
	/* write_pct percent of the 2^64 draws fall below the threshold. */
	w->write_thresh = (uint64_t)(((unsigned __int128)write_pct << 64) / 100);
	return 0;
}

void workload_seed(struct workload *w, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		w->s[i] = splitmix64(&seed);
}

void workload_fill(struct workload *w, void *buf, size_t len)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < len / 8; i++)
		p[i] = workload_rand(w);
}

#define ZIPF_CACHE 4
/* 2^61 - 1, a prime: rank * M61 mod n is a permutation of [0, n) for every n below it. */
#define M61 ((1ull << 61) - 1)

struct workload_shape {
	unsigned nbs[2];                         /* [0] reads, [1] writes */
	uint32_t bs[2][JOB_MAX_BS];
	uint64_t bs_thresh[2][JOB_MAX_BS];       /* cumulative, over 2^64 draws */
	uint32_t max_bs;
	uint64_t align;                          /* random offsets: slot spacing */
	enum job_dist dist;
	double theta, pareto_pow, sigma;
	unsigned nzones;
	uint64_t zone_thresh[JOB_MAX_ZONES];     /* cumulative access share over 2^64 draws */
	double zone_start[JOB_MAX_ZONES + 1];    /* share of the region where each zone starts */
	uint64_t zone_byte[JOB_MAX_ZONES + 1];   /* zoned_abs: byte where each starts (UINT64_MAX:
						    the region's end) */
	bool mix_pattern;
	uint64_t rand_thresh;                    /* mixed: a draw below this is random */
	uint64_t skip, rewind;
	uint64_t zone_size, zone_range, zone_skip; /* strided zones; zone_size 0: none */
	uint32_t seq[JOB_MAX_SEQ];               /* DIST_SEQUENCE: block indices in order */
	unsigned nseq;
	bool seq_stride;                         /* ... each pass a group further on */
	bool per_thread;                         /* sequential: each thread sweeps it all */
	uint64_t stride;                         /* ... thread k from k x stride */
	struct {
		uint64_t n;
		double zetan;
	} zcache[ZIPF_CACHE];
	unsigned nzcache;
};

static uint64_t share_of(double pct)
{
	return pct >= 100 ? UINT64_MAX : (uint64_t)(pct / 100 * 18446744073709551616.0);
}

/* Cumulative thresholds of a block-size mix; a mix with no entries is the job's one size. */
static void bs_table(struct workload_shape *s, int dir, const struct job_bs *mix, unsigned n,
		     uint64_t bs)
{
	double cum = 0;

	if (!n) {
		s->nbs[dir] = 1;
		s->bs[dir][0] = (uint32_t)bs;
		s->bs_thresh[dir][0] = UINT64_MAX;
	}
	for (unsigned i = 0; i < n; i++) {
		cum += mix[i].pct;
		s->bs[dir][i] = (uint32_t)mix[i].bs;
		s->bs_thresh[dir][i] = i + 1 == n ? UINT64_MAX : share_of(cum);
		s->nbs[dir] = n;
	}
	for (unsigned i = 0; i < s->nbs[dir]; i++)
		if (s->bs[dir][i] > s->max_bs)
			s->max_bs = s->bs[dir][i];
}

static bool shaped(const struct job *j)
{
	return j->nbs_read || j->nbs_write || j->dist != DIST_UNIFORM ||
	       (j->random_pct > 0 && j->random_pct < 100) || j->skip || j->rewind ||
	       (j->zone_size && !j->zbd) || (j->pattern == PATTERN_SEQUENTIAL && j->seq_per_thread);
}

int workload_shape_new(const struct job *j, struct workload_shape **out)
{
	struct workload_shape *s;
	double cum = 0;

	*out = NULL;
	if (!shaped(j))
		return 0;
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	bs_table(s, 0, j->bs_read, j->nbs_read, j->bs);
	bs_table(s, 1, j->bs_write, j->nbs_write, j->bs);
	s->align = j->align ? j->align : s->bs[0][0] < s->bs[1][0] ? s->bs[0][0] : s->bs[1][0];
	for (unsigned d = 0; d < 2; d++)
		for (unsigned i = 0; !j->align && i < s->nbs[d]; i++)
			if (s->bs[d][i] < s->align)
				s->align = s->bs[d][i];
	s->dist = j->dist;
	s->theta = j->dist_param;
	s->sigma = j->dist_param;
	if (j->dist == DIST_PARETO)
		s->pareto_pow = log(j->dist_param) / log(1 - j->dist_param);
	s->nzones = j->nzones;
	for (unsigned i = 0; i < j->nzones; i++) {
		s->zone_thresh[i] = i + 1 == j->nzones ? UINT64_MAX
						       : share_of(cum += j->zones[i].access_pct);
		s->zone_start[i + 1] = s->zone_start[i] + j->zones[i].size_pct / 100;
		uint64_t end = s->zone_byte[i] + j->zones[i].size_bytes;
		s->zone_byte[i + 1] = !j->zones[i].size_bytes || end < s->zone_byte[i] ? UINT64_MAX
											 : end;
	}
	s->mix_pattern = j->random_pct > 0 && j->random_pct < 100;
	s->rand_thresh = share_of(j->random_pct);
	s->skip = j->skip;
	s->rewind = j->rewind;
	/* Emulated zones (zbd) are src/core/zbd.c's: the drawn offsets stay uniform. */
	s->zone_size = j->zbd ? 0 : j->zone_size;
	s->zone_range = j->zone_range ? j->zone_range : s->zone_size;
	s->zone_skip = j->zone_skip;
	s->per_thread = j->seq_per_thread;
	s->stride = j->thread_stride;
	memcpy(s->seq, j->seq, sizeof(s->seq));
	s->nseq = j->nseq;
	s->seq_stride = j->seq_stride;
	*out = s;
	return 0;
}

void workload_shape_free(struct workload_shape *s)
{
	free(s);
}

uint64_t workload_max_bs(const struct workload_shape *s, uint64_t bs)
{
	return s && s->max_bs > bs ? s->max_bs : bs;
}

/* sum 1/i^theta for i = 1..n: summed to 10M terms, the rest by its integral (the tail is smooth). */
static double zeta(uint64_t n, double theta)
{
	uint64_t m = n < 10000000 ? n : 10000000;
	double z = 0;

	for (uint64_t i = 1; i <= m; i++)
		z += pow((double)i, -theta);
	if (n > m)
		z += (pow((double)n, 1 - theta) - pow((double)m, 1 - theta)) / (1 - theta);
	return z;
}

int workload_shape_attach(struct workload *w, struct workload_shape *s, uint64_t len,
			  unsigned thread, unsigned nthreads)
{
	if (!s)
		return 0;
	/* Random slots at the shape's spacing, leaving room for the largest block. */
	if (len < s->max_bs)
		return -EINVAL;
	w->end = w->base + len;
	w->align = s->align;
	w->slots = (len - s->max_bs) / s->align + 1;
	/* A shaped sweep cannot interleave block by block (sizes differ): each thread starts at its
	 * share of the region, or, sweeping it all, k x stride in (DiskSpd -T, fio's jobs). */
	if (s->per_thread)
		w->cursor = w->base + (uint64_t)(((unsigned __int128)s->stride * thread) % len) /
					      s->align * s->align;
	else
		w->cursor = w->base + (len / nthreads) * thread / s->align * s->align;
	/* Strided zones: every thread starts in the first, as each of fio's jobs does. */
	if (s->zone_size) {
		w->cursor = w->zone_start = w->base;
		w->zone_done = 0;
	}
	if (s->dist == DIST_ZIPF) {
		unsigned i = 0;
		while (i < s->nzcache && s->zcache[i].n != w->slots)
			i++;
		if (i == s->nzcache && i < ZIPF_CACHE) {
			s->zcache[i].n = w->slots;
			s->zcache[i].zetan = zeta(w->slots, s->theta);
			s->nzcache++;
		}
		w->zipf_zetan = i < s->nzcache ? s->zcache[i].zetan : zeta(w->slots, s->theta);
		double zeta2 = 1 + pow(0.5, s->theta);
		w->zipf_eta = (1 - pow(2.0 / (double)w->slots, 1 - s->theta)) /
			      (1 - zeta2 / w->zipf_zetan);
	}
	w->shape = s;
	return 0;
}

/* A draw as a real in (0, 1]. */
static double unit(struct workload *w)
{
	return (double)((workload_rand(w) >> 11) + 1) * 0x1.0p-53;
}

static uint64_t bounded(struct workload *w, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)workload_rand(w) * n) >> 64);
}

/* Rank 0 is the hottest; ranks are spread over the region so hot blocks are not all adjacent. */
static uint64_t permuted(uint64_t rank, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rank * M61) % n);
}

/* Zipf ranks as Gray et al. draw them ("Quickly generating billion-record synthetic
 * databases", SIGMOD 1994): O(1) per draw once the sum over the ranks is known. */
static uint64_t zipf_rank(struct workload *w, double theta, uint64_t n)
{
	double u = unit(w), uz = u * w->zipf_zetan;

	if (uz < 1)
		return 0;
	if (uz < 1 + pow(0.5, theta))
		return 1 < n ? 1 : 0;
	double r = (double)n * pow(w->zipf_eta * u - w->zipf_eta + 1, 1 / (1 - theta));
	return r < (double)n ? (uint64_t)r : n - 1;
}

/*
 * A newer fio's sequence distribution: the I/O's number in its direction picks the index; with
 * a stride each pass of the list is the next group of as many blocks. An index past the region
 * wraps round it (fio ends the job there, or refuses a listed index past it).
 */
static uint64_t sequence_slot(struct workload *w, const struct workload_shape *s, bool write)
{
	uint64_t k = w->seq_n[write]++, b = s->seq[k % s->nseq];

	if (s->seq_stride)
		b += k / s->nseq * s->nseq;
	return b % w->slots;
}

static uint64_t random_slot(struct workload *w, const struct workload_shape *s, bool write)
{
	uint64_t n = w->slots;

	switch (s->dist) {
	case DIST_SEQUENCE:
		return sequence_slot(w, s, write);
	case DIST_ZIPF:
		return permuted(zipf_rank(w, s->theta, n), n);
	case DIST_PARETO: {
		double r = (double)n * pow(unit(w), s->pareto_pow);
		return permuted(r < (double)n ? (uint64_t)r : n - 1, n);
	}
	case DIST_NORMAL:
		for (;;) {
			/* Box-Muller; a draw outside the region is drawn again. */
			double z = sqrt(-2 * log(unit(w))) * cos(2 * M_PI * unit(w));
			double pos = 0.5 + z * s->sigma / 100;
			if (pos >= 0 && pos < 1)
				return (uint64_t)(pos * (double)n);
		}
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		uint64_t d = workload_rand(w), lo, hi;
		unsigned z = 0;
		while (z + 1 < s->nzones && d >= s->zone_thresh[z])
			z++;
		if (s->dist == DIST_ZONED) {
			lo = (uint64_t)(s->zone_start[z] * (double)n);
			hi = (uint64_t)(s->zone_start[z + 1] * (double)n);
		} else {
			/* Whole slots from the zone's first byte; cut at the region's end. */
			lo = s->zone_byte[z] / w->align;
			hi = s->zone_byte[z + 1] == UINT64_MAX ? n : s->zone_byte[z + 1] / w->align;
		}
		hi = hi > n ? n : hi;
		return hi > lo ? lo + bounded(w, hi - lo) : lo < n ? lo : n - 1;
	}
	default:
		return bounded(w, n);
	}
}

static uint32_t pick_bs(struct workload *w, const struct workload_shape *s, int dir)
{
	unsigned i = 0;

	if (s->nbs[dir] > 1) {
		uint64_t d = workload_rand(w);
		while (i + 1 < s->nbs[dir] && d >= s->bs_thresh[dir][i])
			i++;
	}
	return s->bs[dir][i];
}

/*
 * Strided zones: once zone_size bytes were moved in the zone, the next one starts its range and
 * skip further on (at the region's start past its end); a sweep past the zone's range goes back
 * to its start, so a zone smaller than zone_size is read again (as fio's are).
 */
static void zone_turn(struct workload *w, const struct workload_shape *s, uint32_t len)
{
	if (w->zone_done >= s->zone_size) {
		w->zone_done = 0;
		w->zone_start += s->zone_range + s->zone_skip;
		if (w->zone_start >= w->end || w->zone_start < w->base)
			w->zone_start = w->base;
		w->cursor = w->zone_start;
	}
	if (w->cursor + len > w->zone_start + s->zone_range || w->cursor + len > w->end)
		w->cursor = w->zone_start;
	w->zone_done += len;
}

/* A random slot of the zone in use, or of the region. */
static uint64_t random_offset(struct workload *w, const struct workload_shape *s, uint32_t len,
			      bool write)
{
	uint64_t lim;

	if (!s->zone_size)
		return w->base + random_slot(w, s, write) * w->align;
	lim = w->end - w->zone_start < s->zone_range ? w->end - w->zone_start : s->zone_range;
	if (lim < len)
		return w->zone_start;
	return w->zone_start + bounded(w, (lim - len) / w->align + 1) * w->align;
}

/* fio's backward sweep: the next I/O starts `rewind` before this one's end; before the region's
 * start it goes to `rewind` before the region's end. */
static uint64_t rewound(const struct workload *w, const struct workload_shape *s, uint64_t end)
{
	if (end >= w->base + s->rewind)
		return end - s->rewind;
	return w->end - w->base >= s->rewind ? w->end - s->rewind : w->base;
}

uint64_t workload_next_shaped(struct workload *w, bool *write, uint32_t *len)
{
	const struct workload_shape *s = w->shape;
	bool seq = w->sequential;
	uint64_t off;

	*write = w->mixed ? workload_rand(w) < w->write_thresh : w->all_write;
	*len = pick_bs(w, s, *write);
	if (s->mix_pattern)
		seq = workload_rand(w) >= s->rand_thresh;
	if (s->zone_size)
		zone_turn(w, s, *len);
	if (seq) {
		/* Sequential (also after a random I/O, as DiskSpd's -rs continues from it). */
		if (w->cursor + *len > w->end)
			w->cursor = w->base;
		off = w->cursor;
	} else {
		off = random_offset(w, s, *len, *write);
	}
	w->cursor = s->rewind ? rewound(w, s, off + *len) : off + *len + s->skip;
	return off;
}
