#ifndef IORATE_MODEL_CATALOG_INT_H
#define IORATE_MODEL_CATALOG_INT_H
/*
 * Shared by the catalog's own files (catalog.c, catalog_series.c; defined in catalog_read.c,
 * the bottom): the table-driven reading of one entry, so every kind of entry refuses unknown and
 * mistyped fields the same way.
 */
#include <stddef.h>

#include <jansson.h>

#include "model/catalog.h"

#define MIB_MB 1.048576 /* 1 MiB/s in MB/s */

enum ftype {
	F_STR, F_NUM, F_MB, F_UINT, F_BOOL, F_ARR, F_SKIP,
	F_MBARR,    /* MB/s figures in an array, read by the caller */
	F_CALLER,   /* other figures read by the caller */
	F_TEXT,     /* a string only catalog show reads (a figure's own source): checked, not kept */
};

struct field {
	const char *key;
	enum ftype type;
	size_t off;
};

#define FD(t, f, ty) {.key = #f, .type = ty, .off = offsetof(struct t, f)}

/* The fields of one entry of caps_by_family (and of a series row, which adds its vCPUs). */
extern const struct field catalog_fcaps_fields[];

/*
 * Reads the fields of one entry into dst. `what` names the entry in messages, e.g.
 * "vms[3] 'DS2'". MB/s fields are scaled when the entry says a figure is in MiB/s.
 */
int catalog_read_fields(json_t *obj, const struct field *tab, void *dst, const char *file,
			const char *what, char *err, size_t errlen);
/* -EINVAL, saying so, when a required string is missing or empty. */
int catalog_need(const char *val, const char *field, const char *file, const char *what,
		 char *err, size_t errlen);
/* Makes room for element n of an array of size-byte elements (its count is n), zeroed. */
int catalog_grow(void **arr, size_t n, size_t size);
/* "vms[3] 'DS2'" (or "vms[3]" when the entry has no name). */
void catalog_entry_name(char *what, size_t len, const char *list, size_t i, json_t *obj);

/* The built-in files alone, without catalog_finish() (the layers above come first). */
int catalog_load_builtin_files(struct catalog *c, char *err, size_t errlen);

/* Reads one entry of "series" (docs/catalog.md). */
int catalog_load_series(struct catalog *c, json_t *o, const char *cat, const char *file,
			size_t i, char *err, size_t errlen);

/* What a MB/s field of obj is multiplied by when read: MIB_MB where its unit is MiB/s, else 1. */
double catalog_field_scale(json_t *obj, const char *key);

#endif
