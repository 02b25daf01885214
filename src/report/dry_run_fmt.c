/* A dry run's report in text and JSON (dry_run_fmt.h). */
#include "report/dry_run_fmt.h"

#include <errno.h>

#include "report/json.h"
#include "util/jsonout.h"

int dry_run_fmt_text(FILE *f, const struct dry_run_report *d)
{
	fputs(d->text ? d->text : "", f);
	return ferror(f) ? -EIO : 0;
}

int dry_run_fmt_json(FILE *f, const struct dry_run_report *d)
{
	int r;

	if (d->job)
		return report_json_print_params(f, d->job);
	if (!d->translation)
		return -ENOMEM;
	r = jsonout_dumpf(d->translation, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (fputc('\n', f) == EOF && !r)
		r = -EIO;
	return r;
}
