/* The formats of runs (report.h), in the order their names are listed. */
#include "report/report.h"

static const struct result_format formats[] = {
	{.f = REPORT_TEXT, .ops = &report_text},
	{.f = REPORT_JSON, .ops = &report_json},
	{.f = REPORT_CSV, .ops = &report_csv},
	/* fio 3.33's --output-format=json layout, for tools written for fio */
	{.f = {.name = "fio-json", .for_programs = true}, .ops = &report_fio_json},
	/* ... and its json+, with each latency histogram's bins in fio's buckets */
	{.f = {.name = "fio-json+", .for_programs = true}, .ops = &report_fio_json_plus},
	/* fio 3.33's terse output, version 3 (--output-format=terse, --minimal) */
	{.f = {.name = "fio-terse", .for_programs = true}, .ops = &report_fio_terse},
};

const struct report_formats result_formats = REPORT_FORMATS("iorate run", formats);
