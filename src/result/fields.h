#ifndef IORATE_RESULT_FIELDS_H
#define IORATE_RESULT_FIELDS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/result.h"

/*
 * The flat blocks of a run's JSON as tables: one row per key, in the order the JSON writes
 * them. The writer (result_json.c) and the reader (result_json_read.c) walk the same rows, so a
 * field added to a block is written and read back alike; CSV takes its columns from the
 * direction's figures, and tests hold docs/json.md to the rows. A nested object or an array (a
 * histogram, params.shape) is a row with its own writer and reader.
 */

/* What a key holds, as docs/json.md's "type" column says it. */
enum field_type {
	FIELD_COUNT,     /* integer: I/Os, threads, a number of things */
	FIELD_BYTES,     /* integer: bytes */
	FIELD_NS,        /* integer: nanoseconds */
	FIELD_REAL,      /* number: seconds, rates, percents; null when not finite */
	FIELD_BOOL,
	FIELD_STRING,
	FIELD_ENUM,      /* a string, one of names[] */
	FIELD_OBJECT,    /* its own writer and reader */
	FIELD_ARRAY,     /* its own writer and reader */
};

/* How the structure keeps it. */
enum field_store {
	STORE_NONE,      /* not kept as one member: the row's put() and get() */
	STORE_U64,       /* uint64_t: a JSON integer, a string of digits above 2^63 - 1 */
	STORE_UINT,      /* unsigned (or an enum): a JSON integer from 0 to max */
	STORE_DOUBLE,
	STORE_BOOL,
	STORE_STRP,      /* char *, NULL written as null */
	STORE_STRBUF,    /* char[size] */
};

enum {
	FIELD_NULLABLE = 1 << 0,  /* may be null: a NULL string, a non-finite real, an "" buffer */
	FIELD_EMPTY_NULL = 1 << 1, /* an empty buffer is written as null */
	FIELD_OPTIONAL = 1 << 2,  /* may be absent (runs written before it): the default stays */
	FIELD_DERIVED = 1 << 3,   /* written for readers, computed from another field: not read */
	FIELD_ABSENT = 1 << 4,    /* absent: the value is absent_is (a default older runs had) */
	FIELD_MIN_NULL = 1 << 5,  /* STORE_U64: UINT64_MAX (none recorded) is written as null */
	FIELD_FIGURE = 1 << 6,    /* a direction's raw row the figures write (result_fields_fig) */
	FIELD_BY_CALLER = 1 << 7, /* written and read by the block's own code, after the walk */
	FIELD_HAS = 1 << 8,       /* STORE_U64: null unless the bool at .has holds (read: set) */
};

struct rd;

struct result_field {
	const char *name;               /* the JSON key */
	enum field_type type;
	const char *unit;               /* as docs/json.md states it; NULL for none */
	enum field_store store;
	size_t off;                     /* offsetof() in the block's structure */
	size_t size;                    /* STORE_STRBUF: of the buffer */
	unsigned max;                   /* STORE_UINT: the largest value read */
	const char *const *names;       /* FIELD_ENUM: the words, indexed by the value */
	unsigned nnames;
	unsigned since;                 /* the schema that brought it; 0: the first (1) */
	unsigned flags;
	uint64_t absent_is;             /* FIELD_ABSENT */
	double div;                     /* > 0: an integer written as a real, it / div */
	size_t has;                     /* FIELD_HAS: offsetof() the bool */
	/* Written only where this holds (NULL: always); the reader takes it as optional. */
	bool (*when)(const void *base);
	/* STORE_NONE: the JSON value (a new reference; NULL out of memory) and its reading. */
	json_t *(*put)(const void *base, int *err);
	void (*get)(struct rd *rd, const json_t *o, const char *key, void *base);
	/* CSV: the column's name (the direction's figures only), and a real's decimals there. */
	const char *csv;
	int csv_decimals;
};

/* A table: its rows and how many. */
struct result_fields {
	const char *block;              /* where it is in the JSON */
	/* Where docs/json.md describes it: the section's heading and its table (1: the first). */
	const char *doc;
	unsigned doc_table;
	const struct result_field *rows;
	size_t n;
};

/* params (struct result: the job as run, engine and engine_why) and params.shape (its job). */
extern const struct result_fields result_fields_params;
extern const struct result_fields result_fields_shape;
/* A direction's figures (struct dir_summary): every direction object and `total` holds them. */
extern const struct result_fields result_fields_fig;
/* A direction's raw counters (struct dir_stats), after the figures in read, write and trim. */
extern const struct result_fields result_fields_dir;
/* targets[]'s scalars (struct target_result), before its directions. */
extern const struct result_fields result_fields_target;
/* diskstats[].kernel (struct disk_counts) and diskstats[].iorate (struct device_view). */
extern const struct result_fields result_fields_disk;
extern const struct result_fields result_fields_view;
/* host (struct host_info) and cpu (struct cpu_usage: the run's, a rank's, a group's). */
extern const struct result_fields result_fields_host;
extern const struct result_fields result_fields_cpu;

/* Every table above, for the tests that hold the docs and the round trip to them. */
extern const struct result_fields *const result_fields_all[];
extern const size_t result_fields_nall;

/* A row's value as a double (a number row of the direction's figures, for CSV). */
double result_field_real(const struct result_field *f, const void *base);
uint64_t result_field_u64(const struct result_field *f, const void *base);

#endif
