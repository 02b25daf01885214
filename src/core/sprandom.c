/*
 * The steady-state preconditioning pass (sprandom.h has the model). Three parts:
 *
 * - A plan made once: each region's target validity, and from it how many of the region's
 *   writes are rewritten in the next region (picks[r]). The picks are whole numbers that add up
 *   to exactly P - L, so that the pass writes the physical capacity and every logical block.
 * - Fresh writes: the logical blocks in a random order without a map, a keyed bijection of
 *   [0, 2^k) walked by a counter, skipping the images at or above L (fewer than half of them).
 * - Rewrites: a FIFO of the blocks a region picked, replayed in the next region. A region picks
 *   exactly picks[r] of its writes, each equally likely (selection sampling), so a region's
 *   final validity is the plan's, not a binomial draw around it.
 */
#include "core/sprandom.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/workload.h"
#include "util/err.h"
#include "util/field.h"

#define ROUNDS 4
/* Keeps the permutation's and the picks' streams apart from the job's other uses of its seed. */
#define SEED_SALT 0x73707261ull

struct sprandom {
	uint64_t bs;
	uint64_t blocks;        /* L: logical blocks */
	uint64_t phys;          /* P: the physical capacity in blocks */
	uint64_t total;         /* writes of the pass */
	uint64_t written;
	unsigned nregions;
	bool defer;             /* a cache size: rewrites last in their region */

	/* the region being written */
	unsigned region;
	uint64_t len;           /* its writes */
	uint64_t pos;           /* its writes done */
	uint64_t picks_left;    /* of its writes still to pick for the next region */
	uint64_t replays_left;  /* the previous region's picks still to write */

	/* fresh writes: a bijection of [0, mask] from a counter */
	uint64_t mask;
	uint64_t counter;
	uint64_t fresh_left;
	uint64_t key[ROUNDS], mul[ROUNDS];
	unsigned shift;

	/* Picks waiting for their rewrite, oldest first. A block number takes 4 bytes up to 2^32
	 * blocks, 5 (a fifth byte in hi) up to 2^40, else 8. fio keeps 8 bytes for about as many
	 * entries (its count has a margin of six standard deviations; ours can be half a percent
	 * over a region's expected picks), so this stays below fio's up to 2^40 blocks. */
	uint64_t cap, head, count;
	uint32_t *lo;
	uint8_t *hi;
	uint64_t *wide;

	uint64_t *picks;        /* per region */
	double *validity;       /* per region, the model's target */
	struct workload rng;    /* which writes a region picks */
};

/* First write of region r: regions differ in length by one block at most. */
static uint64_t region_start(const struct sprandom *s, unsigned r)
{
	uint64_t q = s->phys / s->nregions, rem = s->phys % s->nregions;

	/* rem < nregions < 2^32, so rem * r cannot overflow */
	return q * r + rem * r / s->nregions;
}

static uint64_t region_len(const struct sprandom *s, unsigned r)
{
	return region_start(s, r + 1) - region_start(s, r);
}

static void region_enter(struct sprandom *s, unsigned r)
{
	s->region = r;
	s->pos = 0;
	s->len = region_len(s, r);
	s->picks_left = s->picks[r];
	/* what the ring holds now is exactly the previous region's picks */
	s->replays_left = s->count;
}

static uint64_t scramble(const struct sprandom *s, uint64_t x)
{
	/* Each step is a bijection of k-bit values: adding, multiplying by an odd number and
	 * folding the high half into the low half, modulo 2^k. */
	for (int i = 0; i < ROUNDS; i++) {
		x = (x + s->key[i]) & s->mask;
		x = (x * s->mul[i]) & s->mask;
		x ^= x >> s->shift;
	}
	return x;
}

static uint64_t fresh_next(struct sprandom *s)
{
	uint64_t b;

	/* The counter cannot pass mask before fresh_left is spent: exactly L images are below L. */
	do
		b = scramble(s, s->counter++);
	while (b >= s->blocks);
	s->fresh_left--;
	return b;
}

static void ring_push(struct sprandom *s, uint64_t b)
{
	uint64_t i = s->head + s->count;

	if (i >= s->cap)
		i -= s->cap;
	if (s->wide) {
		s->wide[i] = b;
	} else {
		s->lo[i] = (uint32_t)b;
		if (s->hi)
			s->hi[i] = (uint8_t)(b >> 32);
	}
	s->count++;
}

