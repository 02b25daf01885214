/*
 * The files of a fio job and what it does with them, as fio 3.33 sets them up (filesetup.c,
 * init.c): filename= (a ':' list, "\:" a colon in a name) or names made of the job's name, its
 * number and the file's ($jobname.$jobnum.$filenum), under directory= (a ':' list, one a job);
 * each file's region from offset (+ the job's number x offset_increment) for size / nrfiles,
 * filesize, or the file's own size; the bytes the job does before it ends (io_size or size,
 * times loops). A job of iorate has one region for all its targets: jobs whose files would
 * differ are refused.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compat/fio.h"
#include "util/parse.h"

struct ffile {
	char *name;
	uint64_t real;            /* its size, when it exists */
	int st;                   /* 0, -ENOENT, or why it could not be told */
	bool regular;
	uint64_t off, len;        /* the region fio uses */
};

struct ffiles {
	struct ffile *f;
	unsigned n;
	bool made;                /* names fio makes up ($jobname.$jobnum.$filenum), not given */
};

static void ffiles_free(struct ffiles *fs)
{
	for (unsigned i = 0; i < fs->n; i++)
		free(fs->f[i].name);
	free(fs->f);
}

/* Adds dir + name (fio puts the directory and a '/' before any name it is given). */
static int ffiles_add(struct ffiles *fs, const char *dir, size_t dlen, const char *name,
		      size_t nlen)
{
	struct ffile *f = realloc(fs->f, (fs->n + 1) * sizeof(*f));
	char *s;

	if (!f)
		return -ENOMEM;
	fs->f = f;
	if (!(s = malloc(dlen + 1 + nlen + 1)))
		return -ENOMEM;
	if (dlen) {
		memcpy(s, dir, dlen);
		s[dlen++] = '/';
	}
	memcpy(s + dlen, name, nlen);
	s[dlen + nlen] = '\0';
	fs->f[fs->n++] = (struct ffile){.name = s};
	return 0;
}

/*
 * Item k of a ':' list ("\:" is a colon), k modulo the count, as fio's get_name_by_idx picks
 * directories; into a new string.
 */
static char *list_item(const char *list, unsigned k)
{
	unsigned count = 1, i = 0;
	char *out, *p;

	for (const char *s = list; *s; s++)
		if (*s == '\\' && s[1] == ':')
			s++;
		else if (*s == ':')
			count++;
	k %= count;
	if (!(out = p = malloc(strlen(list) + 1)))
		return NULL;
	for (const char *s = list; *s; s++) {
		if (*s == '\\' && s[1] == ':') {
			if (i == k)
				*p++ = ':';
			s++;
		} else if (*s == ':') {
			i++;
		} else if (i == k) {
			*p++ = *s;
		}
	}
	*p = '\0';
	return out;
}

static unsigned list_count(const char *list)
{
	unsigned n = 1;

	for (const char *s = list; *s; s++)
		if (*s == '\\' && s[1] == ':')
			s++;
		else if (*s == ':')
			n++;
	return n;
}

/* filename_format: $jobname, $jobnum and $filenum, in any case, as fio's make_filename. */
static int format_name(const char *fmt, const char *jobname, unsigned clone, unsigned i,
		       char **out)
{
	char num[2][16], *s = strdup(fmt), *p;
	const char *words[] = {"$jobname", "$jobnum", "$filenum"};
	const char *vals[] = {jobname, num[0], num[1]};

	snprintf(num[0], sizeof(num[0]), "%u", clone);
	snprintf(num[1], sizeof(num[1]), "%u", i);
	/* The search resumes after each value put in, so a job named "$jobname" is expanded
	 * once, not forever. */
	for (size_t w = 0; s && w < 3; w++)
		for (size_t from = 0; s && (p = strcasestr(s + from, words[w]));) {
			char *n = NULL;
			from = (size_t)(p - s) + strlen(vals[w]);
			if (asprintf(&n, "%.*s%s%s", (int)(p - s), s, vals[w],
				     p + strlen(words[w])) < 0)
				n = NULL;
			free(s);
			s = n;
		}
	*out = s;
	return s ? 0 : -ENOMEM;
}

