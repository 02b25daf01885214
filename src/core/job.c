#include "core/job.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/target.h"
#include "core/verify.h"
#include "core/worker.h"
#include "engine/engine.h"
#include "util/parse.h"
#include "util/err.h"
#include "util/field.h"

void job_init(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->bs = JOB_DEFAULT_BS;
	j->time_ns = JOB_DEFAULT_TIME_NS;
	j->threads = 1;
	j->depth = 1;
	j->batch = 0;  /* the engine's way (worker_settings) */
	j->pattern = PATTERN_RANDOM;
	j->cache = CACHE_DIRECT;
	j->fill = FILL_RANDOM;
	j->arrival = ARRIVAL_CLOSED;
	j->thinktime_blocks = 1;
	j->compress_chunk = 512;
	/* A run starts with none of its targets in the page cache, as fio's do. */
	j->invalidate = true;
	strcpy(j->origin, "run");
}

void job_release(struct job *j)
{
	if (!j)
		return;
	for (unsigned i = 0; i < j->ntargets; i++)
		free(j->targets[i]);
	free(j->targets);
	free(j->expect);
	free(j->made);
	free(j->command_line);
	free(j->trace_path);
	job_logs_release(&j->log);
	free(j->emulate);
	free(j->name);
	j->emulate = NULL;
	j->name = NULL;
	j->expect = NULL;
	j->made = NULL;
	j->nmade = 0;
	j->targets = NULL;
	j->ntargets = 0;
	j->command_line = NULL;
	j->trace_path = NULL;
}

