#ifndef IORATE_MODEL_COST_H
#define IORATE_MODEL_COST_H
#include <stdint.h>

#include "model/catalog.h"
#include "model/predict.h"

/*
 * Prices. An upload costs one write transaction per chunk plus storage per GB-month (the
 * StorSimple calculator of seed 003); a configuration costs its VM per hour and its disks per
 * month. Azure bills a "GB" of storage as 2^30 bytes, so GB here means GiB.
 */

struct cost_upload {
	uint64_t data, chunk;       /* bytes; chunk 0 = 512 KiB */
	double write_per_10k;       /* price per 10,000 write transactions; < 0 = from catalog */
	double per_gb_month;        /* < 0 = from catalog */
	double months;              /* 0 = 1 */
	const char *tier, *redundancy, *region;
};

struct cost_upload_result {
	uint64_t transactions;
	double gib, transaction_cost, storage_cost, total;
	double write_per_10k, per_gb_month, months;
	const char *currency, *price_source; /* NULL when both prices were given */
};

/* -ENOENT (err says which) when a price is neither given nor in the catalog. */
int cost_upload(const struct catalog *c, const struct cost_upload *u,
		struct cost_upload_result *r, char *err, size_t errlen);

#define COST_MAX_LINES 12
struct cost_line {
	char what[96];
	double amount;              /* per month */
	const char *source;
};

struct cost_breakdown {
	struct cost_line lines[COST_MAX_LINES];
	unsigned nlines;
	double total;               /* per month */
	const char *currency;
};

/*
 * The monthly cost of a configuration: VM per hour x hours (730 a month by default) plus each
 * disk's monthly price (fixed sizes) or per-GiB, per-IOPS and per-MB/s prices above the free
 * baseline (provisioned types). vm_hour and disk_month < 0 take catalog prices; region NULL
 * takes any. -ENOENT when a price is missing.
 */
int cost_config(const struct catalog *c, const struct model_config *m, double hours,
		const char *region, double vm_hour, double disk_month, struct cost_breakdown *b,
		char *err, size_t errlen);

#endif
