/*
 * The options of fio whose values are words or forms of their own: rw, the mix, block-size
 * ranges and splits, file sizes, the engine, sync, the rate process, file service, the random
 * distribution, kb_base, startdelay. bssplit and random_distribution are also written here in
 * the form 'iorate run' reads (--bssplit, --distribution), from fio's sizes and parameters.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "core/job.h"
#include "util/fio_names.h"
#include "util/suggest.h"


#define BAD(why) fio_refuse(f, l, false, "%s", (why))

static const struct {
	const char *name;
	bool random;
	int rw;               /* 0 reads, 1 writes, 2 both */
	int trim;             /* 1 trims (in place of reads), 2 writes that trim first */
} rw_modes[] = {
	{.name = "read", .random = false, .rw = 0, .trim = 0},
	{.name = "write", .random = false, .rw = 1, .trim = 0},
	{.name = "randread", .random = true, .rw = 0, .trim = 0},
	{.name = "randwrite", .random = true, .rw = 1, .trim = 0},
	{.name = "rw", .random = false, .rw = 2, .trim = 0},
	{.name = "readwrite", .random = false, .rw = 2, .trim = 0},
	{.name = "randrw", .random = true, .rw = 2, .trim = 0},
	{.name = "trim", .random = false, .rw = 0, .trim = 1},
	{.name = "randtrim", .random = true, .rw = 0, .trim = 1},
	{.name = "trimwrite", .random = false, .rw = 1, .trim = 2},
	{.name = "randtrimwrite", .random = true, .rw = 1, .trim = 2},
};

/* "randread", "write:64k" (a gap after each I/O), "randread:8" (8 I/Os per random offset). */
int fio_read_rw(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	const char *colon = strchr(l->val, ':'), *why;
	size_t n = colon ? (size_t)(colon - l->val) : strlen(l->val);
	uint64_t mod = 0;

	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++) {
		if (strlen(rw_modes[i].name) != n || strncmp(l->val, rw_modes[i].name, n))
			continue;
		/* A negative gap: sequential I/O that goes backwards. */
		bool back = colon && colon[1] == '-' && !rw_modes[i].random;
		if (colon && fio_number(colon + 1 + back, rw_modes[i].random ? FIO_COUNT : FIO_BYTES,
					o->kb_base, &mod, NULL, &why))
			return BAD(why);
		o->rw_back = back ? mod : 0;
		mod = back ? 0 : mod;
		o->random = rw_modes[i].random;
		o->rw = rw_modes[i].rw;
		o->trim = rw_modes[i].trim;
		o->rw_mod = mod;
		o->src[FO_RW] = l;
		return 0;
	}
	struct suggest s;
	char word[64], tail[120];

	snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), l->val);
	suggest_init(&s, word);
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++)
		suggest_add(&s, rw_modes[i].name, NULL);
	return fio_refuse(f, l, false, "is not a pattern of fio (read, write, randread, randwrite, "
			  "rw, readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite)%s",
			  suggest_tail(&s, NULL, tail, sizeof(tail)));
}

int fio_read_rwmix(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	uint64_t v;
	const char *why;

	if (fio_number(l->val, FIO_COUNT, o->kb_base, &v, NULL, &why))
		return BAD(why);
	if (v > 100)
		return BAD("is above 100 percent");
	/* The later of rwmixread and rwmixwrite wins, as in fio. */
	o->mix_write = !strcmp(l->key, "rwmixread") ? 100 - (int)v : (int)v;
	o->src[FO_RWMIX] = l;
	return 0;
}

int fio_read_sequencer(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (!strcmp(l->val, "identical"))
		return fio_refuse(f, l, false, "iorate has no repeated offsets (the same offset N "
				  "times)");
	if (strcmp(l->val, "sequential"))
		return BAD("is not sequential or identical");
	o->src[FO_RW_SEQUENCER] = l;
	return 0;
}