int job_add_target(struct job *j, const char *path)
{
	char **t = realloc(j->targets, (j->ntargets + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	j->targets = t;
	if (!(t[j->ntargets] = strdup(path)))
		return -ENOMEM;
	j->ntargets++;
	return 0;
}

int job_expect(struct job *j, unsigned i, const struct gate_id *id)
{
	if (i >= j->ntargets)
		return -EINVAL;
	if (!j->expect && !(j->expect = calloc(j->ntargets, sizeof(*j->expect))))
		return -ENOMEM;
	j->expect[i] = *id;
	return 0;
}

const char *job_label(const struct job *j, unsigned i, char *buf, size_t len)
{
	if (j->name)
		snprintf(buf, len, "job %s", j->name);
	else
		snprintf(buf, len, "job %u", i + 1);
	return buf;
}

int job_made_name(struct job *j, unsigned i)
{
	bool *m;

	if (i >= j->ntargets)
		return -EINVAL;
	if (i >= j->nmade) {
		if (!(m = realloc(j->made, (i + 1) * sizeof(*m))))
			return -ENOMEM;
		memset(m + j->nmade, 0, (i + 1 - j->nmade) * sizeof(*m));
		j->made = m;
		j->nmade = i + 1;
	}
	j->made[i] = true;
	return 0;
}

bool job_is_made_name(const struct job *j, const char *path)
{
	for (unsigned i = 0; i < j->nmade; i++)
		if (j->made[i] && !strcmp(j->targets[i], path))
			return true;
	return false;
}

int job_copy(struct job *dst, const struct job *src)
{
	*dst = *src;
	dst->targets = NULL;
	dst->expect = NULL;
	dst->made = NULL;
	dst->ntargets = 0;
	dst->command_line = NULL;
	dst->trace_path = NULL;
	dst->log.bw = dst->log.iops = dst->log.lat = dst->log.hist = NULL;
	dst->emulate = NULL;
	dst->name = NULL;
	for (unsigned i = 0; i < src->ntargets; i++)
		if (job_add_target(dst, src->targets[i]))
			goto nomem;
	if (src->expect) {
		if (!(dst->expect = malloc(src->ntargets * sizeof(*dst->expect))))
			goto nomem;
		memcpy(dst->expect, src->expect, src->ntargets * sizeof(*dst->expect));
	}
	if (src->nmade) {
		if (!(dst->made = malloc(src->nmade * sizeof(*dst->made))))
			goto nomem;
		memcpy(dst->made, src->made, src->nmade * sizeof(*dst->made));
	}
	if (src->command_line && !(dst->command_line = strdup(src->command_line)))
		goto nomem;
	if (src->trace_path && !(dst->trace_path = strdup(src->trace_path)))
		goto nomem;
	if (job_logs_copy(&dst->log, &src->log))
		goto nomem;
	if (src->emulate && !(dst->emulate = strdup(src->emulate)))
		goto nomem;
	if (src->name && !(dst->name = strdup(src->name)))
		goto nomem;
	return 0;
nomem:
	job_release(dst);
	return -ENOMEM;
}

/* Quotes an argument for a POSIX shell when it holds anything a shell would interpret. */
static size_t quote_arg(char *out, const char *a)
{
	size_t n = 0;
	bool plain = *a != '\0' && *a != '#'; /* a leading # would start a shell comment */

	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_./=:,+@%^#", *p))
			plain = false;
	if (plain) {
		if (out)
			memcpy(out, a, strlen(a));
		return strlen(a);
	}
	if (out)
		out[n] = '\'';
	n++;
	for (const char *p = a; *p; p++) {
		if (*p == '\'') {
			if (out)
				memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			if (out)
				out[n] = *p;
			n++;
		}
	}
	if (out)
		out[n] = '\'';
	return n + 1;
}

int job_set_command_line(struct job *j, const char *prog, int argc, char *const argv[])
{
	size_t len = 1 + (prog ? quote_arg(NULL, prog) + 1 : 0);
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += quote_arg(NULL, argv[i]) + 1;
	if (!(s = malloc(len)))
		return -ENOMEM;
	p = s;
	if (prog)
		p += quote_arg(p, prog);
	for (int i = 0; i < argc; i++) {
		if (i || prog)
			*p++ = ' ';
		p += quote_arg(p, argv[i]);
	}
	*p = '\0';
	free(j->command_line);
	j->command_line = s;
	return 0;
}

#define FAIL(...) return err_set(err, errlen, -EINVAL, __VA_ARGS__)

/* a x b, or UINT64_MAX when it does not fit: an estimate that saturates still refuses. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t job_max_bs(const struct job *j)
{
	uint64_t m = j->bs;

	for (unsigned i = 0; i < j->nbs_read; i++)
		m = j->bs_read[i].bs > m ? j->bs_read[i].bs : m;
	for (unsigned i = 0; i < j->nbs_write; i++)
		m = j->bs_write[i].bs > m ? j->bs_write[i].bs : m;
	return m;
}

uint64_t job_min_bs(const struct job *j)
{
	uint64_t m = j->nbs_read && j->nbs_write ? UINT64_MAX : j->bs;

	for (unsigned i = 0; i < j->nbs_read; i++)
		m = j->bs_read[i].bs < m ? j->bs_read[i].bs : m;
	for (unsigned i = 0; i < j->nbs_write; i++)
		m = j->bs_write[i].bs < m ? j->bs_write[i].bs : m;
	return m;
}

uint32_t job_verify_block(const struct job *j)
{
	uint64_t v = j->verify_block ? j->verify_block : job_min_bs(j);

	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

uint64_t job_memory_needed(const struct job *j)
{
	/* A worker's buffers start on a page of their own, so it holds whole pages; the job's
	 * mapping of them may round up to one huge page more (core/iobuf.h), left out here. */
	uint64_t buf = (mul_sat(job_max_bs(j), j->depth) + 4095) / 4096 * 4096;
	uint64_t slot = sizeof(struct io_req) + 2 * sizeof(struct io_req *) + JOB_ENGINE_SLOT_BYTES;
	/* A worker makes a histogram for each direction it does, at its first latency; a target
	 * served by threads of its own gets merged copies of them, except that its only thread
	 * hands its own over. A thread serving every target (shared) keeps a few counters each. */
	bool shared = j->shared_threads && j->ntargets > 1;
	uint64_t hists = (uint64_t)((j->write_pct + j->trim_pct < 100) + (j->write_pct > 0) +
				    job_trims(j)) * sizeof(struct hist);
	uint64_t worker = add_sat(add_sat(buf, mul_sat(slot, j->depth)),
				  sizeof(struct worker) + hists);
	uint64_t target = sizeof(struct target) + sizeof(struct target_result) +
			  (shared || j->threads == 1 ? 0 : hists);
	uint64_t run = sizeof(struct result) + hists;

	if (shared)
		worker = add_sat(worker, mul_sat(sizeof(struct worker_target) + sizeof(int),
						 j->ntargets));
	/* --verify: a generation (4 bytes) per verified block of each target's region. */
	if (j->verify && job_verify_block(j))
		target = add_sat(target, (j->range ? j->range : j->size ? j->size
								  : JOB_DEFAULT_FILE_SIZE) /
					 job_verify_block(j) * 4);
	return add_sat(add_sat(mul_sat(mul_sat(worker, shared ? 1 : j->ntargets), j->threads),
			       mul_sat(target, j->ntargets)), run);
}

int job_mem_available_parse(const char *meminfo, uint64_t *bytes)
{
	for (const char *p = meminfo; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long long kib;
		char unit[8];

		if (strncmp(p, "MemAvailable:", 13))
			continue;
		if (sscanf(p + 13, "%llu %7s", &kib, unit) != 2 || strcmp(unit, "kB") ||
		    kib > UINT64_MAX / 1024)
			return -EINVAL;
		*bytes = (uint64_t)kib * 1024;
		return 0;
	}
	return -ENOENT;
}

int job_mem_available(const char *path, uint64_t *bytes)
{
	char buf[8192];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return job_mem_available_parse(buf, bytes);
}

/* Whole MiB and up, one decimal: "512.0 MiB", "22.1 GiB", "4.0 TiB". */
static const char *fmt_mib(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = {"MiB", "GiB", "TiB", "PiB", "EiB"};
	double x = (double)n / (1 << 20);
	unsigned u = 0;

	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", x, unit[u]);
	return buf;
}

int job_check_memory(const struct job *j, uint64_t avail, char *err, size_t errlen)
{
	uint64_t need = job_memory_needed(j);
	char t[32] = "", b[32], n[32], a[32];

	if (need <= avail)
		return 0;
	if (j->ntargets > 1)
		snprintf(t, sizeof(t), "%u targets x ", j->ntargets);
	return err_set(err, errlen, -EINVAL,
		       "%s" FIELD("threads") " %u x " FIELD("depth") " %u x " FIELD("bs")
		       " %s: needs %s for buffers and histograms, more than the %s available",
		       t, j->threads, j->depth, fmt_size(j->bs, b, sizeof(b)),
		       fmt_mib(need, n, sizeof(n)), fmt_mib(avail, a, sizeof(a)));
}

/* A block-size mix: each size as bs is checked, the shares add up to 100. */
static int check_mix(const struct job_bs *mix, unsigned n, bool direct, const char *dir,
		     char *err, size_t errlen)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!mix[i].bs || mix[i].bs > (1ull << 30))
			FAIL(FIELD("bssplit") ": %s sizes must be from 1 byte to 1GiB", dir);
		if (direct && mix[i].bs % 512)
			FAIL(FIELD("bssplit") ": direct I/O needs multiples of 512 bytes (%s %llu)",
			     dir, (unsigned long long)mix[i].bs);
		sum += mix[i].pct;
	}
	if (n && sum != 100)
		FAIL(FIELD("bssplit") ": the %s shares add up to %u%%, not 100%%", dir, sum);
	return 0;
}

