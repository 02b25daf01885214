#ifndef IORATE_MODEL_PLAN_H
#define IORATE_MODEL_PLAN_H
#include <stdint.h>

#include "model/cost.h"
#include "model/predict.h"

/* A target to meet: iops and bs at least; 0 leaves a figure free. */
struct plan_target {
	double iops, mbps, latency_ms;
	uint64_t capacity, bs;          /* bytes */
	unsigned write_pct;
	const char *provider;           /* a catalog name ("azure") or provider; NULL = all */
	const char *region;
	unsigned top;                   /* how many to keep; 0 = 5 */
};

struct plan_option {
	struct model_config config;
	struct model_result result;
	struct cost_breakdown cost;
};

struct plan_result {
	struct plan_option *options;    /* cheapest first; malloc'd */
	unsigned n;
	unsigned considered, unpriced;
	char unmet[160];                /* when n == 0: the requirement no configuration meets */
};

/*
 * Enumerates VM sizes x disk types x disk counts x cache modes of the priced catalogs, keeps the
 * configurations whose prediction meets every target, ranked by monthly cost.
 */
int plan_search(const struct catalog *c, const struct plan_target *t, struct plan_result *r);
void plan_result_free(struct plan_result *r);

#endif
