/*
 * fio-json's "job options" and "global options": a job's settings written as the fio options
 * that ask for the same workload, each value a string as fio prints them. Sizes are bytes and
 * durations carry their unit, so fio reads each back as meant. docs/fio-json.md lists them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fio_json.h"
#include "result/result_json.h"
#include "util/fio_names.h"

const char *fio_job_name(const struct result *r, unsigned i, char *buf, size_t len)
{
	if (r->job.name)
		return r->job.name;
	snprintf(buf, len, "job%u", i + 1);
	return buf;
}

/* key: the formatted value, as a string. */
static void opt(json_t *o, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void opt(json_t *o, const char *key, const char *fmt, ...)
{
	char *v = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (n >= 0)
		json_object_set_new(o, key, result_json_str(v));
	free(v);
}

/* A duration with its unit (fio reads a bare thinktime as microseconds, a runtime as seconds). */
static void opt_time(json_t *o, const char *key, uint64_t ns)
{
	if (ns % 1000000000u == 0)
		opt(o, key, "%" PRIu64 "s", ns / 1000000000u);
	else if (ns % 1000000u == 0)
		opt(o, key, "%" PRIu64 "ms", ns / 1000000u);
	else
		opt(o, key, "%" PRIu64 "us", (ns + 500) / 1000u);
}

/* The targets joined by ':', fio's separator, which a name escapes as "\:". */
static void opt_files(json_t *o, const struct job *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	for (unsigned i = 0; i < j->ntargets; i++) {
		if (i)
			fputc(':', f);
		for (const char *p = j->targets[i]; *p; p++) {
			if (*p == ':')
				fputc('\\', f);
			fputc(*p, f);
		}
	}
	if (!fclose(f))
		json_object_set_new(o, "filename", result_json_str(buf));
	free(buf);
}

/* rw: the direction and pattern; a gap after each sequential I/O is rw=read:GAP. */
static void opt_rw(json_t *o, const struct job *j)
{
	const char *dir = j->write_pct == 0 ? "read" : j->write_pct == 100 ? "write" : "rw";

	/* fio's trims: trims alone, or writes that trim first; no mix with reads. */
	if (j->trim_pct == 100)
		dir = "trim";
	else if (j->trim_write && j->write_pct == 100)
		dir = "trimwrite";
	bool rnd = j->pattern == PATTERN_RANDOM;

	if (j->skip)
		opt(o, "rw", "%s%s:%" PRIu64, rnd ? "rand" : "", dir, j->skip);
	else
		opt(o, "rw", "%s%s", rnd ? "rand" : "", dir);
	if (j->write_pct > 0 && j->write_pct < 100)
		opt(o, "rwmixwrite", "%u", j->write_pct);
	if (j->random_pct)
		opt(o, "percentage_random", "%u", j->random_pct);
}

/* One direction's mix, "4096/50:65536/50". */
static void mix(FILE *f, const struct job_bs *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64 "/%u", i ? ":" : "", b[i].bs, b[i].pct);
}

static void opt_bs(json_t *o, const struct job *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!j->nbs_read && !j->nbs_write) {
		opt(o, "bs", "%" PRIu64, j->bs);
		return;
	}
	if (!(f = open_memstream(&buf, &len)))
		return;
	mix(f, j->nbs_read ? j->bs_read : j->bs_write, j->nbs_read ? j->nbs_read : j->nbs_write);
	if (j->nbs_read && j->nbs_write) {
		fputc(',', f);
		mix(f, j->bs_write, j->nbs_write);
	}
	if (!fclose(f))
		json_object_set_new(o, "bssplit", result_json_str(buf));
	free(buf);
}