/* "LOW-HIGH" or "LOW:HIGH" (swapped when reversed, as fio does). */
static int read_range(const char *s, size_t n, unsigned kb_base, uint64_t *lo, uint64_t *hi,
		      const char **why)
{
	char buf[96], *sep;

	if (n >= sizeof(buf)) {
		*why = "is too long";
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!(sep = strchr(buf, '-')) && !(sep = strchr(buf, ':'))) {
		*why = "is not a range LOW-HIGH (example: 4k-64k)";
		return -EINVAL;
	}
	*sep = '\0';
	if (fio_number(buf, FIO_BYTES, kb_base, lo, NULL, why) ||
	    fio_number(sep + 1, FIO_BYTES, kb_base, hi, NULL, why))
		return -EINVAL;
	if (*lo > *hi) {
		uint64_t t = *lo;
		*lo = *hi;
		*hi = t;
	}
	if (!*lo) {
		*why = "has a size of 0";
		return -EINVAL;
	}
	return 0;
}

/*
 * READS[,WRITES[,TRIMS]] ranges, as fio's parser reads them (and bs's): "1k-4k" for every
 * direction, "1k-4k,2k-8k" the second for writes and trims, a third for trims alone.
 */
int fio_read_bsrange(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	const char *s = l->val, *why;
	uint64_t lo[3], hi[3];

	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(s, ",");
		/* The first is needed; an empty or missing later one takes the one before (fio
		 * leaves that direction at bs: iorate keeps a range for each). */
		if ((!i || n) && read_range(s, n, o->kb_base, &lo[i], &hi[i], &why))
			return BAD(why);
		if (i && !n) {
			lo[i] = lo[i - 1];
			hi[i] = hi[i - 1];
		}
		s += n + (s[n] == ',');
	}
	for (int d = 0; d < 3; d++) {
		o->bsmin[d] = lo[d];
		o->bsmax[d] = hi[d];
	}
	o->src[FO_BSRANGE] = l;
	return 0;
}

/* An entry of a bssplit: its size, its share as fio keeps it, what it is drawn with. */
struct split_ent {
	uint64_t bs;
	uint32_t perc;          /* as fio keeps it: UINT32_MAX none given (or 0), at most 100 */
	uint64_t eff;           /* the percent of I/Os it ends up with */
};

/* fio sorts the entries by their shares, as signed ints, and keeps the order of equals. */
static void split_sort(struct split_ent *e, unsigned n, unsigned *order)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned k = i;
		for (; k && (int)e[order[k - 1]].perc > (int)e[i].perc; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
}

/*
 * The shares fio 3.33 draws (options.c, io_u.c): a missing or 0 share is none; a share above
 * 100 is 100; the sizes without one split what the others leave, rounded down; then, smallest
 * share first, each takes its share until 100 is reached, and a draw past the last share falls
 * to the last one drawn (the largest): so shares need not add up to 100. note says how.
 */
static void split_shares(struct split_ent *e, unsigned n, char *note, size_t notelen)
{
	unsigned order[64], missing = 0, last = 0;
	uint64_t sum = 0, cum = 0;
	size_t used = 0;

	for (unsigned i = 0; i < n; i++) {
		missing += e[i].perc == UINT32_MAX;
		sum += e[i].perc == UINT32_MAX ? 0 : e[i].perc;
	}
	for (unsigned i = 0; i < n; i++)
		if (e[i].perc == UINT32_MAX)
			e[i].perc = n == 1 ? 100 : (uint32_t)(100 - sum) / missing;
	split_sort(e, n, order);
	for (unsigned k = 0; k < n; k++) {
		struct split_ent *x = &e[order[k]];
		uint64_t before = cum < 100 ? cum : 100;
		if (!x->perc)
			continue;
		cum += x->perc;
		x->eff = (cum < 100 ? cum : 100) - before;
		last = order[k];
	}
	if (cum < 100)
		e[last].eff += 100 - cum;
	if (missing && n > 1)
		used += (size_t)snprintf(note, notelen, "sizes without a share split what the others "
					 "leave (rounded down)");
	if (cum < 100)
		snprintf(note + used, used < notelen ? notelen - used : 0, "%sthe %llu%% no share "
			 "claims goes to %llu bytes, the largest share, as fio's draw falls to it",
			 used ? "; " : "", (unsigned long long)(100 - cum),
			 (unsigned long long)e[last].bs);
	else if (cum > 100)
		snprintf(note + used, used < notelen ? notelen - used : 0, "%sthe shares add up "
			 "to more than 100%%: fio cuts them at 100%%, smallest share first",
			 used ? "; " : "");
}

