#include "core/workload.h"

#include <errno.h>

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int workload_init(struct workload *w, uint64_t base, uint64_t len, uint64_t bs, uint64_t align,
		  bool sequential, unsigned write_pct, uint64_t seed, unsigned target,
		  unsigned thread, unsigned nthreads)
{
	uint64_t sm = seed ^ ((uint64_t)target << 40) ^ ((uint64_t)thread << 20);

	if (bs == 0 || len < bs || nthreads == 0)
		return -EINVAL;
	workload_seed(w, sm);
	w->base = base;
	w->sequential = sequential;
	if (sequential) {
		/* Threads interleave block by block (thread k takes k, k+T, k+2T, ...), so together
		 * they sweep the region in order, as DiskSpd's -si does with a shared offset. */
		w->align = bs;
		w->slots = len / bs;
		w->stride = nthreads % w->slots;
		w->next = thread % w->slots;
	} else {
		w->align = align ? align : bs;
		w->slots = (len - bs) / w->align + 1;
		w->stride = 0;
		w->next = 0;
	}
	w->mixed = write_pct > 0 && write_pct < 100;
	w->all_write = write_pct >= 100;
	/* write_pct percent of the 2^64 draws fall below the threshold. */
	w->write_thresh = (uint64_t)(((unsigned __int128)write_pct << 64) / 100);
	return 0;
}

void workload_seed(struct workload *w, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		w->s[i] = splitmix64(&seed);
}

void workload_fill(struct workload *w, void *buf, size_t len)
{
	uint64_t *p = buf;

	for (size_t i = 0; i < len / 8; i++)
		p[i] = workload_rand(w);
}
