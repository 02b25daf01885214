#ifndef IORATE_RESULT_RESULT_SET_H
#define IORATE_RESULT_RESULT_SET_H
#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

/*
 * A run of several jobs and its sums, above the core: the runner fills each job's struct result
 * (core/result.h, where it must stay, as core includes nothing above it), and reports, the
 * store and the JSON reader add them up here.
 */

/*
 * A block device over a group of jobs, or over the whole run: what the kernel counted for it
 * in /proc/diskstats, and what iorate's own I/O to it through the jobs' targets added up to.
 */
struct device_counts {
	struct kernel_counts kernel;     /* valid; name is the device's kernel name */
	uint64_t read_ios, write_ios;    /* iorate's, over the targets on this device */
	uint64_t read_bytes, write_bytes;
	uint64_t trim_ios, trim_bytes;
};

/*
 * The jobs of one group together, or the whole run. Counters and latency histograms are the
 * jobs' merged, so percentiles come from the merged histograms, never from averaged ones.
 */
struct result_sum {
	unsigned group;                  /* the group's number (the total: how many groups) */
	unsigned njobs, nstarted;        /* its jobs, and how many of them started */
	/*
	 * A group: from the earliest start of its jobs' measured windows to the latest end (the
	 * jobs start from one instant, each after its start delay and warm-up). The total: the
	 * groups' added, as they run one after another.
	 */
	double seconds;
	struct dir_stats read, write;    /* over every target of its jobs */
	struct dir_stats trim;
	/* A group: its own (every job of a group holds the group's); the total: the groups',
	 * weighted by their seconds. */
	struct cpu_usage cpu;
	struct device_counts *devices;   /* in the order the jobs' targets first name them */
	unsigned ndevices;
	/* Every device under its jobs' targets (their device_views, each device once). */
	struct device_view *views;
	unsigned nviews;
	bool interrupted;                /* one of its jobs was stopped early */
};

/*
 * A run: one job, or several (fio job files, DiskSpd per-target parameters). Each job keeps
 * its own struct result; for several, the run adds each group's sum and the total. A run of
 * one job has no groups: it is its result alone.
 */
struct result_set {
	struct result *jobs;
	unsigned njobs;
	bool borrowed;                   /* jobs belong to the caller (result_set_view) */
	struct result_sum *groups;       /* in increasing group number; none for one job */
	unsigned ngroups;
	struct result_sum total;         /* zeros for one job */
};

void result_set_init(struct result_set *s);
/* Releases the groups, and the jobs unless they are borrowed. */
void result_set_release(struct result_set *s);
/*
 * s takes the n results (an array from malloc, with each result released with it) and sums
 * them. On failure (-ENOMEM) s holds them all the same, to be released.
 */
int result_set_take(struct result_set *s, struct result *jobs, unsigned n);
/* The same for results that stay the caller's; s must not outlive them. */
int result_set_view(struct result_set *s, const struct result *jobs, unsigned n);
/* (Re)computes the groups and the total from the jobs. 0 or -ENOMEM. */
int result_set_sum(struct result_set *s);
/* Whether job i belongs to group g (an index into s->groups). */
bool result_set_in_group(const struct result_set *s, unsigned i, unsigned g);
/* The first job's failure (result_error()), or NULL when none failed. */
const char *result_set_error(const struct result_set *s);
/* When the run started: the earliest start_unix_ms of its jobs (0 when none is known). */
uint64_t result_set_start_ms(const struct result_set *s);

#endif
