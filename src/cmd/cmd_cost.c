/*
 * iorate cost: what an upload costs in transactions and storage (the StorSimple upload
 * cost calculator of a 2015 Azure blog post), and what a VM with its disks costs a month.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "core/gate.h"
#include "model/config.h"
#include "model/cost.h"
#include "model/settings.h"
#include "report/calc_html.h"
#include "report/model_fmt.h"
#include "util/parse.h"

static int cost_main(int argc, char **argv);

struct cost_cmd {
	struct model_opts mo;
	struct cost_upload u;
	double hours, vm_price, disk_price, iops;
	const char *html;           /* --html FILE: the calculator page */
	bool months_given;          /* --months (which --keep-days replaces) */
	const struct opt *upload_only, *config_only; /* the first option given of each */
};

static int set_price(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (parse_double(val, 0, 1e9, (double *)((char *)c->state + o->off)))
		return opt_refuse(c, val, "is not a price (e.g. 0.05)");
	return 0;
}

static int set_number(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (parse_double(val, 0.001, (double)o->max, (double *)((char *)c->state + o->off))) {
		char why[64];
		snprintf(why, sizeof(why), "is not a number from 0.001 to %llu",
			 (unsigned long long)o->max);
		return opt_refuse(c, val, why);
	}
	return 0;
}

/* --geo-price: a price, and that it was given (0 is a price). */
static int set_geo(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct cost_cmd *cc = c->state;

	(void)o;
	if (parse_double(val, 0, 1e9, &cc->u.geo_per_gb))
		return opt_refuse(c, val, "is not a price (e.g. 0.02)");
	cc->u.geo_given = true;
	return 0;
}

static int set_months(struct opt_ctx *c, const struct opt *o, const char *val)
{
	((struct cost_cmd *)c->state)->months_given = true;
	return set_number(c, o, val);
}

/* val if it is one of the option's words (any case), else a refusal that lists them. */
static int set_word(struct opt_ctx *c, const struct opt *o, const char *val)
{
	char list[128] = "";
	const char *w = o->values;

	while (*w) {
		size_t n = strcspn(w, " ");
		if (strlen(val) == n && !strncasecmp(val, w, n)) {
			*(const char **)((char *)c->state + o->off) = val;
			return 0;
		}
		w += n + (w[n] == ' ');
	}
	snprintf(list, sizeof(list), "is not one of: %s", o->values);
	return opt_refuse(c, val, list);
}

#define CC(field) .in = OPT_IN_CMD, .off = offsetof(struct cost_cmd, field)

static const struct opt upload_opts[] = {
	{.name = "data", .arg = "SIZE", .help = "data to upload", .example = "--data 750GiB",
	 .set = opt_set_size, CC(u.data), .min = 1},
	{.name = "chunk", .arg = "SIZE", .help = "bytes per write transaction (default 512KiB)",
	 .example = "--chunk 64k", .set = opt_set_size, CC(u.chunk), .min = 1},
	{.name = "write-price", .arg = "P", .help = "price per 10,000 writes (default: catalog)",
	 .example = "--write-price 0.05", .set = set_price, CC(u.write_per_10k)},
	{.name = "gb-price", .arg = "P", .help = "price per GB-month (default: catalog)",
	 .example = "--gb-price 0.0208", .set = set_price, CC(u.per_gb_month)},
	{.name = "tier", .arg = "T", .help = "hot, cool, cold, archive (default hot)",
	 .example = "--tier cool", .set = set_word, CC(u.tier), .values = "hot cool cold archive"},
	{.name = "redundancy", .arg = "R", .help = "lrs, grs, ragrs, zrs (default lrs)",
	 .example = "--redundancy grs", .set = set_word, CC(u.redundancy),
	 .values = "lrs grs ragrs zrs"},
	{.name = "months", .arg = "N", .help = "months of storage (default 1)",
	 .example = "--months 12", .set = set_months, CC(u.months), .max = 1200},
	{.name = "keep-days", .arg = "DAYS", .help = "days the data stays before it is deleted or "
	 "moved to another tier, stored that long (instead of --months); cool, cold and archive "
	 "bill 30, 90 and 180 days at least (default: the months of storage, assumed)",
	 .example = "--keep-days 10", .set = set_number, CC(u.keep_days), .max = 36500},
	{.name = "geo-price", .arg = "P", .help = "geo-replication data transfer per GB written "
	 "(grs, ragrs; default: catalog)", .example = "--geo-price 0.02", .set = set_geo,
	 CC(u.geo_per_gb)},
	{0},
};

