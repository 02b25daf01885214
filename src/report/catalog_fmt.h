#ifndef IORATE_REPORT_CATALOG_FMT_H
#define IORATE_REPORT_CATALOG_FMT_H
#include <stdio.h>

#include "model/catalog.h"
#include "model/import.h"
#include "model/prices.h"
#include "report/format.h"

/*
 * The outputs of 'iorate catalog' (docs/catalog.md), text and JSON, entries of each subcommand's
 * table (below). Catalog files may come from the user (--catalog): their text reaches
 * the terminal escaped. Each writer returns 0 or -errno (-ENOMEM, -EIO, -ENOENT).
 */

/*
 * 'catalog list [CATALOG]': every catalog, or the entries of one (only; NULL for all), and the
 * directories its installed and user layers were read from (NULL: none).
 */
struct catalog_list_report {
	const struct catalog *catalog;
	const char *only;
	const char *installed, *user;
};

/*
 * Text: a line per catalog and the layers' directories; with only, its VM sizes, disk types
 * and accounts too, each with its caps and first price. Then the figures the installed and user
 * layers give otherwise than the layers below them.
 */
int catalog_fmt_list_text(FILE *f, const struct catalog_list_report *l);
/*
 * [{kind "vm"|"disk", catalog, name, source, date, layer, file[, differs]}], for every entry
 * (or only's); differs: the figures its layer gives otherwise than the one below it.
 */
int catalog_fmt_list_json(FILE *f, const struct catalog_list_report *l);

/* 'catalog show NAME': one VM size or disk type (the other NULL), every field as written. */
struct catalog_show_report {
	const struct catalog *catalog;
	const struct cat_vm *vm;
	const struct cat_disk *disk;
};

/*
 * Text: what it is and where from (catalog, date, sources, its layer unless built-in), then one
 * line a field: its value with its unit, and which source gives it (latencies and observed caps
 * may have their own); the figures its layer changed; its prices as written, dated and sourced.
 */
int catalog_fmt_show_text(FILE *f, const struct catalog_show_report *s);
/* The entry as written in its catalog file, plus "catalog", "layer", "prices", "differs". */
int catalog_fmt_show_json(FILE *f, const struct catalog_show_report *s);

/*
 * 'catalog import FILE...': each file and what it was, the entries new, equal to and
 * differing from the built-in catalog, each differing figure with both values, and the files
 * written.
 */
int catalog_fmt_import_text(FILE *f, const struct import *im);
int catalog_fmt_import_json(FILE *f, const struct import *im);

/* 'catalog prices': what was read, what was kept where, and how much of the catalog it prices. */
struct catalog_prices_report {
	const struct prices_request *request;
	const struct prices_result *result;
	const char *currency;       /* as kept */
	unsigned catalog_vms, priced_vms;       /* VM sizes of the provider's catalogs */
	unsigned catalog_disks, priced_disks;   /* disk types */
};
int catalog_fmt_prices_text(FILE *f, const struct catalog_prices_report *p);
int catalog_fmt_prices_json(FILE *f, const struct catalog_prices_report *p);

/* The formats of 'iorate catalog list', 'show', 'import' and 'prices', a table each. */
struct catalog_list_format {
	struct report_format f;
	int (*write)(FILE *f, const struct catalog_list_report *l);
};
struct catalog_show_format {
	struct report_format f;
	int (*write)(FILE *f, const struct catalog_show_report *s);
};
struct catalog_import_format {
	struct report_format f;
	int (*write)(FILE *f, const struct import *im);
};
struct catalog_prices_format {
	struct report_format f;
	int (*write)(FILE *f, const struct catalog_prices_report *p);
};
extern const struct report_formats catalog_list_formats, catalog_show_formats,
	catalog_import_formats, catalog_prices_formats;

#endif
