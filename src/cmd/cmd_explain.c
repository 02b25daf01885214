/*
 * iorate explain: sets a measured run (the JSON of 'iorate run --json') beside the model, says
 * which limit it sits at, and flags results that caching inflates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/attribute.h"
#include "model/config.h"
#include "core/json_in.h"
#include "core/result_json.h"
#include "core/runner.h"
#include "report/model_fmt.h"
#include "util/parse.h"

static int explain_main(int argc, char **argv);

static const struct opt_group *const explain_groups[] = {&model_group, NULL};

const struct command cmd_explain = {
	.name = "explain",
	.summary = "set a measured run beside the model's prediction",
	.synopsis = "RESULT.json --vm NAME --disk SPEC [--disk SPEC...] [options]",
	.about = "Reads a result of 'iorate run --json', models the same workload (bs, threads,\n"
		 "depth, writes, pattern, duration) on the named VM and disks, and compares\n"
		 "measured with predicted.",
	.groups = explain_groups,
	.kind = CMDK_EXPLAIN,
	.examples = "  iorate run --json -b 4k -t 1 -o 32 /mnt/data/f > r.json\n"
		    "  iorate explain r.json --vm DS2 --disk 2xP30\n",
	.exit_status = "0 done, 1 failed, 2 bad usage.",
	.fn = explain_main,
};

/* What explain takes from the measured run: its workload and its figures. */
struct measured {
	struct model_workload w;
	double secs;             /* asked for */
	double ws;               /* working set: the test file size over every target, bytes */
	double mem;              /* the host's RAM, bytes */
	double iops, mbps, lat_ms;
	enum job_cache cache;
	unsigned ntargets;
	struct job_caps cap, vm_cap;   /* emulated caps the run ran under (0: none) */
	char emulate[96];              /* the profile they came from, or "" */
	bool no_io;                    /* the null engine: no I/O reached any device */
};

/* Reads RESULT.json (core/result_json.h); a usage error naming what is wrong. */
static int read_run(const char *path, struct measured *m)
{
	struct dir_summary s[3];
	struct result *r = malloc(sizeof(*r));
	char err[512];
	json_error_t je;
	json_t *o = json_input_load(path, 0, &je);
	int ret = 0;

	if (!o || !r) {
		free(r);
		json_decref(o);
		if (!o && je.line < 0)
			return usage_error("%s: %s", path, je.text);
		return o ? run_error("out of memory") : usage_error("%s:%d: %s", path, je.line,
								   je.text);
	}
	if (result_from_json(o, r, err, sizeof(err)))
		ret = usage_error("%s: not a result of 'iorate run --json': %s", path, err);
	else if (result_summarize(&r->read, &r->write, &r->trim, r->seconds, s))
		ret = run_error("out of memory");
	else if (!r->job.bs || !r->job.threads || !r->job.depth)
		ret = usage_error("%s: not a result of 'iorate run --json' (needs params.bs, "
				  "params.threads and params.depth)", path);
	/* Beyond what iorate run takes: the model's arithmetic would overflow on such figures. */
	else if (r->job.bs > 1u << 30 || r->job.threads > JOB_MAX_THREADS ||
		 r->job.depth > JOB_MAX_DEPTH || r->job.write_pct > 100)
		ret = usage_error("%s: not a result of 'iorate run --json' (params.bs is at most "
				  "1GiB, threads %u, depth %u, write 100)", path, JOB_MAX_THREADS,
				  JOB_MAX_DEPTH);
	if (!ret) {
		unsigned nt = r->ntargets ? r->ntargets : 1;

		*m = (struct measured){.secs = (double)r->job.time_ns / 1e9,
			.ws = (double)r->job.size * nt, .mem = (double)r->host.mem_bytes,
			.iops = s[2].iops, .mbps = s[2].mbps,
			.lat_ms = s[2].has_lat ? s[2].lat_mean / 1000 : NAN, .cache = r->job.cache,
			.ntargets = nt, .cap = r->job.cap, .vm_cap = r->job.vm_cap};
		snprintf(m->emulate, sizeof(m->emulate), "%s", r->job.emulate ? r->job.emulate : "");
		m->no_io = runner_engine_no_io(r->engine);
		m->w = (struct model_workload){.bs = r->job.bs, .threads = r->job.threads * nt,
			.depth = r->job.depth, .write_pct = r->job.write_pct,
			.sequential = r->job.pattern == PATTERN_SEQUENTIAL};
	}
	json_decref(o);
	result_release(r);
	free(r);
	return ret;
}