static int stat_file(const struct compat_fio *f, struct ffile *x)
{
	x->st = f->env->stat ? f->env->stat(f->env->arg, x->name, &x->real, &x->regular)
			     : -ENOENT;
	if (x->st)
		x->real = 0;
	return 0;
}

/* The names fio gives the files of clone k of a job; each stat'ed (but for the null engine). */
static int file_names(struct fio_emit *e, const struct fio_opts *o, const char *jobname,
		      unsigned clone, struct ffiles *fs)
{
	const char *fmt = o->filename_format ? o->filename_format : "$jobname.$jobnum.$filenum";
	char *dir = o->directory ? list_item(o->directory, o->filename ? 0 : clone) : NULL;
	size_t dl = dir ? strlen(dir) : 0;
	struct ffile probe = {.name = (char *)jobname};
	bool null = !strcmp(o->engine, "null");
	int r = 0;

	if (o->directory && !dir)
		return -ENOMEM;
	if (o->filename) {
		/* fio names the files of every clone the same: they share them. */
		for (unsigned i = 0, n = list_count(o->filename); i < n && !r; i++) {
			char *name = list_item(o->filename, i);
			r = name ? ffiles_add(fs, dir, dl, name, strlen(name)) : -ENOMEM;
			free(name);
		}
	} else if (o->nrfiles == 1 && !null && !stat_file(e->f, &probe) && !probe.st &&
		   !probe.regular) {
		/* A job named after a device (or anything but a regular file) uses it. */
		r = ffiles_add(fs, dir, dl, jobname, strlen(jobname));
	} else {
		fs->made = true;
		for (unsigned i = 0; i < o->nrfiles && !r; i++) {
			char *name = NULL;
			if (!(r = format_name(fmt, jobname, clone, i, &name)))
				r = ffiles_add(fs, dir, dl, name, strlen(name));
			free(name);
		}
	}
	free(dir);
	for (unsigned i = 0; i < fs->n && !r && !null; i++)
		r = stat_file(e->f, &fs->f[i]);
	return r;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* Where clone k's I/O starts in file x: offset (or a percentage of the file), plus k x step. */
static int file_offset(struct fio_emit *e, const struct fio_opts *o, unsigned clone,
		       struct ffile *x)
{
	uint64_t bs = fio_min_bs(o), off = o->offset, inc = o->offset_inc;
	const struct fio_line *l = o->src[FO_OFFSET_INC] ? o->src[FO_OFFSET_INC]
							 : o->src[FO_OFFSET];

	if ((o->offset_pct || o->offset_inc_pct) && x->st)
		return fio_emit_fail(e, l, NULL, "a percentage of '%s', whose size cannot be "
				     "told (%s)", x->name, strerror(-x->st));
	/* A percentage of a device near 2^64 bytes must not wrap to a small offset. */
	if (o->offset_pct && __builtin_mul_overflow(x->real, o->offset, &off))
		return fio_emit_fail(e, l, NULL, "the offset does not fit in 64 bits");
	if (o->offset_pct)
		off = align_up(off / 100, bs);
	if (o->offset_inc_pct && __builtin_mul_overflow(x->real, o->offset_inc, &inc))
		return fio_emit_fail(e, l, NULL, "the offset does not fit in 64 bits");
	if (o->offset_inc_pct)
		inc /= 100;
	if (__builtin_mul_overflow(inc, (uint64_t)clone, &inc) ||
	    __builtin_add_overflow(off, inc, &x->off))
		return fio_emit_fail(e, l, NULL, "the offset does not fit in 64 bits");
	if (o->offset_inc_pct)
		x->off = align_up(x->off, bs);
	return 0;
}

/* The length of file x's region, as fio sets f->io_size. */
static int file_len(struct fio_emit *e, const struct fio_opts *o, struct ffile *x, uint64_t share)
{
	const struct fio_line *sl = o->src[FO_SIZE] ? o->src[FO_SIZE] : o->src[FO_FILESIZE];
	uint64_t bs = fio_min_bs(o);

	if (o->filesize[0]) {
		if (x->off > o->filesize[0])
			return fio_emit_fail(e, o->src[FO_FILESIZE], NULL,
					     "the offset is beyond it");
		x->len = o->filesize[0] - x->off;
		return 0;
	}
	if (share) {
		x->len = share;
		return 0;
	}
	/* fill_device without a size: the target's free space (fio_zones.c). */
	if (o->fill_device) {
		x->len = 0;
		return 0;
	}
	if (x->st)
		return fio_emit_fail(e, sl ? sl : o->src[FO_FILENAME], "size=(none)",
				     "'%s' %s, and no size= says how much to lay out (fio: you "
				     "need to specify size=)", x->name, x->st == -ENOENT
				     ? "does not exist" : strerror(-x->st));
	if (x->off >= x->real)
		return fio_emit_fail(e, o->src[FO_OFFSET], NULL, "is beyond the end of '%s'",
				     x->name);
	x->len = x->real - x->off;
	if (o->size_pct) {
		uint64_t p = x->real / 100 * o->size + x->real % 100 * o->size / 100;
		x->len = p < x->len ? p : x->len;
		x->len -= x->len % bs;
	}
	return 0;
}

/* Every file of a job of iorate has one region: the first file's. */
static int check_alike(struct fio_emit *e, const struct fio_opts *o, const struct ffiles *fs)
{
	for (unsigned i = 1; i < fs->n; i++)
		if (fs->f[i].off != fs->f[0].off || fs->f[i].len != fs->f[0].len)
			return fio_emit_fail(e, o->src[FO_SIZE] ? o->src[FO_SIZE]
								: o->src[FO_FILENAME],
					     "size=(none)", "'%s' and '%s' would have regions "
					     "of different offsets or lengths; iorate gives every "
					     "file of a job the same region", fs->f[0].name,
					     fs->f[i].name);
	return 0;
}

/* The bytes a job does before it ends: io_size, or size (at most the files'), times loops. */
static int job_bytes(struct fio_emit *e, const struct fio_opts *o, const struct ffiles *fs,
		     uint64_t *bytes)
{
	uint64_t total = 0, b;

	for (unsigned i = 0; i < fs->n; i++) {
		uint64_t len = fs->f[i].len;
		if (o->io_size_pct)
			len = len / 100 * o->io_size + len % 100 * o->io_size / 100;
		if (__builtin_add_overflow(total, len, &total))
			return fio_emit_fail(e, o->src[FO_SIZE] ? o->src[FO_SIZE]
								: o->src[FO_FILENAME],
					     "size=(the files' size)", "the files' sizes add up to "
					     "more than 64 bits hold");
	}
	if (o->io_size && !o->io_size_pct)
		b = o->io_size;
	else
		b = !o->size || o->size_pct || o->size > total ? total : o->size;
	if (!b && o->fill_device) {
		*bytes = 0;
		return 0;
	}
	if (!b)
		return fio_emit_fail(e, o->src[FO_IO_SIZE], "io_size=(the files' size)", "comes to "
				     "0 bytes");
	if (__builtin_mul_overflow(b, (uint64_t)o->loops, bytes))
		return fio_emit_fail(e, o->src[FO_LOOPS], NULL, "the bytes do not fit in 64 bits");
	return 0;
}

/* The explanation of the lines that name the files. */
static int note_files(struct fio_emit *e, const struct fio_opts *o, const struct ffiles *fs)
{
	char list[1024];
	size_t used = 0;
	int r = 0;

	for (unsigned i = 0; i < fs->n && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? " " : "",
					 fs->f[i].name);
	if (o->src[FO_FILENAME])
		r = fio_note(e, o->src[FO_FILENAME], NULL, e->ex->clones > 1 ? "every job of "
			     "numjobs opens the same files" : NULL, "target%s %s",
			     fs->n > 1 ? "s" : "", list);
	else
		r = fio_note(e, NULL, "filename=(none)", "fio names a job's files after it",
			     "target%s %s", fs->n > 1 ? "s" : "", list);
	if (!r && o->src[FO_DIRECTORY])
		r = fio_note(e, o->src[FO_DIRECTORY], NULL, NULL, "(the directory of the files)");
	if (!r && o->src[FO_FILENAME_FORMAT])
		r = fio_note(e, o->src[FO_FILENAME_FORMAT], NULL, NULL, o->filename ?
			     "(no effect: filename= names the files)" : "(the names of the files)");
	if (!r && o->src[FO_NRFILES])
		r = fio_note(e, o->src[FO_NRFILES], NULL, NULL, o->filename ? "(no effect: "
			     "filename= names the files)" : "%u file%s", fs->n,
			     fs->n > 1 ? "s" : "");
	if (!r && o->src[FO_FILE_SERVICE])
		r = fio_note(e, o->src[FO_FILE_SERVICE], NULL, fs->n > 1 ? "how the job's thread "
			     "picks the file of each I/O" : "one file", fs->n > 1 ? "(file service)"
			     : "(no effect)");
	return r;
}

/* Several files: the job's one thread serves them all, as fio's job does. */
static int share_files(struct fio_emit *e, const struct fio_opts *o, const struct ffiles *fs)
{
	if (fs->n < 2)
		return 0;
	e->j->shared_threads = true;
	e->j->file_service = o->fst;
	e->j->file_service_n = o->fst_n;
	return fio_note(e, o->src[FO_FILE_SERVICE] ? o->src[FO_FILE_SERVICE] : NULL,
			"file_service_type=roundrobin", "the job's thread serves every file in "
			"turn (fio's file_service_type)", "%s, %u I/O%s a turn",
			o->fst == FILES_RANDOM ? "random" : o->fst == FILES_SEQUENTIAL
			? "sequential" : "roundrobin", o->fst_n, o->fst_n > 1 ? "s" : "");
}

static int emit_region(struct fio_emit *e, const struct fio_opts *o, const struct ffiles *fs)
{
	const struct fio_line *sl = o->src[FO_FILESIZE] ? o->src[FO_FILESIZE] : o->src[FO_SIZE];
	const struct fio_line *ol = o->src[FO_OFFSET_INC] && e->ex->clone ? o->src[FO_OFFSET_INC]
									 : o->src[FO_OFFSET];
	const struct ffile *x = &fs->f[0];
	bool file = !strcmp(o->engine, "null");
	char v[32];
	int r = 0;

	for (unsigned i = 0; i < fs->n; i++)
		file |= fs->f[i].st || fs->f[i].regular;
	if (x->off)
		r = fio_set(e, ol, NULL, "offset", fmt_size(x->off, v, sizeof(v)), "%s",
			    ol == o->src[FO_OFFSET_INC] ? "fio's offset plus the job's number x "
			    "offset_increment" : "");
	/* The lines the setting did not come from. */
	if (!r && o->src[FO_OFFSET] && (ol != o->src[FO_OFFSET] || !x->off))
		r = fio_note(e, o->src[FO_OFFSET], NULL, NULL, x->off ? "(with offset_increment)"
			     : "(the start of each file)");
	if (!r && o->src[FO_OFFSET_INC] && (ol != o->src[FO_OFFSET_INC] || !x->off))
		r = fio_note(e, o->src[FO_OFFSET_INC], NULL, NULL, "(the first job starts at "
			     "offset)");
	if (!r && o->fill_device && !x->len)
		r = fio_note(e, NULL, "size=(none)", "fill_device writes until the target is full",
			     "(no bound)");
	else if (!r)
		r = fio_set(e, sl, "size=(the file's size)", "range",
			    fmt_size(x->len, v, sizeof(v)), "the bytes of each file the job "
			    "uses%s", sl == o->src[FO_SIZE] && fs->n > 1 ? " (size / nrfiles)"
			    : "");
	if (!r && file && !(o->fill_device && !x->len))
		r = fio_set(e, sl, "size=(the file's size)", "size",
			    fmt_size(x->off + x->len, v, sizeof(v)), "a missing file is created at "
			    "this size and a smaller one grown to it, as fio lays files out");
	/* fio extends a smaller file: no option of 'iorate run' asks that, so a job field. */
	e->j->grow = true;
	if (!r && !o->unlink)
		r = fio_set(e, o->src[FO_UNLINK], "unlink=0", "keep", NULL,
			    "fio leaves the files it lays out");
	else if (!r)
		r = fio_note(e, o->src[FO_UNLINK], NULL, "iorate removes the files it created, "
			     "never one that was there", "(no --keep)");
	return r;
}

int fio_files_emit(struct fio_emit *e, const struct fio_opts *o, const char *jobname,
		   unsigned clone, uint64_t *bytes)
{
	struct ffiles fs = {0};
	uint64_t share = 0, bs = fio_min_bs(o), extra = 0;
	int r;

	if ((r = file_names(e, o, jobname, clone, &fs)))
		goto out;
	/* size / nrfiles each; what does not divide goes a block at a time to the first files. */
	if (o->size && !o->size_pct && !o->filesize[0]) {
		share = o->size / fs.n;
		extra = (o->size - share * fs.n) / bs;
	}
	for (unsigned i = 0; i < fs.n && !r; i++)
		if (!(r = file_offset(e, o, clone, &fs.f[i])))
			r = file_len(e, o, &fs.f[i], share ? share + (i < extra ? bs : 0) : 0);
	/* The region's end is the size a file is laid out at: it must be a size a file can have. */
	for (unsigned i = 0; i < fs.n && !r; i++) {
		uint64_t end;
		if (__builtin_add_overflow(fs.f[i].off, fs.f[i].len, &end) || end > JOB_MAX_BYTES)
			r = fio_emit_fail(e, o->src[FO_OFFSET_INC] && clone ? o->src[FO_OFFSET_INC]
					  : o->src[FO_OFFSET] ? o->src[FO_OFFSET] : o->src[FO_SIZE],
					  "size=(the file's size)", "the offset plus the size ends "
					  "beyond the largest file (8EiB)");
	}
	if (!r)
		r = check_alike(e, o, &fs);
	/* Checked before any file is laid out, as fio does. */
	if (!r && fs.f[0].len < job_max_bs(e->j) && !(o->fill_device && !fs.f[0].len))
		r = fio_emit_fail(e, o->src[FO_SIZE] ? o->src[FO_SIZE] : o->src[FO_FILESIZE],
				  "size=(the file's size)", "each file's region (%llu bytes) is "
				  "smaller than the block size (fio: blocksize is larger than data "
				  "set range)", (unsigned long long)fs.f[0].len);
	if (!r)
		r = job_bytes(e, o, &fs, bytes);
	/* Targets are the words of 'iorate run' after its options: written to the job. */
	for (unsigned i = 0; i < fs.n && !r; i++)
		if (!(r = job_add_target(e->j, fs.f[i].name)) && fs.made)
			r = job_made_name(e->j, e->j->ntargets - 1);
	if (!r)
		r = note_files(e, o, &fs);
	if (!r)
		r = share_files(e, o, &fs);
	if (!r)
		r = emit_region(e, o, &fs);
out:
	ffiles_free(&fs);
	return r;
}
