/*
 * iorate model: predicts what a cloud VM and its disks deliver for a workload, and why.
 */
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/mark_suite.h"
#include "cmd/model_common.h"
#include "core/job.h"
#include "model/config.h"
#include "report/model_fmt.h"

static int model_main(int argc, char **argv);

/* model's own options follow the shared ones in its state. */
struct model_cmd {
	struct model_opts mo;
	uint64_t timeline_ns;
	bool mark;
	int profile, preset;        /* enum mark_profile, enum mark_preset */
	const char *workload_opt;   /* the last workload option given (--mark's tests set them) */
	const char *mark_opt;       /* the last of --profile and --preset given */
};

/* Which options were given: --mark takes its workload from the mark's tests, and only it
 * takes --profile and --preset. */
static int note_set(struct opt_ctx *c, const struct opt *o)
{
	static const char *const workload[] = {"bs", "write", "random", "sequential", "threads",
					       "depth", "timeline"};
	struct model_cmd *m = c->state;

	for (size_t i = 0; i < sizeof(workload) / sizeof(workload[0]); i++)
		if (!strcmp(o->name, workload[i]))
			m->workload_opt = o->name;
	if (!strcmp(o->name, "profile") || !strcmp(o->name, "preset"))
		m->mark_opt = o->name;
	return 0;
}

static int set_mark_profile(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return mark_opt_profile(c, val, &((struct model_cmd *)c->state)->profile);
}

static int set_mark_preset(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return mark_opt_preset(c, val, &((struct model_cmd *)c->state)->preset);
}

#define MC(field) .in = OPT_IN_CMD, .off = offsetof(struct model_cmd, field)

/* --bs, --write, -r, -s, --threads and --depth are run's rows (opt_bs, opt_write, opt_queue). */
static const struct opt timeline_opts[] = {
	{.name = "timeline", .arg = "DURATION",
	 .help = "add the timeline of burst credits over this long", .example = "--timeline 1h",
	 .set = opt_set_duration, MC(timeline_ns), .min = 1},
	{0},
};
static const struct opt_group timeline_group = {.title = "Workload", .opts = timeline_opts};

static const struct opt mark_opts[] = {
	{.name = "mark",
	 .help = "predict the table 'iorate mark' prints (its tests, reads then writes), with "
	 "--working-set its test file size (1GiB) unless given", .example = "--mark",
	 .set = opt_set_true, MC(mark)},
	{.name = "profile", .arg = "NAME",
	 .help = MARK_PROFILE_HELP,
	 .example = "--profile peak", .set = set_mark_profile,
	 .values = "default peak real demo"},
	{.name = "preset", .arg = "NAME",
	 .help = MARK_PRESET_HELP,
	 .example = "--preset nvme", .set = set_mark_preset, .values = "standard nvme flash"},
	{0},
};
static const struct opt_group mark_group = {.title = "CrystalDiskMark table", .opts = mark_opts};
static const struct opt_group *const model_groups[] = {
	&opt_model_vm, &opt_model_host_cache, &opt_model_read_hit, &opt_model_working_set,
	&opt_model_cache_state, &opt_model_distribution, &opt_model_volume, &opt_model_catalog,
	&opt_output, &opt_model_format, &opt_bs, &opt_write, &opt_queue, &timeline_group,
	&mark_group, NULL,
};

/* run's --time is the measured duration; model's timeline has a name of its own. */
static const struct opt_moved model_moved[] = {
	{.name = "time", .instead = "the timeline's length is --timeline"},
	{0},
};

const struct command cmd_model = {
	.name = "model",
	.summary = "predict IOPS, MB/s and latency of a cloud VM and disks; name the limit",
	.synopsis = "--vm NAME --disk SPEC [--disk SPEC...] [options]",
	.about = "Predicts IOPS, MB/s and mean latency of a striped volume of cloud disks on a VM,\n"
		 "names the limit that binds and lists every limit considered with its published\n"
		 "value and source (docs/model.md).",
	.groups = model_groups,
	.moved = model_moved,
	.output = &model_formats,
	.examples = "  iorate model --vm DS2 --disk 2xP30 --host-cache none\n"
		    "  iorate model --vm A4 --disk 16xstandard --bs 64k -t 8 -o 8\n"
		    "  iorate model --vm D8s_v5 --disk P20 --timeline 2h --json\n"
		    "  iorate model --mark --vm azure-2015:DS2 --disk P10:cache=readonly\n",
	.exit_status = "0 done, 1 failed, 2 bad usage (an unknown VM or disk included).",
	.fn = model_main,
};

