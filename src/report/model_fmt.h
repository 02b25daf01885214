#ifndef IORATE_REPORT_MODEL_FMT_H
#define IORATE_REPORT_MODEL_FMT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "model/cost.h"
#include "model/plan.h"
#include "model/predict.h"

/*
 * The outputs of the model commands (model, plan, explain, cost), text and JSON (schemas in
 * docs/model.md). The model only returns numbers; every word and JSON key is written here.
 * The writers are the entries of src/report/format.c: each returns 0 or -errno (-ENOMEM, -EIO).
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

/* The cheapest configurations that meet a target: what 'iorate plan' prints. */
struct plan_report {
	const struct plan_target *target;     /* bs and write_pct of the workload modelled */
	const struct plan_result *result;
};

int plan_fmt_text(FILE *f, const struct plan_report *p);
/* An array of prediction objects, each with its "cost" (model_fmt_cost_json). */
int plan_fmt_json(FILE *f, const struct plan_report *p);

/*
 * A measured run beside the prediction: what 'iorate explain' prints. Figures that the run
 * does not hold are NAN.
 */
struct explain_report {
	const char *path;                     /* the run's JSON file, as given */
	struct model_report model;
	double measured_iops, measured_mbps, measured_latency_ms;
	double predicted_iops, predicted_mbps; /* the timeline's average when the run is timed */
	double ratio_iops;                    /* measured / predicted IOPS */
	/* at_limit, below, host_cache, page_cache (a buffered run above every limit),
	 * above_limits (above them, and no page cache served it), emulated (at a cap the run
	 * was emulated with: emulated_cap, emulated_value) */
	const char *origin;
	const char *at_limit;                 /* the limit the measured IOPS sit at, or NULL */
	const char *emulated_cap;             /* vm_iops disk_iops vm_mbps disk_mbps, or NULL */
	double emulated_value;                /* that cap, IOPS or MB/s (disk caps: all targets) */
	double tolerance;                     /* how near a limit "at" means (0.15: 15%) */
	double min_hit_pct;                   /* host_cache: the fewest read hits that reach it */
	const char *const *notes;
	unsigned nnotes;
};

int explain_fmt_text(FILE *f, const struct explain_report *e);
/* The prediction's object plus measured{iops, mbps, latency_ms}, ratio_iops, at_limit, notes. */
int explain_fmt_json(FILE *f, const struct explain_report *e);

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

/* v as JSON output writes it: the object, then a newline. 0 or -errno. */
int model_fmt_dump(FILE *f, const json_t *v);

#endif