static void opt_dist(json_t *o, const struct job *j)
{
	static const char *const names[] = {"random", "zipf", "pareto", "normal", "zoned",
					    "zoned_abs", "sequence"};
	char buf[1024] = "";
	size_t n = 0;

	if (j->dist == DIST_UNIFORM || (unsigned)j->dist > DIST_SEQUENCE)
		return;
	n += (size_t)snprintf(buf, sizeof(buf), "%s", names[j->dist]);
	for (unsigned i = 0; j->dist == DIST_SEQUENCE && i < j->nseq && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%c%u", i ? ',' : ':', j->seq[i]);
	if (j->dist == DIST_SEQUENCE && j->seq_stride)
		opt(o, "random_sequence_stride", "%s", "1");
	if (j->dist == DIST_ZIPF || j->dist == DIST_PARETO || j->dist == DIST_NORMAL)
		snprintf(buf + n, sizeof(buf) - n, ":%g", j->dist_param);
	for (unsigned i = 0; i < j->nzones && n < sizeof(buf); i++) {
		const struct job_zone *z = &j->zones[i];

		n = strlen(buf);
		if (j->dist == DIST_ZONED_ABS)
			snprintf(buf + n, sizeof(buf) - n, ":%g/%" PRIu64, z->access_pct,
				 z->size_bytes);
		else
			snprintf(buf + n, sizeof(buf) - n, ":%g/%g", z->access_pct, z->size_pct);
	}
	opt(o, "random_distribution", "%s", buf);
}

/* Durations, syncs, pauses and limits, each only when the job has it. */
static void opt_timing(json_t *o, const struct job *j)
{
	opt_time(o, "runtime", j->time_ns);
	if (j->warmup_ns)
		opt_time(o, "ramp_time", j->warmup_ns);
	if (j->startdelay_ns)
		opt_time(o, "startdelay", j->startdelay_ns);
	if (j->io_bytes)
		opt(o, "io_size", "%" PRIu64, j->io_bytes);
	if (j->ios_per_thread)
		opt(o, "number_ios", "%" PRIu64, j->ios_per_thread);
	if (j->thinktime_ns) {
		opt_time(o, "thinktime", j->thinktime_ns);
		opt(o, "thinktime_blocks", "%u", j->thinktime_blocks ? j->thinktime_blocks : 1);
	}
	if (j->fsync_every)
		opt(o, "fsync", "%u", j->fsync_every);
	if (j->fdatasync_every)
		opt(o, "fdatasync", "%u", j->fdatasync_every);
	if (j->end_fsync)
		opt(o, "end_fsync", "1");
	if (j->rate_iops > 0)
		opt(o, "rate_iops", "%.0f", j->rate_iops);
	if (j->arrival == ARRIVAL_POISSON)
		opt(o, "rate_process", "poisson");
}

json_t *fio_job_options(const struct result *r, const char *jobname)
{
	const struct job *j = &r->job;
	json_t *o = json_object();

	opt(o, "name", "%s", jobname);
	opt_files(o, j);
	opt_rw(o, j);
	opt_bs(o, j);
	opt(o, "ioengine", "%s", fio_engine_of(r->engine[0] ? r->engine : j->engine));
	opt(o, "iodepth", "%u", j->depth);
	opt(o, "numjobs", "%u", j->threads);
	opt(o, "direct", "%d", job_direct(j));
	if (j->cache == CACHE_WRITETHROUGH || j->cache == CACHE_DIRECTSYNC)
		opt(o, "sync", "1");
	if (j->range || j->size)
		opt(o, "size", "%" PRIu64, j->range ? j->range : j->size);
	if (j->offset)
		opt(o, "offset", "%" PRIu64, j->offset);
	if (j->align)
		opt(o, "blockalign", "%" PRIu64, j->align);
	opt_dist(o, j);
	opt_timing(o, j);
	opt(o, "randseed", "%" PRIu64, j->seed);
	if (!j->invalidate)
		opt(o, "invalidate", "0");
	return o;
}

json_t *fio_global_options(const struct result_set *s)
{
	json_t *g = json_object(), **each = calloc(s->njobs ? s->njobs : 1, sizeof(*each));
	const char *key;
	json_t *v;

	if (!g || !each) {
		free(each);
		return g;
	}
	for (unsigned i = 0; i < s->njobs; i++) {
		char name[32];

		each[i] = fio_job_options(&s->jobs[i], fio_job_name(&s->jobs[i], i, name,
								   sizeof(name)));
	}
	json_object_foreach(s->njobs ? each[0] : NULL, key, v) {
		bool shared = strcmp(key, "name") != 0;

		for (unsigned i = 1; i < s->njobs && shared; i++)
			shared = json_equal(v, json_object_get(each[i], key));
		if (shared)
			json_object_set(g, key, v);
	}
	for (unsigned i = 0; i < s->njobs; i++)
		json_decref(each[i]);
	free(each);
	return g;
}
