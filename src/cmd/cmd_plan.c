/* iorate plan: the cheapest configurations that meet a performance and capacity target. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "model/model_json.h"
#include "model/plan.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: iorate plan --iops N [options]\n"
"\n"
"Searches VM sizes x disk types x disk counts x cache modes of the catalog for the cheapest\n"
"configurations that meet every target, ranked by monthly cost (VM 730 h + disks).\n"
"  --iops N            IOPS needed                               --iops 20000\n"
"  --mbps N            MB/s needed (10^6 B/s)                    --mbps 500\n"
"  --capacity SIZE     usable capacity needed                    --capacity 4TiB\n"
"  -b, --bs SIZE       I/O size (default 4KiB)                   --bs 8k\n"
"  -w, --write PCT     percentage of writes (default 0)          --write 30\n"
"  --latency-ms N      unloaded latency at most N ms             --latency-ms 1\n"
"  --provider P        one catalog or provider                   --provider aws\n"
"  --region R          price region                              --region eastus\n"
"  --top K             how many to show (default 5)              --top 10\n"
"  --catalog FILE      add or override entries and prices        --catalog prices.json\n"
"  --json              JSON on stdout                            --json\n"
"  -h, --help          this text\n"
"\n"
"Examples:\n"
"  iorate plan --iops 20000 --capacity 2TiB --provider azure\n"
"  iorate plan --iops 10000 --mbps 400 --bs 64k --json\n");
}

enum { O_IOPS = MO_NEXT, O_MBPS, O_CAP, O_LAT, O_REGION, O_TOP };

static const struct option options[] = {
	{"iops", required_argument, NULL, O_IOPS}, {"mbps", required_argument, NULL, O_MBPS},
	{"capacity", required_argument, NULL, O_CAP}, MO_OPT_BS, MO_OPT_WRITE,
	{"latency-ms", required_argument, NULL, O_LAT},
	MO_OPT_PROVIDER, {"region", required_argument, NULL, O_REGION},
	{"top", required_argument, NULL, O_TOP}, MO_OPT_CATALOG, MO_OPT_JSON, MO_OPT_HELP,
	{NULL, 0, NULL, 0},
};

int cmd_plan(int argc, char **argv)
{
	struct plan_target t = {0};
	struct plan_result r = {0};
	struct model_opts mo;
	struct catalog c;
	int o, ret = 0;

	model_opts_init(&mo, "plan", usage);
	optind = 0;
	while ((o = model_getopt(&mo, argc, argv, "b:w:h", options)) != -1) {
		switch (o) {
		case O_IOPS:
			if (parse_double(optarg, 1, 1e9, &t.iops))
				return usage_error("--iops: '%s' is not a positive number", optarg);
			break;
		case O_MBPS:
			if (parse_double(optarg, 0, 1e9, &t.mbps))
				return usage_error("--mbps: '%s' is not a number of MB/s", optarg);
			break;
		case O_CAP:
			if (parse_size(optarg, &t.capacity))
				return usage_error("--capacity: '%s' is not a size (e.g. 4TiB)", optarg);
			break;
		case O_LAT:
			if (parse_double(optarg, 0.001, 1e6, &t.latency_ms))
				return usage_error("--latency-ms: '%s' is not a number of ms", optarg);
			break;
		case O_REGION:
			t.region = optarg;
			break;
		case O_TOP:
			if (parse_uint(optarg, 1, 100, &t.top))
				return usage_error("--top: '%s' is not a count from 1 to 100", optarg);
			break;
		default:
			if ((ret = model_opts_take(&mo, o, optarg)) || mo.help)
				return ret;
		}
	}
	if ((ret = model_opts_no_args(&mo, argc, argv)))
		return ret;
	if (!t.iops && !t.mbps)
		return usage_error("plan: --iops or --mbps is required (e.g. --iops 20000)");
	t.bs = mo.bs;
	t.write_pct = mo.write_pct;
	t.provider = mo.provider;
	if ((ret = model_opts_catalog(&mo, &c)))
		goto out;
	if (t.provider && !catalog_has(&c, t.provider)) {
		bool prov = false;

		for (size_t i = 0; i < c.nvms; i++)
			prov |= !strcmp(c.vms[i].provider, t.provider);
		if (!prov) {
			ret = usage_error("--provider: no catalog or provider '%s' (azure, azure-2015, "
					  "aws, gcp)", t.provider);
			goto out;
		}
	}
	if (plan_search(&c, &t, &r)) {
		ret = run_error("plan: out of memory");
		goto out;
	}
	if (!r.n) {
		ret = run_error("plan: no configuration meets the target: %s", r.unmet);
		goto out;
	}
	if (mo.json) {
		json_t *a = json_array();

		for (unsigned i = 0; i < r.n; i++) {
			struct plan_option *p = &r.options[i];
			struct model_workload w = {t.bs, t.write_pct, false, 1, 1024};
			json_t *e = model_result_json(&p->config, &w, &p->result);

			json_object_set_new(e, "cost", model_cost_json(&p->cost));
			json_array_append_new(a, e);
		}
		json_dumpf(a, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(a);
		goto out;
	}
	printf("%u configurations considered; the cheapest that meet the target:\n\n", r.considered);
	for (unsigned i = 0; i < r.n; i++) {
		struct plan_option *p = &r.options[i];
		char name[256];

		model_config_name(&p->config, name, sizeof(name));
		printf("%u. %s, cache %s: %.2f %s a month\n", i + 1, name,
		       model_cache_name(p->config.cache), p->cost.total, p->cost.currency);
		printf("   predicted %.0f IOPS, %.1f MB/s, %.2f ms unloaded latency; bound by %s\n",
		       p->result.iops, p->result.mbps, p->result.service_ms, p->result.binding);
		for (unsigned k = 0; k < p->cost.nlines; k++)
			printf("   %-50s %10.2f\n", p->cost.lines[k].what, p->cost.lines[k].amount);
	}
	if (r.unpriced)
		printf("\n(%u more configurations meet the target but have no price in the "
		       "catalog)\n", r.unpriced);
out:
	plan_result_free(&r);
	catalog_release(&c);
	return ret;
}
