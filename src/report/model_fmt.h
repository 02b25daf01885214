#ifndef IORATE_REPORT_MODEL_FMT_H
#define IORATE_REPORT_MODEL_FMT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "model/attribute.h"
#include "model/cost.h"
#include "model/plan.h"
#include "model/predict.h"
#include "report/mark_fmt.h"
#include "report/format.h"

/*
 * The outputs of the model commands (model, plan, explain, cost), text and JSON (schemas in
 * docs/model.md). The model only returns codes and numbers; every word and JSON key is written
 * here (the model's codes: model_words.h). The writers are the entries of each command's table
 * (below): each returns 0 or -errno (-ENOMEM, -EIO).
 */

/* A prediction: what 'iorate model' prints. */
struct model_report {
	const struct model_config *config;
	const struct model_workload *workload;
	const struct model_result *result;
};

int model_fmt_text(FILE *f, const struct model_report *m);
int model_fmt_json(FILE *f, const struct model_report *m);

/* "DS2 + 2 x P30 (azure-2015)": the configuration as every text output names it. */
void model_fmt_config_name(const struct model_config *m, char *out, size_t len);

/*
 * The JSON object of a prediction (schema 1: config, workload, predicted, binding, limits,
 * burst, timeline), for outputs that add to it (plan, explain). A new reference, or NULL when
 * out of memory.
 */
json_t *model_fmt_prediction_json(const struct model_report *m);

/*
 * A CrystalDiskMark table predicted: what 'iorate model --mark' prints, row for row as 'iorate
 * mark' prints its table (the profile's tests, reads then writes, MB/s of 10^6 B/s).
 */
struct model_mark_row {
	const struct mark_test *test;
	struct model_workload w[2];           /* [0] reads, [1] writes */
	struct model_result r[2];
};

struct model_mark_report {
	const struct model_config *config;
	const char *profile, *title;          /* "default", "Default" */
	const char *preset, *preset_title;    /* "nvme", "NVMe SSD"; the title NULL for standard */
	struct model_mark_row rows[MARK_MAX_TESTS];
	unsigned nrows;
	double test_s;                        /* the length each test's figure is the mean over */
};

int model_mark_fmt_text(FILE *f, const struct model_mark_report *m);
/* {schema, origin "model --mark", profile, preset, config, tests[{name, ..., read, write}]} */
int model_mark_fmt_json(FILE *f, const struct model_mark_report *m);

/* The cheapest configurations that meet a target: what 'iorate plan' prints. */
struct plan_report {
	const struct plan_target *target;     /* bs and write_pct of the workload modelled */
	const struct plan_result *result;
};

int plan_fmt_text(FILE *f, const struct plan_report *p);
/* An array of prediction objects, each with its "cost" (model_fmt_cost_json). */
int plan_fmt_json(FILE *f, const struct plan_report *p);

/*
 * A measured run beside the prediction: what 'iorate explain' prints. Both writers walk x (the
 * model's codes and figures, model/attribute.h) and nothing else, so text and JSON agree.
 */
struct explain_report {
	const char *path;                     /* the run's JSON file, as given */
	struct model_report model;            /* the prediction over the run's duration */
	const struct explanation *x;
};

int explain_fmt_text(FILE *f, const struct explain_report *e);
/*
 * The prediction's object plus explanation{origin, limit, window, tolerance, items[]}, each
 * item {code, name, and its figures by key}, and the summary keys measured, ratio_iops,
 * origin, at_limit, emulated_cap, tolerance, min_hit_pct, notes (docs/model.md).
 */
int explain_fmt_json(FILE *f, const struct explain_report *e);
/*
 * A figure as both writers give it: rounded to what its unit shows (NAN and infinities as they
 * are: JSON null), and in the text's words ("3,500 IOPS", "unknown", "unbounded").
 */
double explain_fig_value(const struct explain_fig *g);
const char *explain_fig_text(const struct explain_fig *g, char *buf, size_t len);
/* An item in the text's words, as its line says it (without the label). */
void explain_item_text(const struct explain_report *e, const struct explain_item *it,
		       char *buf, size_t len);

/* An upload's price, and the same upload in other chunk sizes: 'iorate cost upload'. */
struct cost_upload_report {
	const struct cost_upload *upload;
	const struct cost_upload_result *result;
	const uint64_t *chunks;               /* the chunk sizes compared */
	const struct cost_upload_result *by_chunk; /* one per chunk size */
	unsigned nchunks;
};

int cost_fmt_upload_text(FILE *f, const struct cost_upload_report *u);
int cost_fmt_upload_json(FILE *f, const struct cost_upload_report *u);

/* A configuration's monthly cost: 'iorate cost config', and each answer of plan. */
int cost_fmt_config_text(FILE *f, const struct cost_breakdown *b);
int cost_fmt_config_json(FILE *f, const struct cost_breakdown *b);
/* {total_month, currency, lines: [{what, month, source}]}; NULL when out of memory. */
json_t *model_fmt_cost_json(const struct cost_breakdown *b);
/* A price's date, and "; STALE: N days old" (or "of unknown age") when it is stale. */
const char *model_fmt_price_age(const char *date, int age_days, bool stale, char *buf,
				size_t len);
/* A note after prices of which nstale are stale (nothing when none is). */
void model_fmt_stale_note(FILE *f, unsigned nstale, const char *indent);


/*
 * The formats of 'iorate model' (a prediction, or with --mark a table), 'plan', 'explain',
 * 'cost upload' and 'cost config', a table each.
 */
struct model_format {
	struct report_format f;
	int (*write)(FILE *f, const struct model_report *m);
	int (*mark)(FILE *f, const struct model_mark_report *m);
};
struct plan_format {
	struct report_format f;
	int (*write)(FILE *f, const struct plan_report *p);
};
struct explain_format {
	struct report_format f;
	int (*write)(FILE *f, const struct explain_report *e);
};
struct cost_upload_format {
	struct report_format f;
	int (*write)(FILE *f, const struct cost_upload_report *u);
};
struct cost_config_format {
	struct report_format f;
	int (*write)(FILE *f, const struct cost_breakdown *b);
};
extern const struct report_formats model_formats, plan_formats, explain_formats,
	cost_upload_formats, cost_config_formats;

#endif