/* What both subcommands price in. */
static const struct opt market_opts[] = {
	{.name = "region", .arg = "R", .help = MODEL_REGION_HELP,
	 .example = "--region northeurope", .set = opt_set_string, CC(u.region)},
	{.name = "currency", .arg = "CUR", .help = MODEL_CURRENCY_HELP, .example = "--currency GBP",
	 .set = opt_set_string, CC(u.currency)},
	{0},
};

static const struct opt config_opts[] = {
	{.name = "hours", .arg = "N", .help = "VM hours a month (default 730)",
	 .example = "--hours 200", .set = set_number, CC(hours), .max = 744},
	{.name = "vm-price", .arg = "P", .help = "VM price per hour (overrides the catalog)",
	 .example = "--vm-price 0.384", .set = set_price, CC(vm_price)},
	{.name = "disk-price", .arg = "P", .help = "price per disk-month (overrides the catalog)",
	 .example = "--disk-price 135.17", .set = set_price, CC(disk_price)},
	{.name = "iops", .arg = "N", .help = MODEL_IOPS_HELP, .example = "--iops 2000",
	 .set = set_number, CC(iops), .max = 100000000},
	{0},
};

static const struct opt page_opts[] = {
	{.name = "html", .arg = "FILE", .help = "also write a cost calculator page: pull-downs of "
	 "region, currency, tier and redundancy (upload), provider, VM size and disks (config) "
	 "holding every price this command would find, figured in the browser as here; it opens "
	 "on this command line's values and needs no network ('-': the page alone on stdout)",
	 .example = "--html calc.html", .set = opt_set_string, CC(html)},
	{0},
};

static const struct opt_group upload_group = {.title = "upload", .opts = upload_opts};
static const struct opt_group config_group = {
	.title = "config (and --vm, --disk, --provider, --bs below)", .opts = config_opts};
static const struct opt_group market_group = {.title = "prices (upload and config)",
					      .opts = market_opts};
static const struct opt_group page_group = {.title = "calculator page (upload and config)",
					    .opts = page_opts};
static const struct opt_group *const cost_groups[] = {
	&upload_group, &config_group, &market_group, &page_group, &opt_model_vm, &opt_model_catalog,
	&opt_output, &opt_model_format, &opt_bs, NULL,
};

/* The shared options that only a configuration's price depends on (cost's own have other names). */
static const char *const config_model_opts[] = {"vm", "disk", "provider", "bs", NULL};

static bool in_table(const struct opt *o, const struct opt *t)
{
	for (; t->name; t++)
		if (t == o)
			return true;
	return false;
}

/* Keeps the first option given that only upload, and only config, takes. */
static int cost_on_set(struct opt_ctx *c, const struct opt *o)
{
	struct cost_cmd *cc = c->state;
	bool config = in_table(o, config_opts);

	for (unsigned i = 0; !config && config_model_opts[i]; i++)
		config = !strcmp(o->name, config_model_opts[i]);
	if (in_table(o, upload_opts) && !cc->upload_only)
		cc->upload_only = o;
	if (config && !cc->config_only)
		cc->config_only = o;
	return 0;
}

/*
 * An option of the other subcommand does nothing there: refused, unless the calculator page,
 * which opens on both parts, is written.
 */
static int check_subcommand(const struct cost_cmd *cc, bool upload)
{
	const struct opt *o = upload ? cc->config_only : cc->upload_only;

	if (!o || cc->html)
		return 0;
	return usage_error("cost %s: --%s is for 'cost %s' (or, with --html, the page's %s part)",
			   upload ? "upload" : "config", o->name, upload ? "config" : "upload",
			   upload ? "configuration" : "upload");
}

