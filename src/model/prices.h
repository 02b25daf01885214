#ifndef IORATE_MODEL_PRICES_H
#define IORATE_MODEL_PRICES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/*
 * 'iorate catalog prices': the providers' public price lists, read without a key, kept as a
 * catalog of prices in the user's catalog directory (prices-PROVIDER-REGION-CURRENCY.json), which
 * every model command loads before the built-in prices (docs/catalog.md, "Prices"):
 *   azure  the Azure Retail Prices API (prices.azure.com/api/retail/prices), $filter by
 *          service, region and pay-as-you-go, currencyCode, following NextPageLink;
 *   aws    the AWS Price List Bulk API: the service index (offers/v1.0/aws/index.json), each
 *          offer's region index (AmazonEC2, and AmazonEBS when the index lists it), and the
 *          region's offer file as CSV, read as it arrives (it is gigabytes for some regions);
 *   gcp    refused: Google's Cloud Billing Catalog API needs an API key.
 */

/*
 * A download's limits. Every URL is checked before it is requested (model/url.h): https (http
 * only from 127.0.0.1), and a page link or index entry only to the endpoint's scheme, host and
 * port, each once. Azure's largest query of one region (its Virtual Machines) is of the order
 * of ten pages of 1,000 items: 1,000 pages leaves two orders of magnitude. 120 s reads Azure's
 * pages of a region many times over; AWS's largest offer files (gigabytes) need a longer one.
 */
#define PRICES_MAX_PAGES 1000
#define PRICES_TIMEOUT_NS (120 * 1000000000ull)

/* What has been read so far, for a progress line. */
struct prices_progress {
	const char *what;           /* "Virtual Machines", "AmazonEC2 us-east-1", ... */
	unsigned long pages;        /* pages (Azure) or files (AWS) read */
	unsigned long items;        /* price items or CSV rows read */
	unsigned long kept;         /* prices kept */
	unsigned long long bytes;
};
typedef void (*prices_progress_fn)(void *ctx, const struct prices_progress *p);

struct prices_request {
	const char *provider;       /* "azure", "aws" or "gcp" */
	const char *region;         /* "northeurope", "us-east-1" */
	const char *currency;       /* "GBP"; NULL: USD */
	const char *endpoint;       /* scheme://host[:port] to read from; NULL: the provider's */
	const char *dir;            /* where the price list is kept */
	const char *date;           /* today, "YYYY-MM-DD": the prices' date */
	uint64_t timeout_ns;        /* the whole download's limit; 0: PRICES_TIMEOUT_NS */
	prices_progress_fn progress;
	void *ctx;
};

struct prices_result {
	char *path;                 /* the file written (malloc'd) */
	char url[1024];             /* the first request, the prices' source */
	unsigned vms, disks, storage;       /* prices kept, by kind */
	unsigned long items, pages;
	/* What stays in use when the download fails: the file kept from before. */
	char *old_path;
	char old_date[32];
	unsigned old_count;
};

/*
 * Downloads, converts and keeps the price list. 0, or a negative errno with err saying what
 * failed (the request and its error, or the malformed answer): nothing is written then, and
 * old_* say what is kept from an earlier download. -ENOTSUP for GCP, -EINVAL for a bad region
 * or currency.
 */
/*
 * The price key of an entry of a price list: set once, the first row found for it kept. 0, or
 * -ENOMEM (also for a NULL entry, one that could not be made).
 */
int prices_set_first(json_t *e, const char *key, double v);

/*
 * A price kept under key (per_hour, per_month, per_gib_month, ...; NULL: any price), listed as
 * listed and kept as kept (an hourly price kept per month is 730 times it): 0, or -EINVAL with
 * err naming what (the meter, SKU or entry) and the price when it is negative, NaN, infinite
 * or above the key's bound (prices_bound(): INFINITY for NULL).
 */
double prices_bound(const char *key);
int prices_check(const char *key, double listed, double kept, const char *what,
		 const char *currency, char *err, size_t errlen);

int prices_fetch(const struct prices_request *rq, struct prices_result *r, char *err,
		 size_t errlen);
void prices_result_free(struct prices_result *r);

/*
 * The closest regions (or currencies) of a provider's price list to word, for "did you mean";
 * "" when the list has word or nothing is close.
 */
const char *prices_near(const char *provider, bool currency, const char *word, char *out,
			size_t len);

/* The file a provider's prices for a region and currency are kept in, under dir (malloc'd). */
char *prices_path(const char *dir, const char *provider, const char *region,
		  const char *currency);

/* ---- the readers, fed by prices_fetch and by the tests and fuzz targets ---- */

/* Azure Retail Prices API pages, gathered by meter into catalog prices. */
struct prices_azure {
	const char *region, *currency, *source, *date;
	json_t *vms, *disks, *storage;  /* objects: name -> price entry */
	double ops_ssd, ops_hdd;        /* per 10,000 operations of Standard SSD, HDD; < 0: none */
	double geo;                     /* geo-replication transfer per GB; < 0: none */
	unsigned long items;
};
int prices_azure_init(struct prices_azure *a);
/*
 * Reads one page ({"Items": [...], "NextPageLink": ...}); *next gets the next page's URL
 * (malloc'd) or NULL after the last. -EINVAL when the page is malformed or in another currency.
 */
int prices_azure_page(struct prices_azure *a, const char *text, char **next, char *err,
		      size_t errlen);
/* The prices gathered, as a catalog's "prices" array (a new reference). */
json_t *prices_azure_list(const struct prices_azure *a, unsigned *vms, unsigned *disks,
			  unsigned *storage);
void prices_azure_release(struct prices_azure *a);

/* The offer file URL of region in an AWS region index (region_index.json), malloc'd. */
int prices_aws_region_url(const char *index, const char *region, char **url, char *err,
			  size_t errlen);
/* The region index URL of an offer ("AmazonEC2") in the service index, or NULL if unlisted. */
int prices_aws_offer_url(const char *index, const char *offer, char **url, char *err,
			 size_t errlen);

/* An AWS offer file in CSV, fed in pieces of any size. */
struct prices_aws {
	const char *region, *source, *date;
	json_t *vms, *disks;        /* objects: name -> price entry */
	double io2_tier[2];         /* io2's IOPS above 32,000 and 64,000; < 0: not read */
	char *line;                 /* a line not yet complete */
	size_t len, cap;
	int *col;                   /* the header's column of each field read (-1: none) */
	bool header;                /* the header row has been read */
	unsigned long rows;
};
int prices_aws_init(struct prices_aws *a);
int prices_aws_feed(struct prices_aws *a, const char *data, size_t len, char *err,
		    size_t errlen);
/* Ends the file (a last line without a newline); -EINVAL if it had no header row. */
int prices_aws_finish(struct prices_aws *a, char *err, size_t errlen);
json_t *prices_aws_list(const struct prices_aws *a, unsigned *vms, unsigned *disks);
void prices_aws_release(struct prices_aws *a);

#endif
