#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/suggest.h"

static const char *closest(const char *word, const char *words, const char *prefix)
{
	static char out[200];
	struct suggest s;

	suggest_init(&s, word);
	suggest_add_words(&s, words);
	return suggest_list(&s, prefix, out, sizeof(out));
}

static void distances(void **state)
{
	assert_int_equal(suggest_distance("iodepth", "iodepth"), 0);
	/* A swap of neighbours is one edit, not two. */
	assert_int_equal(suggest_distance("iodepht", "iodepth"), 1);
	assert_int_equal(suggest_distance("D8sv3", "d8s_v3"), 1);
	assert_int_equal(suggest_distance("", "bs"), 2);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
}

static void suggestions(void **state)
{
	assert_string_equal(closest("iodepht", "iodepth io_size ioengine", ""), "iodepth");
	assert_string_equal(closest("randreed", "read write randread randwrite", NULL), "randread");
	/* A word typed short is close to what it begins. */
	assert_string_equal(closest("rand", "read randread", NULL), "randread");
	/* Only the ties of the best are named, with the prefix. */
	assert_string_equal(closest("dept", "depth batch bs", "--"), "--depth");
	assert_string_equal(closest("bz", "bs by", "--"), "--bs, --by");
	/* Nothing close: no guess. */
	assert_string_equal(closest("zzzzzz", "depth batch bs", "--"), "");
	assert_string_equal(closest("", "depth", "--"), "");
	/* Three edits of four letters is another word. */
	assert_string_equal(closest("nope", "time iops top", "--"), "");
	/* A short word is not close to a short other one. */
	assert_string_equal(closest("sg", "sync null", NULL), "");
}

static void shown_name(void **state)
{
	struct suggest s;
	char out[100];

	suggest_init(&s, "blocksize");
	suggest_add(&s, "blocksize", "bs");
	suggest_add(&s, "bs", NULL);
	assert_string_equal(suggest_list(&s, "--", out, sizeof(out)), "--bs");
	assert_string_equal(suggest_tail(&s, "--", out, sizeof(out)), "; did you mean --bs?");
	suggest_init(&s, "qwerty");
	assert_string_equal(suggest_tail(&s, "--", out, sizeof(out)), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distances),
		cmocka_unit_test(suggestions),
		cmocka_unit_test(shown_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
