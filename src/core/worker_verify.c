/*
 * --verify in a worker: which blocks of its slice are in flight, what generation each last
 * write left, the buffers of writes made as src/core/verify.h says, and reads checked against
 * them. Called from the worker's loop only when the job verifies; none of it is on the path of
 * a job that does not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/worker.h"

/* The blocks [*b0, *b1) of the slice that r covers. */
static void range(const struct worker_verify *v, const struct io_req *r, uint64_t *b0,
		  uint64_t *b1)
{
	*b0 = (r->offset - v->base) / v->block;
	*b1 = *b0 + r->len / v->block;
}

static uint32_t *slot_prev(struct worker_verify *v, const struct io_req *r)
{
	return v->prev + (size_t)r->idx * v->per_io;
}

bool verify_claim(struct worker *w, struct io_req *r)
{
	struct worker_verify *v = w->vf;
	uint32_t *prev = slot_prev(v, r);
	uint64_t b0, b1;

	range(v, r, &b0, &b1);
	for (uint64_t b = b0; b < b1; b++)
		if (v->gen[b] & VERIFY_BUSY)
			return false;
	v->claim_gen = v->next_gen;
	for (uint64_t b = b0; b < b1; b++) {
		prev[b - b0] = v->gen[b];
		if (!r->write) {
			v->gen[b] |= VERIFY_BUSY;
			continue;
		}
		/* A generation per write, counted per thread: an older copy has a smaller one. */
		if (++v->next_gen >= VERIFY_FAILED)
			v->next_gen = 1;
		struct verify_id id = v->id;
		id.offset = r->offset + (b - b0) * v->block;
		id.gen = v->next_gen;
		verify_make((char *)r->buf + (b - b0) * v->block, &id, v->sum);
		v->gen[b] = v->next_gen | VERIFY_BUSY;
	}
	return true;
}

void verify_cancel(struct worker *w, struct io_req *r)
{
	struct worker_verify *v = w->vf;
	uint32_t *prev = slot_prev(v, r);
	uint64_t b0, b1;

	range(v, r, &b0, &b1);
	for (uint64_t b = b0; b < b1; b++)
		v->gen[b] = prev[b - b0];
	/* The cancelled I/O is always the last one claimed (worker.c's slot_unused()). */
	v->next_gen = v->claim_gen;
}

/* One block a read brought, against what the slice says of it. */
static void check_block(struct worker_verify *v, const void *data, uint64_t offset, uint32_t gen)
{
	struct verify_id want = v->id, found = {0};
	struct verify_bad bad;

	if (gen == VERIFY_FAILED) {
		v->res.unknown++;
		return;
	}
	want.offset = offset;
	want.gen = gen;
	enum verify_why why = verify_check(data, v->block, &want, &found);
	/*
	 * A block this run never wrote is checked only when it holds an iorate header of this
	 * block size: one of another size is another run's layout (a file kept from a run with
	 * another -b), which no block of this size can be judged against.
	 */
	if (!gen && (why == VERIFY_UNWRITTEN || why == VERIFY_SIZE))
		return;
	if (!gen && why == VERIFY_RUN) {
		/* Another run's block, intact in itself: check it as `iorate verify` would. */
		want.seed = 0;
		why = verify_check(data, v->block, &want, &found);
	}
	v->res.checked++;
	if (why == VERIFY_OK)
		return;
	bad = (struct verify_bad){.target = v->id.target, .offset = offset, .why = why,
				  .want_gen = gen, .has_found = why != VERIFY_UNWRITTEN,
				  .found = found};
	if (why == VERIFY_SUM)
		bad.sum = verify_sums(data, v->block, bad.sum_header, bad.sum_data);
	verify_result_add(&v->res, &bad);
}

void verify_done(struct worker *w, struct io_req *r, bool ok)
{
	struct worker_verify *v = w->vf;
	uint32_t *prev = slot_prev(v, r);
	uint64_t b0, b1;

	range(v, r, &b0, &b1);
	for (uint64_t b = b0; b < b1; b++) {
		if (r->write) {
			v->gen[b] = ok ? v->gen[b] & ~VERIFY_BUSY : VERIFY_FAILED;
			continue;
		}
		v->gen[b] = prev[b - b0];
		if (ok)
			check_block(v, (const char *)r->buf + (b - b0) * v->block,
				    r->offset + (b - b0) * v->block, prev[b - b0]);
	}
}

int verify_setup(struct worker *w, uint64_t base, uint64_t len, uint32_t block, uint32_t max_io,
		 enum verify_sum sum, uint64_t seed, unsigned target, bool seq)
{
	struct worker_verify *v = calloc(1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	w->vf = v;
	v->base = base;
	v->nblocks = len / block;
	v->block = block;
	v->per_io = max_io / block;
	v->sum = sum;
	v->id = (struct verify_id){.seed = seed, .target = target, .thread = w->thread,
				   .block = block, .flags = seq ? VERIFY_FLAG_SEQ : 0};
	v->res.sum = sum;
	v->res.block = block;
	v->gen = calloc(v->nblocks ? v->nblocks : 1, sizeof(*v->gen));
	v->prev = calloc((size_t)w->depth * v->per_io, sizeof(*v->prev));
	return v->gen && v->prev ? 0 : -ENOMEM;
}

void verify_free(struct worker *w)
{
	if (!w->vf)
		return;
	free(w->vf->gen);
	free(w->vf->prev);
	verify_result_release(&w->vf->res);
	free(w->vf);
	w->vf = NULL;
}

#define FINAL_CHUNK (1u << 20)

/* Reads blocks [b, b + n) of the slice and checks each against its generation. */
static int read_back(struct worker_verify *v, int fd, char *buf, uint64_t b, uint64_t n)
{
	size_t len = (size_t)(n * v->block), done = 0;
	uint64_t off = v->base + b * v->block;

	while (done < len) {
		ssize_t got = pread(fd, buf + done, len - done, (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		done += (size_t)got;
	}
	for (uint64_t i = 0; i < n; i++)
		check_block(v, buf + i * v->block, off + i * v->block, v->gen[b + i]);
	return 0;
}

int verify_final(struct worker *w, int fd)
{
	struct worker_verify *v = w->vf;
	uint64_t per = FINAL_CHUNK / v->block ? FINAL_CHUNK / v->block : 1, b = 0;
	void *buf;
	int r = 0;

	if (posix_memalign(&buf, 4096, (size_t)(per * v->block)))
		return -ENOMEM;
	/* Runs of written blocks, up to 1 MiB a read; blocks never written are skipped. */
	while (b < v->nblocks && !r) {
		if (!v->gen[b]) {
			b++;
			continue;
		}
		uint64_t n = 1;
		while (n < per && b + n < v->nblocks && v->gen[b + n])
			n++;
		r = read_back(v, fd, buf, b, n);
		b += n;
	}
	free(buf);
	return r;
}

int verify_written_collect(const struct worker *w, struct verify_written *out)
{
	const struct worker_verify *v = w->vf;
	uint64_t b = 0;
	int r = 0;

	/* Runs of blocks whose last write succeeded (a failed one's contents are unknown). */
	while (b < v->nblocks && !r) {
		uint64_t n = 0;
		while (b + n < v->nblocks && v->gen[b + n] && v->gen[b + n] != VERIFY_FAILED)
			n++;
		if (n)
			r = verify_written_add(out, v->base + b * v->block, n * v->block, v->block);
		b += n ? n : 1;
	}
	return r;
}
