/*
 * fio's bssplit and random_distribution as src/compat/fio_words.c turns them into iorate's
 * --bssplit and --distribution: sizes in bytes, fio's filled-in zones, a bell's sigma.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compat/fio.h"

typedef int (*convert_fn)(const char *, unsigned, char *, size_t, const char **);

static void converts(convert_fn fn, const char *s, unsigned kb_base, const char *want)
{
	char out[1024];
	const char *why = NULL;

	if (fn(s, kb_base, out, sizeof(out), &why))
		fail_msg("%s: refused: %s", s, why);
	if (strcmp(out, want))
		fail_msg("%s: '%s', not '%s'", s, out, want);
}

static void refused(convert_fn fn, const char *s, const char *want)
{
	char out[1024];
	const char *why = NULL;

	assert_int_equal(fn(s, 1024, out, sizeof(out), &why), -EINVAL);
	if (!why || !strstr(why, want))
		fail_msg("%s: '%s', not '%s'", s, why ? why : "(none)", want);
}

/* fio_bssplit_convert() without its note (what fio does with the shares: fio_diff.bats). */
static int bssplit(const char *s, unsigned kb_base, char *out, size_t len, const char **why)
{
	char note[256] = "";

	return fio_bssplit_convert(s, kb_base, out, len, note, sizeof(note), why);
}

static void test_bssplit(void **state)
{
	(void)state;
	converts(bssplit, "4k/50:64k/50", 1024, "4096/50:65536/50");
	converts(bssplit, "4k/50:64k/", 1024, "4096/50:65536/50");
	converts(bssplit, "4k/50:64k", 1000, "4000/50:64000/50");
	/* reads, writes: each its own; trims are not issued, so their part is dropped */
	converts(bssplit, "4k/10:8k/90,1m/100", 1024, "4096/10:8192/90,1048576/100");
	converts(bssplit, "4k/10,8k/100,16k/100", 1024, "4096/100,8192/100");
	converts(bssplit, "4k/100,,16k/100", 1024, "4096/100");
	converts(bssplit, "4k/150", 1024, "4096/100");
	refused(bssplit, ",8k/100", "no block size for reads");
	refused(bssplit, "4k/x", "not a whole percent");
	refused(bssplit, "4k/5.5", "not a whole percent");
	refused(bssplit, "4q/50", "unknown unit");
	refused(bssplit, "4k/50,8q/50", "unknown unit");
}

/* What fio_bssplit_convert() says of the shares, by direction: nothing when fio draws them as
 * written. */
static void notes_of(const char *s, const char *want)
{
	char out[2048], note[1100];
	const char *why = NULL;

	if (fio_bssplit_convert(s, 1024, out, sizeof(out), note, sizeof(note), &why))
		fail_msg("%s: refused: %s", s, why);
	if (strcmp(note, want))
		fail_msg("%s: note '%s', not '%s'", s, note, want);
}

static void test_bssplit_notes(void **state)
{
	const char *rest = "the 1%% no share claims goes to %s bytes, the largest share, as "
			   "fio's draw falls to it";
	char r[200], w[200], both[420];

	(void)state;
	notes_of("4k/50:64k/50,8k/100", "");
	snprintf(r, sizeof(r), rest, "4096");
	notes_of("4k/50:64k/49", r);
	snprintf(w, sizeof(w), rest, "8192");
	snprintf(both, sizeof(both), "writes: %s", w);
	notes_of("4k/100,8k/50:16k/49", both);
	snprintf(both, sizeof(both), "reads: %s", r);
	notes_of("4k/50:64k/49,8k/100", both);
	snprintf(both, sizeof(both), "reads: %s; writes: %s", r, w);
	notes_of("4k/50:64k/49,8k/50:16k/49", both);
	/* A share above 100 is 100, as fio reads it: nothing more to say of it. */
	notes_of("4k/150", "");
}

/* An engine fio does not have, near one it has: offered. */
static void test_engine_near(void **state)
{
	char out[200];

	(void)state;
	assert_non_null(strstr(fio_engine_near("libaoi", out, sizeof(out)), "libaio"));
	assert_string_equal(fio_engine_near("zzzzzzzz", out, sizeof(out)), "");
}

/* A bssplit of 64 sizes is read, one of 65 refused; one whose conversion does not fit is
 * refused, not cut. */
