/*
 * `iorate verify`: a whole target checked after the fact, block by block, from the headers the
 * blocks carry (src/core/verify.h). Without the run's memory of which write came last, it tells
 * corrupted, torn, misplaced and foreign blocks apart from intact ones; a stale block of the
 * same run looks intact here (the run's own read-back catches those).
 */
#include "core/verify_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/err.h"
#include "util/field.h"

#define CHUNK (1u << 20)

static int read_full(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, (char *)buf + *got, len - *got, (off_t)(off + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* How many intact headers of each run, block size and target a look at the target found. */
#define KINDS 16
struct kind {
	struct verify_origin o;
	uint32_t block;
	enum verify_sum sum;
	uint64_t n;
};
struct tally {
	struct kind k[KINDS];
	unsigned nk;
	uint64_t total;
};

static void tally_add(struct tally *t, const struct verify_id *f, enum verify_sum sum)
{
	for (unsigned i = 0; i < t->nk; i++)
		if (t->k[i].o.seed == f->seed && t->k[i].block == f->block &&
		    t->k[i].o.target == f->target) {
			t->k[i].n++;
			t->total++;
			return;
		}
	if (t->nk == KINDS)
		return;
	t->k[t->nk++] = (struct kind){.o = {.seed = f->seed, .target = f->target},
					  .block = f->block, .sum = sum, .n = 1};
	t->total++;
}

/* The intact headers of a chunk read at `at`, at any 512-byte boundary, of the block size and
 * run asked for (when asked). */
static void tally_chunk(const char *buf, size_t got, uint64_t at, const struct verify_scan *s,
			struct tally *t)
{
	for (size_t i = 0; i + VERIFY_MIN_BLOCK <= got; i += 512) {
		const struct verify_id any = {.offset = at + i, .target = VERIFY_ANY_TARGET};
		struct verify_id head, found;
		enum verify_sum sum;
		uint32_t size;

		if (!verify_header_read(buf + i, &head, &sum))
			continue;
		/* A header whose own size field checks out names the layout. */
		size = head.block;
		if (size < VERIFY_MIN_BLOCK || size % 512 || size > CHUNK || i + size > got ||
		    (s->block && size != s->block))
			continue;
		if (verify_check(buf + i, size, &any, &found) != VERIFY_OK ||
		    (s->seed && found.seed != s->seed))
			continue;
		tally_add(t, &found, sum);
	}
}

/* Every step-th chunk of [off, off + len) into t. */
static int tally_pass(int fd, char *buf, uint64_t off, uint64_t len, uint64_t step,
		      const struct verify_scan *s, struct tally *t)
{
	for (uint64_t at = off; at < off + len; at += step * CHUNK) {
		size_t got;
		int r = read_full(fd, buf, CHUNK, at, &got);
		if (r)
			return r;
		tally_chunk(buf, got < off + len - at ? got : (size_t)(off + len - at), at, s, t);
		if (got < CHUNK)
			break;
	}
	return 0;
}

/* The most common run; -ENOTUNIQ when another is about as common (more than half as often). */
static int pick_run(const struct tally *t, struct verify_scan *s, unsigned *best)
{
	uint64_t per[KINDS] = {0};
	unsigned first = 0, second = KINDS;

	for (unsigned i = 0; i < t->nk; i++)
		for (unsigned j = 0; j < t->nk; j++)
			per[i] += t->k[j].o.seed == t->k[i].o.seed ? t->k[j].n : 0;
	for (unsigned i = 1; i < t->nk; i++)
		if (per[i] > per[first])
			first = i;
	for (unsigned i = 0; i < t->nk; i++)
		if (t->k[i].o.seed != t->k[first].o.seed && (second == KINDS || per[i] > per[second]))
			second = i;
	if (second < KINDS && per[second] * 2 > per[first]) {
		s->rivals[0] = (struct verify_origin){.seed = t->k[first].o.seed};
		s->rivals[1] = (struct verify_origin){.seed = t->k[second].o.seed};
		s->rival_count[0] = per[first];
		s->rival_count[1] = per[second];
		return -ENOTUNIQ;
	}
	/* Of that run, the most common block size and target. */
	*best = first;
	for (unsigned i = 0; i < t->nk; i++)
		if (t->k[i].o.seed == t->k[first].o.seed && t->k[i].n > t->k[*best].n)
			*best = i;
	return 0;
}

/*
 * The layout most intact headers in [off, off + len) carry: its block size, run and target
 * index (any, when two targets of the run are about as common). A large target is sampled
 * first (SAMPLES chunks spread over it), and read whole when the sample holds few headers.
 */
#define SAMPLES 64
#define ENOUGH 64
static int discover(int fd, char *buf, uint64_t off, uint64_t len, struct verify_scan *s)
{
	uint64_t chunks = (len + CHUNK - 1) / CHUNK, step = chunks > SAMPLES ? chunks / SAMPLES : 1;
	struct tally t = {0};
	unsigned best;
	int r = tally_pass(fd, buf, off, len, step, s, &t);

	if (!r && step > 1 && t.total < ENOUGH) {
		t = (struct tally){0};
		r = tally_pass(fd, buf, off, len, 1, s, &t);
	}
	if (r)
		return r;
	if (!t.total)
		return -ENOENT;
	if ((r = pick_run(&t, s, &best)))
		return r;
	s->block = t.k[best].block;
	s->res.sum = t.k[best].sum;
	if (s->nfrom)
		return 0;
	s->seed = t.k[best].o.seed;
	s->from[0] = t.k[best].o;
	for (unsigned i = 0; i < t.nk; i++)
		if (i != best && t.k[i].o.seed == s->seed && t.k[i].block == s->block &&
		    t.k[i].n * 2 > t.k[best].n)
			s->from[0].target = VERIFY_ANY_TARGET;
	s->nfrom = 1;
	return 0;
}

/* Why an intact block of found's run and target is not one the scan expects (VERIFY_OK when it
 * is): another run, or another target of an expected run. */
static enum verify_why origin_why(const struct verify_scan *s, const struct verify_id *found)
{
	enum verify_why why = VERIFY_RUN;

	for (unsigned i = 0; i < s->nfrom; i++) {
		if (s->from[i].seed != found->seed)
			continue;
		if (s->from[i].target == VERIFY_ANY_TARGET || s->from[i].target == found->target)
			return VERIFY_OK;
		why = VERIFY_TARGET;
	}
	return why;
}

/* Whether every run expected has a complete record of what it wrote: then a block without a
 * header that no record names was never written, and is not suspicious. */
static bool records_complete(const struct verify_scan *s)
{
	for (unsigned i = 0; i < s->nfrom; i++)
		if (!s->written[i] || s->written[i]->truncated)
			return false;
	return s->nfrom > 0;
}

/* Whether a record says an expected run wrote the block at offset. */
static bool recorded(const struct verify_scan *s, uint64_t offset)
{
	for (unsigned i = 0; i < s->nfrom; i++)
		if (s->written[i] && verify_written_has(s->written[i], offset))
			return true;
	return false;
}

static void add_lost(struct verify_scan *s, uint64_t offset)
{
	struct verify_bad b = {.target = s->target, .offset = offset, .why = VERIFY_UNWRITTEN};

	s->lost++;
	s->res.checked++;
	verify_result_add(&s->res, &b);
}

/*
 * One of the run's intact blocks, f, after the blocks without a header since the last one. When
 * the two are one thread's sweep (VERIFY_FLAG_SEQ), every block between lacks a header and
 * their generations differ by exactly the distance, the sweep wrote each block between: they
 * are lost writes. Otherwise they are only suspicious (a random run skips blocks; a cancelled
 * or read block leaves the generations closer than the distance).
 */
static void own_block(struct verify_scan *s, const struct verify_id *f)
{
	const struct verify_id *l = &s->last;

	if (s->have_last && s->holes) {
		uint64_t dist = (f->offset - l->offset) / s->block;
		if (s->holes == dist - 1 && (l->flags & f->flags & VERIFY_FLAG_SEQ) &&
		    l->seed == f->seed && l->target == f->target && l->thread == f->thread &&
		    (uint64_t)(f->gen - l->gen) == dist) {
			for (uint64_t k = 1; k < dist; k++) {
				s->swept_unrecorded += !recorded(s, l->offset + k * s->block);
				add_lost(s, l->offset + k * s->block);
			}
			s->unwritten -= s->holes;
		} else {
			s->suspicious += s->holes;
		}
	}
	s->last = *f;
	s->have_last = true;
	s->holes = 0;
}

/* A truncated record's run: its blocks found where the record names none. */
static void count_outside(struct verify_scan *s, const struct verify_id *f)
{
	for (unsigned i = 0; i < s->nfrom; i++)
		if (s->written[i] && s->written[i]->truncated && s->from[i].seed == f->seed &&
		    (s->from[i].target == VERIFY_ANY_TARGET || s->from[i].target == f->target) &&
		    !verify_written_has(s->written[i], f->offset))
			s->outside[i]++;
}

/* Checks the blocks of one chunk read at off. */
static void check_chunk(struct verify_scan *s, const char *buf, size_t got, uint64_t off)
{
	bool complete = records_complete(s);

	for (size_t i = 0; i + s->block <= got; i += s->block) {
		struct verify_id want = {.offset = off + i, .target = VERIFY_ANY_TARGET}, found = {0};
		enum verify_why why = verify_check(buf + i, s->block, &want, &found);
		if (why == VERIFY_UNWRITTEN) {
			if (recorded(s, off + i)) {
				add_lost(s, off + i);
			} else {
				s->unwritten++;
				s->holes += !complete && s->have_last;
			}
			continue;
		}
		s->res.checked++;
		if (why == VERIFY_OK || why == VERIFY_OFFSET) {
			enum verify_why run = origin_why(s, &found);
			/* Another run's block says so wherever it lies; another target's, when it
			 * lies at its own offset. */
			if (run == VERIFY_RUN || why == VERIFY_OK)
				why = run;
		}
		if (why == VERIFY_OK) {
			if (!s->res.sum)
				verify_header_read(buf + i, &found, &s->res.sum);
			if (!complete)
				own_block(s, &found);
			count_outside(s, &found);
			continue;
		}
		struct verify_bad b = {.target = s->target, .offset = off + i, .why = why,
				       .has_found = true, .found = found};
		if (why == VERIFY_SUM)
			b.sum = verify_sums(buf + i, s->block, b.sum_header, b.sum_data);
		verify_result_add(&s->res, &b);
	}
}

/* A truncated record's blocks beyond its ranges that hold none of its run's headers: lost writes
 * without a place (only when the whole target was read; a failed write's older header makes the
 * count smaller, never larger). */
static void count_unplaced(struct verify_scan *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; s->whole && i < s->nfrom; i++) {
		const struct verify_written *w = s->written[i];
		uint64_t rest = w && w->truncated ? w->blocks - verify_written_kept(w, s->block) : 0;
		n += rest > s->outside[i] ? rest - s->outside[i] : 0;
	}
	/* Those a sweep's holes already placed are not counted twice. */
	n = n > s->swept_unrecorded ? n - s->swept_unrecorded : 0;
	s->lost_unplaced = n;
	s->res.bad += n;
}

int verify_scan_fd(int fd, uint64_t off, uint64_t len, struct verify_scan *s,
		   void (*progress)(void *arg, double done), void *arg,
		   volatile sig_atomic_t *stop)
{
	char *buf;
	int r;

	if (posix_memalign((void **)&buf, 4096, CHUNK))
		return -ENOMEM;
	if ((!s->block || (!s->seed && !s->nfrom)) && (r = discover(fd, buf, off, len, s))) {
		free(buf);
		return r;
	}
	if (!s->nfrom)
		s->from[s->nfrom++] = (struct verify_origin){.seed = s->seed,
							     .target = VERIFY_ANY_TARGET};
	/* iorate writes blocks at multiples of their size: whole blocks from the first such
	 * boundary at or after off. */
	uint64_t at = (off + s->block - 1) / s->block * s->block;
	uint64_t per = CHUNK / s->block * s->block, end = off + len;
	r = 0;
	while (at + s->block <= end && !r) {
		size_t got, want = (size_t)(end - at < per ? (end - at) / s->block * s->block : per);
		if (stop && *stop) {
			r = -EINTR;
			break;
		}
		if ((r = read_full(fd, buf, want, at, &got)))
			break;
		check_chunk(s, buf, got, at);
		if (got < want)
			break;
		at += got;
		if (progress)
			progress(arg, (double)(at - off) / (double)len);
	}
	free(buf);
	if (!r)
		count_unplaced(s);
	return r;
}

/* The target at path opened to read, and its size. -EINVAL for what cannot be one; err says
 * why. */
static int open_target(const char *path, int *fdp, uint64_t *size, char *err, size_t errlen)
{
	struct stat st;
	int fd, r = 0;

	/* Read-only, never through a link, never waiting on a FIFO; direct where it works, so
	 * that what is checked is what the device holds, not the page cache. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		return err_set(err, errlen, r == -ENOENT || r == -ELOOP ? -EINVAL : r,
			       "%s: cannot open: %s", path,
			       r == -ELOOP ? "it is a symbolic link; name what it points to"
					   : strerror(-r));
	}
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		close(fd);
		return err_set(err, errlen, -EINVAL, "%s: not a regular file or a block device",
			       path);
	}
	if (S_ISBLK(st.st_mode))
		r = ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	else
		*size = (uint64_t)st.st_size;
	if (r) {
		close(fd);
		return err_set(err, errlen, r, "%s: cannot read its size: %s", path, strerror(-r));
	}
	if (!(fcntl(fd, F_GETFL) & O_DIRECT))
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	*fdp = fd;
	return 0;
}

/* Why verify_scan_fd() failed on path, into err; r. */
static int scan_error(int r, const char *path, const struct verify_scan *s, char *err,
		      size_t errlen)
{
	if (r == -ENOENT)
		return err_set(err, errlen, r, "%s: no block written by iorate " FIELD("verify")
			       " was found; name " FIELD("block") " and " FIELD("seed") " to check "
			       "anyway", path);
	if (r == -ENOTUNIQ)
		return err_set(err, errlen, r, "%s: blocks of two runs (or jobs) are about equally "
			       "common (run %llu: %llu blocks seen, run %llu: %llu); name the one "
			       "to check with " FIELD("seed") ", or give the saved result, which "
			       "names every job's, with " FIELD("result"),
			       path, (unsigned long long)s->rivals[0].seed,
			       (unsigned long long)s->rival_count[0],
			       (unsigned long long)s->rivals[1].seed,
			       (unsigned long long)s->rival_count[1]);
	return err_set(err, errlen, r, "%s: %s", path, strerror(-r));
}

int verify_scan_path(const char *path, uint64_t off, uint64_t range, struct verify_scan *s,
		     void (*progress)(void *arg, double done), void *arg,
		     volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	uint64_t size = 0, len;
	int fd = -1, r = open_target(path, &fd, &size, err, errlen);

	if (r)
		return r;
	if (off >= size) {
		close(fd);
		return err_set(err, errlen, -EINVAL, FIELD("offset") ": %s is only %llu bytes",
			       path, (unsigned long long)size);
	}
	len = range && range < size - off ? range : size - off;
	s->whole = off == 0 && len == size;
	r = verify_scan_fd(fd, off, len, s, progress, arg, stop);
	close(fd);
	return r ? scan_error(r, path, s, err, errlen) : 0;
}