/*
 * One direction of a bssplit, "4k/50:64k/:1m", as 'iorate run' reads it (bytes), each size
 * with the share fio draws it with, rounded down to a multiple of the smallest size as fio
 * does; note says how those differ from what was written, or is empty.
 */
static int split_dir(const char *s, size_t n, unsigned kb_base, char *out, size_t len,
		     char *note, size_t notelen, const char **why)
{
	char buf[1024], *p, *next;
	struct split_ent e[64];
	unsigned k = 0, rounded = 0;
	uint64_t min = UINT64_MAX;
	size_t used = 0;

	if (n >= sizeof(buf)) {
		*why = "is too long";
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	out[0] = note[0] = '\0';
	/* fio stops at an empty entry ("4k/50::8k" is 4k alone). */
	for (p = buf; p && *p; p = next) {
		char *slash;
		uint64_t pct = 0;
		if ((next = strchr(p, ':')))
			*next++ = '\0';
		if ((slash = strchr(p, '/')))
			*slash = '\0';
		if (k == 64) {
			*why = "has more than 64 sizes";
			return -EINVAL;
		}
		if (fio_number(p, FIO_BYTES, kb_base, &e[k].bs, NULL, why))
			return -EINVAL;
		if (slash && slash[1] && strspn(slash + 1, "0123456789") != strlen(slash + 1)) {
			*why = "has a share that is not a whole percent";
			return -EINVAL;
		}
		for (const char *d = slash ? slash + 1 : ""; *d && pct <= 100; d++)
			pct = pct * 10 + (uint64_t)(*d - '0');
		e[k].perc = !pct ? UINT32_MAX : pct > 100 ? 100 : (uint32_t)pct;
		e[k].eff = 0;
		min = e[k].bs && e[k].bs < min ? e[k].bs : min;
		k++;
	}
	if (!k)
		return 0;
	uint64_t sum = 0;
	unsigned missing = 0;
	for (unsigned i = 0; i < k; i++) {
		missing += e[i].perc == UINT32_MAX;
		sum += e[i].perc == UINT32_MAX ? 0 : e[i].perc;
	}
	if (sum > 100 && missing > 1) {
		*why = "has shares that add up to more than 100% (fio refuses it too)";
		return -EINVAL;
	}
	split_shares(e, k, note, notelen);
	for (unsigned i = 0; i < k; i++) {
		/* fio rounds each size down to a multiple of the smallest (no bs_unaligned). */
		if (min != UINT64_MAX && e[i].bs % min) {
			e[i].bs -= e[i].bs % min;
			rounded++;
		}
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%llu/%llu",
					 used ? ":" : "", (unsigned long long)e[i].bs,
					 (unsigned long long)e[i].eff);
	}
	if (rounded) {
		size_t nl = strlen(note);
		snprintf(note + nl, nl < notelen ? notelen - nl : 0, "%sa size that is not a "
			 "multiple of the smallest (%llu bytes) is rounded down to one, as fio "
			 "does", nl ? "; " : "", (unsigned long long)min);
	}
	if (used >= len) {
		*why = "is too long";
		return -EINVAL;
	}
	return 0;
}