static uint64_t ring_pop(struct sprandom *s)
{
	uint64_t i = s->head, b;

	if (s->wide)
		b = s->wide[i];
	else
		b = s->lo[i] | (s->hi ? (uint64_t)s->hi[i] << 32 : 0);
	if (++s->head == s->cap)
		s->head = 0;
	s->count--;
	return b;
}

bool sprandom_next(struct sprandom *s, uint64_t *off)
{
	uint64_t b, left;
	bool replay;

	if (s->written == s->total)
		return false;
	if (s->pos == s->len) {
		if (s->region + 1 == s->nregions) /* not reached: the plan fills the last region */
			return false;
		region_enter(s, s->region + 1);
	}
	left = s->len - s->pos;
	if (!s->replays_left)
		replay = false;
	else if (!s->fresh_left || !s->defer)
		replay = true;
	else
		replay = left <= s->replays_left;
	if (replay) {
		b = ring_pop(s);
		s->replays_left--;
	} else {
		b = fresh_next(s);
	}
	/* Selection sampling: of `left` writes still to come, picks_left are picked. */
	if (s->picks_left &&
	    (uint64_t)(((unsigned __int128)workload_rand(&s->rng) * left) >> 64) < s->picks_left) {
		ring_push(s, b);
		s->picks_left--;
	}
	s->pos++;
	s->written++;
	*off = b * s->bs;
	return true;
}

uint64_t sprandom_writes(const struct sprandom *s)
{
	return s->total;
}

const double *sprandom_validity(const struct sprandom *s, unsigned *n)
{
	*n = s->nregions;
	return s->validity;
}

void sprandom_free(struct sprandom *s)
{
	if (!s)
		return;
	free(s->lo);
	free(s->hi);
	free(s->wide);
	free(s->picks);
	free(s->validity);
	free(s);
}

/* The model's validity of each region, oldest (least valid) first. */
static void model_validity(double *v, unsigned n, double op)
{
	double wa = 0.5 / op + 0.7, gc = 1.0 - 1.0 / wa;

	/* Space per unit of validity going as 1/v makes validity exponential in the position: the
	 * region at a fraction x of the way from the oldest has validity gc^(1 - x). */
	for (unsigned r = 0; r < n; r++)
		v[r] = n == 1 ? 1.0 : exp(log(gc) * (double)(n - 1 - r) / (double)(n - 1));
}

/*
 * picks[r]: how many writes of region r the next region rewrites, in proportion to the region's
 * invalid share (1 - validity) and adding up to need; cumulative rounding keeps each within one
 * of its exact share. A region cannot pick more than it writes nor than the next region holds;
 * what does not fit moves on to regions with room. Returns how many were placed.
 */
static uint64_t plan_picks(struct sprandom *s, uint64_t need)
{
	unsigned n = s->nregions;
	double sum = 0, acc = 0;
	uint64_t done = 0, carry = 0, placed = 0;

	for (unsigned r = 0; r + 1 < n; r++)
		sum += (double)region_len(s, r) * (1.0 - s->validity[r]);
	for (unsigned r = 0; r + 1 < n; r++) {
		uint64_t room = region_len(s, r), until;

		if (region_len(s, r + 1) < room)
			room = region_len(s, r + 1);
		acc += (double)region_len(s, r) * (1.0 - s->validity[r]);
		until = r + 2 == n || sum <= 0 ? need : (uint64_t)floor((double)need * (acc / sum) + 0.5);
		if (until > need)
			until = need;
		if (until < done)
			until = done;
		s->picks[r] = until - done + carry;
		done = until;
		carry = 0;
		if (s->picks[r] > room) {
			carry = s->picks[r] - room;
			s->picks[r] = room;
		}
	}
	for (unsigned r = 0; carry && r + 1 < n; r++) {
		uint64_t room = region_len(s, r), more;

		if (region_len(s, r + 1) < room)
			room = region_len(s, r + 1);
		more = room - s->picks[r] < carry ? room - s->picks[r] : carry;
		s->picks[r] += more;
		carry -= more;
	}
	for (unsigned r = 0; r < n; r++)
		placed += s->picks[r];
	return placed;
}

/* The most the ring holds: a region's picks, or with rewrites deferred, two regions' at once. */
static uint64_t ring_capacity(const struct sprandom *s)
{
	uint64_t cap = 1;

	for (unsigned r = 0; r < s->nregions; r++) {
		uint64_t c = s->picks[r];

		if (s->defer && r > 0)
			c += s->picks[r - 1];
		if (c > cap)
			cap = c;
	}
	return cap;
}

