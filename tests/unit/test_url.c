/* The URLs 'catalog prices' may request: https, http only to 127.0.0.1, parsed strictly. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/url.h"

static void test_origin(void **state)
{
	struct url_origin o;
	char err[256];

	(void)state;
	assert_int_equal(url_origin("HTTPS://Prices.Azure.com/api?x=1", &o, err, sizeof(err)), 0);
	assert_string_equal(o.scheme, "https");
	assert_string_equal(o.host, "prices.azure.com");
	assert_int_equal(o.port, 443);
	assert_int_equal(url_origin("http://127.0.0.1:8080", &o, err, sizeof(err)), 0);
	assert_string_equal(o.host, "127.0.0.1");
	assert_int_equal(o.port, 8080);
	assert_int_equal(url_origin("http://127.0.0.1?q", &o, err, sizeof(err)), 0);
	assert_int_equal(o.port, 80);
	/* What another parser could read another host out of is refused. */
	static const char *const bad[] = {
		"https://user@evil.example/", "https://a.example@evil.example",
		"https://a.example\\@evil.example/", "https://a.example /x", "https://a\texample",
		"https://\xc3\xa9.example/", "https://[::1]/", "https://:443/", "https://a:0/",
		"https://a:65536/", "https://a:80x/", "https://a:/", "//a.example/", "a.example",
		"", "https://", "https://a%2eexample/",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(url_origin(bad[i], &o, err, sizeof(err)), -EINVAL);
		assert_true(err[0]);
	}
}

static void test_allowed(void **state)
{
	struct url_origin o;
	char err[256];

	(void)state;
	assert_int_equal(url_allowed("https://pricing.us-east-1.amazonaws.com/offers", &o, err,
				     sizeof(err)), 0);
	assert_int_equal(url_allowed("http://127.0.0.1:5/x", &o, err, sizeof(err)), 0);
	static const char *const bad[] = {
		"file:///etc/passwd", "ftp://127.0.0.1/", "dict://127.0.0.1:11211/stats",
		"gopher://127.0.0.1/", "http://127.0.0.2/", "http://localhost/",
		"http://prices.azure.com/", "http://127.0.0.1.evil.example/", "http://0x7f.1/",
		"FILE:///etc/passwd", "prices.azure.com",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(url_allowed(bad[i], &o, err, sizeof(err)), -EPERM);
		/* The refusal names the URL. */
		assert_non_null(strstr(err, bad[i]));
		assert_non_null(strstr(err, "only https is read"));
	}
	/* An https URL that does not parse says why, not "only https". */
	assert_int_equal(url_allowed("https://u@h/", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "user name"));
}

static void test_same_origin(void **state)
{
	struct url_origin a, b;
	char err[256], s[300];

	(void)state;
	assert_int_equal(url_origin("http://127.0.0.1:80/a", &a, err, sizeof(err)), 0);
	assert_int_equal(url_origin("HTTP://127.0.0.1/b?c", &b, err, sizeof(err)), 0);
	assert_true(url_same_origin(&a, &b));
	assert_string_equal(url_origin_str(&a, s, sizeof(s)), "http://127.0.0.1:80");
	assert_int_equal(url_origin("http://127.0.0.1:81/a", &b, err, sizeof(err)), 0);
	assert_false(url_same_origin(&a, &b));
	assert_int_equal(url_origin("https://127.0.0.1:80/a", &b, err, sizeof(err)), 0);
	assert_false(url_same_origin(&a, &b));
	assert_int_equal(url_origin("https://prices.azure.com/", &a, err, sizeof(err)), 0);
	assert_int_equal(url_origin("https://prices.azure.com.evil.example/", &b, err,
				    sizeof(err)), 0);
	assert_false(url_same_origin(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_same_origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
