/*
 * iorate cost: what an upload costs in transactions and storage (seed 003's StorSimple
 * calculator), and what a VM with its disks costs a month.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"
#include "model/cost.h"
#include "model/model_json.h"
#include "util/parse.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: iorate cost upload --data SIZE [options]\n"
"       iorate cost config --vm NAME --disk SPEC [--disk SPEC...] [options]\n"
"\n"
"upload: write transactions = data / chunk (rounded up), priced per 10,000, plus storage per\n"
"GB-month (GB = 2^30 bytes, as Azure bills it); compares chunk sizes.\n"
"  --data SIZE         data to upload                            --data 750GiB\n"
"  --chunk SIZE        bytes per write transaction (default 512KiB) --chunk 64k\n"
"  --write-price P     price per 10,000 writes (default: catalog) --write-price 0.05\n"
"  --gb-price P        price per GB-month (default: catalog)     --gb-price 0.0208\n"
"  --tier T            hot, cool, cold, archive (default hot)    --tier cool\n"
"  --redundancy R      lrs, grs, ragrs, zrs (default lrs)        --redundancy grs\n"
"  --region R          price region (default: any)               --region eastus\n"
"  --months N          months of storage (default 1)             --months 12\n"
"config: the monthly cost of a configuration.\n"
"  --vm NAME           VM size                                   --vm D8s_v5\n"
"  --disk SPEC         disks as in 'iorate model'                --disk 4xP30\n"
"  --hours N           VM hours a month (default 730)            --hours 200\n"
"  --vm-price P        VM price per hour (overrides the catalog)  --vm-price 0.384\n"
"  --disk-price P      price per disk-month (overrides the catalog) --disk-price 135.17\n"
"  --provider CAT      look names up in one catalog              --provider azure-2015\n"
"  --catalog FILE      add or override catalog entries           --catalog prices.json\n"
"Both:\n"
"  --json              JSON on stdout                            --json\n"
"  -h, --help          this text\n"
"\n"
"Examples:\n"
"  iorate cost upload --data 750GiB --write-price 0.10 --gb-price 0.0152\n"
"  iorate cost config --vm DS14 --disk 2xP30 --vm-price 1.5\n");
}

enum { O_DATA = MO_NEXT, O_CHUNK, O_WP, O_GP, O_TIER, O_RED, O_REGION, O_MONTHS, O_HOURS,
       O_VMP, O_DISKP };

static const struct option options[] = {
	{"data", required_argument, NULL, O_DATA}, {"chunk", required_argument, NULL, O_CHUNK},
	{"write-price", required_argument, NULL, O_WP}, {"gb-price", required_argument, NULL, O_GP},
	{"tier", required_argument, NULL, O_TIER}, {"redundancy", required_argument, NULL, O_RED},
	{"region", required_argument, NULL, O_REGION}, {"months", required_argument, NULL, O_MONTHS},
	MO_OPT_VM, MO_OPT_DISK,
	{"hours", required_argument, NULL, O_HOURS}, {"vm-price", required_argument, NULL, O_VMP},
	{"disk-price", required_argument, NULL, O_DISKP}, MO_OPT_PROVIDER, MO_OPT_CATALOG,
	MO_OPT_JSON, MO_OPT_HELP, {NULL, 0, NULL, 0},
};

static int price(const char *opt, const char *arg, double *out)
{
	if (parse_double(arg, 0, 1e9, out))
		return usage_error("%s: '%s' is not a price (e.g. 0.05)", opt, arg);
	return 0;
}

/* arg if it is one of names (any case), else a usage error that lists them: "a, b or c". */
static int one_of(const char *opt, const char *arg, const char *const *names, size_t n,
		  const char **out)
{
	char list[128] = "";

	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(arg, names[i])) {
			*out = arg;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 !i ? "" : i + 1 < n ? ", " : " or ", names[i]);
	}
	return usage_error("%s: '%s' is not %s", opt, arg, list);
}

