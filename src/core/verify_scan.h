#ifndef IORATE_CORE_VERIFY_SCAN_H
#define IORATE_CORE_VERIFY_SCAN_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/verify.h"

/* A run whose blocks are expected: its seed, and the target index its headers carry
 * (VERIFY_ANY_TARGET: any). */
#define VERIFY_ANY_TARGET UINT32_MAX
struct verify_origin {
	uint64_t seed;
	uint32_t target;
};

#define VERIFY_SCAN_FROM 16

/*
 * One target checked after the fact (`iorate verify`). The layout is what the caller knows
 * (from --block, --seed, or a saved result's seed, block size and targets), else what most
 * headers of the target say: a block of another run at the start does not decide.
 */
struct verify_scan {
	uint32_t block;             /* bytes per block; 0: the most common among the headers */
	uint64_t seed;              /* the run the blocks must come from; 0: the most common */
	/* The runs accepted (a result of several jobs that wrote this target); nfrom 0: seed,
	 * at any target index, or what most headers say. */
	struct verify_origin from[VERIFY_SCAN_FROM];
	unsigned nfrom;
	/* from[i]'s record of the blocks it wrote (a saved result's, verify.h), or NULL. */
	const struct verify_written *written[VERIFY_SCAN_FROM];
	unsigned target;            /* this target's index, for the bad blocks' records */
	bool whole;                 /* the scan covers the whole target */
	uint64_t unwritten;         /* blocks without a header, not known to be the run's */
	/* Lost writes, counted in res.bad: blocks without a header that a record says the run
	 * wrote, or that lie inside one of its sequential sweeps; unplaced, those a truncated
	 * record counts but does not place (its blocks minus the run's headers found). */
	uint64_t lost, lost_unplaced;
	/* Without a complete record: blocks without a header between two of the run's blocks,
	 * which may be lost writes or blocks a random run never wrote. */
	uint64_t suspicious;
	/* The scan's own state: the last of the run's blocks seen, and the blocks without a
	 * header since; per from[], the run's blocks found outside its record's ranges. */
	struct verify_id last;
	bool have_last;
	uint64_t holes;
	uint64_t outside[VERIFY_SCAN_FROM];
	uint64_t swept_unrecorded;  /* lost writes a sweep placed where no record names one */
	/* When the headers name two runs about equally often (-ENOTUNIQ): both, and how many. */
	struct verify_origin rivals[2];
	uint64_t rival_count[2];
	struct verify_result res;   /* checked: blocks with a header; bad ones kept */
};

/*
 * Checks the blocks of [off, off + len) of fd. -ENOENT when block or seed had to be found and no
 * intact header was; -ENOTUNIQ when the seed had to be found and two runs' blocks are about
 * equally common (s->rivals names them); -EINTR when *stop was set; -errno on a read error.
 */
int verify_scan_fd(int fd, uint64_t off, uint64_t len, struct verify_scan *s,
		   void (*progress)(void *arg, double done), void *arg,
		   volatile sig_atomic_t *stop);

/* The same for a path (a regular file or a block device, read only), range 0 meaning to its
 * end. On failure err says why ("PATH: ..."); -EINVAL for bad usage. */
int verify_scan_path(const char *path, uint64_t off, uint64_t range, struct verify_scan *s,
		     void (*progress)(void *arg, double done), void *arg,
		     volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