static void seed_permutation(struct sprandom *s, uint64_t seed)
{
	uint64_t sm = seed ^ SEED_SALT;
	unsigned k = 1;

	while (k < 64 && (s->blocks - 1) >> k)
		k++;
	s->mask = k == 64 ? UINT64_MAX : (1ull << k) - 1;
	s->shift = (k + 1) / 2;
	for (int i = 0; i < ROUNDS; i++) {
		s->key[i] = splitmix64(&sm);
		s->mul[i] = splitmix64(&sm) | 1;
	}
	workload_seed(&s->rng, splitmix64(&sm));
}

#define FAIL(...) return err_set(err, errlen, -EINVAL, __VA_ARGS__)

static int check(uint64_t len, uint32_t bs, double op, unsigned nregions, char *err,
		 size_t errlen)
{
	double extra;

	if (!bs)
		FAIL(FIELD("bs") ": must be at least 1 byte for sprandom");
	if (!(op > 0 && op < 1))
		FAIL(FIELD("spr-op") ": %g is not a fraction between 0 and 1 (both excluded)", op);
	if (!nregions)
		FAIL(FIELD("spr-num-regions") ": must be at least 1");
	if (len / bs < nregions)
		FAIL(FIELD("spr-num-regions") ": %u regions need at least %u blocks of " FIELD("bs")
		     " %u; " FIELD("size") " holds %llu", nregions, nregions, bs,
		     (unsigned long long)(len / bs));
	extra = ceil((double)len * op);
	if (extra >= 18446744073709551616.0 || (uint64_t)extra > UINT64_MAX - len)
		FAIL(FIELD("size") ": %llu bytes with " FIELD("spr-op") " %g make more than 2^64 bytes",
		     (unsigned long long)len, op);
	return 0;
}

int sprandom_new(uint64_t len, uint32_t bs, double op, unsigned nregions, uint64_t cache,
		 uint64_t seed, struct sprandom **out, char *err, size_t errlen)
{
	struct sprandom *s;
	uint64_t phys, need, smallest;
	int rc;

	*out = NULL;
	if ((rc = check(len, bs, op, nregions, err, errlen)))
		return rc;
	/* fio's physical size: the logical bytes plus op of them rounded up, in whole blocks */
	phys = len + (uint64_t)ceil((double)len * op);
	phys /= bs;
	smallest = phys / nregions * bs;
	if (cache > smallest)
		FAIL(FIELD("spr-cs") ": %llu bytes is more than a region (%llu bytes with %u of "
		     FIELD("spr-num-regions") "); at most %llu regions fit", (unsigned long long)cache,
		     (unsigned long long)smallest, nregions,
		     (unsigned long long)(phys * bs / cache));
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, errlen, -ENOMEM, "sprandom: out of memory");
	s->bs = bs;
	s->blocks = len / bs;
	s->phys = phys;
	s->nregions = nregions;
	s->defer = cache > 0;
	s->picks = calloc(nregions, sizeof(*s->picks));
	s->validity = calloc(nregions, sizeof(*s->validity));
	if (!s->picks || !s->validity)
		goto nomem;
	model_validity(s->validity, nregions, op);
	/* One region has no next one to rewrite into: the pass is then the logical blocks once. */
	need = nregions > 1 ? phys - s->blocks : 0;
	if (plan_picks(s, need) != need) {
		sprandom_free(s);
		FAIL(FIELD("spr-num-regions") ": regions of %llu blocks are too small for the %llu "
		     "rewrites of " FIELD("spr-op") " %g; use fewer", (unsigned long long)(phys /
		     nregions), (unsigned long long)need, op);
	}
	s->total = s->blocks + need;
	s->cap = ring_capacity(s);
	if ((s->blocks - 1) >> 40) {
		if (!(s->wide = calloc(s->cap, sizeof(*s->wide))))
			goto nomem;
	} else {
		if (!(s->lo = calloc(s->cap, sizeof(*s->lo))))
			goto nomem;
		if ((s->blocks - 1) >> 32 && !(s->hi = calloc(s->cap, sizeof(*s->hi))))
			goto nomem;
	}
	s->fresh_left = s->blocks;
	seed_permutation(s, seed);
	region_enter(s, 0);
	*out = s;
	return 0;
nomem:
	sprandom_free(s);
	return err_set(err, errlen, -ENOMEM, "sprandom: out of memory for %u regions of %llu "
		       "blocks", nregions, (unsigned long long)(phys / nregions));
}
