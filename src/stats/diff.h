#ifndef IORATE_STATS_DIFF_H
#define IORATE_STATS_DIFF_H
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/result.h"
#include "stats/run.h"

/*
 * What differs between two runs' settings, for 'iorate history compare': found by walking the
 * JSON both produce (the caller's to_json, result_to_json(): the host, the iorate version, each
 * job's whole params, shape, caps and targets), so a field added to the result is compared
 * without new code. Keys
 * are JSON paths ("params.cap.iops", "targets[1].device"); a key X is left out where the
 * object also holds X_ns (the same time, exactly). report/ names and prints each item.
 */
enum stats_diff_kind {
	STATS_DIFF_VALUE,           /* key: a -> b (NULL: only the other run has it) */
	STATS_DIFF_ELEMENT,         /* element index of the array at key is in one run only */
	STATS_DIFF_NJOBS,           /* how many jobs: a -> b (integers) */
	STATS_DIFF_JOB,             /* job index is in one run only (job_name: its name) */
};

struct stats_diff_item {
	enum stats_diff_kind kind;
	unsigned job;               /* from 1, where the runs have several jobs; 0: the run */
	const char *job_name;       /* that job's name, or NULL */
	char key[256];
	size_t index;               /* ELEMENT, JOB: from 0 */
	bool only_b;                /* ELEMENT, JOB: b has it, a not (else a has it) */
	json_t *a, *b;              /* owned: the values (NULL: absent) */
	bool chosen_a, chosen_b;    /* VALUE of params.seed: a seed iorate chose, not one given */
};

struct stats_diff {
	struct stats_diff_item *item;
	size_t n, cap;
};

/*
 * The settings of a and b that differ, in the order to print them: the host and iorate
 * version, how many jobs and those only one run has, then each job's. Seeds iorate chose are
 * compared only when one run was given its seed. 0 or -ENOMEM (d then holds what was found).
 */
int stats_run_diff(const struct stats_run *a, const struct stats_run *b,
		   json_t *(*to_json)(const struct result *r), struct stats_diff *d);

/* The differences of two JSON objects of the same form, each item of job (0: none). */
int stats_json_diff(const json_t *a, const json_t *b, unsigned job, struct stats_diff *d);

void stats_diff_free(struct stats_diff *d);

#endif