int fio_bssplit_convert(const char *s, unsigned kb_base, char *out, size_t len, char *note,
			size_t notelen, const char **why)
{
	const char *comma = strchr(s, ',');
	char r[1024], w[1024], nr[512], nw[512];

	note[0] = '\0';
	if (split_dir(s, comma ? (size_t)(comma - s) : strlen(s), kb_base, r, sizeof(r), nr,
		      sizeof(nr), why))
		return -EINVAL;
	/* READS,WRITES[,TRIMS]: trims are not issued, so their part is left out. */
	if (comma && comma[1] && comma[1] != ',') {
		if (split_dir(comma + 1, strcspn(comma + 1, ","), kb_base, w, sizeof(w), nw,
			      sizeof(nw), why))
			return -EINVAL;
		snprintf(out, len, "%s,%s", r[0] ? r : w, w);
		if (nr[0] && nw[0])
			snprintf(note, notelen, "reads: %s; writes: %s", nr, nw);
		else if (nr[0] || nw[0])
			snprintf(note, notelen, "%s: %s", nr[0] ? "reads" : "writes",
				 nr[0] ? nr : nw);
	} else {
		snprintf(out, len, "%s", r);
		snprintf(note, notelen, "%s", nr);
	}
	if (!r[0]) {
		*why = "names no block size for reads";
		return -EINVAL;
	}
	return 0;
}

int fio_read_bssplit(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	char out[2048], note[1100];
	const char *why;

	if (fio_bssplit_convert(l->val, o->kb_base, out, sizeof(out), note, sizeof(note), &why))
		return BAD(why);
	o->bssplit = l->val;
	o->src[FO_BSSPLIT] = l;
	return 0;
}

int fio_read_filesize(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	const char *why;

	if (strpbrk(l->val, "-:")) {
		if (read_range(l->val, strlen(l->val), o->kb_base, &o->filesize[0], &o->filesize[1],
			       &why))
			return BAD(why);
	} else if (fio_number(l->val, FIO_BYTES, o->kb_base, &o->filesize[0], NULL, &why)) {
		return BAD(why);
	} else {
		o->filesize[1] = o->filesize[0];
	}
	if (o->filesize[0] != o->filesize[1])
		return fio_refuse(f, l, false, "iorate has no files of random sizes (give one "
				  "size)");
	if (!o->filesize[0])
		return BAD("is 0");
	o->src[FO_FILESIZE] = l;
	return 0;
}

int fio_read_engine(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	bool sync;
	const char *differs;

	char near[120];

	/* A typo of an engine iorate runs, not one of fio's it refuses ("sg" is not "sync"). */
	if (!fio_engine_map(l->val, &sync, &differs) &&
	    !strcmp(fio_engine_refusal(l->val), "not an engine of fio") &&
	    *fio_engine_near(l->val, near, sizeof(near)))
		return fio_refuse(f, l, true, "is not an engine of fio%s", near);
	if (!fio_engine_map(l->val, &sync, &differs))
		return fio_refuse(f, l, true, "refused engine: %s, not file or block I/O",
				  fio_engine_refusal(l->val));
	o->engine = l->val;
	o->src[FO_ENGINE] = l;
	return 0;
}

/* write_bw_log, write_iops_log, write_lat_log, write_hist_log: a prefix, or bare (the job's
 * name, as fio names the files then). */
int fio_read_log(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	static const struct {
		const char *key;
		size_t off;
		enum fio_id id;
	} logs[] = {
		{.key = "write_bw_log", .off = offsetof(struct fio_opts, log_bw), .id = FO_LOG_BW},
		{.key = "write_iops_log", .off = offsetof(struct fio_opts, log_iops),
		 .id = FO_LOG_IOPS},
		{.key = "write_lat_log", .off = offsetof(struct fio_opts, log_lat), .id = FO_LOG_LAT},
		{.key = "write_hist_log", .off = offsetof(struct fio_opts, log_hist),
		 .id = FO_LOG_HIST},
	};

	for (unsigned i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		if (strcmp(l->key, logs[i].key))
			continue;
		*(const char **)(void *)((char *)o + logs[i].off) = l->val ? l->val : "";
		o->src[logs[i].id] = l;
		return 0;
	}
	return BAD("is not a log of fio");
}

