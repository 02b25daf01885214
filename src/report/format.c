/*
 * The one table of output formats: which kinds of output each prints, and with what. Commands
 * look formats up here by name (report_format), so that --format, --json and --csv mean the
 * same everywhere and a format a command cannot print is refused, never printed as another.
 */
#include "report/format.h"

#include <string.h>

#include "report/catalog_fmt.h"
#include "report/dry_run_fmt.h"
#include "report/history_fmt.h"
#include "report/history_list.h"
#include "report/mark_fmt.h"
#include "report/model_fmt.h"
#include "report/report.h"
#include "report/sweep_fmt.h"
#include "report/verify_fmt.h"

static const struct report_format formats[] = {
	{
		.name = "text",
		.result = &report_text,
		.sweep = &report_sweep_text,
		.mark = mark_fmt_text,
		.model = model_fmt_text,
		.model_mark = model_mark_fmt_text,
		.plan = plan_fmt_text,
		.explain = explain_fmt_text,
		.cost_upload = cost_fmt_upload_text,
		.cost_config = cost_fmt_config_text,
		.catalog_list = catalog_fmt_list_text,
		.catalog_show = catalog_fmt_show_text,
		.catalog_import = catalog_fmt_import_text,
		.catalog_prices = catalog_fmt_prices_text,
		.history_list = &history_list_text,
		.history_compare = history_compare_fmt_text,
		.dry_run = dry_run_fmt_text,
		.verify = verify_fmt_text,
	},
	{
		.name = "json",
		.for_programs = true,
		.result = &report_json,
		.sweep = &report_sweep_json,
		.mark = mark_fmt_json,
		.model = model_fmt_json,
		.model_mark = model_mark_fmt_json,
		.plan = plan_fmt_json,
		.explain = explain_fmt_json,
		.cost_upload = cost_fmt_upload_json,
		.cost_config = cost_fmt_config_json,
		.catalog_list = catalog_fmt_list_json,
		.catalog_show = catalog_fmt_show_json,
		.catalog_import = catalog_fmt_import_json,
		.catalog_prices = catalog_fmt_prices_json,
		.history_list = &history_list_json,
		.history_compare = history_compare_fmt_json,
		.dry_run = dry_run_fmt_json,
		.verify = verify_fmt_json,
	},
	{
		.name = "csv",
		.for_programs = true,
		.result = &report_csv,
		.sweep = &report_sweep_csv,
		.mark = mark_fmt_csv,
		.history_list = &history_list_csv,
	},
	{
		/* fio 3.33's --output-format=json layout, for tools written for fio */
		.name = "fio-json",
		.for_programs = true,
		.result = &report_fio_json,
	},
	{
		/* ... and its json+, with each latency histogram's bins in fio's buckets */
		.name = "fio-json+",
		.for_programs = true,
		.result = &report_fio_json_plus,
	},
	{
		/* fio 3.33's terse output, version 3 (--output-format=terse, --minimal) */
		.name = "fio-terse",
		.for_programs = true,
		.result = &report_fio_terse,
	},
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* The command each kind belongs to, as messages name it. */
static const char *const kind_commands[REPORT_NKINDS] = {
	[REPORT_RESULT] = "iorate run",
	[REPORT_SWEEP] = "iorate sweep",
	[REPORT_MARK] = "iorate mark",
	[REPORT_MODEL] = "iorate model",
	[REPORT_PLAN] = "iorate plan",
	[REPORT_EXPLAIN] = "iorate explain",
	[REPORT_COST_UPLOAD] = "iorate cost upload",
	[REPORT_COST_CONFIG] = "iorate cost config",
	[REPORT_CATALOG_LIST] = "iorate catalog list",
	[REPORT_CATALOG_SHOW] = "iorate catalog show",
	[REPORT_CATALOG_IMPORT] = "iorate catalog import",
	[REPORT_CATALOG_PRICES] = "iorate catalog prices",
	[REPORT_HISTORY_LIST] = "iorate history list",
	[REPORT_HISTORY_COMPARE] = "iorate history compare",
	[REPORT_DRY_RUN] = "iorate run --dry-run",
	[REPORT_FIO_DRY_RUN] = "iorate fio --dry-run",
	[REPORT_VERIFY] = "iorate verify",
};

bool report_format_has(const struct report_format *f, enum report_kind kind)
{
	switch (kind) {
	case REPORT_RESULT:
		return f->result;
	case REPORT_SWEEP:
		return f->sweep;
	case REPORT_MARK:
		return f->mark;
	case REPORT_MODEL:
		return f->model;
	case REPORT_PLAN:
		return f->plan;
	case REPORT_EXPLAIN:
		return f->explain;
	case REPORT_COST_UPLOAD:
		return f->cost_upload;
	case REPORT_COST_CONFIG:
		return f->cost_config;
	case REPORT_CATALOG_LIST:
		return f->catalog_list;
	case REPORT_CATALOG_SHOW:
		return f->catalog_show;
	case REPORT_CATALOG_IMPORT:
		return f->catalog_import;
	case REPORT_CATALOG_PRICES:
		return f->catalog_prices;
	case REPORT_HISTORY_LIST:
		return f->history_list;
	case REPORT_HISTORY_COMPARE:
		return f->history_compare;
	case REPORT_DRY_RUN:
	case REPORT_FIO_DRY_RUN:
		return f->dry_run;
	case REPORT_VERIFY:
		return f->verify;
	case REPORT_NKINDS:
		return true; /* "any kind", for the list of every name */
	}
	return false;
}

static const struct report_format *named(const char *name)
{
	for (size_t i = 0; name && i < NFORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

const struct report_format *report_format(enum report_kind kind, const char *name)
{
	const struct report_format *f = named(name);

	return f && (unsigned)kind < REPORT_NKINDS && report_format_has(f, kind) ? f : NULL;
}

bool report_format_known(const char *name)
{
	return named(name);
}

const char *report_format_names(enum report_kind kind, const char *sep, const char *last,
				char *buf, size_t len)
{
	size_t n = 0, total = 0, k = 0;

	for (size_t i = 0; i < NFORMATS; i++)
		total += report_format_has(&formats[i], kind);
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS && n < len; i++) {
		if (!report_format_has(&formats[i], kind))
			continue;
		const char *s = !k ? "" : k + 1 == total && last ? last : sep;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", s, formats[i].name);
		k++;
	}
	return buf;
}

const char *report_format_unknown(char *buf, size_t len)
{
	char names[64];

	snprintf(buf, len, "is not an output format (%s)",
		 report_format_names(REPORT_NKINDS, ", ", NULL, names, sizeof(names)));
	return buf;
}

const char *report_kind_command(enum report_kind kind)
{
	return (unsigned)kind < REPORT_NKINDS ? kind_commands[kind] : "iorate";
}

const char *report_format_refusal(enum report_kind kind, const char *given, char *buf,
				  size_t len)
{
	char names[64];

	snprintf(buf, len, "%s: '%s' prints %s", given, report_kind_command(kind),
		 report_format_names(kind, ", ", " or ", names, sizeof(names)));
	return buf;
}
