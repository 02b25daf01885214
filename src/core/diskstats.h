#ifndef IORATE_CORE_DISKSTATS_H
#define IORATE_CORE_DISKSTATS_H
#include <stdbool.h>
#include <stddef.h>

#include "core/device.h"
#include "core/result.h"

/*
 * What the block devices under a group's targets did over its measured window, from the
 * kernel's counters in /proc/diskstats: a snapshot at the window's start, one at its end, and
 * each job given the change for the devices under its own targets (struct device_view).
 */

struct target;

/*
 * One line of /proc/diskstats: "major minor name" and 11 counters, 15 with discards (Linux
 * 4.18), 17 with flushes (5.5). Sectors become bytes (512 each, whatever the device). 0, or
 * -EINVAL when the line is not one.
 */
int diskstats_parse(const char *line, char *name, size_t len, struct disk_counts *out);

/*
 * out = after - before, counter by counter; in_flight is after's. The kernel prints its
 * millisecond counters in 32 bits, which wrap after 49.7 days: one below 2^32 that went back
 * wrapped once.
 */
void diskstats_delta(const struct disk_counts *before, const struct disk_counts *after,
		     struct disk_counts *out);

/* One device watched, under one name however many targets and jobs it is under. */
struct disk_watch_dev {
	char name[32];
	struct disk_counts start, end;
	bool started, ended;
};

struct disk_watch_job;

struct disk_watch {
	const char *path;                /* "/proc/diskstats" when NULL (tests: another file) */
	const struct device_env *env;    /* sysfs and mountinfo; NULL: the real ones */
	struct disk_watch_dev *dev;
	unsigned ndev;
	struct disk_watch_job *jobs;
	unsigned njobs;
	bool started;                    /* the start snapshot is taken */
	int error;                       /* reading a snapshot failed: -errno */
};

void disk_watch_init(struct disk_watch *w);
void disk_watch_release(struct disk_watch *w);

/*
 * Watches the devices under the n targets of job res (t[i].dev; a target not opened, t[i].fd
 * < 0, has none). Resolving a target's devices that fails adds a note to res; a target with
 * no block device under it (tmpfs) has none. 0 or -ENOMEM.
 */
int disk_watch_add(struct disk_watch *w, struct result *res, const struct target *t,
		   unsigned n);

/* The snapshots at the window's start and at its end. 0 or -errno (also kept in error). */
int disk_watch_start(struct disk_watch *w);
int disk_watch_end(struct disk_watch *w);

/*
 * Once each job's result holds its window and counts: its devices (res->devices) with the
 * change between the snapshots over the group's window, and iorate's I/O to the targets above
 * each; its block targets' kernel counts (targets[].kernel) are their devices'. A device the
 * kernel did not list at both snapshots is left out.
 */
void disk_watch_fill(struct disk_watch *w);

#endif
