#ifndef IORATE_UTIL_PARSE_H
#define IORATE_UTIL_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parsers for the values users type: sizes, durations, percentages, counts, lists and ranges.
 * Each returns 0, -EINVAL when the text is not of the form, or -ERANGE when it does not fit.
 * The caller (cmd/) turns that into "iorate: --bs: '64q' is not a size (examples: ...)".
 */

/* "4096", "4k", "4K", "4KB", "4KiB", "1.5G", "512B": k/m/g/t/p/e are powers of 1024, as in fio
 * and DiskSpd. A fraction must come out as whole bytes. */
int parse_size(const char *s, uint64_t *out);
#define PARSE_SIZE_EXAMPLES "4k, 64KiB, 1M"

/* "30" (seconds), "30s", "500ms", "250us", "5m", "1h", "1.5s", "1d": nanoseconds. */
int parse_duration(const char *s, uint64_t *ns);
/* ns as parse_duration() reads it back exactly, in the largest unit that holds it whole:
 * "30s", "250ms", "1500us", "5ns" ("0s" for 0). Returns buf. */
const char *duration_str(uint64_t ns, char *buf, size_t len);
#define PARSE_DURATION_EXAMPLES "30, 30s, 500ms, 5m, 1h"

/* "30" or "30%": a whole number from 0 to 100. */
int parse_percent(const char *s, unsigned *out);

/*
 * A whole number in [min, max]: decimal digits and nothing else, so "010" is ten; a sign, a
 * space or a 0x prefix is -EINVAL. Every count and percentage a user types goes through here.
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);

/*
 * A count as users write rates and totals: parse_u64(), or a decimal with a suffix k, M or G
 * (any case) that is decimal, as counts are: "20k" is 20000, "1.5M" 1500000, "1M" 10^6.
 */
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* parse_double(), or a plain decimal with the same k/M/G suffix: "20k" is 20000.0. */
int parse_amount(const char *s, double min, double max, double *out);
#define PARSE_COUNT_EXAMPLES "20000, 20k, 1.5M"

/* fio job files only: decimal, or hexadecimal after 0x, as fio documents its integers. */
int parse_u64_hex(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* The same for sizes: parse_size(), or 0x, hex digits and a size suffix ("0x10k"). */
int parse_size_hex(const char *s, uint64_t *out);

/* A non-negative decimal number such as "500", "2.5", "1e3" (no hexadecimal "0x1p3"). */
int parse_double(const char *s, double min, double max, double *out);

/*
 * Why a number was refused when it is written in a form iorate does not read ("is hexadecimal;
 * iorate reads numbers in decimal", a sign, a space), for the message; NULL otherwise.
 */
const char *parse_number_why(const char *s);

/*
 * Lists of values for sweeps: "1,2,4,8", "1..16" (step 1), "0..100:25" (step 25),
 * "1..64:x2" (multiply by 2), "4k,8k,64k,1m" (with sizes = true). Items may mix ranges and
 * single values: "1,2,4..16:x2". On success *vals is malloc'd (caller frees) and *n set.
 * At most 4096 values.
 */
int parse_list(const char *s, bool sizes, uint64_t **vals, size_t *n);

/* Formats n bytes as the shortest exact binary unit ("4KiB", "1MiB", "1536B"). */
const char *fmt_size(uint64_t n, char *buf, size_t len);

/* n bytes for reading, rounded to four digits ("1.5 GiB", "95.37 MiB"; below 1 KiB "512 B"). */
const char *fmt_size_human(uint64_t n, char *buf, size_t len);

/*
 * Formats v as a plain decimal of at most 15 significant digits, trailing zeros dropped and
 * never in exponent form: "0.00099", "0.045", "135.17", "3000". The fraction is padded to
 * min_frac digits ("8.00" with 2). Every decimal of 15 or fewer significant digits survives a
 * double (DBL_DIG), so a price a list wrote prints as it was written, and the noise of double
 * arithmetic in the 16th and 17th digits (0.045000000000000005) does not print.
 */
const char *fmt_decimal(double v, unsigned min_frac, char *buf, size_t len);

/*
 * A figure as a reader wants it: at most 6 significant digits after rounding, but never fewer
 * than its integer digits, as fmt_decimal writes it: 69.8491930961609 GiB (75 GB in GiB) is
 * "69.8492", 152.04352 is "152.044", 0.00099 stays "0.00099" and 1234567.8 is "1234568".
 */
const char *fmt_figure(double v, char *buf, size_t len);

#endif