/* Steady state: a window of whole samples, each whole seconds of the per-second series. */
static int check_steady(const struct job *j, char *err, size_t errlen)
{
	uint64_t iv = j->steady_interval_ns ? j->steady_interval_ns : 1000000000ull;

	if (!j->steady && (j->steady_dur_ns || j->steady_ramp_ns || j->steady_interval_ns))
		FAIL("%s: of no effect without " FIELD("steady"), j->steady_dur_ns ?
		     FIELD("steady-time") : j->steady_ramp_ns ? FIELD("steady-ramp") :
		     FIELD("steady-interval"));
	if (!j->steady)
		return 0;
	if (j->steady >= STEADY_LAT && j->no_latency)
		FAIL(FIELD("steady") ": lat and lat_slope judge latencies, which "
		     FIELD("no-latency") " does not keep");
	if (!j->steady_dur_ns)
		FAIL(FIELD("steady") ": needs a window (" FIELD("steady-time") ")");
	if (iv % 1000000000ull)
		FAIL(FIELD("steady-interval") ": must be whole seconds (the series is per second)");
	if (j->steady_dur_ns % iv || j->steady_dur_ns / iv < 2)
		FAIL(FIELD("steady-time") ": must be a whole number of at least two intervals (%llu s "
		     "each)", (unsigned long long)(iv / 1000000000ull));
	/* A sample is whole points of the series. */
	if (j->interval_ns && iv % j->interval_ns)
		FAIL(FIELD("interval") ": must divide " FIELD("steady-interval") " (%llu s)",
		     (unsigned long long)(iv / 1000000000ull));
	return 0;
}

/* The series' interval on its own; its agreement with the group's is jobs_check_interval's. */
static int check_interval(const struct job *j, char *err, size_t errlen)
{
	if (j->interval_ns && (j->interval_ns < JOB_INTERVAL_MIN || j->interval_ns > JOB_INTERVAL_MAX))
		FAIL(FIELD("interval") ": must be from 10ms to 1h");
	return 0;
}

uint64_t job_interval(const struct job *jobs, unsigned n, unsigned group)
{
	bool short_run = true;

	for (unsigned i = 0; i < n; i++) {
		if (jobs[i].group != group)
			continue;
		if (jobs[i].interval_ns)
			return jobs[i].interval_ns;
		short_run = short_run && jobs[i].time_ns && jobs[i].time_ns <= JOB_INTERVAL_SHORT_RUN;
	}
	return short_run ? JOB_INTERVAL_SHORT : JOB_INTERVAL_LONG;
}

