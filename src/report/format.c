/*
 * The one lookup of the output formats over each kind's table (format.h), so that --format,
 * --json and --csv mean the same everywhere and a format a command cannot print is refused in
 * the same words, never printed as another.
 */
#include "report/format.h"

#include <string.h>

#include "report/catalog_fmt.h"
#include "report/dry_run_fmt.h"
#include "report/history_fmt.h"
#include "report/history_list.h"
#include "report/mark_fmt.h"
#include "report/model_fmt.h"
#include "report/report.h"
#include "report/sweep_fmt.h"
#include "report/verify_fmt.h"

/* Every table, for the names of every format (a run's result first: it has them all). */
static const struct report_formats *const every[] = {
	&result_formats, &sweep_formats, &mark_formats, &model_formats, &plan_formats,
	&explain_formats, &cost_upload_formats, &cost_config_formats, &catalog_list_formats,
	&catalog_show_formats, &catalog_import_formats, &catalog_prices_formats,
	&history_list_formats, &history_compare_formats, &dry_run_formats, &verify_formats,
};
#define NEVERY (sizeof(every) / sizeof(every[0]))

static const struct report_format *entry(const struct report_formats *t, size_t i)
{
	return (const void *)((const char *)t->entries + i * t->size);
}

const struct report_format *report_format_find(const struct report_formats *t, const char *name)
{
	for (size_t i = 0; t && name && i < t->n; i++)
		if (!strcmp(entry(t, i)->name, name))
			return entry(t, i);
	return NULL;
}

bool report_format_known(const char *name)
{
	for (size_t k = 0; k < NEVERY; k++)
		if (report_format_find(every[k], name))
			return true;
	return false;
}

/* Whether the name of table k's entry i is not in an earlier table or entry. */
static bool first_of_name(size_t k, size_t i)
{
	const char *name = entry(every[k], i)->name;

	for (size_t j = 0; j < k; j++)
		if (report_format_find(every[j], name))
			return false;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(entry(every[k], j)->name, name))
			return false;
	return true;
}

const char *report_format_names(const struct report_formats *t, const char *sep,
				const char *last, char *buf, size_t len)
{
	const struct report_format *names[32];
	size_t n = 0, total = 0;

	for (size_t k = 0; k < (t ? 1 : NEVERY); k++) {
		const struct report_formats *tk = t ? t : every[k];

		for (size_t i = 0; i < tk->n && total < sizeof(names) / sizeof(names[0]); i++)
			if (t || first_of_name(k, i))
				names[total++] = entry(tk, i);
	}
	if (len)
		buf[0] = '\0';
	for (size_t k = 0; k < total && n < len; k++) {
		const char *s = !k ? "" : k + 1 == total && last ? last : sep;

		n += (size_t)snprintf(buf + n, len - n, "%s%s", s, names[k]->name);
	}
	return buf;
}

const char *report_format_unknown(char *buf, size_t len)
{
	char names[64];

	snprintf(buf, len, "is not an output format (%s)",
		 report_format_names(NULL, ", ", NULL, names, sizeof(names)));
	return buf;
}

const char *report_format_refusal(const struct report_formats *t, const char *given, char *buf,
				  size_t len)
{
	char names[64];

	snprintf(buf, len, "%s: '%s' prints %s", given, t->command,
		 report_format_names(t, ", ", " or ", names, sizeof(names)));
	return buf;
}
