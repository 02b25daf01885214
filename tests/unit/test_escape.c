#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/escape.h"

static void check(const char *in, const char *want)
{
	char *got = escape_dup(in);

	assert_non_null(got);
	if (strcmp(got, want))
		fail_msg("escaping gave '%s', expected '%s'", got, want);
	assert_int_equal(escape_text(NULL, 0, in), strlen(want));
	free(got);
}

static void controls(void **state)
{
	check("plain /mnt/data/test.dat", "plain /mnt/data/test.dat");
	check("", "");
	check("a\nb\tc\rd", "a\\nb\\tc\\rd");
	check("\a\b\v\f", "\\a\\b\\v\\f");
	check("\x1b]0;owned\x07title", "\\x1b]0;owned\\atitle");
	check("\x1b[2J", "\\x1b[2J");
	check("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
	/* A backslash stays: Windows paths in the translators' messages read as typed. */
	check("f:\\testfile.dat", "f:\\testfile.dat");
}

static void utf8(void **state)
{
	/* Printable UTF-8 as is: é, €, a CJK character, an emoji (4 bytes). */
	check("caf\xc3\xa9 \xe2\x82\xac \xe4\xb8\xad \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac "
	      "\xe4\xb8\xad \xf0\x9f\x98\x80");
	/* C1 controls (U+0080..U+009F) in UTF-8: CSI U+009B moves the cursor on some terminals. */
	check("\xc2\x9b" "2J", "\\xc2\\x9b2J");
	check("\xc2\xa0", "\xc2\xa0"); /* U+00A0 is printable */
	/* Invalid UTF-8 byte by byte: a stray continuation, a lone lead, overlongs, a surrogate,
	 * past U+10FFFF, Latin-1. */
	check("\x80", "\\x80");
	check("a\xc3", "a\\xc3");
	check("\xc3(", "\\xc3(");
	check("\xc0\xaf", "\\xc0\\xaf");
	check("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	check("\xed\xa0\x80", "\\xed\\xa0\\x80");
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	check("\xff\xfe", "\\xff\\xfe");
	check("caf\xe9", "caf\\xe9");
	/* A 3-byte character cut short at the end of the string. */
	check("\xe2\x82", "\\xe2\\x82");
}

/* Cut short, the text ends before the piece that does not fit, never inside an escape. */
static void truncation(void **state)
{
	char buf[8];

	assert_int_equal(escape_text(buf, sizeof(buf), "abcdef\n"), 8);
	assert_string_equal(buf, "abcdef");
	assert_int_equal(escape_text(buf, sizeof(buf), "abcd\xe2\x82\xac"), 7);
	assert_string_equal(buf, "abcd\xe2\x82\xac");
	assert_int_equal(escape_text(buf, sizeof(buf), "abcde\xe2\x82\xac"), 8);
	assert_string_equal(buf, "abcde");
	assert_int_equal(escape_text(buf, sizeof(buf), "\x1b\x1b"), 8);
	assert_string_equal(buf, "\\x1b");
	assert_int_equal(escape_text(buf, 1, "abc"), 3);
	assert_string_equal(buf, "");
	assert_string_equal(escape_buf(NULL, buf, sizeof(buf)), "");
}

static void to_stream(void **state)
{
	char *text = NULL, big[2000];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	escape_fputs("x\x1b[31my", f);
	escape_fputs(NULL, f);
	/* Longer than the stack buffer: escaped through a heap copy. */
	memset(big, '\n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	escape_fputs(big, f);
	fclose(f);
	assert_int_equal(len, strlen("x\\x1b[31my") + 2 * (sizeof(big) - 1));
	assert_memory_equal(text, "x\\x1b[31my\\n\\n", 14);
	assert_null(strchr(text, '\n'));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controls),
		cmocka_unit_test(utf8),
		cmocka_unit_test(truncation),
		cmocka_unit_test(to_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
