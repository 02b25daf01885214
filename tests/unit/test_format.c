#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "report/catalog_fmt.h"
#include "report/dry_run_fmt.h"
#include "report/format.h"
#include "report/history_fmt.h"
#include "report/history_list.h"
#include "report/mark_fmt.h"
#include "report/model_fmt.h"
#include "report/report.h"
#include "report/sweep_fmt.h"
#include "report/verify_fmt.h"

static const struct report_formats *const every[] = {
	&result_formats, &sweep_formats, &mark_formats, &model_formats, &plan_formats,
	&explain_formats, &cost_upload_formats, &cost_config_formats, &catalog_list_formats,
	&catalog_show_formats, &catalog_import_formats, &catalog_prices_formats,
	&history_list_formats, &history_compare_formats, &dry_run_formats, &fio_dry_run_formats,
	&verify_formats,
};
#define NEVERY (sizeof(every) / sizeof(every[0]))

/* The formats each command prints, as the tables say today: CSV only for tables of runs. */
static void formats_by_kind(void **state)
{
	static const struct report_formats *const csv[] = {&result_formats, &sweep_formats,
							   &mark_formats, &history_list_formats};

	for (size_t k = 0; k < NEVERY; k++) {
		bool has_csv = false;

		assert_non_null(report_format_find(every[k], "text"));
		assert_non_null(report_format_find(every[k], "json"));
		for (size_t i = 0; i < sizeof(csv) / sizeof(csv[0]); i++)
			has_csv |= every[k] == csv[i];
		assert_true((report_format_find(every[k], "csv") != NULL) == has_csv);
		/* fio's layouts are a run's result and nothing else. */
		assert_true((report_format_find(every[k], "fio-json") != NULL) ==
			    (every[k] == &result_formats));
	}
	assert_ptr_equal(REPORT_WRITER(struct result_format,
				       report_format_find(&result_formats, "text"))->ops, &report_text);
	assert_ptr_equal(REPORT_WRITER(struct result_format,
				       report_format_find(&result_formats, "json"))->ops, &report_json);
	assert_ptr_equal(REPORT_WRITER(struct result_format,
				       report_format_find(&result_formats, "csv"))->ops, &report_csv);
	assert_ptr_equal(REPORT_WRITER(struct result_format,
				       report_format_find(&result_formats, "fio-json"))->ops,
			 &report_fio_json);
	assert_ptr_equal(REPORT_WRITER(struct model_format,
				       report_format_find(&model_formats, "json"))->write,
			 model_fmt_json);
	assert_ptr_equal(REPORT_WRITER(struct model_format,
				       report_format_find(&model_formats, "json"))->mark,
			 model_mark_fmt_json);
	/* Only text shares standard output (a trace, a progress line): the others are for programs. */
	for (size_t k = 0; k < NEVERY; k++)
		for (size_t i = 0; i < every[k]->n; i++) {
			const struct report_format *f = (const void *)((const char *)every[k]->entries +
								       i * every[k]->size);

			assert_true(f->for_programs == !!strcmp(f->name, "text"));
		}
}

/* A name that is no format, or a table without it, finds nothing. */
static void unknown_names(void **state)
{
	assert_null(report_format_find(&result_formats, "xml"));
	assert_null(report_format_find(&result_formats, "JSON"));
	assert_null(report_format_find(&result_formats, ""));
	assert_null(report_format_find(&result_formats, NULL));
	assert_null(report_format_find(NULL, "text"));
	assert_null(report_format_find(&verify_formats, "csv"));
	assert_false(report_format_known("xml"));
	assert_false(report_format_known(NULL));
	assert_true(report_format_known("csv"));
	assert_true(report_format_known("fio-terse"));
}

static void names_and_messages(void **state)
{
	char buf[128];

	assert_string_equal(report_format_names(&result_formats, ", ", " or ", buf, sizeof(buf)),
			    "text, json, csv, fio-json, fio-json+ or fio-terse");
	assert_string_equal(report_format_names(&sweep_formats, ", ", " or ", buf, sizeof(buf)),
			    "text, json or csv");
	assert_string_equal(report_format_names(&model_formats, ", ", " or ", buf, sizeof(buf)),
			    "text or json");
	assert_string_equal(report_format_refusal(&model_formats, "--format csv", buf, sizeof(buf)),
			    "--format csv: 'iorate model' prints text or json");
	assert_string_equal(report_format_refusal(&catalog_show_formats, "--csv", buf,
						  sizeof(buf)),
			    "--csv: 'iorate catalog show' prints text or json");
	assert_string_equal(report_format_refusal(&dry_run_formats, "--csv", buf, sizeof(buf)),
			    "--csv: 'iorate run --dry-run' prints text or json");
	assert_string_equal(report_format_refusal(&fio_dry_run_formats, "--csv", buf, sizeof(buf)),
			    "--csv: 'iorate fio --dry-run' prints text or json");
	assert_string_equal(report_format_refusal(&cost_upload_formats, "--csv", buf, sizeof(buf)),
			    "--csv: 'iorate cost upload' prints text or json");
	assert_string_equal(report_format_names(NULL, " ", NULL, buf, sizeof(buf)),
			    "text json csv fio-json fio-json+ fio-terse");
	/* Cut short, still a string. */
	assert_string_equal(report_format_names(&result_formats, ", ", NULL, buf, 7), "text, ");
	assert_string_equal(report_format_unknown(buf, sizeof(buf)),
			    "is not an output format (text, json, csv, fio-json, fio-json+, "
			    "fio-terse)");
}

/* The words --format completes and lists are the formats of the command's table. */
static void option_values_follow_the_table(void **state)
{
	static const struct {
		const struct command *cmd;
		const struct report_formats *kind;
	} cmds[] = {
		{&cmd_run, &result_formats},
		{&cmd_sweep, &sweep_formats},
		{&cmd_mark, &mark_formats},
		{&cmd_model, &model_formats},
		{&cmd_plan, &plan_formats},
		{&cmd_explain, &explain_formats},
		{&cmd_cost, &cost_upload_formats},
		{&cmd_cost, &cost_config_formats},
		{&cmd_catalog, &catalog_list_formats},
		{&cmd_catalog, &catalog_show_formats},
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
		cmocka_unit_test(names_and_messages),
		cmocka_unit_test(option_values_follow_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
