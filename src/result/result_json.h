#ifndef IORATE_RESULT_RESULT_JSON_H
#define IORATE_RESULT_RESULT_JSON_H
#include <stddef.h>

#include <jansson.h>

#include "result/result_set.h"

/*
 * A run's result as JSON and back: the one shape `iorate run --json` prints, the history keeps
 * and sweep and mark embed (docs/json.md). Besides the figures readers want (rates, latency
 * percentiles) it holds the raw counters and latency histograms, so that
 *
 *   result_from_json(result_to_json(r)) == r, field by field, and
 *   result_to_json(result_from_json(j)) == j, byte for byte once printed, for every j written.
 *
 * Not kept: each target's gate_id and the job's expect (which file a run opened or must find:
 * they mean nothing outside the process that ran). Read back in their canonical form: the job's
 * engine is the engine used (the runner sets both alike); an errmsg equal to strerror(error)
 * as empty (reports print both alike); a series point's credit < 0 as -1; the kernel counts
 * of a target without them (valid false) as zeros; a real that is not finite as NaN; bytes of
 * strings that are not UTF-8 as '?'.
 */

/* The schema number of result_to_json()'s object. */
#define RESULT_JSON_SCHEMA 2

/* The JSON of r: a new reference, NULL when out of memory. */
json_t *result_to_json(const struct result *r);

/*
 * Fills r from the JSON of a run. Schema 2 is read exactly; schema 1 (written before
 * histograms were kept) gets histograms rebuilt from its percentiles and a note saying so
 * (see result_json_v1.c). r needs no result_init() first and is released with result_release()
 * either way. 0; -EINVAL with "key: why" in err ("targets[1].read.hist: ...") when o is not
 * such a run; -ENOMEM.
 */
int result_from_json(const json_t *o, struct result *r, char *err, size_t errlen);

/*
 * A run of one job or several as JSON: for one job, result_to_json() of it; for several, the
 * document {schema, jobs, groups, total} (docs/json.md, "Runs of several jobs"): each job's
 * result_to_json(), then the groups' and the total's figures summed from them. A new reference,
 * or NULL when out of memory.
 */
json_t *result_set_to_json(const struct result_set *s);

/*
 * Fills s from either: its inverse, exactly as result_from_json() is result_to_json()'s. s needs
 * no result_set_init() first and is released with result_set_release() either way. The groups
 * and the total of several jobs are computed again from the jobs, and must be what the document
 * holds. 0; -EINVAL with "key: why" ("jobs[1].params.bs: missing"); -ENOMEM.
 */
int result_set_from_json(const json_t *o, struct result_set *s, char *err, size_t errlen);

/*
 * Where the documents of `iorate sweep --json` and `iorate mark --json` keep their runs, for
 * their writers (src/report/sweep_fmt.c, mark_fmt.c) and every reader (result_json_sets() here,
 * src/report/html_input.c): docs/json.md and docs/compat.md. A sweep: "rows", each row holding
 * the value under the name "param" gives, its block size and its whole run. A mark: "tests",
 * each with its "name" and an object per direction (MARK_DOC_READ, MARK_DOC_WRITE, and "mix")
 * whose "result" is its best run whole; "units" names the text table's unit.
 */
#define SWEEP_DOC_PARAM "param"
#define SWEEP_DOC_ROWS "rows"
#define SWEEP_DOC_ROW_BS "bs"
#define SWEEP_DOC_ROW_RUN "run"
#define MARK_DOC_TESTS "tests"
#define MARK_DOC_TEST_NAME "name"
#define MARK_DOC_RESULT "result"
#define MARK_DOC_UNITS "units"
#define MARK_DOC_READ "read"
#define MARK_DOC_WRITE "write"
#define MARK_DOC_MIX "mix"

/*
 * The runs a JSON document holds: the document itself when it is a run (of one job or several),
 * every `rows[].run` of `iorate sweep --json`, every `tests[].read.result` and `.write.result`
 * of `iorate mark --json`. *sets (free with result_sets_free) may be empty. Errors as
 * result_set_from_json's, the key prefixed with where the run is ("rows[2].run.params.bs:
 * missing").
 */
int result_json_sets(const json_t *doc, struct result_set **sets, size_t *n, char *err,
		     size_t errlen);
void result_sets_free(struct result_set *sets, size_t n);

/* The same with every job a run of its own: each job of a run of several jobs in turn. */
int result_json_runs(const json_t *doc, struct result **runs, size_t *n, char *err,
		     size_t errlen);

/*
 * The JSON document at path ('-': stdin), or NULL with why in err (starting with the path) and
 * *rc: -EINVAL when it is not JSON, -EIO when it cannot be read.
 */
json_t *result_json_load_doc(const char *path, int *rc, char *err, size_t errlen);

/*
 * Both from a file ('-' reads stdin); err starts with the path. -EINVAL when it is not JSON
 * or holds a malformed run, -EIO when it cannot be read, -ENODATA when it holds no run.
 */
int result_json_load_sets(const char *path, struct result_set **sets, size_t *n, char *err,
			  size_t errlen);
int result_json_load_file(const char *path, struct result **runs, size_t *n, char *err,
			  size_t errlen);
void result_array_free(struct result *runs, size_t n);

/*
 * Pieces of the JSON for the formats that print the same figures (sweep, mark). Each returns a
 * new reference, or NULL when out of memory.
 */
/* A figure, or null when it is not finite: JSON has no NaN or infinity. */
json_t *result_json_real(double v);
/* A string, null for NULL; bytes that are not UTF-8 (paths are bytes) become '?'. */
json_t *result_json_str(const char *s);
/* A count: an integer, or a string of decimal digits above 2^63 - 1 (past jansson's range). */
json_t *result_json_u64(uint64_t v);
/* A `lat_us` object (docs/json.md): min, mean, stdev, max, every percentile; or null. */
json_t *result_json_lat(const struct dir_summary *s);

#endif