static int do_upload(const struct catalog *c, struct cost_upload *u, bool json)
{
	static const uint64_t chunks[] = {64 << 10, 512 << 10, 4 << 20};
	struct cost_upload_result r, alt[3];
	char err[512], b1[32], b2[32];

	if (!u->data)
		return usage_error("cost upload: --data is required (e.g. --data 750GiB)");
	if (cost_upload(c, u, &r, err, sizeof(err)))
		return usage_error("cost upload: %s", err);
	/* The same upload in other chunk sizes, at the prices the catalog gave the first. */
	for (unsigned i = 0; i < 3; i++) {
		struct cost_upload v = *u;

		v.chunk = chunks[i];
		v.write_per_10k = r.write_per_10k;
		v.per_gb_month = r.per_gb_month;
		cost_upload(c, &v, &alt[i], err, sizeof(err));
	}
	if (json) {
		json_t *o = json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s?, s:s?}",
			"data", (json_int_t)u->data, "chunk", (json_int_t)(u->chunk ? u->chunk : 524288),
			"transactions", (json_int_t)r.transactions, "gib", r.gib,
			"write_per_10k", r.write_per_10k, "per_gb_month", r.per_gb_month,
			"months", r.months, "transaction_cost", r.transaction_cost,
			"storage_cost", r.storage_cost, "total", r.total, "currency", r.currency,
			"price_source", r.price_source);
		json_t *cmp = json_array();

		for (unsigned i = 0; i < 3; i++)
			json_array_append_new(cmp, json_pack("{s:I, s:I, s:f}", "chunk",
				(json_int_t)chunks[i], "transactions", (json_int_t)alt[i].transactions,
				"transaction_cost", alt[i].transaction_cost));
		json_object_set_new(o, "by_chunk", cmp);
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
		return 0;
	}
	printf("upload:        %s (%.2f GiB) in %s chunks, %.0f month%s of storage\n",
	       fmt_size(u->data, b1, sizeof(b1)), r.gib,
	       fmt_size(u->chunk ? u->chunk : 524288, b2, sizeof(b2)), r.months,
	       r.months == 1 ? "" : "s");
	printf("transactions:  %llu writes x %.4f per 10,000 = %.2f %s\n",
	       (unsigned long long)r.transactions, r.write_per_10k, r.transaction_cost,
	       r.currency ? r.currency : "");
	printf("storage:       %.2f GB x %.4f per GB-month x %.0f = %.2f %s\n", r.gib,
	       r.per_gb_month, r.months, r.storage_cost, r.currency ? r.currency : "");
	printf("total:         %.2f %s\n", r.total, r.currency ? r.currency : "");
	if (r.price_source)
		printf("prices from:   %s\n", r.price_source);
	printf("\nchunk size vs transaction cost (smaller chunks deduplicate better, cost more):\n");
	for (unsigned i = 0; i < 3; i++)
		printf("  %8s  %12llu writes  %10.2f\n", fmt_size(chunks[i], b1, sizeof(b1)),
		       (unsigned long long)alt[i].transactions, alt[i].transaction_cost);
	return 0;
}

int cmd_cost(int argc, char **argv)
{
	static const char *const tiers[] = {"hot", "cool", "cold", "archive"};
	static const char *const redundancies[] = {"lrs", "grs", "ragrs", "zrs"};
	struct cost_upload u = {0, 0, -1, -1, 0, NULL, NULL, NULL};
	double hours = 730, vm_price = -1, disk_price = -1;
	struct model_opts mo;
	const char *what;
	struct catalog cat;
	char err[512];
	int c, ret = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	what = argv[1];
	if (strcmp(what, "upload") && strcmp(what, "config"))
		return usage_error("cost: '%s' is not upload or config (see 'iorate cost --help')",
				   what);
	argv++, argc--;
	model_opts_init(&mo, "cost", usage);
	optind = 0;
	while ((c = model_getopt(&mo, argc, argv, "h", options)) != -1) {
		switch (c) {
		case O_DATA:
			if (parse_size(optarg, &u.data) || !u.data)
				return usage_error("--data: '%s' is not a size (e.g. 750GiB)", optarg);
			break;
		case O_CHUNK:
			if (parse_size(optarg, &u.chunk) || !u.chunk)
				return usage_error("--chunk: '%s' is not a size (e.g. 512KiB)", optarg);
			break;
		case O_WP:
			if ((ret = price("--write-price", optarg, &u.write_per_10k)))
				return ret;
			break;
		case O_GP:
			if ((ret = price("--gb-price", optarg, &u.per_gb_month)))
				return ret;
			break;
		case O_TIER:
			if ((ret = one_of("--tier", optarg, tiers, 4, &u.tier)))
				return ret;
			break;
		case O_RED:
			if ((ret = one_of("--redundancy", optarg, redundancies, 4, &u.redundancy)))
				return ret;
			break;
		case O_REGION:
			u.region = optarg;
			break;
		case O_MONTHS:
			if (parse_double(optarg, 0.001, 1200, &u.months))
				return usage_error("--months: '%s' is not a number of months", optarg);
			break;
		case O_HOURS:
			if (parse_double(optarg, 0.001, 744, &hours))
				return usage_error("--hours: '%s' is not hours in a month (to 744)",
						   optarg);
			break;
		case O_VMP:
			if ((ret = price("--vm-price", optarg, &vm_price)))
				return ret;
			break;
		case O_DISKP:
			if ((ret = price("--disk-price", optarg, &disk_price)))
				return ret;
			break;
		default:
			if ((ret = model_opts_take(&mo, c, optarg)) || mo.help)
				return ret;
		}
	}
	if ((ret = model_opts_no_args(&mo, argc, argv)))
		return ret;
	if ((ret = model_opts_catalog(&mo, &cat)))
		goto out;
	if (!strcmp(what, "upload")) {
		ret = do_upload(&cat, &u, mo.json);
		goto out;
	}
	if (!mo.vm || !mo.nspecs) {
		ret = usage_error("cost config: --vm and --disk are required (e.g. --vm DS14 --disk "
				  "2xP30)");
		goto out;
	}
	struct model_config m;
	struct cost_breakdown b;

	if ((ret = model_opts_config(&mo, &cat, &m)))
		goto out;
	if (cost_config(&cat, &m, hours, u.region, vm_price, disk_price, &b, err, sizeof(err))) {
		ret = usage_error("cost config: %s", err);
		goto out;
	}
	if (mo.json) {
		json_t *o = model_cost_json(&b);

		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		for (unsigned i = 0; i < b.nlines; i++)
			printf("%-52s %10.2f %s\n  source: %s\n", b.lines[i].what, b.lines[i].amount,
			       b.currency, b.lines[i].source);
		printf("%-52s %10.2f %s per month\n", "total", b.total, b.currency);
	}
out:
	catalog_release(&cat);
	return ret;
}
