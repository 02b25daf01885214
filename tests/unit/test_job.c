#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/job.h"

static void defaults_validate(void **state)
{
	struct job j;
	char err[256];

	job_init(&j);
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.threads, 1);
	assert_int_equal(j.depth, 1);
	assert_int_equal(j.cache, CACHE_DIRECT);
	/* No target yet. */
	assert_int_equal(job_validate(&j, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "no target"));
	job_add_target(&j, "/tmp/x");
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	job_release(&j);
}

static void expect_invalid(struct job *j, const char *needle)
{
	char err[256] = "";

	assert_int_equal(job_validate(j, err, sizeof(err)), -22);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void refusals(void **state)
{
	struct job j;

	job_init(&j);
	job_add_target(&j, "t");
	j.depth = 8;
	strcpy(j.engine, "sync");
	expect_invalid(&j, "uring");
	j.depth = 1;
	j.bs = 1000;
	expect_invalid(&j, "512");
	j.cache = CACHE_BUFFERED;
	char err[64];
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.bs = 0;
	expect_invalid(&j, "--bs");
	j.bs = 4096;
	j.write_pct = 101;
	expect_invalid(&j, "--write");
	j.write_pct = 0;
	j.time_ns = 0;
	expect_invalid(&j, "--time");
	job_release(&j);
}

static void command_line_quoting(void **state)
{
	struct job j;
	char *argv[] = {"iorate", "run", "-b", "64k", "my file", "it's", ""};

	job_init(&j);
	assert_int_equal(job_set_command_line(&j, NULL, 7, argv), 0);
	assert_string_equal(j.command_line, "iorate run -b 64k 'my file' 'it'\\''s' ''");
	/* With a program name in front of a subcommand's own argv. */
	assert_int_equal(job_set_command_line(&j, "my iorate", 3, argv + 1), 0);
	assert_string_equal(j.command_line, "'my iorate' run -b 64k");
	job_release(&j);
}

static void copy_is_deep(void **state)
{
	struct job a, b;
	char *argv[] = {"iorate", "run"};

	job_init(&a);
	job_add_target(&a, "one");
	job_add_target(&a, "two");
	job_set_command_line(&a, NULL, 2, argv);
	assert_int_equal(job_copy(&b, &a), 0);
	job_release(&a);
	assert_int_equal(b.ntargets, 2);
	assert_string_equal(b.targets[1], "two");
	assert_string_equal(b.command_line, "iorate run");
	job_release(&b);
}

static void names(void **state)
{
	enum job_cache c;

	assert_int_equal(job_cache_parse("buffered", &c), 0);
	assert_int_equal(c, CACHE_BUFFERED);
	assert_string_equal(job_cache_name(c), "buffered");
	assert_int_equal(job_cache_parse("writethrough", &c), 0);
	assert_string_equal(job_cache_name(c), "writethrough");
	assert_int_equal(job_cache_parse("fast", &c), -22);
	assert_string_equal(job_pattern_name(PATTERN_SEQUENTIAL), "sequential");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_validate),
		cmocka_unit_test(refusals),
		cmocka_unit_test(command_line_quoting),
		cmocka_unit_test(copy_is_deep),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
