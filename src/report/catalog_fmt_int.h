#ifndef IORATE_REPORT_CATALOG_FMT_INT_H
#define IORATE_REPORT_CATALOG_FMT_INT_H
/*
 * Shared by the catalog's outputs: catalog_fmt.c (list, show, import, prices downloaded) and
 * catalog_layer_fmt.c (each entry's prices, and the figures one layer gives otherwise than the
 * layer below it).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "model/catalog.h"

/* "IOPS", "MiB/s", "MB/s per GiB" ("mbps_per_gib"), or "" when a field's name says no unit. */
const char *catalog_fmt_key_unit(const char *key, bool mib, char *buf, size_t len);

/*
 * A figure of an entry with its unit, as written: "5000 IOPS", "240 MiB/s", "yes", "\"ssd\"",
 * "not given" (v NULL).
 */
const char *catalog_fmt_figure(const json_t *entry, const char *key, const json_t *v,
			       char *buf, size_t len);

/*
 * The first price of a VM ("vm") or disk ("disk"), briefly, for a line of 'catalog list':
 * "0.096 USD per hour, us-east-1", "0.08 USD per GiB-month + 0.005 per IOPS-month, us-east-1",
 * or "no price".
 */
const char *catalog_fmt_price_brief(const struct catalog *c, const char *kind,
				    const char *catalog, const char *name, char *buf, size_t len);

/* Every price of a VM or disk, one line a figure, exactly as written, with its date and source. */
void catalog_fmt_show_prices(FILE *f, const struct catalog *c, const char *kind,
			     const char *catalog, const char *name);

/* The prices of a VM or disk as their files wrote them: a JSON array (maybe empty), or NULL. */
json_t *catalog_fmt_entry_prices(const struct catalog *c, const char *kind, const char *catalog,
				const char *name);

/*
 * The figures of an entry (kind, catalog, name) that its layer gives otherwise than the one
 * below it: a block of 'catalog show' (nothing when none differ).
 */
void catalog_fmt_show_conflicts(FILE *f, const struct catalog *c, const char *kind,
				const char *catalog, const char *name);

/* All of them (of one catalog, or all when only is NULL), after 'catalog list'. */
void catalog_fmt_list_conflicts(FILE *f, const struct catalog *c, const char *only);

/*
 * [{field, unit, layer, value, below, below_value}] for an entry, for 'catalog list --json';
 * NULL when none differ.
 */
json_t *catalog_fmt_conflicts_json(const struct catalog *c, const char *kind,
				   const char *catalog, const char *name);

#endif
