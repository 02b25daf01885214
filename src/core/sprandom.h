#ifndef IORATE_CORE_SPRANDOM_H
#define IORATE_CORE_SPRANDOM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Offsets that precondition an SSD to its steady state for random writes in one pass over its
 * physical capacity (fio's sprandom; fio documentation, HOWTO, "sprandom", fio 3.41, 2025).
 *
 * At steady state under uniform random writes, the physical space holding blocks of validity v
 * goes as 1/v, from the validity of what garbage collection reclaims, 1 - 1/WA, up to 1 (P.
 * Desnoyers, "Analytic Models of SSD Write Performance", ACM Transactions on Storage 8(2),
 * 2012). WA comes from the over-provisioning op as 0.5 / op + 0.7, the approximation fio uses.
 * Cutting that space into n equal regions in write order gives region r the validity
 * (1 - 1/WA)^((n - 1 - r) / (n - 1)): the oldest region holds the least valid data.
 *
 * The pass writes P = (len + ceil(len * op)) / bs blocks (the physical size, rounded down to
 * whole blocks), which fio also makes the job's io_size; region r is the writes from
 * floor(r * P / n) up to floor((r + 1) * P / n). Each logical block is written once, in a
 * random order, and each region picks an exact number of its writes to be written again in the
 * next region, which leaves it its target share of valid blocks. Those rewrites must add up to
 * P - L (L = len / bs logical blocks), which the model's targets miss by a little: every
 * region's invalid share is scaled by the one factor that makes them meet it (1.0036 for op
 * 0.07, 1.005 for 0.15, 0.99 for 0.5, 0.95 for 0.9). The rewrites of a region come first in
 * the next one; with a cache size they come last, so that an invalidating write is at least a
 * region's writes after the write it invalidates and the two are never in the device's cache
 * together.
 *
 * Pure and deterministic: no I/O, no printing, and the same seed gives the same offsets. Memory
 * is two numbers per region and the block numbers of the rewrites pending between two regions
 * (at most a region's worth, or two with a cache size; 4 or 5 bytes each, up to 2^40 blocks),
 * no more than fio's; sprandom_next() allocates nothing and does O(1) work amortised. One
 * instance serves one thread.
 */
struct sprandom;

/*
 * A pass over a region of len bytes in blocks of bs bytes (len >= nregions * bs), with
 * over-provisioning op in (0, 1), nregions >= 1 and a device cache of cache bytes (0: rewrites
 * first in each region; at most one region's bytes otherwise). seed: the job's seed. Returns 0,
 * or -EINVAL / -ENOMEM with a one-line reason in err. With one region there is no later region
 * to rewrite into, and the pass writes each logical block once.
 */
int sprandom_new(uint64_t len, uint32_t bs, double op, unsigned nregions, uint64_t cache,
		 uint64_t seed, struct sprandom **out, char *err, size_t errlen);

/*
 * The next write's offset (from the region's start, a multiple of bs, below len): true, or false
 * once the whole physical capacity has been written (the preconditioning is done).
 */
bool sprandom_next(struct sprandom *s, uint64_t *off);

/* How many writes the whole pass makes (what sprandom_next returns true for): P, or L with one
 * region. */
uint64_t sprandom_writes(const struct sprandom *s);

/* Each region's target validity fraction (nregions values, region 0 first, rising to 1). */
const double *sprandom_validity(const struct sprandom *s, unsigned *n);

void sprandom_free(struct sprandom *s);

#endif
