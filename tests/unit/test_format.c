#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "report/format.h"
#include "report/report.h"

/* The kinds each format prints, as the table says today: CSV only for tables of runs. */
static void formats_by_kind(void **state)
{
	static const enum report_kind csv[] = {REPORT_RESULT, REPORT_SWEEP, REPORT_MARK,
					       REPORT_HISTORY_LIST};
	static const enum report_kind no_csv[] = {
		REPORT_MODEL, REPORT_PLAN, REPORT_EXPLAIN, REPORT_COST_UPLOAD, REPORT_COST_CONFIG,
		REPORT_CATALOG_LIST, REPORT_CATALOG_SHOW, REPORT_HISTORY_COMPARE, REPORT_DRY_RUN,
		REPORT_FIO_DRY_RUN, REPORT_VERIFY,
	};

	for (int k = 0; k < REPORT_NKINDS; k++) {
		assert_non_null(report_format(k, "text"));
		assert_non_null(report_format(k, "json"));
	}
	for (size_t i = 0; i < sizeof(csv) / sizeof(csv[0]); i++)
		assert_non_null(report_format(csv[i], "csv"));
	for (size_t i = 0; i < sizeof(no_csv) / sizeof(no_csv[0]); i++)
		assert_null(report_format(no_csv[i], "csv"));
	assert_ptr_equal(report_format(REPORT_RESULT, "text")->result, &report_text);
	assert_ptr_equal(report_format(REPORT_RESULT, "json")->result, &report_json);
	assert_ptr_equal(report_format(REPORT_RESULT, "csv")->result, &report_csv);
	/* fio's JSON layout is a run's result and nothing else. */
	assert_ptr_equal(report_format(REPORT_RESULT, "fio-json")->result, &report_fio_json);
	for (int k = 0; k < REPORT_NKINDS; k++)
		assert_true((report_format(k, "fio-json") != NULL) == (k == REPORT_RESULT));
	/* One entry per format: the same one whatever the kind asked. */
	assert_ptr_equal(report_format(REPORT_SWEEP, "csv"), report_format(REPORT_MARK, "csv"));
	/* Only text shares standard output (a trace, a progress line): the others are for programs. */
	assert_false(report_format(REPORT_RESULT, "text")->for_programs);
	assert_true(report_format(REPORT_RESULT, "json")->for_programs);
	assert_true(report_format(REPORT_RESULT, "csv")->for_programs);
	assert_true(report_format(REPORT_RESULT, "fio-json")->for_programs);
}

/* A name that is no format, or a kind out of range, finds nothing. */
static void unknown_names(void **state)
{
	assert_null(report_format(REPORT_RESULT, "xml"));
	assert_null(report_format(REPORT_RESULT, "JSON"));
	assert_null(report_format(REPORT_RESULT, ""));
	assert_null(report_format(REPORT_RESULT, NULL));
	assert_null(report_format(REPORT_NKINDS, "text"));
	assert_null(report_format((enum report_kind)-1, "text"));
	assert_false(report_format_known("xml"));
	assert_false(report_format_known(NULL));
	assert_true(report_format_known("csv"));
}

/* Each kind's writer is set exactly when the format says it prints the kind. */
static void has_matches_lookup(void **state)
{
	static const char *const names[] = {"text", "json", "csv", "fio-json"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct report_format *any = report_format(REPORT_RESULT, names[i]);

		assert_non_null(any);
		assert_string_equal(any->name, names[i]);
		for (int k = 0; k < REPORT_NKINDS; k++)
			assert_true(report_format_has(any, k) ==
				    (report_format(k, names[i]) != NULL));
	}
}

static void names_and_messages(void **state)
{
	char buf[128];

	assert_string_equal(report_format_names(REPORT_RESULT, ", ", " or ", buf, sizeof(buf)),
			    "text, json, csv, fio-json, fio-json+ or fio-terse");
	assert_string_equal(report_format_names(REPORT_SWEEP, ", ", " or ", buf, sizeof(buf)),
			    "text, json or csv");
	assert_string_equal(report_format_names(REPORT_MODEL, ", ", " or ", buf, sizeof(buf)),
			    "text or json");
	assert_string_equal(report_format_refusal(REPORT_MODEL, "--format csv", buf, sizeof(buf)),
			    "--format csv: 'iorate model' prints text or json");
	assert_string_equal(report_format_refusal(REPORT_CATALOG_SHOW, "--csv", buf, sizeof(buf)),
			    "--csv: 'iorate catalog show' prints text or json");
	assert_string_equal(report_format_refusal(REPORT_DRY_RUN, "--csv", buf, sizeof(buf)),
			    "--csv: 'iorate run --dry-run' prints text or json");
	assert_string_equal(report_format_names(REPORT_NKINDS, " ", NULL, buf, sizeof(buf)),
			    "text json csv fio-json fio-json+ fio-terse");
	/* Cut short, still a string. */
	assert_string_equal(report_format_names(REPORT_RESULT, ", ", NULL, buf, 7), "text, ");
	assert_string_equal(report_format_unknown(buf, sizeof(buf)),
			    "is not an output format (text, json, csv, fio-json, fio-json+, "
			    "fio-terse)");
	assert_string_equal(report_kind_command(REPORT_COST_UPLOAD), "iorate cost upload");
	assert_string_equal(report_kind_command(REPORT_NKINDS), "iorate");
}

/* The words --format completes and lists are the formats the command's kind prints. */
static void option_values_follow_the_table(void **state)
{
	static const struct {
		const struct command *cmd;
		enum report_kind kind;
	} cmds[] = {
		{&cmd_run, REPORT_RESULT},
		{&cmd_sweep, REPORT_SWEEP},
		{&cmd_mark, REPORT_MARK},
		{&cmd_model, REPORT_MODEL},
		{&cmd_plan, REPORT_PLAN},
		{&cmd_explain, REPORT_EXPLAIN},
		{&cmd_cost, REPORT_COST_UPLOAD},
		{&cmd_cost, REPORT_COST_CONFIG},
		{&cmd_catalog, REPORT_CATALOG_LIST},
		{&cmd_catalog, REPORT_CATALOG_SHOW},
	};
	char names[64];

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const struct opt *o = options_find(cmds[i].cmd, "format");

		assert_non_null(o);
		assert_string_equal(o->values,
				    report_format_names(cmds[i].kind, " ", NULL, names, sizeof(names)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formats_by_kind),
		cmocka_unit_test(unknown_names),
		cmocka_unit_test(has_matches_lookup),
		cmocka_unit_test(names_and_messages),
		cmocka_unit_test(option_values_follow_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
