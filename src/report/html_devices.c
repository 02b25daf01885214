/*
 * The HTML page's table of the block devices under the targets (html_int.h): what the kernel
 * counted for each over the measured window, its figures, and iorate's own bytes through it.
 */
#include <stdbool.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "result/result_set.h"

/* A run saved before the devices' counters were kept: the kernel's bytes beside iorate's. */
static void devices_table_old(FILE *f, const struct result_set *set)
{
	bool any = false;

	for (unsigned g = 0; g < set->ngroups; g++)
		for (unsigned i = 0; i < set->groups[g].ndevices; i++) {
			const struct device_counts *d = &set->groups[g].devices[i];

			if (!any)
				fputs("<h3>Kernel counters (/proc/diskstats)</h3>\n<table><tr>"
				      "<th>group</th><th>device</th><th>read bytes, kernel</th>"
				      "<th>read bytes, iorate</th><th>written bytes, kernel</th>"
				      "<th>written bytes, iorate</th></tr>\n", f);
			any = true;
			fprintf(f, "<tr><td>%u</td><td class=\"l\">", set->groups[g].group);
			xml_esc(f, d->kernel.name);
			fputs("</td>", f);
			html_cell(f, "%.0f", (double)d->kernel.read_bytes);
			html_cell(f, "%.0f", (double)d->read_bytes);
			html_cell(f, "%.0f", (double)d->kernel.write_bytes);
			html_cell(f, "%.0f", (double)d->write_bytes);
			fputs("</tr>\n", f);
		}
	if (any)
		fputs("</table>\n", f);
}

/* One device's row: what the kernel counted over the window, its figures, iorate's bytes. */
static void view_row(FILE *f, const char *scope, const struct device_view *v)
{
	const char *role = v->role == DEVICE_DISK ? "disk of "
			   : v->role == DEVICE_MEMBER ? "member of " : "target";
	struct device_figures g;

	device_view_figures(v, &g);
	fputs("<tr>", f);
	if (scope)
		fprintf(f, "<td class=\"l\">%s</td>", scope);
	fputs("<td class=\"l\">", f);
	xml_esc(f, v->name);
	fprintf(f, "</td><td class=\"l\">%s", role);
	xml_esc(f, v->of);
	fputs("</td>", f);
	html_cell(f, "%.3f", v->seconds);
	html_cell(f, "%.0f", (double)v->disk.read_ios);
	html_cell(f, "%.0f", (double)v->disk.read_bytes);
	html_cell(f, "%.0f", (double)v->disk.write_ios);
	html_cell(f, "%.0f", (double)v->disk.write_bytes);
	html_cell(f, "%.2f", g.read_merged_pct);
	html_cell(f, "%.2f", g.write_merged_pct);
	html_cell(f, "%.3f", g.await_ms);
	html_cell(f, "%.2f", g.util_pct);
	html_cell(f, "%.2f", g.queue_depth);
	html_cell(f, "%.0f", (double)v->disk.in_flight);
	html_cell(f, "%.0f", (double)v->read_bytes);
	html_cell(f, "%.0f", (double)v->write_bytes);
	fputs("</tr>\n", f);
}

static void views_head(FILE *f, int h, bool scope)
{
	fprintf(f, "<h%d>Devices under the targets (/proc/diskstats over the window; other "
		"processes' I/O to them counts too)</h%d>\n<table><tr>%s", h, h,
		scope ? "<th>group</th>" : "");
	fputs("<th>device</th><th>role</th><th>seconds</th><th>reads</th><th>bytes read</th>"
	      "<th>writes</th><th>bytes written</th><th>reads merged %</th>"
	      "<th>writes merged %</th><th>await ms</th><th>busy %</th><th>queue depth</th>"
	      "<th>in flight</th><th>bytes read by iorate</th><th>bytes written by iorate</th>"
	      "</tr>\n", f);
}

void html_devices_table(FILE *f, const struct result_set *set, int h)
{
	bool any = false;
	char scope[24];

	if (set->njobs == 1) {
		if (set->jobs[0].ndevices)
			views_head(f, h, false);
		for (unsigned i = 0; i < set->jobs[0].ndevices; i++)
			view_row(f, NULL, &set->jobs[0].devices[i]);
		if (set->jobs[0].ndevices)
			fputs("</table>\n", f);
		return;
	}
	for (unsigned g = 0; g < set->ngroups; g++)
		any |= set->groups[g].nviews > 0;
	if (!any) {
		devices_table_old(f, set);
		return;
	}
	views_head(f, h, true);
	for (unsigned g = 0; g < set->ngroups; g++) {
		snprintf(scope, sizeof(scope), "%u", set->groups[g].group);
		for (unsigned i = 0; i < set->groups[g].nviews; i++)
			view_row(f, scope, &set->groups[g].views[i]);
	}
	for (unsigned i = 0; i < set->total.nviews; i++)
		view_row(f, "total", &set->total.views[i]);
	fputs("</table>\n", f);
}
