#ifndef IORATE_MODEL_HOSTCACHE_H
#define IORATE_MODEL_HOSTCACHE_H
#include <stdbool.h>
#include <stddef.h>

#include "core/job.h"

/*
 * The share of reads a VM's host cache serves, from what the workload touches: its working set,
 * how its random offsets spread (the distributions of iorate run), the VM's host-cache size and
 * whether the cache is warm. Rules and sources: docs/model.md, "Host caching".
 */

/* Warm: the steady state, after a first pass over the working set; cold: that first pass. */
enum model_cache_state { MODEL_STATE_WARM, MODEL_STATE_COLD };

/* How random offsets spread over the working set (job.h's distributions, sequence excepted). */
struct model_skew {
	enum job_dist dist;             /* DIST_UNIFORM unless given */
	double param;                   /* zipf theta, pareto h, normal sigma (percent) */
	struct job_zone zones[JOB_MAX_ZONES];
	unsigned nzones;
};

/* Why the ratio is what it is: named in the prediction. */
enum model_hit_basis {
	MODEL_HIT_GIVEN,                /* a ratio was given: it wins */
	MODEL_HIT_NO_WS,                /* no working set known: no hits assumed */
	MODEL_HIT_COLD,                 /* the first pass: every read misses */
	MODEL_HIT_FITS,                 /* the working set fits: every read hits after one pass */
	MODEL_HIT_SHARE,                /* larger than the cache: the share its hottest part draws */
	MODEL_HIT_SEQ_LARGER,           /* read in order and larger than the cache: no hits */
	MODEL_HIT_UNKNOWN,              /* no cache size published, or a pattern with no rule */
};

struct model_hit {
	enum model_hit_basis basis;
	bool known;                     /* false: unknown, and the prediction assumes no hits */
	double pct;                     /* percent of reads served by the host cache, as used */
	/* What report/ words the reason with (model_words_hit()). */
	bool set;                       /* GIVEN: given by the user (read_hit_set) */
	bool uncached;                  /* NO_WS: no group has a host cache */
	const char *vm;                 /* the VM's name, or NULL */
	double working_set, cache;      /* bytes; 0: not known, none published */
	enum job_dist dist;             /* how random offsets spread (SHARE, UNKNOWN) */
	double param;
};

/*
 * The share (0..1) of random accesses that fall in the hottest `part` bytes of `whole` when
 * offsets follow skew over slots of bs bytes: uniform part / whole; zipf the hottest ranks' sum
 * over all ranks; pareto and normal in closed form; zoned the densest zones first. 1 when part
 * holds whole; NAN for a distribution without a rule (sequence).
 */
double model_hot_share(const struct model_skew *skew, double part, double whole, double bs);

/*
 * A distribution's parameters checked as iorate run checks them: 0, or -EINVAL with *why (to
 * follow the value: "has a pareto h that is not between 0 and 1").
 */
int model_skew_check(const struct model_skew *skew, const char **why);

#endif