const struct command cmd_cost = {
	.name = "cost",
	.subcommands = (const char *const[]){"upload", "config", NULL},
	.summary = "price uploads (transactions, storage) and configurations",
	.synopsis = "upload --data SIZE [options]\n"
		    "config --vm NAME --disk SPEC [--disk SPEC...] [options]",
	.about = "upload: write transactions = data / chunk (rounded up), priced per 10,000, plus\n"
		 "storage per GB-month (GB = 2^30 bytes, as Azure bills it); compares chunk sizes.\n"
		 "As the StorSimple upload cost calculator of a 2015 Azure blog post computes it,\n"
		 "plus what Azure also bills: geo-replication data transfer per GB written\n"
		 "(grs, ragrs) and early deletion of data kept fewer days (--keep-days;\n"
		 "default: the months stored, assumed) than the minimum of cool, cold and\n"
		 "archive: 30, 90, 180 days.\n"
		 "\n"
		 "config: the monthly cost of a configuration.\n"
		 "\n"
		 "Each subcommand refuses the other's options, except with --html: the page\n"
		 "opens both parts, each on the values given for it.\n"
		 "\n"
		 "Prices come from --catalog files, then those 'iorate catalog prices'\n"
		 "downloaded, then the built-in ones; a price older than 90 days (or undated)\n"
		 "is flagged. The default region and currency can be set in\n"
		 "$XDG_CONFIG_HOME/iorate/config (~/.config/iorate/config): 'region = R' and\n"
		 "'currency = C' lines; the options win.\n"
		 "\n"
		 "--html FILE writes one self-contained page that computes both in the browser,\n"
		 "with pull-downs filled from the same prices; without --data (upload) or --vm\n"
		 "and --disk (config) it writes the page alone. It opens on the region and\n"
		 "currency asked for, or is refused (exit 2) when no prices are there.",
	.groups = cost_groups,
	.examples = "  iorate cost upload --data 750GiB --write-price 0.10 --gb-price 0.0152\n"
		    "  iorate cost upload --data 750GiB --tier cool --region northeurope "
		    "--currency GBP\n"
		    "  iorate cost config --vm DS14 --disk 2xP30 --vm-price 1.5\n"
		    "  iorate cost upload --region northeurope --currency GBP --html calc.html\n",
	.exit_status = "0 done, 1 failed, 2 bad usage.",
	.fn = cost_main,
};

