#ifndef IORATE_CORE_ZBD_H
#define IORATE_CORE_ZBD_H
/*
 * Emulated zones (fio's zonemode=zbd on a regular file or a device that is not zoned): the
 * target is cut into zones of zone_size bytes from its byte 0, each written only at its write
 * pointer, which a zone reset puts back to the zone's start. Every zone starts empty. A random
 * write goes to the write pointer of the zone its drawn offset falls in (or, when the open-zone
 * limit is reached, of an open zone); a full zone is reset before it is written again; a read
 * reads only what was written (unless read_beyond_wp); a trim resets the zones it covers and
 * touches nothing on the target. The zones of one target are shared by every job and thread
 * that uses it, for the whole run. Internal to the core.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct zbd_set;

/* What a job asks of the zones of its targets. */
struct zbd_params {
	uint64_t zone_size;          /* bytes per zone */
	uint64_t capacity;           /* writable bytes of a zone (0: the zone's size) */
	unsigned max_open;           /* zones open for writing on the target at once (0: any) */
	unsigned job_max_open;       /* ... by this job (0: any) */
	double reset_threshold;      /* valid bytes over the job's range at which ... */
	double reset_frequency;      /* ... every 1/this-th write first resets its zone (0: never) */
	bool read_beyond_wp;         /* reads go where they were drawn */
};

/*
 * One job's thread's view of a target's zones: its range in zones (the region's start rounded
 * up to a zone, its end down), whether it draws at random, and its own sequential cursor.
 */
struct zbd_view {
	struct zbd_set *set;
	uint32_t min_zone, max_zone;     /* [min, max) */
	uint64_t range_off, range_len;   /* the same in bytes */
	uint32_t min_bs;
	bool random;
	uint64_t cursor;                 /* sequential: the next byte */
	unsigned *job_open;              /* zones the job holds open (shared by its threads) */
	uint64_t resets;                 /* zone resets this thread did */
	uint32_t bs;                     /* every I/O's length before its zone shortens it (0:
					    the draw sets it: a size mix) */
	struct zbd_params p;
};

/*
 * The zones of the target identified by (dev, ino) of size bytes: found among *sets (the
 * run's), or made and added. A second job on the target must ask the same zone size and
 * capacity. 0, or -EINVAL / -ENOMEM with a one-line reason in err.
 */
int zbd_set_get(struct zbd_set **sets, dev_t dev, ino_t ino, uint64_t size,
		const struct zbd_params *p, struct zbd_set **out, char *err, size_t errlen);
/*
 * A job's end: zones it opened stay open, but no longer count against its job_open (whose
 * memory the next group reuses).
 */
void zbd_sets_forget(struct zbd_set *sets, const unsigned *job_open);
/* Frees the list *sets. */
void zbd_sets_free(struct zbd_set **sets);
/* Zone resets done on the set so far (by writes to full zones, the reset threshold, trims). */
uint64_t zbd_set_resets(const struct zbd_set *s);

/*
 * A view over the region [off, off + len) for a thread; writes says whether the job writes
 * (fio rounds a writing job's start up to a zone; a reading one keeps its start). -EINVAL
 * when not a whole zone is left or a block does not fit a zone's capacity.
 */
int zbd_view_init(struct zbd_view *v, struct zbd_set *s, const struct zbd_params *p,
		  uint64_t off, uint64_t len, bool writes, bool random, uint32_t min_bs,
		  unsigned thread, unsigned *job_open, char *err, size_t errlen);

/*
 * Where a drawn I/O really goes: dir 0 read, 1 write, 2 trim (a trim resets the zones it
 * covers here, and must then be completed without touching the target). *off and *len are
 * moved and shortened as the zones demand. False: there is nothing this I/O can do (a read
 * when no zone in range holds data; a trim when every zone is empty): the thread's work ends.
 */
bool zbd_adjust(struct zbd_view *v, int dir, uint64_t *off, uint32_t *len);

#endif
