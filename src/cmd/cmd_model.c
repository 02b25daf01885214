/*
 * iorate model: predicts what a cloud VM and its disks deliver for a workload, and why.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "model/model_json.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: iorate model --vm NAME --disk SPEC [--disk SPEC...] [options]\n"
"\n"
"Predicts IOPS, MB/s and mean latency of a striped volume of cloud disks on a VM, names the\n"
"limit that binds and lists every limit considered with its published value and source.\n"
"\n"
"Options:\n"
"  --vm NAME           VM size, optionally CATALOG:NAME         --vm DS2, --vm azure-2015:A4\n"
"  --disk SPEC         [Nx]TYPE[:SIZE][:iops=N][:mbps=N][:burst=ondemand], or 'local'\n"
"                      (repeatable; groups are striped together) --disk 2xP30,\n"
"                      --disk 16xstandard, --disk pv2:512GiB:iops=20000:mbps=600, --disk local\n"
"  --cache MODE        host cache: none, readonly, readwrite (default none) --cache readonly\n"
"  --provider CAT      look names up in one catalog only         --provider azure-2015\n"
"  --catalog FILE      add or override catalog entries (repeatable) --catalog mine.json\n"
"  -b, --bs SIZE       I/O size (default 4KiB)                    --bs 64k\n"
"  -w, --write PCT     percentage of writes (default 0)          --write 30\n"
"  -r, --random        random offsets (default)                  -r\n"
"  -s, --sequential    sequential offsets                        -s\n"
"  -t, --threads N     threads (default 1)                       -t 8\n"
"  -o, --depth N       outstanding I/Os per thread (default 32)  -o 8\n"
"  -d, --duration T    add the timeline of burst credits over T  --duration 1h\n"
"  --json              JSON on stdout (schema in docs/model.md)  --json\n"
"  -h, --help          this text\n"
"\n"
"Examples:\n"
"  iorate model --vm DS2 --disk 2xP30 --cache none\n"
"  iorate model --vm A4 --disk 16xstandard --bs 64k -t 8 -o 8\n"
"  iorate model --vm D8s_v5 --disk P20 --duration 2h --json\n");
}

static const struct option options[] = {
	MO_OPT_VM, MO_OPT_DISK, MO_OPT_CACHE, MO_OPT_PROVIDER, MO_OPT_CATALOG, MO_OPT_BS,
	MO_OPT_WRITE,
	{"random", no_argument, NULL, 'r'},
	{"sequential", no_argument, NULL, 's'},
	{"threads", required_argument, NULL, 't'},
	{"depth", required_argument, NULL, 'o'},
	{"duration", required_argument, NULL, 'd'},
	MO_OPT_JSON, MO_OPT_HELP, {NULL, 0, NULL, 0},
};

static void print_text(const struct model_config *m, const struct model_workload *w,
		       const struct model_result *r)
{
	char name[256], bs[32];

	model_config_name(m, name, sizeof(name));
	printf("configuration: %s, host cache %s\n", name, model_cache_name(m->cache));
	printf("workload:      %s %s, %u%% writes, %u thread%s x %u outstanding\n",
	       fmt_size(w->bs, bs, sizeof(bs)), w->sequential ? "sequential" : "random",
	       w->write_pct, w->threads, w->threads == 1 ? "" : "s", w->depth);
	printf("predicted:     %.0f IOPS, %.1f MB/s (%.1f MiB/s), %.2f ms mean latency\n", r->iops,
	       r->mbps, r->mbps / 1.048576, r->latency_ms);
	for (unsigned i = 0; i < r->nlimits; i++)
		if (!strcmp(r->limits[i].name, r->binding))
			printf("bound by:      %s (%s)\n", r->binding, r->limits[i].detail);
	if (r->bursts) {
		if (isfinite(r->burst_seconds))
			printf("burst:         %.0f IOPS, %.1f MB/s for the first %.0f s while "
			       "credits last (%s)\n", r->burst_iops, r->burst_mbps, r->burst_seconds,
			       r->burst_binding);
		else
			printf("burst:         %.0f IOPS, %.1f MB/s (%s)\n", r->burst_iops,
			       r->burst_mbps, r->burst_binding);
	}
	printf("\nlimits considered (the workload's IOPS and MB/s were each the only limit):\n");
	for (unsigned i = 0; i < r->nlimits; i++) {
		const struct model_limit *l = &r->limits[i];

		printf("  %-17s %10.0f IOPS %9.1f MB/s  %s%s\n", l->name, l->iops, l->mbps, l->detail,
		       !strcmp(l->name, r->binding) ? "  <- binds" : "");
		printf("  %-17s source: %s\n", "", l->source);
	}
	if (r->duration_s > 0) {
		printf("\ntimeline over %.0f s (average %.0f IOPS, %.1f MB/s):\n", r->duration_s,
		       r->avg_iops, r->avg_mbps);
		for (unsigned i = 0; i < r->nphases; i++)
			printf("  %8.0f s - %8.0f s  %10.0f IOPS %9.1f MB/s  %s\n",
			       r->phases[i].start_s, r->phases[i].end_s, r->phases[i].iops,
			       r->phases[i].mbps, r->phases[i].binding);
	}
}

int cmd_model(int argc, char **argv)
{
	struct model_workload w = {.sequential = false, .threads = 1, .depth = 32};
	struct model_opts mo;
	double duration = 0;
	struct catalog cat = {0};
	struct model_config m;
	struct model_result r;
	uint64_t u;
	int c, ret = 0;

	model_opts_init(&mo, "model", usage);
	optind = 0;
	while ((c = model_getopt(&mo, argc, argv, "b:w:rst:o:d:h", options)) != -1) {
		switch (c) {
		case 'r':
			w.sequential = false;
			break;
		case 's':
			w.sequential = true;
			break;
		case 't':
			if (parse_uint(optarg, 1, 1024, &w.threads))
				return usage_error("--threads: '%s' is not a count from 1 to 1024",
						   optarg);
			break;
		case 'o':
			if (parse_uint(optarg, 1, 4096, &w.depth))
				return usage_error("--depth: '%s' is not a count from 1 to 4096",
						   optarg);
			break;
		case 'd':
			if (parse_duration(optarg, &u) || !u)
				return usage_error("--duration: '%s' is not a duration (examples: %s)",
						   optarg, PARSE_DURATION_EXAMPLES);
			duration = u / 1e9;
			break;
		default:
			if ((ret = model_opts_take(&mo, c, optarg)) || mo.help)
				return ret;
		}
	}
	if ((ret = model_opts_no_args(&mo, argc, argv)))
		return ret;
	w.bs = mo.bs;
	w.write_pct = mo.write_pct;
	if (!mo.vm)
		return usage_error("model: --vm is required (e.g. --vm DS2 --disk 2xP30)");
	if (!mo.nspecs)
		return usage_error("model: --disk is required (e.g. --disk 2xP30)");
	if ((ret = model_opts_catalog(&mo, &cat)) || (ret = model_opts_config(&mo, &cat, &m)))
		goto out;
	model_predict(&m, &w, duration, &r);
	if (mo.json) {
		json_t *o = model_result_json(&m, &w, &r);

		if (!o || json_dumpf(o, stdout, JSON_INDENT(2)) || putchar('\n') == EOF)
			ret = run_error("model: cannot write JSON: %s", strerror(errno ? errno : ENOMEM));
		json_decref(o);
	} else {
		print_text(&m, &w, &r);
	}
out:
	catalog_release(&cat);
	return ret;
}