int jobs_check_interval(const struct job *jobs, unsigned n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		const struct job *j = &jobs[i];
		uint64_t iv = job_interval(jobs, n, j->group);
		uint64_t siv = j->steady_interval_ns ? j->steady_interval_ns : 1000000000ull;

		if (j->interval_ns && j->interval_ns != iv)
			FAIL(FIELD("interval") ": the jobs of a group share one series (%llu ms "
			     "here, %llu ms in an earlier job of the group)",
			     (unsigned long long)(j->interval_ns / 1000000ull),
			     (unsigned long long)(iv / 1000000ull));
		if (j->steady && siv % iv)
			FAIL(FIELD("steady-interval") ": must be a whole number of the group's "
			     FIELD("interval") " (%llu ms)", (unsigned long long)(iv / 1000000ull));
	}
	return 0;
}

/* Priorities per I/O: a class belongs to a share, a share and a split do not go together. */
static int check_cmdprio(const struct job *j, char *err, size_t errlen)
{
	const struct job_cmdprio *c = &j->cmdprio;

	if (c->class_set && !c->on)
		FAIL(FIELD("cmdprio-class") ": of no effect without " FIELD("cmdprio") " or "
		     FIELD("cmdprio-split"));
	if (c->nsplit[0] && (c->pct[0] || c->pct[1]))
		FAIL(FIELD("cmdprio") ": not with " FIELD("cmdprio-split") " (which says the share "
		     "of each size)");
	return 0;
}

/* A latency target: its window, percentile and run belong to it. */
static int check_lat_target(const struct job *j, char *err, size_t errlen)
{
	if (!j->lat_target_ns && (j->lat_window_ns || j->lat_pct > 0 || j->lat_run))
		FAIL("%s: of no effect without " FIELD("latency-target"),
		     j->lat_window_ns ? FIELD("latency-window") : j->lat_pct > 0 ?
		     FIELD("latency-percentile") : FIELD("latency-run"));
	if (j->lat_pct < 0 || j->lat_pct > 100)
		FAIL(FIELD("latency-percentile") ": a percent above 0, at most 100");
	if (j->lat_target_ns && j->no_latency)
		FAIL(FIELD("latency-target") ": not with " FIELD("no-latency") " (it times every I/O)");
	if (j->lat_target_ns && j->rate_iops > 0)
		FAIL(FIELD("latency-target") ": not with " FIELD("rate-iops") " (an open loop does "
		     "not keep a queue depth)");
	return 0;
}

/* The sequence distribution's stride belongs to it. */
static int check_sequence(const struct job *j, char *err, size_t errlen)
{
	if (j->seq_stride && j->dist != DIST_SEQUENCE)
		FAIL(FIELD("sequence-stride") ": of no effect without " FIELD("distribution")
		     " sequence");
	return 0;
}

/* Flow control: its id and sleep belong to a weight. */
static int check_flow(const struct job *j, char *err, size_t errlen)
{
	if (!j->flow && (j->flow_id || j->flow_sleep_ns))
		FAIL("%s: of no effect without " FIELD("flow"),
		     j->flow_id ? FIELD("flow-id") : FIELD("flow-sleep"));
	if (j->flow > 1000)
		FAIL(FIELD("flow") ": a weight is 1 to 1000");
	return 0;
}

/* SPRandom preconditioning: one thread writing one target at random, one block size. */
static int check_sprandom(const struct job *j, char *err, size_t errlen)
{
	if (!j->sprandom) {
		if (j->spr_op > 0 || j->spr_regions || j->spr_cache)
			FAIL("%s: of no effect without " FIELD("sprandom"),
			     j->spr_op > 0 ? FIELD("spr-op") : j->spr_regions ? FIELD("spr-num-regions")
									     : FIELD("spr-cs"));
		return 0;
	}
	if (j->spr_op < 0 || j->spr_op >= 1)
		FAIL(FIELD("spr-op") ": over-provisioning is a fraction above 0 and below 1");
	if (j->write_pct != 100 || j->pattern == PATTERN_SEQUENTIAL)
		FAIL(FIELD("sprandom") ": needs random writes only (" FIELD("write") " 100)");
	if (j->threads != 1 || j->ntargets != 1 || j->shared_threads)
		FAIL(FIELD("sprandom") ": one thread on one target (a pass is one sequence of writes)");
	if (j->nbs_read || j->nbs_write || j->dist != DIST_UNIFORM || j->zbd || j->verify ||
	    j->trim_pct)
		FAIL(FIELD("sprandom") ": with %s is not supported by iorate",
		     j->nbs_read || j->nbs_write ? FIELD("bssplit")
		     : j->dist != DIST_UNIFORM ? FIELD("distribution") : j->zbd ? FIELD("zbd")
		     : j->verify ? FIELD("verify") : FIELD("trim"));
	return 0;
}

