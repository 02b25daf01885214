#ifndef IORATE_RESULT_RESULT_JSON_INT_H
#define IORATE_RESULT_RESULT_JSON_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "result/fields.h"
#include "result/result_set.h"

/*
 * Shared by the files of the result's JSON (result_json*.c, fields.c); not part of its API.
 * The names of the job's enums as the JSON spells them, indexed by the enum.
 */
extern const char *const result_json_pattern[2];
extern const char *const result_json_cache[4];
extern const char *const result_json_dist[7];
extern const char *const result_json_files[3];
extern const char *const result_json_fill[2];
extern const char *const result_json_arrival[3];

/*
 * A reader of a JSON run. Every rd_ function does nothing once one has failed, so a reader is a
 * flat list of calls checked once at the end; the first failure names the key it was reading
 * ("targets[1].read.hist[3]: ...") from path, which rd_enter() and rd_leave() keep.
 */
struct rd {
	char *err;
	size_t errlen;
	int rc;                  /* 0, or the first failure */
	int schema;              /* of the run being read */
	char path[192];
};

/* Records the failure of key (NULL: of path itself) with a message; returns rd->rc. */
int rd_fail(struct rd *rd, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int rd_nomem(struct rd *rd);
/* Appends key (or "[i]" when key is NULL) to path; returns what rd_leave() restores. */
size_t rd_enter(struct rd *rd, const char *key, size_t i);
/* A count: a JSON integer >= 0, or decimal digits in a string (above 2^63 - 1). 0 or -EINVAL. */
int rd_u64_of(const json_t *v, uint64_t *out);
/* The string of key, NULL for null when nullable (*isnull set); NULL (recorded) otherwise. */
const char *rd_str_of(struct rd *rd, const json_t *o, const char *key, bool nullable,
		      bool *isnull);
void rd_leave(struct rd *rd, size_t mark);

/* The member, or NULL after recording that it is missing. */
json_t *rd_get(struct rd *rd, const json_t *o, const char *key);
json_t *rd_obj(struct rd *rd, const json_t *o, const char *key);
json_t *rd_arr(struct rd *rd, const json_t *o, const char *key);
/* A count: an integer >= 0, or a string of decimal digits (result_json_u64()). */
void rd_u64(struct rd *rd, const json_t *o, const char *key, uint64_t *v);
void rd_uint(struct rd *rd, const json_t *o, const char *key, unsigned max, unsigned *v);
/* A number, or null for NaN (result_json_real()). */
void rd_double(struct rd *rd, const json_t *o, const char *key, double *v);
void rd_bool(struct rd *rd, const json_t *o, const char *key, bool *v);
/* A string that fits buf; null reads as "" when nullable. */
void rd_strbuf(struct rd *rd, const json_t *o, const char *key, char *buf, size_t size,
	       bool nullable);
/* A string copied to *v, or NULL for null when nullable. */
void rd_strdup(struct rd *rd, const json_t *o, const char *key, char **v, bool nullable);
/* One of names[0..n) (the index into *v). */
void rd_enum(struct rd *rd, const json_t *o, const char *key, const char *const *names,
	     unsigned n, unsigned *v);
/* Strings of an array of strings (notes, the job's targets) added with add(); 0 or -ENOMEM. */
void rd_strings(struct rd *rd, const json_t *o, const char *key, void *ctx,
		int (*add)(void *ctx, const char *s));

/*
 * Schema 1 (result_json_v1.c). Its runs are read by the same readers as schema 2's, which in
 * schema 1 take a missing member (or a null object) as absent, leaving the field as
 * result_init() set it; these check what schema 1 always held, read what differs (directions
 * and series points, from their figures) and fill in what it lacked.
 */
void result_json_v1_check(struct rd *rd, const json_t *o);
void result_json_v1_dir(struct rd *rd, const json_t *x, struct dir_stats *d);
void result_json_v1_point(struct rd *rd, const json_t *x, uint64_t bs, struct series_point *p);
void result_json_v1_finish(struct rd *rd, const json_t *o, struct result *r);

/*
 * Builders shared by the writers (result_json.c, result_json_doc.c): each records the first
 * allocation failure in *err and carries on, so a writer is a flat list of calls checked once.
 */
void result_json_put(json_t *o, const char *key, json_t *v, int *err);
void result_json_append(json_t *a, json_t *v, int *err);
/* A direction's figures (ios, bytes, errors, rates, lat_us), as every `total` object holds. */
json_t *result_json_figures(const struct dir_summary *s, int *err);
json_t *result_json_cpu(const struct cpu_usage *c, int *err);
/* A `diskstats` array: each device's counters, iorate's I/O to it, its figures. */
json_t *result_json_views(const struct device_view *v, unsigned n, int *err);
/* o's `diskstats`, when it has one, appended to *views (result_json_dev.c). */
void result_json_read_views(struct rd *rd, const json_t *o, struct device_view **views,
			    unsigned *n);

/*
 * The run at o, read into r (result_init'ed here; released on failure), its keys named after
 * prefix in messages ("jobs[1].params.bs: missing"). Schema 1 or 2.
 */
int result_json_read_run(const json_t *o, const char *prefix, struct result *r, char *err,
			 size_t errlen);
void result_json_read_cpu(struct rd *rd, const json_t *o, struct cpu_usage *c);

/* params.ends and the run's errnos (result_json_ends.c); absent: the defaults. */
json_t *result_json_ends(const struct job *j, int *err);
json_t *result_json_errnos(const struct result *r, int *err);
void result_json_read_ends(struct rd *rd, const json_t *p, struct job *j);
void result_json_read_errnos(struct rd *rd, const json_t *o, struct result *r);
json_t *result_json_ioprio(const struct job *j);
/* params.cmdprio: null, or its three options. */
json_t *result_json_cmdprio(const struct job *j, int *err);
void result_json_read_cmdprio(struct rd *rd, const json_t *p, struct job *j);
void result_json_read_ioprio(struct rd *rd, const json_t *p, struct job *j);
/* params.data: what writes carry (result_json_ends.c); absent: the defaults. */
json_t *result_json_data(const struct job *j, int *err);
void result_json_read_data(struct rd *rd, const json_t *p, struct job *j);
/* params.steady: --steady and its window, or null (result_json_ends.c); absent: none. */
json_t *result_json_steady(const struct job *j, int *err);
void result_json_read_steady(struct rd *rd, const json_t *p, struct job *j);

/*
 * The rows of a field table (fields.h) written into o from base, in order, or read from o into
 * base; rows with a flag of skip are left out (FIELD_FIGURE: written with the figures).
 */
void result_fields_put(json_t *o, const struct result_fields *t, const void *base, unsigned skip,
		       int *err);
void result_fields_read(struct rd *rd, const json_t *o, const struct result_fields *t,
			void *base, unsigned skip);

/* params' rows with their own code (result_json_params.c); base is the struct result. */
json_t *result_json_put_cap(const void *base, int *err);
void result_json_get_cap(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_vm_cap(const void *base, int *err);
void result_json_get_vm_cap(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_lat_target(const void *base, int *err);
void result_json_get_lat_target(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_engine(const void *base, int *err);
void result_json_get_engine(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_targets(const void *base, int *err);
void result_json_get_targets(struct rd *rd, const json_t *o, const char *key, void *base);

/* params.shape's rows with their own code (result_json_params.c); base is the struct job. */
json_t *result_json_put_bs_read(const void *base, int *err);
void result_json_get_bs_read(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_bs_write(const void *base, int *err);
void result_json_get_bs_write(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_zones(const void *base, int *err);
void result_json_get_zones(struct rd *rd, const json_t *o, const char *key, void *base);
bool result_json_is_sequence(const void *base);
json_t *result_json_put_sequence(const void *base, int *err);
void result_json_get_sequence(struct rd *rd, const json_t *o, const char *key, void *base);
bool result_json_has_sprandom(const void *base);
json_t *result_json_put_sprandom(const void *base, int *err);
void result_json_get_sprandom(struct rd *rd, const json_t *o, const char *key, void *base);
bool result_json_has_zbd(const void *base);
json_t *result_json_put_zbd(const void *base, int *err);
void result_json_get_zbd(struct rd *rd, const json_t *o, const char *key, void *base);
json_t *result_json_put_verify(const void *base, int *err);
void result_json_get_verify(struct rd *rd, const json_t *o, const char *key, void *base);

/* A direction's lat_us (base: struct dir_summary) and hist (struct dir_stats). */
json_t *result_json_put_lat(const void *base, int *err);
json_t *result_json_put_hist(const void *base, int *err);
void result_json_get_hist(struct rd *rd, const json_t *o, const char *key, void *base);

/* Adders for rd_strings(): the job's targets, and the notes (-ERANGE past RESULT_MAX_NOTES). */
int result_json_add_target(void *job, const char *s);
int result_json_add_note(void *r, const char *s);

#endif
