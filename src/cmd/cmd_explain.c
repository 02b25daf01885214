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
#include "core/runner.h"
#include "report/model_fmt.h"
#include "result/result_json.h"
#include "util/parse.h"

static int explain_main(int argc, char **argv);

static const struct opt_group *const explain_groups[] = {
	&opt_model_vm, &opt_model_host_cache, &opt_model_read_hit, &opt_model_cache_state,
	&opt_model_volume, &opt_model_catalog, &opt_output, &opt_model_format, NULL,
};

const struct command cmd_explain = {
	.name = "explain",
	.summary = "set a measured run beside the model's prediction",
	.synopsis = "RESULT.json --vm NAME --disk SPEC [--disk SPEC...] [options]",
	.about = "Reads a result of 'iorate run --json', models the same workload (bs, threads,\n"
		 "depth, writes, pattern, duration) on the named VM and disks, and compares\n"
		 "measured with predicted: the sustained and burst figures on lines of their\n"
		 "own, the limit the run sits at, the share of reads and writes that reached\n"
		 "the device (from the run's diskstats; unknown without them) and, under\n"
		 "emulated caps, which cap held the I/Os. Text and JSON state the same figures.",
	.groups = explain_groups,
	.output = &explain_formats,
	.examples = "  iorate run --json -b 4k -t 1 -o 32 /mnt/data/f > r.json\n"
		    "  iorate explain r.json --vm DS2 --disk 2xP30\n",
	.exit_status = "0 done, 1 failed, 2 bad usage.",
	.fn = explain_main,
};

/* What explain takes from the measured run: its workload, figures, device counts, caps. */
struct measured {
	struct explain_run run;
	struct model_skew skew;        /* how its random offsets spread: the host cache's hits */
	char emulate[96];              /* the profile the caps came from, or "" */
};

/* The devices the targets sit on directly: what the kernel saw beside what iorate did. */
static void read_devices(const struct result *r, struct explain_run *run)
{
	size_t n = 0;

	run->dev_util_pct = NAN;
	for (unsigned i = 0; i < r->ndevices; i++) {
		const struct device_view *v = &r->devices[i];
		struct device_figures f;

		if (v->role != DEVICE_TARGET)
			continue; /* a disk or a member below it: its I/O is counted above */
		run->has_devices = true;
		run->run_ios[0] += (double)v->read_ios;
		run->run_ios[1] += (double)v->write_ios;
		run->run_bytes[0] += (double)v->read_bytes;
		run->run_bytes[1] += (double)v->write_bytes;
		run->dev_ios[0] += (double)v->disk.read_ios;
		run->dev_ios[1] += (double)v->disk.write_ios;
		run->dev_bytes[0] += (double)v->disk.read_bytes;
		run->dev_bytes[1] += (double)v->disk.write_bytes;
		device_view_figures(v, &f);
		if (isfinite(f.util_pct) && !(f.util_pct <= run->dev_util_pct))
			run->dev_util_pct = f.util_pct;
		if (n < sizeof(run->devices))
			n += (size_t)snprintf(run->devices + n, sizeof(run->devices) - n, "%s%s",
					      n ? "," : "", v->name);
	}
}

/* Reads RESULT.json (result/result_json.h); a usage error naming what is wrong. */
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

		*m = (struct measured){.run = {.secs = (double)r->job.time_ns / 1e9,
			.ws = (double)r->job.size * nt, .dev_util_pct = NAN,
			.cpu_pct = r->cpu.ncpus ? r->cpu.user + r->cpu.system : NAN,
			.iops = s[2].iops, .mbps = s[2].mbps,
			.lat_ms = s[2].has_lat ? s[2].lat_mean / 1000 : NAN,
			.direct = r->job.cache == CACHE_DIRECT || r->job.cache == CACHE_DIRECTSYNC,
			.ntargets = nt, .cap = r->job.cap, .vm_cap = r->job.vm_cap,
			.has_held = r->has_held}};
		snprintf(m->emulate, sizeof(m->emulate), "%s", r->job.emulate ? r->job.emulate : "");
		m->run.emulate = m->emulate[0] ? m->emulate : NULL;
		memcpy(m->run.held_s, r->held_s, sizeof(m->run.held_s));
		m->skew = (struct model_skew){.dist = r->job.dist, .param = r->job.dist_param,
					      .nzones = r->job.nzones};
		memcpy(m->skew.zones, r->job.zones, sizeof(m->skew.zones));
		m->run.no_io = runner_engine_no_io(r->engine);
		if (!m->run.no_io)
			read_devices(r, &m->run);
		m->run.w = (struct model_workload){.bs = r->job.bs, .threads = r->job.threads * nt,
			.depth = r->job.depth, .write_pct = r->job.write_pct,
			.sequential = r->job.pattern == PATTERN_SEQUENTIAL};
	}
	json_decref(o);
	result_release(r);
	free(r);
	return ret;
}

#define TOLERANCE 0.15 /* a measurement within 15% of a limit sits at it */

/* The measured run beside the prediction for its workload on m, in the format asked for. */
static int explain_print(const struct model_opts *mo, const char *path, const struct measured *me,
			 const struct model_config *m)
{
	struct explanation x;
	struct model_result r;

	if (model_explain(m, &me->run, TOLERANCE, &r, &x))
		return usage_error("explain: the model refuses this configuration for the run");
	struct explain_report e = {
		.path = path,
		.model = {.config = m, .workload = &me->run.w, .result = &r},
		.x = &x,
	};
	int w = REPORT_WRITER(struct explain_format, mo->fmt)->write(stdout, &e);
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
	if (!(ret = model_opts_catalog(&mo, &c)) && !(ret = model_opts_config(&mo, &c, &m))) {
		/* The run's own working set gives the host cache's hits (unless --read-hit). */
		m.working_set = me.run.ws;
		m.skew = me.skew;
		ret = explain_print(&mo, argv[first], &me, &m);
	}
	catalog_release(&c);
	return ret;
}
