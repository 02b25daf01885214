/* iorate plan: the cheapest configurations that meet a performance and capacity target. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/model_fmt.h"
#include "util/parse.h"

static int plan_main(int argc, char **argv);

struct plan_cmd {
	struct model_opts mo;
	struct plan_target t;
};

/* A figure that may be 0 (not asked) but not below. */
static int set_amount(struct opt_ctx *c, const struct opt *o, const char *val)
{
	double *d = (double *)((char *)c->state + o->off);

	if (parse_amount(val, 0, 1e9, d))
		return opt_refuse(c, val, "is not a number from 0 to 1e9 (examples: 20000, 20k)");
	return 0;
}

#define PC(field) .in = OPT_IN_CMD, .off = offsetof(struct plan_cmd, field)

static const struct opt target_opts[] = {
	{.name = "iops", .arg = "N", .help = MODEL_IOPS_HELP, .example = "--iops 20000",
	 .set = set_amount, PC(t.iops)},
	{.name = "mbps", .arg = "N", .help = "MB/s needed (10^6 B/s)", .example = "--mbps 500",
	 .set = set_amount, PC(t.mbps)},
	{.name = "capacity", .arg = "SIZE", .help = "usable capacity needed",
	 .example = "--capacity 4TiB", .set = opt_set_size, PC(t.capacity)},
	{.name = "latency-ms", .arg = "N", .help = "unloaded latency at most N ms",
	 .example = "--latency-ms 1", .set = opt_set_rate, PC(t.latency_ms)},
	{.name = "region", .arg = "R", .help = MODEL_REGION_HELP, .example = "--region eastus",
	 .set = opt_set_string, PC(t.region)},
	{.name = "currency", .arg = "CUR", .help = MODEL_CURRENCY_HELP, .example = "--currency GBP",
	 .set = opt_set_string, PC(t.currency)},
	{.name = "uncapped", .help = "also answer with disk types whose per-VM limit the catalog "
	 "lacks (GCP Hyperdisk): nothing then bounds them by the VM", .set = opt_set_true,
	 PC(t.uncapped)},
	{.name = "top", .arg = "K", .help = "how many to show (default 5)", .example = "--top 10",
	 .set = opt_set_count, PC(t.top), .min = 1, .max = 100},
	{0},
};
static const struct opt_group target_group = {.title = "Target", .opts = target_opts};
static const struct opt_group *const plan_groups[] = {
	&target_group, &opt_model_read_hit, &opt_model_working_set, &opt_model_cache_state,
	&opt_model_distribution, &opt_model_catalog, &opt_output, &opt_model_format, &opt_bs,
	&opt_write, NULL,
};

const struct command cmd_plan = {
	.name = "plan",
	.summary = "find the cheapest cloud configuration that meets a target",
	.synopsis = "--iops N [--mbps N] [--capacity SIZE] [options]",
	.about = "Searches every VM size x disk type x disk count of the catalog, sizing per-GiB and\n"
		 "provisioned disks (gp3, io1/io2, pv2, Ultra, Hyperdisk) at their cheapest for each\n"
		 "count, and lists the cheapest configuration of each VM size and disk type that\n"
		 "meets every target, ranked by monthly cost (VM 730 h + disks), with the limit\n"
		 "that binds each. No host-cache hit is assumed unless --read-hit says how many;\n"
		 "the assumptions, region and each price's date are printed with the answers, and\n"
		 "prices older than 90 days are flagged.",
	.groups = plan_groups,
	.output = &plan_formats,
	.examples = "  iorate plan --iops 20000 --capacity 2TiB --provider azure\n"
		    "  iorate plan --mbps 500 --bs 1m --provider aws\n"
		    "  iorate plan --iops 30000 --read-hit 90 --provider azure\n"
		    "  iorate plan --iops 10000 --mbps 400 --bs 64k --json\n",
	.exit_status = "0 done, 1 no configuration meets the target, 2 bad usage.",
	.fn = plan_main,
};

static int plan_main(int argc, char **argv)
{
	struct plan_cmd pc = {0};
	struct plan_result r = {0};
	struct catalog c = {0};
	struct settings st = {0};
	int first, ret = 0;
	bool help;

	model_opts_init(&pc.mo);
	if ((ret = model_opts_parse(&cmd_plan, &pc, argc, argv, &first, &help)) || help)
		return ret;
	if ((ret = model_opts_no_args(&cmd_plan, first, argc, argv)))
		return ret;
	struct plan_target t = pc.t;
	struct model_opts mo = pc.mo;
	if (!t.iops && !t.mbps)
		return usage_error("plan: --iops or --mbps is required (e.g. --iops 20000)");
	t.bs = mo.bs;
	t.write_pct = mo.write_pct;
	t.read_hit = mo.read_hit;
	t.read_hit_set = mo.read_hit_given;
	t.working_set = (double)mo.working_set;
	t.cache_state = mo.cache_state;
	t.skew = mo.skew;
	t.provider = mo.provider;
	if ((ret = model_opts_settings(&st, &t.region, &t.region_from, &t.currency,
				       &t.currency_from)))
		goto out;
	if ((ret = model_opts_catalog(&mo, &c)))
		goto out;
	if ((ret = model_opts_provider(&mo, &c)))
		goto out;
	if (plan_search(&c, &t, &r)) {
		ret = run_error("plan: out of memory");
		goto out;
	}
	if (!r.n) {
		ret = run_error("plan: %s: %s", r.only_unpriced ? "no priced configuration meets "
				"the target" : "no configuration meets the target", r.unmet);
		goto out;
	}
	ret = model_opts_written(REPORT_WRITER(struct plan_format, mo.fmt)->write(stdout,
		&(struct plan_report){.target = &t, .result = &r}));
out:
	plan_result_free(&r);
	catalog_release(&c);
	settings_release(&st);
	return ret;
}