int fio_read_sync(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (!strcmp(l->val, "0") || !strcmp(l->val, "none"))
		o->sync = 0;
	else if (!strcmp(l->val, "1") || !strcmp(l->val, "sync"))
		o->sync = 1;
	else if (!strcmp(l->val, "dsync"))
		o->sync = 2;
	else
		return BAD("is not 0, 1, none, sync or dsync");
	o->src[FO_SYNC] = l;
	return 0;
}

/*
 * verify=: iorate checks each block with crc32c, md5 or sha256 (and its header: run, offset,
 * generation). fio's other checksums map onto the nearest of those, said in the note.
 */
int fio_read_verify(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	static const struct {
		const char *fio, *iorate, *note;
	} kinds[] = {
		{.fio = "0", .iorate = NULL, .note = NULL},
		{.fio = "none", .iorate = NULL, .note = NULL},
		{.fio = "null", .iorate = NULL, .note = "fio's null verification checks nothing"},
		{.fio = "crc32c", .iorate = "crc32c", .note = NULL},
		{.fio = "crc32c-intel", .iorate = "crc32c", .note = NULL},
		{.fio = "md5", .iorate = "md5", .note = NULL},
		{.fio = "sha256", .iorate = "sha256", .note = NULL},
		{.fio = "crc64", .iorate = "crc32c",
		 .note = "iorate checks with crc32c, not crc64"},
		{.fio = "crc32", .iorate = "crc32c",
		 .note = "iorate checks with crc32c, not crc32"},
		{.fio = "crc16", .iorate = "crc32c",
		 .note = "iorate checks with crc32c, not crc16"},
		{.fio = "crc7", .iorate = "crc32c", .note = "iorate checks with crc32c, not crc7"},
		{.fio = "xxhash", .iorate = "crc32c",
		 .note = "iorate checks with crc32c, not xxhash"},
		{.fio = "meta", .iorate = "crc32c",
		 .note = "fio checks the header only; iorate checks its header and a crc32c "
			 "of the whole block"},
		{.fio = "sha1", .iorate = "sha256", .note = "iorate checks with sha256, not sha1"},
		{.fio = "sha512", .iorate = "sha256",
		 .note = "iorate checks with sha256, not sha512"},
		{.fio = "sha3-224", .iorate = "sha256",
		 .note = "iorate checks with sha256, not sha3"},
		{.fio = "sha3-256", .iorate = "sha256",
		 .note = "iorate checks with sha256, not sha3"},
		{.fio = "sha3-384", .iorate = "sha256",
		 .note = "iorate checks with sha256, not sha3"},
		{.fio = "sha3-512", .iorate = "sha256",
		 .note = "iorate checks with sha256, not sha3"},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(l->val, kinds[i].fio)) {
			o->verify = kinds[i].iorate;
			o->verify_note = kinds[i].note;
			o->src[FO_VERIFY] = l;
			return 0;
		}
	if (!strcmp(l->val, "pattern"))
		return fio_refuse(f, l, false, "%s", "iorate has no verification against a fixed "
				  "pattern (its blocks carry a checksum: verify=crc32c)");
	return BAD("is not a verify kind of fio 3.33 (crc32c, md5, sha256, meta, ...)");
}

int fio_read_rate_process(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (strcmp(l->val, "linear") && strcmp(l->val, "poisson"))
		return BAD("is not linear or poisson");
	o->poisson = !strcmp(l->val, "poisson");
	o->src[FO_RATE_PROCESS] = l;
	return 0;
}

