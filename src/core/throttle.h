#ifndef IORATE_CORE_THROTTLE_H
#define IORATE_CORE_THROTTLE_H
#include <signal.h>
#include <stdint.h>

#include "core/job.h"

/*
 * Emulated caps: a token bucket per target (the disk) and one for the whole run (the VM), each
 * for IOPS and for MB/s, with an optional burst credit bucket. Workers take tokens before each
 * I/O and sleep when there are none.
 */
struct throttle;
struct throttle_set;

/* *out is NULL when the job has no caps (the hot path then skips throttling entirely). */
int throttle_set_new(const struct job *job, struct throttle_set **out);
void throttle_set_free(struct throttle_set *s);
/* Sets the buckets as they are when the workers start at `start` (clock_ns()). */
void throttle_set_start(struct throttle_set *s, uint64_t start);
/* The throttle the workers of target `target` share. */
struct throttle *throttle_set_get(struct throttle_set *s, unsigned target);
/*
 * Reserves an I/O of `bytes` asked for at `now` in the target's buckets and the VM's, and returns
 * when it may be issued. The caller waits (and reaps meanwhile); nothing here sleeps.
 */
uint64_t throttle_reserve(struct throttle *t, uint32_t bytes, uint64_t now);
/*
 * Seconds I/Os waited for each bucket (enum cap_bucket), summed over every I/O and target since
 * throttle_set_start(): a wait counts for the bucket that let the I/O go last. All 0 for NULL.
 */
void throttle_set_held(const struct throttle_set *s, double held_s[CAP_BUCKETS]);
/* Burst credit left, percent of the bucket (first target's disk bucket); -1 without burst. */
void throttle_set_credit(struct throttle_set *s, double *iops_pct, double *mbps_pct);

#endif