/* Emulated zones (src/core/zbd.h): what they need and what they cannot go with. */
static int check_zbd(const struct job *j, char *err, size_t errlen)
{
	if (!j->zbd) {
		if (j->zone_capacity || j->max_open_zones || j->job_max_open_zones ||
		    j->zone_reset_frequency > 0 || j->zone_reset_threshold > 0 || j->read_beyond_wp)
			FAIL("%s: of no effect without " FIELD("zbd"),
			     j->zone_capacity ? FIELD("zone-capacity")
			     : j->max_open_zones ? FIELD("max-open-zones")
			     : j->job_max_open_zones ? FIELD("job-max-open-zones")
			     : j->read_beyond_wp ? FIELD("read-beyond-wp")
						 : FIELD("zone-reset-frequency"));
		return 0;
	}
	if (!j->zone_size)
		FAIL(FIELD("zbd") ": needs " FIELD("zone-size"));
	if (j->zone_range && j->zone_range != j->zone_size)
		FAIL(FIELD("zone-range") ": emulated zones are " FIELD("zone-size") " long");
	if (j->zone_capacity > j->zone_size)
		FAIL(FIELD("zone-capacity") ": more than " FIELD("zone-size"));
	if (job_max_bs(j) > (j->zone_capacity ? j->zone_capacity : j->zone_size))
		FAIL(FIELD("zbd") ": an I/O of %llu bytes does not fit a zone's %llu writable bytes",
		     (unsigned long long)job_max_bs(j),
		     (unsigned long long)(j->zone_capacity ? j->zone_capacity : j->zone_size));
	if (j->zone_reset_threshold < 0 || j->zone_reset_threshold > 1 ||
	    j->zone_reset_frequency < 0 || j->zone_reset_frequency > 1)
		FAIL("%s: a fraction from 0 to 1", j->zone_reset_threshold < 0 ||
		     j->zone_reset_threshold > 1 ? FIELD("zone-reset-threshold")
						 : FIELD("zone-reset-frequency"));
	/* --until-full with zones was refused by check_zones() before. */
	if (j->shared_threads || j->verify || j->dist != DIST_UNIFORM || j->random_pct)
		FAIL(FIELD("zbd") ": emulated zones with %s are not supported by iorate",
		     j->shared_threads ? FIELD("shared-threads") : j->verify ? FIELD("verify")
		     : j->random_pct ? "mixed patterns" : FIELD("distribution"));
	return 0;
}

/* A backward sweep, and strided zones: each big enough for the largest I/O. */
static int check_zones(const struct job *j, char *err, size_t errlen)
{
	uint64_t range = j->zone_range ? j->zone_range : j->zone_size;

	if (j->rewind && j->pattern != PATTERN_SEQUENTIAL)
		FAIL(FIELD("gap") ": a negative gap needs sequential I/O (" FIELD("sequential") ")");
	if (!j->zone_size && (j->zone_range || j->zone_skip))
		FAIL("%s: of no effect without " FIELD("zone-size"),
		     j->zone_range ? FIELD("zone-range") : FIELD("zone-skip"));
	if (j->zone_size && !j->zbd && range < job_max_bs(j))
		FAIL(FIELD("zone-range") ": a zone of %llu bytes cannot hold an I/O of %llu",
		     (unsigned long long)range, (unsigned long long)job_max_bs(j));
	if (j->until_full && (j->pattern != PATTERN_SEQUENTIAL || j->write_pct != 100 ||
			      j->shared_threads || j->zone_size || j->skip || j->rewind))
		FAIL(FIELD("until-full") ": needs sequential writes (" FIELD("sequential") " "
		     FIELD_VAL("write", "100") "), without zones, gaps or shared threads");
	if (j->zone_size && (j->skip || j->rewind))
		FAIL(FIELD("zone-size") ": %s zones with " FIELD("gap") " are not supported by "
		     "iorate", j->zbd ? "emulated" : "strided");
	int r = check_zbd(j, err, errlen);

	return r ? r : check_sprandom(j, err, errlen);
}

