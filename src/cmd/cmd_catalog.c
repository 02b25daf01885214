/*
 * iorate catalog: lists the disk types, VM sizes and prices the model knows, with sources;
 * imports what the providers' CLIs print; downloads the providers' current prices.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "core/json_in.h"
#include "model/config.h"
#include "model/import.h"
#include "model/prices.h"
#include "report/catalog_fmt.h"
#include "report/progress.h"
#include "util/err.h"

static int catalog_main(int argc, char **argv);

struct catalog_cmd {
	struct model_opts mo;
	const char *region, *currency, *endpoint;
	uint64_t timeout_ns;
};

#define CC(field) .in = OPT_IN_CMD, .off = offsetof(struct catalog_cmd, field)

static const struct opt prices_opts[] = {
	{.name = "region", .arg = "R", .help = MODEL_REGION_HELP, .example = "--region northeurope",
	 .set = opt_set_string, CC(region)},
	{.name = "currency", .arg = "CUR", .help = MODEL_CURRENCY_HELP, .example = "--currency GBP",
	 .set = opt_set_string, CC(currency)},
	{.name = "endpoint", .arg = "URL", .help = "read the price list from this https://host"
	 "[:port] instead of the provider's (a mirror; plain http only from 127.0.0.1, a test "
	 "server); its pages must stay on it",
	 .example = "--endpoint http://127.0.0.1:8080", .set = opt_set_string, CC(endpoint)},
	{.name = "timeout", .arg = "DURATION", .help = "give up the whole download after this long "
	 "(default 120s; AWS's largest regions are gigabytes and may need more)",
	 .example = "--timeout 10m", .set = opt_set_duration, CC(timeout_ns), .min = 1},
	{0},
};

static const struct opt_group prices_group = {.title = "prices", .opts = prices_opts};
static const struct opt_group *const catalog_groups[] = {&prices_group, &opt_model_catalog,
							  &opt_output, &opt_model_format, NULL};

const struct command cmd_catalog = {
	.name = "catalog",
	.subcommands = (const char *const[]){"list", "show", "import", "prices", NULL},
	.summary = "list, show, import and price the disk and VM catalog, with sources",
	.synopsis = "list [CATALOG] [options]\nshow NAME [options]\nimport FILE... [options]\n"
		    "prices --provider P --region R [--currency CUR] [options]",
	.about = "list: the catalogs, or the VM sizes, disk types and accounts of one catalog,\n"
		 "each with its caps and first price; then every figure an installed or user\n"
		 "catalog gives otherwise than the catalog below it.\n"
		 "show: every field of a VM size or disk type (NAME or CATALOG:NAME): its date and\n"
		 "sources, then each figure with its unit and source, then its prices as written;\n"
		 "--json prints the entry as written in its catalog file.\n"
		 "The catalog is the built-in files, then those installed in\n"
		 "PREFIX/share/iorate/catalog ($IORATE_CATALOG_DIR when set), then the user's;\n"
		 "an entry of a later layer replaces the same entry of an earlier one.\n"
		 "import: reads what 'az vm list-skus --output json', 'aws ec2\n"
		 "describe-instance-types --output json' or 'gcloud compute machine-types list\n"
		 "--format=json' printed; entries the built-in catalog gives are compared\n"
		 "figure by figure (differences are listed, the built-in entry is kept), new\n"
		 "ones are kept in $XDG_DATA_HOME/iorate/catalog (~/.local/share/iorate/catalog),\n"
		 "which every command loads after the built-in catalog.\n"
		 "prices: downloads a region's pay-as-you-go prices (Azure Retail Prices API,\n"
		 "AWS Price List Bulk API; GCP's needs a key and is not read) into the same\n"
		 "directory; cost and plan then use them for that region and currency, and flag\n"
		 "any price older than 90 days. A failed download changes nothing and says why.",
	.groups = catalog_groups,
	.examples = "  iorate catalog list\n"
		    "  iorate catalog list azure-2015\n"
		    "  iorate catalog show azure-2015:DS14\n"
		    "  iorate catalog show P20 --json\n"
		    "  az vm list-skus --location northeurope --output json > skus.json\n"
		    "  iorate catalog import skus.json\n"
		    "  iorate catalog prices --provider azure --region northeurope "
		    "--currency GBP\n",
	.exit_status = "0 done, 1 failed (a download, a refused link or price, or a write), 2 bad\n"
		       "usage (an unknown name, a malformed file, an endpoint that is not https),\n"
		       "128+N stopped by signal N (130: Ctrl-C; nothing written).",
	.fn = catalog_main,
};

/* 'catalog show NAME': a VM size, else a disk type, or a refusal that suggests close names. */
static int do_show(const struct catalog *c, const struct report_format *fmt, char **words,
		   int nw)
{
	struct catalog_show_report s = {.catalog = c};
	char s1[160], s2[160];

	if (nw != 2)
		return usage_error("catalog show: expected one NAME (e.g. azure-2015:DS14)");
	if ((s.vm = catalog_find_vm(c, NULL, words[1])) ||
	    (s.disk = catalog_find_disk(c, NULL, words[1])))
		return model_opts_written(REPORT_WRITER(struct catalog_show_format, fmt)->write(stdout,
												&s));
	catalog_suggest(c, "vm", NULL, words[1], s1, sizeof(s1));
	catalog_suggest(c, "disk", NULL, words[1], s2, sizeof(s2));
	return usage_error("catalog show: no VM size or disk type '%s'%s%s%s%s%s", words[1],
			   *s1 || *s2 ? "; did you mean " : "", s1, *s1 && *s2 ? ", " : "", s2,
			   *s1 || *s2 ? "?" : "");
}