/* The calculator page, through the write gate like every other output. */
static int write_page(const char *path, const struct calc_page *pg)
{
	char err[PATH_MAX + 256];
	struct gate_out o;
	int r;

	if ((r = gate_out_open(&o, "--html", path, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if ((r = calc_html_write(o.f, pg))) {
		gate_out_abort(&o);
		return r == -EPIPE ? 1 : run_error("--html %s: %s", path, strerror(-r));
	}
	if (gate_out_commit(&o, err, sizeof(err)))
		return run_error("%s", err);
	return 0;
}

/* Whether the usual output is printed: not when the page alone goes to stdout. */
static bool prints(const struct cost_cmd *cc)
{
	return !cc->html || strcmp(cc->html, "-");
}

/* The upload priced, and the same upload in other chunk sizes to compare. */
static int do_upload(const struct catalog *c, const struct cost_cmd *cc)
{
	static const uint64_t chunks[] = {64 << 10, 512 << 10, 4 << 20};
	const struct cost_upload *u = &cc->u;
	struct cost_upload_result r, alt[3];
	char err[512];
	int ret;

	if (!u->data)
		return usage_error("cost upload: --data is required (e.g. --data 750GiB)");
	if (cost_upload(c, u, &r, err, sizeof(err)))
		return usage_error("cost upload: %s", err);
	/* At the prices the catalog gave the first, which are then known to exist. */
	for (unsigned i = 0; i < 3; i++) {
		struct cost_upload v = *u;

		v.chunk = chunks[i];
		v.write_per_10k = r.write_per_10k;
		v.per_gb_month = r.per_gb_month;
		cost_upload(c, &v, &alt[i], err, sizeof(err));
	}
	const struct cost_upload_format *w = REPORT_WRITER(struct cost_upload_format, cc->mo.fmt);

	if (prints(cc) && (ret = model_opts_written(w->write(stdout,
			&(struct cost_upload_report){.upload = u, .result = &r, .chunks = chunks,
			.by_chunk = alt, .nchunks = 3}))))
		return ret;
	return 0;
}

/* The upload part of the page: the upload given, in the region and currency asked for. */
static struct calc_upload_init page_upload(const struct cost_cmd *cc)
{
	const struct cost_upload *u = &cc->u;

	return (struct calc_upload_init){.data = u->data, .chunk = u->chunk, .tier = u->tier,
		.redundancy = u->redundancy, .region = u->region, .currency = u->currency,
		.months = u->months, .write_per_10k = u->write_per_10k,
		.per_gb_month = u->per_gb_month, .geo_given = u->geo_given,
		.geo_per_gb = u->geo_per_gb, .keep_days = u->keep_days};
}

/* The configuration part of the page: the figures given; the VM and disks are set later. */
static struct calc_config_init page_config(const struct cost_cmd *cc)
{
	return (struct calc_config_init){.provider = cc->mo.provider, .region = cc->u.region,
		.currency = cc->u.currency,
		.hours = cc->hours, .vm_hour = cc->vm_price, .disk_month = cc->disk_price,
		.iops = cc->iops, .io_bytes = cc->mo.bs};
}

/* --vm and --disk: both or neither, for 'cost config' and for the page. */
static int need_config(const struct cost_cmd *cc, const char *what)
{
	if ((cc->mo.vm != NULL) == (cc->mo.specs.n > 0))
		return 0;
	return usage_error("%s: --vm and --disk go together (e.g. --vm DS14 --disk 2xP30)", what);
}

static bool same_word(const char *want, const char *have)
{
	return !want || (have && !strcasecmp(want, have));
}

/* A price 'cost upload' (storage) or 'cost config' (vm, of catalog when given) would use. */
static bool market_price(const struct cat_price *p, bool upload, const char *catalog)
{
	if (upload)
		return !strcmp(p->kind, "storage") && p->tier && p->redundancy;
	return !strcmp(p->kind, "vm") && (!catalog || (p->catalog &&
						       !strcmp(p->catalog, catalog)));
}

/*
 * The page opens on the region and currency asked for (the command line's or the settings
 * file's), or is refused: it never opens quietly on other prices. The refusal lists where
 * prices are (at most 8 markets) and names the command that downloads the ones asked for.
 */
static int check_market(const struct catalog *c, const struct cost_cmd *cc, bool upload)
{
	const char *region = cc->u.region, *cur = cc->u.currency;
	const char *catalog = upload ? NULL : cc->mo.provider;
	char have[256] = "";
	size_t n = 0;
	unsigned listed = 0;

	if (!region && !cur)
		return 0;
	for (size_t i = 0; i < c->nprices; i++) {
		const struct cat_price *p = &c->prices[i];
		char one[96];
		bool dup;

		if (!market_price(p, upload, catalog))
			continue;
		if (same_word(region, p->region) && same_word(cur, p->currency))
			return 0;
		snprintf(one, sizeof(one), "%s %s", p->region ? p->region : "-",
			 p->currency ? p->currency : "-");
		dup = strstr(have, one) != NULL;
		if (!dup && listed < 8 && n + strlen(one) + 3 < sizeof(have)) {
			n += (size_t)snprintf(have + n, sizeof(have) - n, "%s%s", listed ? ", " : "",
					      one);
			listed++;
		}
	}
	return usage_error("cost %s --html: no %s prices for %s%s%s (prices are for: %s); "
			   "'iorate catalog prices --provider %s --region %s --currency %s' "
			   "downloads them", upload ? "upload" : "config",
			   upload ? "storage" : "VM", region ? region : "any region",
			   cur ? " in " : "", cur ? cur : "", *have ? have : "none",
			   catalog && strncmp(catalog, "azure", 5) ? catalog : "azure",
			   region ? region : "R", cur ? cur : "USD");
}

/*
 * The page opens on the upload given, in the region and currency it is priced in, and on the
 * configuration given (m, resolved before anything was printed), if any.
 */
static int upload_page(const struct catalog *c, const struct cost_cmd *cc,
		       const struct model_config *m)
{
	struct calc_page pg = {.cat = c, .upload = page_upload(cc), .config = page_config(cc)};
	struct cost_upload found = cc->u;
	struct cost_upload_result r;
	char err[512];

	/* Where 'cost upload' would find its price: the page's first region and currency. */
	found.data = 0;
	if (!cost_upload(c, &found, &r, err, sizeof(err))) {
		pg.upload.region = pg.upload.region ? pg.upload.region : r.price_region;
		pg.upload.currency = pg.upload.currency ? pg.upload.currency : r.currency;
	}
	pg.config.config = m;
	return write_page(cc->html, &pg);
}

/*
 * 'cost upload': the upload priced (with --data), and the page (with --html), whose
 * configuration is checked first, so a refused one prints nothing.
 */
static int upload_cmd(const struct catalog *c, const struct cost_cmd *cc)
{
	struct model_config m;
	int ret;

	if (cc->html && ((ret = need_config(cc, "cost upload --html")) ||
			 (cc->mo.vm && (ret = model_opts_config(&cc->mo, c, &m))) ||
			 (ret = check_market(c, cc, true)) ||
			 (cc->mo.vm && (ret = check_market(c, cc, false)))))
		return ret;
	if ((!cc->html || cc->u.data) && (ret = do_upload(c, cc)))
		return ret;
	return cc->html ? upload_page(c, cc, cc->mo.vm ? &m : NULL) : 0;
}

/* The monthly cost of --vm and --disk; the page, when asked for, opens on them. */
static int do_config(const struct catalog *cat, const struct cost_cmd *cc)
{
	struct calc_page pg = {.cat = cat, .config_first = true, .upload = page_upload(cc),
			       .config = page_config(cc)};
	struct model_config m;
	struct cost_breakdown b;
	char err[512];
	int ret;

	if (cc->html && (ret = check_market(cat, cc, false)))
		return ret;
	if (cc->html && !cc->mo.vm && !cc->mo.specs.n)
		return write_page(cc->html, &pg);
	if (!cc->mo.vm && !cc->mo.specs.n)
		return usage_error("cost config: --vm and --disk are required (e.g. --vm DS14 --disk "
				   "2xP30)");
	if ((ret = need_config(cc, "cost config")) || (ret = model_opts_config(&cc->mo, cat, &m)))
		return ret;
	if (cost_config(cat, &m, &(struct cost_query){.hours = cc->hours, .region = cc->u.region,
			.currency = cc->u.currency, .vm_hour = cc->vm_price,
			.disk_month = cc->disk_price, .iops = cc->iops, .io_bytes = cc->mo.bs,
			.region_from = cc->u.region_from, .currency_from = cc->u.currency_from}, &b,
			err, sizeof(err)))
		return usage_error("cost config: %s", err);
	if (prints(cc) && (ret = model_opts_written(REPORT_WRITER(struct cost_config_format,
								     cc->mo.fmt)->write(stdout, &b))))
		return ret;
	if (!cc->html)
		return 0;
	pg.config.config = &m;
	pg.config.region = b.region;
	pg.config.currency = b.currency;
	return write_page(cc->html, &pg);
}

/* --html: checked before any work; '-' takes stdout, which the JSON output then cannot. */
static int check_page(const struct cost_cmd *cc)
{
	char err[PATH_MAX + 256];
	int r;

	if (!cc->html)
		return 0;
	/* The page may not replace a --catalog file it is priced from. */
	for (unsigned i = 0; i < cc->mo.files.n; i++)
		if (gate_use(cc->mo.files.v[i], "a --catalog file", NULL))
			return run_error("out of memory");
	if ((r = gate_check_output("--html", cc->html, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if (!strcmp(cc->html, "-") && cc->mo.fmt->for_programs)
		return usage_error("--html - and %s both write to stdout", cc->mo.out.format_given);
	return 0;
}

static int cost_main(int argc, char **argv)
{
	struct cost_cmd cc = {.u = {.write_per_10k = -1, .per_gb_month = -1},
			      .hours = 730, .vm_price = -1, .disk_price = -1};
	struct catalog cat = {0};
	struct settings st = {0};
	const char *what;
	int first, ret = 0;
	bool help, upload;

	model_opts_init(&cc.mo);
	cc.mo.on_set = cost_on_set;
	if ((ret = model_opts_parse(&cmd_cost, &cc, argc, argv, &first, &help)) || help)
		return ret;
	if (first >= argc)
		return usage_error("cost: say upload or config (see 'iorate cost --help')");
	what = argv[first];
	if (options_subcommand(&cmd_cost, what) < 0)
		return usage_error("cost: '%s' is not upload or config (see 'iorate cost --help')",
				   what);
	upload = !strcmp(what, "upload");
	if ((ret = model_opts_no_args(&cmd_cost, first + 1, argc, argv)) ||
	    (ret = model_opts_format(&cc.mo, upload ? &cost_upload_formats :
						   &cost_config_formats)) ||
	    (ret = check_page(&cc)) || (ret = check_subcommand(&cc, upload)))
		return ret;
	if (cc.u.keep_days > 0 && cc.months_given)
		return usage_error("cost upload: --keep-days and --months both say how long the "
				   "data is stored: give one");
	if ((ret = model_opts_settings(&st, &cc.u.region, &cc.u.region_from, &cc.u.currency,
				       &cc.u.currency_from)))
		goto out;
	if ((ret = model_opts_catalog(&cc.mo, &cat)))
		goto out;
	if (!(ret = model_opts_provider(&cc.mo, &cat)))
		ret = upload ? upload_cmd(&cat, &cc) : do_config(&cat, &cc);
out:
	catalog_release(&cat);
	settings_release(&st);
	return ret;
}
