#ifndef IORATE_REPORT_VERIFY_FMT_H
#define IORATE_REPORT_VERIFY_FMT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>


#include "core/verify.h"
#include "report/format.h"

/*
 * What verification found, for a run's text report and for `iorate verify`: the counts, then
 * the first bad blocks in full (target, byte offset, what is wrong, what its header says), and
 * how many more there are. paths[i] names target i.
 */
#define VERIFY_SHOW 8
void report_verify_text(FILE *f, const struct verify_result *v, const char *const *paths,
			unsigned npaths);

/* `iorate verify`'s JSON: per target its counts and bad blocks, and the totals. */
struct verify_target_report {
	const char *path;
	uint64_t unwritten;
	uint64_t lost;              /* blocks the run wrote (its record or its sweep says) that
				     * hold no header: bad blocks with why "unwritten" */
	uint64_t lost_unplaced;     /* ... of them, counted by a truncated record, not placed */
	uint64_t suspicious;        /* blocks without a header between the run's own, without a
				     * complete record to tell a lost write from an unwritten one */
	int error;                  /* 0, or -errno when it could not be read to the end */
	const char *errmsg;
};

/* What `iorate verify` found over its n targets, as verify_formats print it. */
struct verify_report {
	const struct verify_result *result;     /* every target's together */
	const struct verify_target_report *targets;
	const char *const *paths;               /* targets[i].path, as report_verify_text takes */
	unsigned n;
};

/*
 * Text: report_verify_text(), then per target its lost writes (the first few places), its
 * suspicious and other blocks without a header, and why it was not checked to the end. 0, or -errno (-ENOMEM, -EIO).
 */
int verify_fmt_text(FILE *f, const struct verify_report *r);
int verify_fmt_json(FILE *f, const struct verify_report *r);

/* The formats of 'iorate verify'. */
struct verify_format {
	struct report_format f;
	int (*write)(FILE *f, const struct verify_report *r);
};
extern const struct report_formats verify_formats;

#endif