/*
 * The mark's tests on m, each read then written, over as long as mark measures one (a preparing
 * run and five of 5 s, or the preset's); the working set is mark's test file unless given.
 */
static int model_mark(const struct model_cmd *mc, struct model_config *m)
{
	const struct mark_preset_info *ps = &mark_presets[mc->preset];
	const struct mark_test *tests[MARK_MAX_TESTS + 1];
	struct model_mark_report *rep = calloc(1, sizeof(*rep));
	int ret;

	if (!rep)
		return run_error("out of memory");
	if (!m->read_hit_set && !(m->working_set > 0))
		m->working_set = (double)JOB_DEFAULT_FILE_SIZE;
	*rep = (struct model_mark_report){.config = m,
		.profile = mark_profiles[mc->profile].name, .title = mark_profiles[mc->profile].title,
		.preset = ps->name,
		.preset_title = mc->preset == MARK_PRESET_STANDARD ? NULL : ps->title,
		.nrows = mark_suite_tests(mc->profile, mc->preset, tests),
		.test_s = 6 * (double)ps->measure_ns / 1e9};
	for (unsigned i = 0; i < rep->nrows; i++) {
		struct model_mark_row *row = &rep->rows[i];

		row->test = tests[i];
		for (int d = 0; d < 2; d++) {
			row->w[d] = (struct model_workload){.bs = tests[i]->bs,
				.write_pct = d ? 100 : 0, .sequential = tests[i]->seq,
				.threads = tests[i]->threads, .depth = tests[i]->depth};
			model_predict(m, &row->w[d], rep->test_s, &row->r[d]);
		}
	}
	ret = model_opts_written(REPORT_WRITER(struct model_format, mc->mo.fmt)->mark(stdout, rep));
	free(rep);
	return ret;
}

static int model_main(int argc, char **argv)
{
	struct model_cmd mc = {0};
	struct model_workload w;
	struct catalog cat = {0};
	struct model_config m;
	struct model_result r;
	double duration;
	int first, ret = 0;
	bool help;

	model_opts_init(&mc.mo);
	mc.mo.on_set = note_set;
	if ((ret = model_opts_parse(&cmd_model, &mc, argc, argv, &first, &help)) || help)
		return ret;
	if ((ret = model_opts_no_args(&cmd_model, first, argc, argv)))
		return ret;
	struct model_opts mo = mc.mo;
	w = (struct model_workload){.bs = mo.bs, .write_pct = mo.write_pct,
		.sequential = mo.sequential, .threads = mo.threads, .depth = mo.depth};
	duration = (double)mc.timeline_ns / 1e9;
	if (mc.mark && mc.workload_opt)
		return usage_error("model: --%s: not with --mark, whose tests set the workload",
				   mc.workload_opt);
	if (!mc.mark && mc.mark_opt)
		return usage_error("model: --%s: only with --mark", mc.mark_opt);
	if (!mo.vm)
		return usage_error("model: --vm is required (e.g. --vm DS2 --disk 2xP30)");
	if (!mo.specs.n)
		return usage_error("model: --disk is required (e.g. --disk 2xP30)");
	if ((ret = model_opts_catalog(&mo, &cat)) || (ret = model_opts_config(&mo, &cat, &m)))
		goto out;
	if (mc.mark) {
		ret = model_mark(&mc, &m);
		goto out;
	}
	model_predict(&m, &w, duration, &r);
	ret = model_opts_written(REPORT_WRITER(struct model_format, mo.fmt)->write(stdout,
		&(struct model_report){.config = &m, .workload = &w, .result = &r}));
out:
	catalog_release(&cat);
	return ret;
}
