/*
 * iorate model: predicts what a cloud VM and its disks deliver for a workload, and why.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "report/model_fmt.h"

static int model_main(int argc, char **argv);

/* model's own options follow the shared ones in its state. */
struct model_cmd {
	struct model_opts mo;
	struct model_workload w;
	uint64_t time_ns;
};

static int set_pattern(struct opt_ctx *c, const struct opt *o, const char *val)
{
	((struct model_cmd *)c->state)->w.sequential = o->letter == 's';
	return 0;
}

#define MC(field) .in = OPT_IN_CMD, .off = offsetof(struct model_cmd, field)

static const struct opt workload_opts[] = {
	{.name = "random", .letter = 'r', .help = "random offsets (default)", .example = "-r",
	 .set = set_pattern, .excl = EXCL_PATTERN},
	{.name = "sequential", .letter = 's', .help = "sequential offsets", .example = "-s",
	 .set = set_pattern, .excl = EXCL_PATTERN},
	{.name = "threads", .letter = 't', .arg = "N", .help = "threads (default 1)",
	 .example = "-t 8", .set = opt_set_count, MC(w.threads), .min = 1, .max = JOB_MAX_THREADS},
	{.name = "depth", .letter = 'o', .arg = "N",
	 .help = "outstanding I/Os per thread (default 32)", .example = "-o 8",
	 .set = opt_set_count, MC(w.depth), .min = 1, .max = JOB_MAX_DEPTH},
	{.name = "time", .letter = 'd', .arg = "DURATION",
	 .help = "add the timeline of burst credits over this long", .example = "-d 1h",
	 .set = opt_set_duration, MC(time_ns), .min = 1},
	{0},
};
static const struct opt_group workload_group = {.title = "Workload", .opts = workload_opts};
static const struct opt_group *const model_groups[] = {&model_group, &workload_group, NULL};

const struct command cmd_model = {
	.name = "model",
	.summary = "predict IOPS, MB/s and latency of a cloud VM and disks; name the limit",
	.synopsis = "--vm NAME --disk SPEC [--disk SPEC...] [options]",
	.about = "Predicts IOPS, MB/s and mean latency of a striped volume of cloud disks on a VM,\n"
		 "names the limit that binds and lists every limit considered with its published\n"
		 "value and source (docs/model.md).",
	.groups = model_groups,
	.kind = CMDK_MODEL,
	.examples = "  iorate model --vm DS2 --disk 2xP30 --host-cache none\n"
		    "  iorate model --vm A4 --disk 16xstandard --bs 64k -t 8 -o 8\n"
		    "  iorate model --vm D8s_v5 --disk P20 --time 2h --json\n",
	.exit_status = "0 done, 1 failed, 2 bad usage (an unknown VM or disk included).",
	.fn = model_main,
};

static int model_main(int argc, char **argv)
{
	struct model_cmd mc = {.w = {.sequential = false, .threads = 1, .depth = 32}};
	struct model_workload w;
	struct catalog cat = {0};
	struct model_config m;
	struct model_result r;
	double duration;
	int first, ret = 0;
	bool help;

	model_opts_init(&mc.mo);
	if ((ret = model_opts_parse(&cmd_model, &mc, argc, argv, &first, &help)) || help)
		return ret;
	if ((ret = model_opts_no_args(&cmd_model, first, argc, argv)))
		return ret;
	struct model_opts mo = mc.mo;
	w = mc.w;
	duration = (double)mc.time_ns / 1e9;
	w.bs = mo.bs;
	w.write_pct = mo.write_pct;
	if (!mo.vm)
		return usage_error("model: --vm is required (e.g. --vm DS2 --disk 2xP30)");
	if (!mo.specs.n)
		return usage_error("model: --disk is required (e.g. --disk 2xP30)");
	if ((ret = model_opts_catalog(&mo, &cat)) || (ret = model_opts_config(&mo, &cat, &m)))
		goto out;
	model_predict(&m, &w, duration, &r);
	ret = model_opts_written(mo.fmt->model(stdout, &(struct model_report){
		.config = &m, .workload = &w, .result = &r}));
out:
	catalog_release(&cat);
	return ret;
}