/* What a job asks beyond one block size and a uniform pattern. */
static int check_shape(const struct job *j, char *err, size_t errlen)
{
	double acc = 0, size = 0;
	int r;

	if ((r = check_mix(j->bs_read, j->nbs_read, job_direct(j), "read", err, errlen)) ||
	    (r = check_mix(j->bs_write, j->nbs_write, job_direct(j), "write", err, errlen)))
		return r;
	if (j->dist == DIST_ZIPF && (!(j->dist_param > 0) || j->dist_param == 1))
		FAIL(FIELD("distribution") ": zipf's theta must be above 0 and not 1");
	if (j->dist == DIST_PARETO && !(j->dist_param > 0 && j->dist_param < 1))
		FAIL(FIELD("distribution") ": pareto's h must be between 0 and 1");
	if (j->dist == DIST_NORMAL && !(j->dist_param > 0 && j->dist_param <= 100))
		FAIL(FIELD("distribution") ": normal's deviation must be from 0 to 100%%");
	for (unsigned i = 0; i < j->nzones; i++) {
		acc += j->zones[i].access_pct;
		size += j->zones[i].size_pct;
	}
	if (j->dist == DIST_ZONED && (!j->nzones || fabs(acc - 100) > 1e-9 ||
				      fabs(size - 100) > 1e-9))
		FAIL(FIELD("distribution") ": zones' accesses and sizes must each add up to "
		     "100%%");
	if (j->dist == DIST_ZONED_ABS && (!j->nzones || fabs(acc - 100) > 1e-9))
		FAIL(FIELD("distribution") ": zones' accesses must add up to 100%%");
	uint64_t bytes = 0;
	for (unsigned i = 0; j->dist == DIST_ZONED_ABS && i < j->nzones; i++) {
		if (!j->zones[i].size_bytes && i + 1 < j->nzones)
			FAIL(FIELD("distribution") ": only the last zone may run to the end (size 0)");
		if (__builtin_add_overflow(bytes, j->zones[i].size_bytes, &bytes) ||
		    bytes > JOB_MAX_BYTES)
			FAIL(FIELD("distribution") ": the zones' sizes add up to more than a file "
			     "or device can hold");
	}
	if (j->thread_stride && !(j->pattern == PATTERN_SEQUENTIAL && j->seq_per_thread))
		FAIL(FIELD("thread-stride") ": needs sequential threads that each sweep the region "
		     "(" FIELD("sequential") " " FIELD("seq-threads") " each)");
	if (j->random_pct > 100)
		FAIL(FIELD("random-pct") ": must be from 0 to 100 percent");
	return check_zones(j, err, errlen);
}

/* --verify: whole blocks at whole-block offsets, so that every I/O covers whole blocks. */
static int check_verify(const struct job *j, const struct engine_ops *e, char *err,
			size_t errlen)
{
	uint32_t v = job_verify_block(j);
	bool whole = j->bs % v == 0;

	if (!j->verify)
		return 0;
	if (e && (e->flags & ENGINE_NO_IO))
		FAIL(FIELD("verify") ": the %s engine stores nothing that could be read back", e->name);
	if (j->shared_threads && j->ntargets > 1)
		FAIL(FIELD("verify") ": not supported by iorate with " FIELD("shared-threads") " yet");
	/* A verifying thread draws again while a block is in flight: a fixed list of blocks
	 * could have them all in flight. */
	if (j->dist == DIST_SEQUENCE && j->pattern == PATTERN_RANDOM)
		FAIL(FIELD("verify") ": not with " FIELD("distribution") " sequence");
	if (v < VERIFY_MIN_BLOCK || v % 512)
		FAIL(FIELD("verify-block") ": must be a multiple of 512 bytes, at least 512");
	for (unsigned i = 0; i < j->nbs_read; i++)
		whole = whole && j->bs_read[i].bs % v == 0;
	for (unsigned i = 0; i < j->nbs_write; i++)
		whole = whole && j->bs_write[i].bs % v == 0;
	if (!whole || j->align % v || j->skip % v || j->thread_stride % v || j->offset % v)
		FAIL(FIELD("verify-block") ": %u bytes must divide every block size, " FIELD("align")
		     ", " FIELD("gap") ", " FIELD("thread-stride") " and " FIELD("offset"), v);
	return 0;
}

/* What writes carry: verified writes carry their own blocks. */
static int check_data(const struct job *j, char *err, size_t errlen)
{
	bool any = j->compress_pct || j->dedupe_pct || j->data_len || j->refill || j->scramble;

	if (j->compress_pct > 100 || j->dedupe_pct > 100 || j->dedupe_set_pct > 100)
		FAIL("%s: must be from 0 to 100 percent", j->compress_pct > 100 ? FIELD("compress") :
		     j->dedupe_pct > 100 ? FIELD("dedupe") : FIELD("dedupe-set"));
	if (any && j->verify)
		FAIL(FIELD("verify") ": verified writes carry their own blocks; drop "
		     FIELD("compress") ", " FIELD("dedupe") ", " FIELD("data-pattern") ", " FIELD("refill")
		     " and " FIELD("scramble"));
	if ((j->dedupe_set_pct || j->dedupe_global) && !j->dedupe_pct)
		FAIL("%s: of no effect without " FIELD("dedupe"),
		     j->dedupe_set_pct ? FIELD("dedupe-set") : FIELD("dedupe-global"));
	if (j->dedupe_global && !j->dedupe_set_pct)
		FAIL(FIELD("dedupe-global") ": needs a working set (" FIELD("dedupe-set") ")");
	return 0;
}