#define TOLERANCE 0.15 /* a measurement within 15% of a limit sits at it */

#define NOTE(...) (n < EXPLAIN_NOTES ? snprintf(notes[n++], 256, __VA_ARGS__) : 0)
#define EXPLAIN_NOTES 6

static bool near(double measured, double limit)
{
	return limit > 0 && fabs(measured / limit - 1) <= TOLERANCE;
}

/* The emulated cap a run's figures sit at (within the tolerance), if any. */
struct emu_cap {
	const char *name;       /* vm_iops, disk_iops, vm_mbps, disk_mbps; NULL: none */
	double value;           /* IOPS or MB/s, over every target for the disk caps */
};

static bool under_emulation(const struct measured *me)
{
	return me->cap.iops > 0 || me->cap.mbps > 0 || me->vm_cap.iops > 0 || me->vm_cap.mbps > 0;
}

static struct emu_cap emulated_at(const struct measured *me)
{
	double disk_iops = me->cap.iops * me->ntargets, disk_mbps = me->cap.mbps * me->ntargets;

	if (!under_emulation(me))
		return (struct emu_cap){0};
	if (near(me->iops, me->vm_cap.iops))
		return (struct emu_cap){.name = "vm_iops", .value = me->vm_cap.iops};
	if (near(me->iops, disk_iops))
		return (struct emu_cap){.name = "disk_iops", .value = disk_iops};
	if (near(me->mbps, me->vm_cap.mbps))
		return (struct emu_cap){.name = "vm_mbps", .value = me->vm_cap.mbps};
	if (near(me->mbps, disk_mbps))
		return (struct emu_cap){.name = "disk_mbps", .value = disk_mbps};
	return (struct emu_cap){0};
}

/* A run under emulated caps measured the emulation: say so, and which cap it sits at. */
static unsigned note_emulation(const struct measured *me, char notes[][256], unsigned n)
{
	struct emu_cap at = emulated_at(me);

	if (!under_emulation(me))
		return n;
	NOTE("the run ran under emulated caps%s%s: it measured the emulation, not a cloud disk",
	     me->emulate[0] ? " from " : "", me->emulate);
	if (!at.name)
		return n;
	if (!strcmp(at.name, "vm_iops"))
		NOTE("the measured IOPS sit at the emulated VM cap (%.0f IOPS)", at.value);
	else if (!strcmp(at.name, "disk_iops"))
		NOTE("the measured IOPS sit at the emulated disk caps (%.0f IOPS over %u target%s)",
		     at.value, me->ntargets, me->ntargets == 1 ? "" : "s");
	else if (!strcmp(at.name, "vm_mbps"))
		NOTE("the measured MB/s sit at the emulated VM cap (%.1f MB/s)", at.value);
	else
		NOTE("the measured MB/s sit at the emulated disk caps (%.1f MB/s)", at.value);
	return n;
}

/* Above every published limit: a cache served it, which cache the run's own settings say. */
static unsigned note_above(const struct measured *me, const struct model_attribution *a,
			   const struct model_config *m, char notes[][256], unsigned n)
{
	bool reads = me->w.write_pct < 100, direct = me->cache == CACHE_DIRECT ||
						  me->cache == CACHE_DIRECTSYNC;

	if (a->origin == MODEL_HOST_CACHE) {
		NOTE("reaching it needs at least %.0f%% of reads served by the host cache; the model "
		     "assumed %.0f%% (--read-hit)", a->min_hit_pct, m->read_hit);
		return n;
	}
	if (direct)
		NOTE("the run used direct I/O (O_DIRECT), so no page cache served it: the device "
		     "measured is faster than anything this configuration publishes (a local disk, "
		     "or a cache below the guest)");
	else if (reads && me->ws > 0 && me->mem > 0 && me->ws <= me->mem)
		NOTE("the run used the page cache (%s) and its working set (%.1f GiB) fits in RAM "
		     "(%.1f GiB): reads were served from memory", job_cache_name(me->cache),
		     me->ws / (1 << 30), me->mem / (1 << 30));
	else if (!reads)
		NOTE("the writes went through the page cache (%s): the device saw them later",
		     job_cache_name(me->cache));
	else
		NOTE("the run used the page cache (%s): part of it was served from memory",
		     job_cache_name(me->cache));
	return n;
}

