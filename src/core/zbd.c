#include "core/zbd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/err.h"
#include "util/field.h"

struct zbd_set {
	struct zbd_set *next;
	pthread_mutex_t mu;          /* every zone's state: zoned workloads are not the hot case */
	dev_t dev;
	ino_t ino;
	uint64_t zone_size, capacity;
	uint32_t nzones;
	uint64_t *wp;                /* bytes written in each zone since its last reset */
	unsigned **owner;            /* an open zone: the job_open count of the job that opened it */
	uint32_t *open;              /* the zones open for writing, nopen of them */
	unsigned nopen, max_open;
	uint64_t valid;              /* the zones' written bytes added up */
	uint64_t write_cnt;          /* writes left before the reset threshold's next reset */
	uint64_t resets;
};

#define FAIL(...) err_set(err, errlen, -EINVAL, __VA_ARGS__)

int zbd_set_get(struct zbd_set **sets, dev_t dev, ino_t ino, uint64_t size,
		const struct zbd_params *p, struct zbd_set **out, char *err, size_t errlen)
{
	uint64_t cap = p->capacity ? p->capacity : p->zone_size;
	struct zbd_set *s;

	for (s = *sets; s; s = s->next)
		if (s->dev == dev && s->ino == ino) {
			if (s->zone_size != p->zone_size || s->capacity != cap)
				return FAIL(FIELD("zone-size") ": another job uses this target's "
					    "zones with a size of %llu bytes and a capacity of %llu",
					    (unsigned long long)s->zone_size,
					    (unsigned long long)s->capacity);
			*out = s;
			return 0;
		}
	if (p->zone_size < 512)
		return FAIL(FIELD("zone-size") ": a zone is at least 512 bytes");
	if (cap > p->zone_size)
		return FAIL(FIELD("zone-capacity") ": %llu bytes is more than a zone's %llu",
			    (unsigned long long)cap, (unsigned long long)p->zone_size);
	if (size < p->zone_size)
		return FAIL(FIELD("zone-size") ": the target's %llu bytes do not hold one zone of "
			    "%llu", (unsigned long long)size, (unsigned long long)p->zone_size);
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	s->nzones = (uint32_t)((size + p->zone_size - 1) / p->zone_size);
	s->wp = calloc(s->nzones, sizeof(*s->wp));
	s->owner = calloc(s->nzones, sizeof(*s->owner));
	s->open = calloc(s->nzones, sizeof(*s->open));
	if (!s->wp || !s->owner || !s->open) {
		free(s->wp);
		free(s->owner);
		free(s->open);
		free(s);
		return -ENOMEM;
	}
	pthread_mutex_init(&s->mu, NULL);
	s->dev = dev;
	s->ino = ino;
	s->zone_size = p->zone_size;
	s->capacity = cap;
	s->max_open = p->max_open;
	s->next = *sets;
	*sets = *out = s;
	return 0;
}

void zbd_sets_free(struct zbd_set **sets)
{
	while (*sets) {
		struct zbd_set *s = *sets;

		*sets = s->next;
		pthread_mutex_destroy(&s->mu);
		free(s->wp);
		free(s->owner);
		free(s->open);
		free(s);
	}
}

void zbd_sets_forget(struct zbd_set *sets, const unsigned *job_open)
{
	for (struct zbd_set *s = sets; s; s = s->next) {
		pthread_mutex_lock(&s->mu);
		for (uint32_t z = 0; z < s->nzones; z++)
			if (s->owner[z] == job_open)
				s->owner[z] = NULL;
		pthread_mutex_unlock(&s->mu);
	}
}

uint64_t zbd_set_resets(const struct zbd_set *s)
{
	return __atomic_load_n(&s->resets, __ATOMIC_RELAXED);
}