/*
 * Sizes and offsets end up as off_t and are added to each other (offset + range, size + the
 * free-space reserve): refused here, by name, before any sum can wrap and pass a check.
 */
static int check_extent(const struct job *j, char *err, size_t errlen)
{
	char b1[32], b2[32], max[32];
	uint64_t end;

	if (j->size > JOB_MAX_BYTES)
		FAIL(FIELD("size") ": %s is too large: files are smaller than %s",
		     fmt_size(j->size, b1, sizeof(b1)),
		     fmt_size(JOB_MAX_BYTES + 1, max, sizeof(max)));
	if (j->offset > JOB_MAX_BYTES)
		FAIL(FIELD("offset") ": %s is too large: files and devices are smaller than %s",
		     fmt_size(j->offset, b1, sizeof(b1)),
		     fmt_size(JOB_MAX_BYTES + 1, max, sizeof(max)));
	if (__builtin_add_overflow(j->offset, j->range, &end) || end > JOB_MAX_BYTES)
		FAIL(FIELD("range") ": " FIELD("offset") " %s + %s is too large: files and devices "
		     "are smaller than %s", fmt_size(j->offset, b1, sizeof(b1)),
		     fmt_size(j->range, b2, sizeof(b2)),
		     fmt_size(JOB_MAX_BYTES + 1, max, sizeof(max)));
	/* Steps through the region: a cursor past them stays below 2^64 (workload.c). */
	const struct {
		uint64_t v;
		const char *field;
	} steps[] = {
		{.v = j->align, .field = FIELD("align")}, {.v = j->skip, .field = FIELD("gap")},
		{.v = j->thread_stride, .field = FIELD("thread-stride")},
		{.v = j->zone_size, .field = FIELD("zone-size")},
		{.v = j->zone_range, .field = FIELD("zone-range")},
		{.v = j->zone_skip, .field = FIELD("zone-skip")},
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i].v > JOB_MAX_BYTES)
			FAIL("%s: %s is too large: files and devices are smaller than %s",
			     steps[i].field, fmt_size(steps[i].v, b1, sizeof(b1)),
			     fmt_size(JOB_MAX_BYTES + 1, max, sizeof(max)));
	if (__builtin_add_overflow(j->zone_range, j->zone_skip, &end) || end > JOB_MAX_BYTES)
		FAIL(FIELD("zone-skip") ": " FIELD("zone-range") " %s + %s is too large: files and "
		     "devices are smaller than %s", fmt_size(j->zone_range, b1, sizeof(b1)),
		     fmt_size(j->zone_skip, b2, sizeof(b2)),
		     fmt_size(JOB_MAX_BYTES + 1, max, sizeof(max)));
	return 0;
}