/* file_service_type: random, roundrobin, sequential, each with ":N" I/Os per turn. */
int fio_read_fst(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	static const struct {
		const char *name;
		enum job_file_service fs;
	} kinds[] = {{.name = "random", .fs = FILES_RANDOM},
		     {.name = "roundrobin", .fs = FILES_ROUNDROBIN},
		     {.name = "sequential", .fs = FILES_SEQUENTIAL}};
	const char *colon = strchr(l->val, ':'), *why;
	size_t n = colon ? (size_t)(colon - l->val) : strlen(l->val);
	uint64_t nr = 1;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != n || strncmp(l->val, kinds[i].name, n))
			continue;
		if (colon && (fio_number(colon + 1, FIO_COUNT, o->kb_base, &nr, NULL, &why) ||
			      !nr || nr > 1u << 30))
			return BAD(nr ? why : "has a count of 0");
		o->fst = kinds[i].fs;
		o->fst_n = (unsigned)nr;
		o->src[FO_FILE_SERVICE] = l;
		return 0;
	}
	if (!strncmp(l->val, "zipf", 4) || !strncmp(l->val, "pareto", 6) ||
	    !strncmp(l->val, "normal", 6) || !strncmp(l->val, "gauss", 5))
		return fio_refuse(f, l, false, "iorate has no skewed choice of files (random, "
				  "roundrobin, sequential)");
	return BAD("is not random, roundrobin or sequential");
}

/* fio's "normal:DEV": 12 draws averaged, then a uniform jitter DEV% wide; as one sigma. */
static double normal_sigma(double dev)
{
	return 100.0 * sqrt(1.0 / 144.0 + (dev / 100.0) * (dev / 100.0) / 12.0);
}

/* One zone, "ACCESS/SIZE"; an empty part is -1 (fio fills it in). */
static int zone_read(char *p, bool abs, unsigned kb_base, long long *acc, long long *size,
		     const char **why)
{
	char *slash = strchr(p, '/');
	uint64_t v;

	if (!slash) {
		*why = "has a zone that is not ACCESS/SIZE";
		return -EINVAL;
	}
	*slash = '\0';
	*acc = *size = -1;
	if (*p && fio_number(p, FIO_COUNT, kb_base, &v, NULL, why))
		return -EINVAL;
	if (*p && v > 100) {
		*why = "has an access share above 100";
		return -EINVAL;
	}
	if (*p)
		*acc = (long long)v;
	if (slash[1] && fio_number(slash + 1, abs ? FIO_BYTES : FIO_COUNT, kb_base, &v, NULL, why))
		return -EINVAL;
	if (slash[1])
		*size = (long long)v;
	if (abs && *size < 0) {
		*why = "has a zone without its size";
		return -EINVAL;
	}
	return 0;
}

/*
 * zoned:A/S:..., zoned_abs:A/SIZE:... (one set for every direction). As fio fills them in, an
 * empty size takes an equal part of what the others leave, and an empty access share gets
 * what is left once the others add up to 100 (nothing).
 */
static int zones_convert(const char *s, bool abs, unsigned kb_base, char *out, size_t len,
			 const char **why)
{
	char buf[1024], *save = NULL;
	long long acc[JOB_MAX_ZONES], size[JOB_MAX_ZONES], asum = 0, ssum = 0, amiss = 0, smiss = 0;
	size_t used = (size_t)snprintf(out, len, "%s", abs ? "zoned_abs" : "zoned");
	unsigned n = 0;

	if (strchr(s, ',')) {
		*why = "has zones per direction; iorate takes one set for reads and writes";
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (n == JOB_MAX_ZONES) {
			*why = "has more than 16 zones";
			return -EINVAL;
		}
		if (zone_read(p, abs, kb_base, &acc[n], &size[n], why))
			return -EINVAL;
		asum += acc[n] < 0 ? 0 : acc[n];
		ssum += size[n] < 0 ? 0 : size[n];
		amiss += acc[n] < 0;
		smiss += size[n] < 0;
		n++;
	}
	for (unsigned i = 0; i < n; i++) {
		long long a = acc[i] < 0 ? (asum >= 100 ? 0 : (100 - asum) / amiss) : acc[i];
		long long z = size[i] < 0 ? (ssum >= 100 ? 0 : (100 - ssum) / smiss) : size[i];
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, ":%lld/%lld", a,
					 z);
	}
	if (used >= len || !n) {
		*why = n ? "is too long" : "needs its zones (zoned:60/10:40/90)";
		return -EINVAL;
	}
	return 0;
}