int zbd_view_init(struct zbd_view *v, struct zbd_set *s, const struct zbd_params *p,
		  uint64_t off, uint64_t len, bool writes, bool random, uint32_t min_bs,
		  unsigned thread, unsigned *job_open, char *err, size_t errlen)
{
	uint64_t zs = s->zone_size, start = off, end = off + len;

	(void)thread;
	if (writes)
		start = (off + zs - 1) / zs * zs;
	end = end / zs * zs;
	if (end > (uint64_t)s->nzones * zs)
		end = (uint64_t)s->nzones * zs;
	if (end <= start || (writes && end - start < zs))
		return FAIL(FIELD("zone-size") ": the region [%llu, %llu) holds no whole zone of "
			    "%llu bytes", (unsigned long long)off, (unsigned long long)(off + len),
			    (unsigned long long)zs);
	if (min_bs > s->capacity)
		return FAIL(FIELD("zone-capacity") ": a zone's %llu writable bytes do not hold a "
			    "block of %u", (unsigned long long)s->capacity, min_bs);
	*v = (struct zbd_view){.set = s, .min_zone = (uint32_t)(start / zs),
			       .max_zone = (uint32_t)((end + zs - 1) / zs), .range_off = start,
			       .range_len = end - start, .min_bs = min_bs, .random = random,
			       .cursor = start, .job_open = job_open, .p = *p};
	pthread_mutex_lock(&s->mu);
	if (p->reset_frequency > 0 && !s->write_cnt)
		s->write_cnt = p->reset_frequency >= 1 ? 1 : (uint64_t)(1 / p->reset_frequency);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

static uint32_t zone_of(const struct zbd_view *v, uint64_t off)
{
	uint64_t z = off / v->set->zone_size;

	return z < v->min_zone ? v->min_zone : z >= v->max_zone ? v->max_zone - 1 : (uint32_t)z;
}

static uint64_t zone_start(const struct zbd_set *s, uint32_t z)
{
	return (uint64_t)z * s->zone_size;
}

static void zone_close(struct zbd_set *s, uint32_t z)
{
	for (unsigned i = 0; i < s->nopen; i++)
		if (s->open[i] == z) {
			s->open[i] = s->open[--s->nopen];
			if (s->owner[z] && *s->owner[z])
				(*s->owner[z])--;
			s->owner[z] = NULL;
			return;
		}
}

static bool zone_is_open(const struct zbd_set *s, uint32_t z)
{
	for (unsigned i = 0; i < s->nopen; i++)
		if (s->open[i] == z)
			return true;
	return false;
}

/* Opens z for the view's job, when the limits let it (or it is open already). */
static bool zone_open(struct zbd_view *v, uint32_t z)
{
	struct zbd_set *s = v->set;

	if (zone_is_open(s, z))
		return true;
	if ((s->max_open && s->nopen >= s->max_open) ||
	    (v->p.job_max_open && *v->job_open >= v->p.job_max_open))
		return false;
	s->open[s->nopen++] = z;
	s->owner[z] = v->job_open;
	(*v->job_open)++;
	return true;
}

static void zone_reset(struct zbd_view *v, uint32_t z)
{
	struct zbd_set *s = v->set;

	if (!s->wp[z])
		return;
	s->valid -= s->wp[z];
	s->wp[z] = 0;
	v->resets++;
	__atomic_add_fetch(&s->resets, 1, __ATOMIC_RELAXED);
}

/* The zone nearest z in the view's range (after, then before, alternately) holding at least
 * min bytes, or UINT32_MAX. */
static uint32_t zone_with_data(const struct zbd_view *v, uint32_t z, uint64_t min)
{
	const struct zbd_set *s = v->set;

	for (uint32_t d = 0; d < v->max_zone - v->min_zone; d++) {
		if (z + d < v->max_zone && s->wp[z + d] >= min)
			return z + d;
		if (d && z >= v->min_zone + d && s->wp[z - d] >= min)
			return z - d;
	}
	return UINT32_MAX;
}

/* The first zone at or after z (wrapping within the range) holding at least min bytes. */
static uint32_t zone_with_data_after(const struct zbd_view *v, uint32_t z, uint64_t min)
{
	uint32_t n = v->max_zone - v->min_zone;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = v->min_zone + (z - v->min_zone + i) % n;
		if (v->set->wp[k] >= min)
			return k;
	}
	return UINT32_MAX;
}

