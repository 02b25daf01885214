#ifndef IORATE_REPORT_CALC_HTML_H
#define IORATE_REPORT_CALC_HTML_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "model/catalog.h"
#include "model/predict.h"

/*
 * The cost calculator page of 'iorate cost upload|config --html FILE': one self-contained HTML
 * file (inline CSS and script, nothing fetched) whose pull-downs hold the catalog's prices and
 * whose script computes in the browser what 'iorate cost' prints, with the same formulas,
 * rounding and lines (docs/cost.md). The data the script works from is JSON built here from
 * the catalog with the model's own lookups: which price 'cost' would find for each choice, and
 * how each disk choice resolves on each VM, so the script only does the arithmetic.
 */

/* What the upload part opens with: the command line's values (0 or NULL: the defaults). */
struct calc_upload_init {
	uint64_t data, chunk;          /* bytes; 0: none given (the page starts at 1 TiB, 512 KiB) */
	const char *tier, *redundancy;
	const char *region, *currency; /* the ones priced at; NULL: the first priced */
	double months;                 /* 0: 1 */
	double write_per_10k, per_gb_month; /* given prices; < 0: from the catalog */
	bool geo_given;                /* geo_per_gb given */
	double geo_per_gb;
	double keep_days;              /* 0: not given (the months of storage) */
};

/* What the configuration part opens with. */
struct calc_config_init {
	const struct model_config *config;  /* the VM and disk groups given; NULL: none */
	const char *provider;               /* without config: the provider to open on; NULL */
	const char *region, *currency;      /* the ones priced at; NULL: the first priced */
	double hours;                       /* 0: 730 */
	double vm_hour, disk_month;         /* given prices; < 0: from the catalog */
	double iops;                        /* the volume's I/O rate for operations; 0: none */
	uint64_t io_bytes;                  /* the size of those I/Os; 0: 4 KiB */
};

struct calc_page {
	const struct catalog *cat;
	bool config_first;                  /* 'cost config' wrote it: that part opens */
	struct calc_upload_init upload;
	struct calc_config_init config;
	long long now;                      /* the prices' ages are at this time; 0: the clock */
};

/* The page's data (schema in docs/cost.md): a new reference, or NULL when out of memory. */
json_t *calc_data(const struct calc_page *p);

/*
 * JSON text made safe inside <script type="application/json">: '<', '>' and '&' become \u003c,
 * \u003e, \u0026 (only strings can hold them), so no string closes the element or opens a
 * comment; the text is ASCII (U+2028 and U+2029 escaped too). malloc'd, NULL when out of memory.
 */
char *calc_json_for_script(const json_t *v);

/* Writes the page: 0 or -errno (-ENOMEM, -EIO). */
int calc_html_write(FILE *f, const struct calc_page *p);

#endif