int fio_dist_convert(const char *s, unsigned kb_base, char *out, size_t len, const char **why)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char *end;
	double v;

	if (n == 6 && !strncmp(s, "random", 6) && !colon)
		return snprintf(out, len, "uniform"), 0;
	if ((n == 5 && !strncmp(s, "zoned", 5)) || (n == 9 && !strncmp(s, "zoned_abs", 9))) {
		if (!colon) {
			*why = "needs its zones (zoned:60/10:40/90)";
			return -EINVAL;
		}
		return zones_convert(colon + 1, n == 9, kb_base, out, len, why);
	}
	/* A newer fio's fixed order of block indices: iorate's own syntax is fio's. */
	if (n == 8 && !strncmp(s, "sequence", 8)) {
		struct job probe;
		int r;
		job_init(&probe);
		r = job_parse_dist(&probe, s, why);
		job_release(&probe);
		if (!r)
			snprintf(out, len, "%s", s);
		return r ? -EINVAL : 0;
	}
	bool zipf = n == 4 && !strncmp(s, "zipf", 4), pareto = n == 6 && !strncmp(s, "pareto", 6);
	bool normal = (n == 6 && !strncmp(s, "normal", 6)) || (n == 5 && !strncmp(s, "gauss", 5));
	if (!zipf && !pareto && !normal) {
		*why = "is not a distribution of fio (random, zipf, pareto, normal, zoned, "
		       "zoned_abs, and a newer fio's sequence)";
		return -EINVAL;
	}
	v = zipf ? 1.2 : pareto ? 0.2 : 0;
	if (colon) {
		v = strtod(colon + 1, &end);
		if (end == colon + 1 || (*end && *end != ':') || !(v >= 0)) {
			*why = "has a parameter that is not a number";
			return -EINVAL;
		}
		if (*end == ':') {
			*why = "has a center: iorate centers a distribution as fio does by default";
			return -EINVAL;
		}
	}
	/* zipf and pareto keep their parameter as written; fio's bell becomes a sigma. */
	if (normal)
		snprintf(out, len, "normal:%.6g", normal_sigma(v));
	else if (colon)
		snprintf(out, len, "%s:%.*s", zipf ? "zipf" : "pareto", (int)(end - colon - 1),
			 colon + 1);
	else
		snprintf(out, len, "%s", zipf ? "zipf" : "pareto");
	return 0;
}

int fio_read_dist(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	char out[1024];
	const char *why;

	if (fio_dist_convert(l->val, o->kb_base, out, sizeof(out), &why))
		return BAD(why);
	o->dist = l->val;
	o->src[FO_DIST] = l;
	return 0;
}

int fio_read_kb_base(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (strcmp(l->val, "1024") && strcmp(l->val, "1000"))
		return BAD("is not 1024 or 1000");
	o->kb_base = l->val[3] == '4' ? 1024 : 1000;
	o->src[FO_KB_BASE] = l;
	return 0;
}

/* startdelay=10s, or a range fio draws from, which iorate does not. */
int fio_read_startdelay(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	const char *why;

	if (l->val[0] != '(' && strpbrk(l->val, "-:,"))
		return fio_refuse(f, l, false, "iorate has no random start delays (give one "
				  "time)");
	if (fio_number(l->val, FIO_SECONDS, o->kb_base, &o->startdelay_ns, NULL, &why))
		return BAD(why);
	o->src[FO_STARTDELAY] = l;
	return 0;
}

/* exit_what: whom exitall ends, when a job ends. */
int fio_read_exit_what(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	static const char *const names[] = {"group", "stonewall", "all"};

	for (int i = 0; i < 3; i++)
		if (!strcmp(l->val, names[i])) {
			o->exit_what = i;
			o->src[FO_EXIT_WHAT] = l;
			return 0;
		}
	return BAD("is not group, stonewall or all");
}