/* What the reader should know about the comparison, from the run's own settings. */
static unsigned explain_notes(const struct measured *me, const struct model_config *m,
			      const struct model_attribution *a, bool emulated, char notes[][256])
{
	unsigned n = note_emulation(me, notes, 0);

	if (me->no_io)
		NOTE("the run used the null engine: no I/O reached any device, so it measured iorate "
		     "itself, not storage");
	else if (emulated)
		; /* the emulated cap explains the figure: no cache is to thank or to blame */
	else if (a->origin == MODEL_HOST_CACHE || a->origin == MODEL_PAGE_CACHE)
		n = note_above(me, a, m, notes, n);
	else if (a->origin == MODEL_BELOW && a->ratio < 1 - TOLERANCE)
		NOTE("measured is %.0f%% of the prediction and below every published limit: more "
		     "threads or depth, or the guest or the device, hold it back", a->ratio * 100);
	if (m->cache != MODEL_CACHE_NONE && m->vm->cache_gib > 0 && me->ws > 0 &&
	    me->w.write_pct < 100 && me->ws <= m->vm->cache_gib * (1 << 30))
		NOTE("the working set (%.1f GiB) fits in %s's host cache (%.0f GiB): with time, "
		     "reads are served by it", me->ws / (1 << 30), m->vm->name, m->vm->cache_gib);
	return n;
}

/* The measured run beside the prediction for its workload on m, in the format asked for. */
static int explain_print(const struct model_opts *mo, const char *path, const struct measured *me,
			 const struct model_config *m)
{
	char notes[EXPLAIN_NOTES][256];
	const char *note_ptrs[EXPLAIN_NOTES];
	struct model_attribution a;
	struct model_result r;
	double secs = me->secs > 0 ? me->secs : 0;

	if (model_attribute(m, &me->w, secs, me->iops, TOLERANCE, &a))
		return usage_error("explain: the model refuses this configuration for the run");
	model_predict(m, &me->w, secs, &r);
	/* A run shorter than the burst compares with what credits gave it: the average. */
	struct explain_report e = {
		.path = path,
		.model = {.config = m, .workload = &me->w, .result = &r},
		.measured_iops = me->iops, .measured_mbps = me->mbps,
		.measured_latency_ms = me->lat_ms,
		.predicted_iops = r.duration_s > 0 ? r.avg_iops : r.iops,
		.predicted_mbps = r.duration_s > 0 ? r.avg_mbps : r.mbps,
		.ratio_iops = a.ratio, .origin = model_origin_name(a.origin),
		.at_limit = a.origin == MODEL_AT_LIMIT ? a.limit : NULL, .tolerance = TOLERANCE,
		.min_hit_pct = a.origin == MODEL_HOST_CACHE ? a.min_hit_pct : NAN,
		.notes = note_ptrs,
	};
	struct emu_cap at = emulated_at(me);

	/* The emulation explains what the model does not; no page cache served a direct run. */
	if (at.name && a.origin != MODEL_AT_LIMIT) {
		e.origin = "emulated";
		e.emulated_cap = at.name;
		e.emulated_value = at.value;
	} else if (a.origin == MODEL_PAGE_CACHE && (me->no_io || me->cache == CACHE_DIRECT ||
						    me->cache == CACHE_DIRECTSYNC)) {
		e.origin = "above_limits";
	}
	e.nnotes = explain_notes(me, m, &a, e.emulated_cap != NULL, notes);
	for (unsigned i = 0; i < e.nnotes; i++)
		note_ptrs[i] = notes[i];
	int w = mo->fmt->explain(stdout, &e);
	return w ? run_error("explain: cannot write: %s", strerror(-w)) : 0;
}

static int explain_main(int argc, char **argv)
{
	struct model_opts mo;
	struct catalog c = {0};
	struct model_config m;
	struct measured me;
	int first, ret = 0;
	bool help;

	model_opts_init(&mo);
	if ((ret = model_opts_parse(&cmd_explain, &mo, argc, argv, &first, &help)) || help)
		return ret;
	if (first != argc - 1)
		return usage_error("explain: expected one RESULT.json (see 'iorate explain --help')");
	if (!mo.vm || !mo.specs.n)
		return usage_error("explain: --vm and --disk are required (e.g. --vm DS2 --disk P30)");
	if ((ret = read_run(argv[first], &me)))
		return ret;
	if (!(ret = model_opts_catalog(&mo, &c)) && !(ret = model_opts_config(&mo, &c, &m)))
		ret = explain_print(&mo, argv[first], &me, &m);
	catalog_release(&c);
	return ret;
}
