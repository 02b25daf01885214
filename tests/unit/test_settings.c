#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/settings.h"

/* The settings of text, read as the file "conf"; its return and err. */
static int parse(const char *text, struct settings *s, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	assert_non_null(f);
	err[0] = '\0';
	r = settings_parse(s, "conf", f, err, len);
	fclose(f);
	return r;
}

static void test_keys(void **state)
{
	struct settings s;
	char err[256];

	(void)state;
	assert_int_equal(parse("# where I am\n\nregion = northeurope\n  currency=GBP  # mine\n",
			       &s, err, sizeof(err)), 0);
	assert_string_equal(s.region, "northeurope");
	assert_string_equal(s.currency, "GBP");
	settings_release(&s);
	assert_int_equal(parse("currency = EUR", &s, err, sizeof(err)), 0);
	assert_null(s.region);
	assert_string_equal(s.currency, "EUR");
	settings_release(&s);
}

/* Every refusal names the file and the line. */
static void test_refusals(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{"region = northeurope\nzone = 1\n", "conf:2: unknown key 'zone'"},
		{"\n\nregion northeurope\n", "conf:3: 'region northeurope' is not 'key = value'"},
		{"region =\n", "conf:1: region '' is not a name"},
		{"currency = G B P\n", "conf:1: currency 'G B P' is not a name"},
		{"region = a\nregion = b\n", "conf:2: region is set twice (first on line 1)"},
		{"Region = northeurope\n", "conf:1: unknown key 'Region'"},
	};
	struct settings s;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].text, &s, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, err, bad[i].says);
		assert_null(s.region);
	}
}

/* $XDG_CONFIG_HOME/iorate/config, else ~/.config/iorate/config; a missing file is no settings. */
static void test_path(void **state)
{
	struct settings s;
	char *path, err[256];

	(void)state;
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/x", 1);
	assert_int_equal(settings_path(&path), 0);
	assert_string_equal(path, "/x/iorate/config");
	free(path);
	/* A relative $XDG_CONFIG_HOME is ignored (the XDG base directory spec). */
	setenv("XDG_CONFIG_HOME", "rel", 1);
	assert_int_equal(settings_path(&path), 0);
	assert_string_equal(path, "/home/u/.config/iorate/config");
	free(path);
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(settings_path(&path), 0);
	assert_string_equal(path, "/home/u/.config/iorate/config");
	free(path);
	assert_int_equal(settings_load_file(&s, "/nonexistent-iorate/config", err, sizeof(err)), 0);
	assert_null(s.path);
	assert_null(s.region);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys), cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