/* 'catalog list [CATALOG]'. */
static int do_list(const struct catalog *c, const struct report_format *fmt, char **words,
		   int nw)
{
	char inst[4096], user[4096];
	struct catalog_list_report r = {.catalog = c, .only = nw > 1 ? words[1] : NULL,
		.installed = catalog_installed_dir(inst, sizeof(inst)),
		.user = catalog_user_dir(user, sizeof(user))};

	if (r.only && !catalog_has(c, r.only))
		return usage_error("catalog list: no catalog '%s'", r.only);
	return model_opts_written(REPORT_WRITER(struct catalog_list_format, fmt)->write(stdout, &r));
}

static const char *today(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	strftime(buf, len, "%Y-%m-%d", gmtime_r(&now, &tm));
	return buf;
}

/* 'catalog import FILE...'. */
static int do_import(const struct model_opts *mo, char **files, int n)
{
	char err[768], dir[4096], date[16];
	struct catalog builtin;
	struct import im;
	int ret = 0;

	if (n < 1)
		return usage_error("catalog import: expected FILE... (the JSON a provider's CLI "
				   "printed; see 'iorate catalog --help')");
	if (!model_opts_user_dir(dir, sizeof(dir)))
		return usage_error("catalog import: neither XDG_DATA_HOME nor HOME is set: no "
				   "directory for the user's catalog");
	if (model_catalog_open(&builtin, NULL, 0, err, sizeof(err)))
		return run_error("catalog import: %s", err);
	if (import_init(&im, today(date, sizeof(date)))) {
		ret = run_error("catalog import: out of memory");
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		char *text = NULL;

		if (json_input_read(files[i], &text, err, sizeof(err)) ||
		    import_text(&im, files[i], text, err, sizeof(err)))
			ret = usage_error("catalog import: %s", err);
		free(text);
	}
	if (!ret && import_compare(&im, &builtin, err, sizeof(err)))
		ret = usage_error("catalog import: %s", err);
	if (!ret && import_write(&im, dir, err, sizeof(err)))
		ret = run_error("catalog import: %s", err);
	if (!ret)
		ret = model_opts_written(REPORT_WRITER(struct catalog_import_format,
							 mo->fmt)->write(stdout, &im));
out:
	import_release(&im);
	catalog_release(&builtin);
	return ret;
}

/* Each page read, on the one progress line (a line a step when stderr is no terminal). */
static void show_progress(void *ctx, const struct prices_progress *p)
{
	char step[32] = "reading";

	if (p->pages)
		snprintf(step, sizeof(step), "page %lu", p->pages);
	progress_label(ctx, "catalog prices: %s: %s, %lu items read, %.1f MB", p->what, step,
		       p->items, p->bytes / 1e6);
}

/* How many of the provider's catalog entries have a price in the region and currency. */
static void coverage(const struct catalog *c, struct catalog_prices_report *rep)
{
	const struct prices_request *rq = rep->request;

	for (size_t i = 0; i < c->nvms; i++)
		if (!strcmp(c->vms[i].provider, rq->provider)) {
			rep->catalog_vms++;
			rep->priced_vms += !!catalog_find_price(c, c->vms[i].catalog, "vm",
				c->vms[i].name, rq->region, rep->currency);
		}
	for (size_t i = 0; i < c->ndisks; i++)
		if (!strcmp(c->disks[i].provider, rq->provider) && !c->disks[i].os) {
			rep->catalog_disks++;
			rep->priced_disks += !!catalog_find_price(c, c->disks[i].catalog, "disk",
				c->disks[i].name, rq->region, rep->currency);
		}
}