static bool do_write(struct zbd_view *v, uint64_t *off, uint32_t *len)
{
	struct zbd_set *s = v->set;
	uint64_t at = v->random ? *off : v->cursor;
	uint32_t z = zone_of(v, at);

	if (!zone_open(v, z)) {
		/* At the open-zone limit: one of the open zones in range, picked by the draw. */
		unsigned i0 = s->nopen ? (unsigned)((unsigned __int128)(at - v->range_off) *
						    s->nopen / v->range_len) : 0;
		uint32_t pick = UINT32_MAX;

		for (unsigned i = 0; i < s->nopen && pick == UINT32_MAX; i++) {
			uint32_t k = s->open[(i0 + i) % s->nopen];
			if (k >= v->min_zone && k < v->max_zone)
				pick = k;
		}
		if (pick == UINT32_MAX)
			return false;
		z = pick;
	}
	if (v->p.reset_frequency > 0 &&
	    (double)s->valid >= (double)v->range_len * v->p.reset_threshold &&
	    s->write_cnt && --s->write_cnt == 0) {
		s->write_cnt = v->p.reset_frequency >= 1 ? 1
							 : (uint64_t)(1 / v->p.reset_frequency);
		zone_reset(v, z);
	}
	if (s->capacity - s->wp[z] < v->min_bs)
		zone_reset(v, z);
	uint64_t room = s->capacity - s->wp[z], n = *len < room ? *len : room;

	n = n / v->min_bs * v->min_bs;
	*off = zone_start(s, z) + s->wp[z];
	*len = (uint32_t)n;
	s->wp[z] += n;
	s->valid += n;
	if (s->capacity - s->wp[z] < v->min_bs) {
		zone_close(s, z);
		v->cursor = zone_start(s, z) + s->zone_size;
	} else {
		v->cursor = *off + n;
	}
	if (v->cursor >= v->range_off + v->range_len)
		v->cursor = v->range_off;
	return true;
}

static bool do_read(struct zbd_view *v, uint64_t *off, uint32_t *len)
{
	struct zbd_set *s = v->set;
	uint64_t at = v->random ? *off : v->cursor;
	uint32_t z0 = zone_of(v, at), z = z0;
	uint64_t n;

	if (v->random) {
		if (s->wp[z] < v->min_bs && (z = zone_with_data(v, z0, v->min_bs)) == UINT32_MAX)
			return false;
		uint64_t range = s->wp[z], start = zone_start(s, z);

		/* Within the zone's written bytes, keeping the draw's randomness. */
		*off = range <= *len ? start : start + ((at - zone_start(s, z0)) % (range - *len)) /
								   v->min_bs * v->min_bs;
	} else {
		if (at + v->min_bs > zone_start(s, z) + s->wp[z]) {
			if ((z = zone_with_data_after(v, z + 1 < v->max_zone ? z + 1 : v->min_zone,
						      v->min_bs)) == UINT32_MAX)
				return false;
			at = zone_start(s, z);
		}
		*off = at;
	}
	n = zone_start(s, z) + s->wp[z] - *off;
	n = (*len < n ? *len : n) / v->min_bs * v->min_bs;
	*len = (uint32_t)n;
	if (!v->random)
		v->cursor = *off + n >= v->range_off + v->range_len ? v->range_off : *off + n;
	return true;
}

/* A trim resets the zones it covers; a random one goes to a zone that holds data. */
static bool do_trim(struct zbd_view *v, uint64_t *off, uint32_t *len)
{
	struct zbd_set *s = v->set;
	uint32_t z = zone_of(v, *off);

	if (v->random && !s->wp[z] && (z = zone_with_data(v, z, 1)) == UINT32_MAX)
		return false;
	*off = v->random ? zone_start(s, z) : *off / s->zone_size * s->zone_size;
	for (uint64_t b = *off; b < *off + *len && b / s->zone_size < v->max_zone;
	     b += s->zone_size) {
		uint32_t k = (uint32_t)(b / s->zone_size);

		zone_reset(v, k);
		zone_close(s, k);
	}
	return true;
}

bool zbd_adjust(struct zbd_view *v, int dir, uint64_t *off, uint32_t *len)
{
	bool ok;

	if (v->bs)
		*len = v->bs;
	if (dir == 0 && v->p.read_beyond_wp)
		return true;
	pthread_mutex_lock(&v->set->mu);
	ok = dir == 1 ? do_write(v, off, len) : dir == 0 ? do_read(v, off, len)
							 : do_trim(v, off, len);
	pthread_mutex_unlock(&v->set->mu);
	return ok && *len;
}
