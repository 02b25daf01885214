#ifndef IORATE_MODEL_COST_H
#define IORATE_MODEL_COST_H
#include <stdbool.h>
#include <stdint.h>

#include "model/catalog.h"
#include "model/predict.h"

/*
 * Prices. An upload costs one write transaction per chunk plus storage per GB-month (as the
 * StorSimple calculator post computes it), plus, where Azure bills them (its "Blob storage
 * pricing" page and "Access tiers for blob data"), the geo-replication data transfer of every
 * GB written to a GRS or RA-GRS account and the early deletion of data kept less than its
 * tier's minimum (cool 30 days, cold 90, archive 180); a configuration costs its VM per hour
 * and its disks per month. Azure bills a "GB" of storage as 2^30 bytes, so GB here means GiB.
 */

/* A month of storage is 30 days: the minimum retentions are in days, prices per month. */
#define COST_DAYS_PER_MONTH 30

/* The days a tier bills at least (Azure "Access tiers for blob data"): 0 for none. */
unsigned cost_min_days(const char *tier);
/* Whether a redundancy copies each write to a second region, billed per GB (GRS, RA-GRS). */
bool cost_geo_replicated(const char *redundancy);

struct cost_upload {
	uint64_t data, chunk;       /* bytes; chunk 0 = 512 KiB */
	double write_per_10k;       /* price per 10,000 write transactions; < 0 = from catalog */
	double per_gb_month;        /* < 0 = from catalog */
	double months;              /* 0 = 1 */
	const char *tier, *redundancy, *region, *currency;
	long long now;              /* for the price's age, seconds since 1970; 0 = the clock */
	double keep_days;           /* days the data stays before it is deleted or moved to
				       another tier, and is stored; 0: months x 30 (assumed) */
	const char *region_from, *currency_from; /* the settings file they came from; NULL */
	bool geo_given;             /* geo_per_gb given (else from the catalog) */
	double geo_per_gb;          /* geo-replication data transfer per GB written */
};

struct cost_upload_result {
	uint64_t transactions;
	double gib, transaction_cost, storage_cost, total;
	double write_per_10k, per_gb_month, months;
	const char *currency, *price_source; /* NULL when both prices were given */
	const char *price_date, *price_region; /* of the catalog price; NULL when given */
	int age_days;               /* of the catalog price; -1 unknown */
	bool stale;                 /* a catalog price older than 90 days or of unknown age */
	/* Geo-replication (GRS, RA-GRS): every GB written is copied to the paired region. */
	bool geo;                   /* the redundancy replicates */
	double geo_per_gb;          /* < 0: unknown (not in the price list nor given) */
	double geo_cost;            /* 0 when unknown: the total leaves it out and says so */
	/* Early deletion: a tier's minimum retention, billed when the data goes earlier. */
	unsigned min_days;          /* the tier's; 0: none */
	double keep_days;           /* as given, or months x 30 */
	bool keep_given;            /* given (--keep-days); else the months stored, assumed */
	double early_days, early_cost;      /* min_days - keep_days when positive, else 0 */
};

/* -ENOENT (err says which) when a price is neither given nor in the catalog. */
int cost_upload(const struct catalog *c, const struct cost_upload *u,
		struct cost_upload_result *r, char *err, size_t errlen);

/*
 * Room for every line a configuration can have: the VM's, and for each disk group a monthly
 * price, GiB, IOPS (one line up to each price step and one above the last), MB/s, operations.
 */
#define COST_MAX_LINES (1 + MODEL_MAX_GROUPS * (5 + CAT_PRICE_STEPS))
/* What a line prices, as a code and its figures: report/ words it (model_words_cost()). */
enum cost_line_kind {
	COST_LINE_VM_HOURS,         /* name: the VM; a: hours a month; price: per hour */
	COST_LINE_MONTH,            /* count x name at price per month */
	COST_LINE_GIB,              /* a GiB each, price per GiB-month */
	COST_LINE_IOPS,             /* a IOPS above b (the free baseline or a price step) */
	COST_LINE_MBPS,             /* a MB/s above b (0: no baseline); c: a in MiB/s when mib */
	COST_LINE_OPS,              /* the group's a IOPS, b operations each, c hours; capped */
	COST_LINE_OPS_UNCOUNTED,    /* priced per operation, but no I/O rate was given */
};

struct cost_line {
	enum cost_line_kind kind;
	const char *name;           /* the VM or disk type */
	unsigned count;             /* disks of the group */
	double price;               /* the unit price, as the catalog or the command line gave it */
	double a, b, c;
	bool mib, capped;
	double amount;              /* per month */
	const char *source;
	const char *date;           /* of the price ("given" when given on the command line) */
	int age_days;               /* of the price at the query's now; -1 unknown or given */
	bool stale;                 /* a catalog price older than 90 days or of unknown age */
};

struct cost_breakdown {
	struct cost_line lines[COST_MAX_LINES];
	unsigned nlines;
	double total;               /* per month */
	const char *currency;
	const char *region;         /* of the VM's price (the region asked for, or the catalog's) */
	const char *region_from, *currency_from; /* the query's */
	unsigned nstale;            /* lines whose price is stale */
};

/* Which prices a configuration is priced at. */
struct cost_query {
	double hours;               /* VM hours a month; 0 = 730 */
	const char *region;         /* NULL: the first price found, and the same for the rest */
	const char *currency;       /* likewise */
	double vm_hour, disk_month; /* given prices; < 0: from the catalog */
	double iops;                /* I/Os a second the volume does while the VM runs, each one
				       operation of a disk type priced per operation (Azure Standard
				       SSD and HDD); 0 = not known: such prices are named, at 0 */
	uint64_t io_bytes;          /* the size of those I/Os (a disk type's ops_unit_kib counts
				       a larger one as several); 0 = one operation each */
	long long now;              /* for the prices' age, seconds since 1970; 0 = the clock */
	const char *region_from, *currency_from; /* the settings file region and currency came
						    from (shown with the total); NULL */
};

/*
 * The monthly cost of a configuration: VM per hour x hours plus each disk's monthly price
 * (fixed sizes) or per-GiB, per-IOPS and per-MB/s prices above the free baseline
 * (provisioned types), and the operations of types priced per operation (query's iops, shared
 * among the disks of the volume). Every catalog price is of one region and currency: those
 * asked for, else those of the first price found (the VM's), so a total never mixes currencies.
 * -ENOENT when a price is missing.
 */
int cost_config(const struct catalog *c, const struct model_config *m,
		const struct cost_query *q, struct cost_breakdown *b, char *err, size_t errlen);

/* The current time for price ages (now, or the clock when now is 0). */
long long cost_now(long long now);

#endif