int job_validate(const struct job *j, char *err, size_t errlen)
{
	int r;

	char b1[32];

	if (j->bs == 0)
		FAIL(FIELD("bs") ": the block size must be at least 1 byte");
	if (j->bs > (1ull << 30))
		FAIL(FIELD("bs") ": '%s' is larger than the 1GiB limit", fmt_size(j->bs, b1, sizeof(b1)));
	if (j->time_ns == 0 && !j->io_bytes && !j->ios_per_thread && !j->until_full &&
	    !j->sprandom)
		FAIL(FIELD("time") ": none (no time limit) needs " FIELD("io-size") " or " FIELD("ios")
		     " to end the run");
	if (j->threads == 0 || j->threads > JOB_MAX_THREADS)
		FAIL(FIELD("threads") ": must be from 1 to %u", JOB_MAX_THREADS);
	if (j->depth == 0 || j->depth > JOB_MAX_DEPTH)
		FAIL(FIELD("depth") ": must be from 1 to %u", JOB_MAX_DEPTH);
	if (j->write_pct > 100)
		FAIL(FIELD("write") ": must be from 0 to 100 percent");
	if (j->trim_pct > 100 - j->write_pct)
		FAIL(FIELD("trim") ": %u %% of trims and %u %% of writes make more than 100 %%",
		     j->trim_pct, j->write_pct);
	if (job_trims(j) && j->verify)
		FAIL(FIELD("verify") ": trimmed blocks hold nothing to check; drop " FIELD("trim")
		     " and " FIELD("trim-write"));
	if (j->trim_write && j->write_pct == 0)
		FAIL(FIELD("trim-write") ": of no effect without writes (" FIELD("write") ")");
	bool direct = job_direct(j);

	if (j->align && direct && j->align % 512)
		FAIL(FIELD("align") ": direct I/O needs offsets aligned to 512 bytes at least");
	if (direct && j->bs % 512)
		FAIL(FIELD("bs") ": direct I/O needs a multiple of 512 bytes (use "
		     FIELD_VAL("cache", "buffered") " for %llu)", (unsigned long long)j->bs);
	if (j->ntargets == 0)
		FAIL("no target: name at least one file or block device");
	if ((j->nignore[0] || j->nignore[1]) && !(j->continue_on & (JOB_CONT_READ | JOB_CONT_WRITE)))
		FAIL(FIELD("ignore-error") ": of no effect without " FIELD("continue-on-error")
		     " read, write or io");
	/* A synchronous engine that moves bytes holds one I/O per thread (null moves none). */
	const struct engine_ops *e = j->engine[0] ? engine_find(j->engine) : NULL;
	if (e && (e->flags & ENGINE_SYNC) && !(e->flags & ENGINE_NO_IO) && j->depth > 1)
		FAIL(FIELD("depth") ": the %s engine keeps one I/O outstanding per thread; use "
		     FIELD_VAL("engine", "uring") " (or aio) for " FIELD_VAL("depth", "%u")
		     ", or raise " FIELD("threads"), e->name, j->depth);
	if (j->dontcache && direct)
		FAIL(FIELD("dontcache") ": direct I/O bypasses the page cache already; it is for "
		     FIELD_VAL("cache", "buffered"));
	if (j->cap_io_unit && j->cap_io_unit % 512)
		FAIL(FIELD("cap-io-unit") ": must be a multiple of 512 bytes");
	if ((r = check_extent(j, err, errlen)) || (r = check_shape(j, err, errlen)) ||
	    (r = check_verify(j, e, err, errlen)) ||
	    (r = check_data(j, err, errlen)) || (r = check_steady(j, err, errlen)) ||
	    (r = check_interval(j, err, errlen)) || (r = check_flow(j, err, errlen)) ||
	    (r = check_cmdprio(j, err, errlen)) || (r = check_lat_target(j, err, errlen)) ||
	    (r = check_sequence(j, err, errlen)))
		return r;
	/* Refused before anything is created: otherwise a worker's allocation fails midway or
	 * the OOM killer ends the run. Where /proc/meminfo cannot be read, nothing is checked. */
	uint64_t avail;
	if (!job_mem_available("/proc/meminfo", &avail))
		return job_check_memory(j, avail, err, errlen);
	return 0;
}

const char *job_pattern_name(enum job_pattern p)
{
	return p == PATTERN_SEQUENTIAL ? "sequential" : "random";
}

const char *job_cap_bucket_name(enum cap_bucket b)
{
	static const char *const names[CAP_BUCKETS] = {"disk_iops", "disk_iops_burst",
		"disk_mbps", "disk_mbps_burst", "vm_iops", "vm_iops_burst", "vm_mbps",
		"vm_mbps_burst"};

	return b < CAP_BUCKETS ? names[b] : "";
}

const char *job_cache_name(enum job_cache c)
{
	switch (c) {
	case CACHE_BUFFERED:
		return "buffered";
	case CACHE_WRITETHROUGH:
		return "writethrough";
	case CACHE_DIRECTSYNC:
		return "directsync";
	default:
		return "direct";
	}
}

int job_cache_parse(const char *s, enum job_cache *c)
{
	if (!strcmp(s, "direct") || !strcmp(s, "none") || !strcmp(s, "unbuffered"))
		*c = CACHE_DIRECT;
	else if (!strcmp(s, "buffered") || !strcmp(s, "cached"))
		*c = CACHE_BUFFERED;
	else if (!strcmp(s, "writethrough") || !strcmp(s, "dsync"))
		*c = CACHE_WRITETHROUGH;
	else if (!strcmp(s, "directsync") || !strcmp(s, "direct+writethrough"))
		*c = CACHE_DIRECTSYNC;
	else
		return -EINVAL;
	return 0;
}

void job_list_init(struct job_list *l)
{
	l->jobs = NULL;
	l->n = 0;
}

void job_list_release(struct job_list *l)
{
	for (unsigned i = 0; l && i < l->n; i++)
		job_release(&l->jobs[i]);
	if (l)
		free(l->jobs);
	job_list_init(l);
}

struct job *job_list_add(struct job_list *l)
{
	struct job *g = realloc(l->jobs, (l->n + 1) * sizeof(*g));

	if (!g)
		return NULL;
	l->jobs = g;
	job_init(&g[l->n]);
	return &g[l->n++];
}