static void test_bssplit_bounds(void **state)
{
	char s[1024] = "", out[1024];
	const char *why = NULL;

	for (int i = 0; i < 64; i++)
		strcat(s, i ? ":4k" : "4k");
	assert_int_equal(bssplit(s, 1024, out, sizeof(out), &why), 0);
	assert_int_equal(strncmp(out, "4096/1:4096/1:", 14), 0);
	strcat(s, ":4k");
	refused(bssplit, s, "has more than 64 sizes");
	/* 64 sizes of 16 digits each: more than the 1 KiB the converted bssplit may take. */
	s[0] = '\0';
	for (int i = 0; i < 64; i++)
		strcat(s, i ? ":1000t" : "1000t");
	refused(bssplit, s, "is too long");
}

static void test_distributions(void **state)
{
	(void)state;
	converts(fio_dist_convert, "random", 1024, "uniform");
	converts(fio_dist_convert, "zipf", 1024, "zipf");
	converts(fio_dist_convert, "zipf:1.5", 1024, "zipf:1.5");
	converts(fio_dist_convert, "pareto", 1024, "pareto");
	converts(fio_dist_convert, "pareto:0.3", 1024, "pareto:0.3");
	/* fio's deviation, a percent of the range, as the bell's sigma in percent */
	converts(fio_dist_convert, "normal", 1024, "normal:8.33333");
	converts(fio_dist_convert, "gauss:10", 1024, "normal:8.81917");
	converts(fio_dist_convert, "normal:50", 1024, "normal:16.6667");
	refused(fio_dist_convert, "lognormal", "not a distribution of fio");
	refused(fio_dist_convert, "randomx", "not a distribution of fio");
	refused(fio_dist_convert, "normax", "not a distribution of fio");
	refused(fio_dist_convert, "zipf:x", "not a number");
	refused(fio_dist_convert, "zipf:", "not a number");
	refused(fio_dist_convert, "pareto:-1", "not a number");
	refused(fio_dist_convert, "zipf:1.2x", "not a number");
	refused(fio_dist_convert, "zipf:1.2:0.5", "has a center");
}

static void test_zones(void **state)
{
	char many[256] = "zoned";

	(void)state;
	converts(fio_dist_convert, "zoned:60/10:40/90", 1024, "zoned:60/10:40/90");
	/* Too long for its buffer: refused, and nothing written past the buffer's end. */
	struct {
		char out[16], guard[16];
	} small;
	const char *why = NULL;
	memset(small.guard, 'G', sizeof(small.guard));
	assert_int_equal(fio_dist_convert("zoned:60/10:30/80:10/10", 1024, small.out,
					  sizeof(small.out), &why), -EINVAL);
	assert_string_equal(why, "is too long");
	for (unsigned i = 0; i < sizeof(small.guard); i++)
		assert_int_equal(small.guard[i], 'G');
	/* an empty part takes what the others leave, shared equally among the empty ones */
	converts(fio_dist_convert, "zoned:60/10:/", 1024, "zoned:60/10:40/90");
	converts(fio_dist_convert, "zoned:50/20:/:/", 1024, "zoned:50/20:25/40:25/40");
	converts(fio_dist_convert, "zoned:100/50:/", 1024, "zoned:100/50:0/50");
	converts(fio_dist_convert, "zoned:60/100:40/", 1024, "zoned:60/100:40/0");
	converts(fio_dist_convert, "zoned_abs:50/1g:50/2g", 1024,
		 "zoned_abs:50/1073741824:50/2147483648");
	converts(fio_dist_convert, "zoned_abs:50/1g:50/2g", 1000,
		 "zoned_abs:50/1000000000:50/2000000000");
	converts(fio_dist_convert, "zoned_abs:/4k:30/4k", 1024, "zoned_abs:70/4096:30/4096");
	refused(fio_dist_convert, "zoned", "needs its zones");
	refused(fio_dist_convert, "zoned_abs", "needs its zones");
	refused(fio_dist_convert, "zoned:", "needs its zones");
	refused(fio_dist_convert, "zoned:60/10,40/90", "zones per direction");
	refused(fio_dist_convert, "zoned:60", "not ACCESS/SIZE");
	refused(fio_dist_convert, "zoned:101/10", "above 100");
	refused(fio_dist_convert, "zoned:x/10", "not a number");
	refused(fio_dist_convert, "zoned:10/x", "not a number");
	refused(fio_dist_convert, "zoned_abs:50/", "without its size");
	for (int i = 0; i < 17; i++)
		strcat(many, ":1/1");
	refused(fio_dist_convert, many, "more than 16 zones");
	/* 16 are taken */
	many[strlen(many) - 4] = '\0';
	assert_int_equal(strlen(many), 5 + 16 * 4);
	converts(fio_dist_convert, many, 1024, many);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bssplit),
		cmocka_unit_test(test_bssplit_bounds),
		cmocka_unit_test(test_bssplit_notes),
		cmocka_unit_test(test_engine_near),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_zones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