/* What stays in use after a failed download. */
static void say_kept(const struct prices_request *rq, const struct prices_result *r)
{
	if (r->old_path && r->old_count)
		fprintf(stderr, "iorate: catalog prices: nothing written; cost and plan keep the "
			"%u prices read %s in %s\n", r->old_count, r->old_date, r->old_path);
	else
		fprintf(stderr, "iorate: catalog prices: nothing written; no %s prices for %s in "
			"%s were read before: cost and plan use the built-in prices\n",
			rq->provider, rq->region, rq->currency ? rq->currency : "USD");
}

/* 'catalog prices --provider P --region R'. */
static int do_prices(const struct catalog_cmd *cc)
{
	char err[1024], dir[4096], date[16], cur[8];
	struct prices_request rq = {.provider = cc->mo.provider, .region = cc->region,
		.currency = cc->currency, .endpoint = cc->endpoint, .timeout_ns = cc->timeout_ns,
		.progress = show_progress};
	struct prices_result r;
	struct progress pg;
	struct catalog c;
	int ret;

	if (!rq.provider || !rq.region)
		return usage_error("catalog prices: --provider and --region are required (e.g. "
				   "--provider azure --region northeurope --currency GBP)");
	if (!(rq.dir = model_opts_user_dir(dir, sizeof(dir))))
		return usage_error("catalog prices: neither XDG_DATA_HOME nor HOME is set: no "
				   "directory to keep the prices in");
	rq.date = today(date, sizeof(date));
	progress_init_steps(&pg, false);
	rq.ctx = &pg;
	ret = prices_fetch(&rq, &r, err, sizeof(err));
	progress_clear(&pg);
	if (ret == -EINVAL || ret == -ENOTSUP) {
		ret = usage_error("catalog prices: %s", err);
	} else if (ret) {
		ret = run_error("catalog prices: %s", err);
		say_kept(&rq, &r);
	} else if (!(ret = model_opts_catalog(&cc->mo, &c))) {
		struct catalog_prices_report rep = {.request = &rq, .result = &r, .currency = cur};

		snprintf(cur, sizeof(cur), "%s", rq.currency ? rq.currency : "USD");
		for (char *p = cur; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		coverage(&c, &rep);
		ret = model_opts_written(REPORT_WRITER(struct catalog_prices_format,
						       cc->mo.fmt)->write(stdout, &rep));
		catalog_release(&c);
	}
	prices_result_free(&r);
	return ret;
}

/* catalog_main picks what to print by the subcommand's index in the entry's list. */
static const struct report_formats *const kinds[] = {&catalog_list_formats,
	&catalog_show_formats, &catalog_import_formats, &catalog_prices_formats};

static int catalog_main(int argc, char **argv)
{
	struct catalog_cmd cc = {0};
	struct catalog c = {0};
	int first, ret = 0, sub;
	bool help;

	model_opts_init(&cc.mo);
	/* The words (list, show NAME, import FILE...) are moved after the options. */
	if ((ret = model_opts_parse(&cmd_catalog, &cc, argc, argv, &first, &help)) || help)
		return ret;
	if ((sub = options_subcommand(&cmd_catalog, first < argc ? argv[first] : NULL)) < 0) {
		char near[120];

		return usage_error("catalog: expected 'list [CATALOG]', 'show NAME', 'import "
				   "FILE...' or 'prices --provider P --region R'%s (see 'iorate "
				   "catalog --help')", first < argc ? options_near_word(NULL,
				   &cmd_catalog, argv[first], near, sizeof(near)) : "");
	}
	if ((ret = model_opts_format(&cc.mo, kinds[sub])))
		return ret;
	if ((cc.region || cc.currency || cc.endpoint || cc.timeout_ns || cc.mo.provider) &&
	    sub != 3)
		return usage_error("catalog %s: --provider, --region, --currency, --endpoint and "
				   "--timeout are options of 'catalog prices'",
				   cmd_catalog.subcommands[sub]);
	if (sub == 2)
		return do_import(&cc.mo, argv + first + 1, argc - first - 1);
	if (sub == 3)
		return first + 1 < argc ? usage_error("catalog prices: unexpected argument '%s'",
						      argv[first + 1]) : do_prices(&cc);
	if (argc - first > 2)
		return usage_error("catalog %s: unexpected argument '%s'",
				   cmd_catalog.subcommands[sub], argv[first + 2]);
	/* list and show name the figures where the catalog's layers differ themselves. */
	cc.mo.lists_conflicts = true;
	if (!(ret = model_opts_catalog(&cc.mo, &c)))
		ret = sub == 1 ? do_show(&c, cc.mo.fmt, argv + first, argc - first) :
		      do_list(&c, cc.mo.fmt, argv + first, argc - first);
	catalog_release(&c);
	return ret;
}
