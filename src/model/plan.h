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
	const char *region;             /* of the prices; NULL: each catalog's first */
	unsigned top;                   /* how many to keep; 0 = 5 */
	double read_hit;                /* percent of reads a host cache serves; 0: none assumed */
	bool uncapped;                  /* also disk types the VM has no per-VM limit for */
	const char *currency;           /* NULL: that of the first price in scope (and region) */
	const char *region_from, *currency_from; /* the settings file they came from; NULL */
	long long now;                  /* for the prices' age, seconds since 1970; 0 = the clock */
	bool read_hit_set;              /* read_hit was given: it wins over the working set */
	double working_set;             /* bytes; with a VM's cache size it gives the hits */
	enum model_cache_state cache_state;
	struct model_skew skew;
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
	char no_vm_limit[96];           /* disk types left out: no per-VM limit, comma-separated */
	const char *currency;           /* every answer's (the one asked for, or found) */
	char unmet[512];                /* when n == 0: the requirement no configuration meets */
	bool only_unpriced;             /* n == 0 though some meet it: none of them has a price */
	const char *unpriced_provider;  /* the provider of the first that meets it unpriced */
};

/*
 * Searches every VM size x disk type x disk count of the catalogs in scope, each per-GiB or
 * provisioned type sized at its cheapest for the count, and keeps the cheapest configuration
 * of each VM size and disk type that the model says meets every target: the `top` cheapest of
 * them, by monthly cost. A host cache is tried only when read_hit > 0 or a working set is
 * given, and only when the uncached configuration falls short. Pruning uses only bounds that cannot skip a cheaper
 * answer: a VM's price alone, n disks' least price, and limits more disks cannot raise.
 */
int plan_search(const struct catalog *c, const struct plan_target *t, struct plan_result *r);
void plan_result_free(struct plan_result *r);

#endif