int fio_read_dedupe_mode(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (strcmp(l->val, "repeat") && strcmp(l->val, "working_set"))
		return BAD("is not repeat or working_set");
	o->dedupe_working_set = l->val[0] == 'w';
	o->src[FO_DEDUPE_MODE] = l;
	return 0;
}

int fio_read_zonemode(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	if (strcmp(l->val, "none") && strcmp(l->val, "strided") && strcmp(l->val, "zbd"))
		return BAD("is not none, strided or zbd");
	o->strided = l->val[0] == 's';
	o->zbd = l->val[0] == 'z';
	o->src[FO_ZONEMODE] = l;
	return 0;
}

/* The engines iorate refuses, by what they do. */
static const struct {
	const char *names, *what;
} engine_refused[] = {
	{.names = " net netsplice ", .what = "network I/O"},
	{.names = " http ", .what = "HTTP, S3 and Swift objects"},
	{.names = " rdma ", .what = "RDMA transfers"},
	{.names = " sg ", .what = "SCSI generic commands"},
	{.names = " rbd rados ", .what = "Ceph objects and images"},
	{.names = " libcufile libhipfile gpu ", .what = "GPU direct storage"},
	{.names = " nfs ", .what = "NFS through libnfs"},
	{.names = " gfapi gfapi_async ", .what = "GlusterFS through libgfapi"},
	{.names = " libhdfs ", .what = "HDFS"},
	{.names = " libiscsi ", .what = "iSCSI through libiscsi"},
	{.names = " nbd ", .what = "NBD through libnbd"}, {.names = " dfs daos ", .what = "DAOS"},
	{.names = " spdk xnvme io_uring_cmd libblkio ",
	 .what = "user-space and passthrough NVMe commands"},
	{.names = " libzbc ", .what = "zoned block devices through libzbc"},
	{.names = " mtd ", .what = "raw flash (MTD)"},
	{.names = " libpmem pmemblk dev-dax ", .what = "persistent memory"},
	{.names = " ime_psync ime_psyncv ime_aio ", .what = "DDN's IME"},
	{.names = " e4defrag ", .what = "ext4 defragmentation"},
	{.names = " falloc ftruncate ", .what = "space allocation calls"},
	{.names = " filecreate filestat filedelete dircreate dirstat dirdelete ",
	 .what = "file system metadata operations"},
	{.names = " exec ", .what = "running a program"}, {.names = " cpuio ", .what = "CPU load"},
	{.names = " mmap ",
	 .what = "memory-mapped I/O (iorate reads and writes with system calls)"},
	{.names = " splice ", .what = "splice() and vmsplice()"},
	{.names = " solarisaio windowsaio ", .what = "another system's API"},
	{.names = " cpp_null ", .what = "fio's C++ test engine"},
};

const char *fio_engine_map(const char *engine, bool *sync_engine, const char **differs)
{
	const struct fio_engine_name *e = fio_engine_lookup(engine);

	if (!e)
		return NULL;
	*sync_engine = e->sync;
	*differs = e->differs;
	return e->ours;
}

const char *fio_engine_refusal(const char *engine)
{
	char word[64];

	if (!strncmp(engine, "external:", 9) || strchr(engine, '/'))
		return "an engine loaded from a library";
	if (strlen(engine) + 3 > sizeof(word))
		return "not an engine of fio";
	snprintf(word, sizeof(word), " %s ", engine);
	for (size_t i = 0; i < sizeof(engine_refused) / sizeof(engine_refused[0]); i++)
		if (strstr(engine_refused[i].names, word))
			return engine_refused[i].what;
	return "not an engine of fio";
}

const char *fio_engine_near(const char *engine, char *out, size_t len)
{
	struct suggest s;

	suggest_init(&s, engine);
	for (size_t i = 0; i < fio_nengine_names; i++)
		suggest_add(&s, fio_engine_names[i].fio, NULL);
	return suggest_tail(&s, NULL, out, len);
}
