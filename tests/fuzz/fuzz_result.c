/*
 * libFuzzer target: a run's JSON (one job or several), or a sweep or mark document holding
 * runs, of any content is read or refused with a message; a run that is read writes JSON that
 * reads back to the same run, whose JSON is the same text (result/result_json.h's promise); and
 * every format prints it (to /dev/null) without a crash, and so does the HTML page of the whole
 * document (a sweep's or a mark's sections, each chart also as a standalone SVG).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "report/html.h"
#include "report/report.h"
#include "result/result_json.h"
#include "util/jsonout.h"

static char *text_of(const struct result_set *s)
{
	json_t *o = result_set_to_json(s);
	char *t = o ? jsonout_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return t;
}

static void round_trip(const struct result_set *s)
{
	char *a = text_of(s), *b = NULL, err[512];
	json_t *o = a ? json_loads(a, 0, NULL) : NULL;
	struct result_set back;

	if (!a)
		return; /* out of memory */
	if (!o || result_set_from_json(o, &back, err, sizeof(err))) {
		fprintf(stderr, "its own JSON does not read back: %s\n%s\n", o ? err : "", a);
		abort();
	}
	b = text_of(&back);
	if (b && strcmp(a, b)) {
		fprintf(stderr, "read back, it writes other JSON:\n%s\n%s\n", a, b);
		abort();
	}
	result_set_release(&back);
	json_decref(o);
	free(a);
	free(b);
}

/* The formats a run prints in: their figures come from anything a file can hold. */
static void print_all(const struct result_set *s)
{
	static const struct report_ops *const ops[] = {&report_text, &report_csv, &report_json,
						       &report_fio_json};
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		return;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		report_write_set(ops[i], null, s, NULL);
}

/*
 * A chart as a file: a standalone SVG document that XML reads (librsvg refuses any other),
 * whatever bytes the run's strings held.
 */
static int chart_file(void *arg, const char *name, const char *svg, size_t len)
{
	xmlDocPtr doc;

	(void)arg;
	if (!name[0] || strncmp(svg, "<?xml", 5) || strlen(svg) != len)
		abort();
	doc = xmlReadMemory(svg, (int)len, name, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	if (!doc) {
		fprintf(stderr, "chart %s is not well-formed XML:\n%s\n", name, svg);
		abort();
	}
	xmlFreeDoc(doc);
	return 0;
}

/* The page of the whole document, in both units. */
static void print_page(const json_t *doc)
{
	static FILE *null;
	struct html_input in;
	char err[512];

	if (!null && !(null = fopen("/dev/null", "w")))
		return;
	html_input_init(&in);
	if (!html_input_add_doc(&in, doc, "fuzz.json", err, sizeof(err))) {
		report_html_write(null, &in, &(struct html_opts){.chart = chart_file});
		report_html_write(null, &in, &(struct html_opts){.si = true});
	}
	html_input_release(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	struct result_set *sets;
	char err[512];
	size_t n;

	if (!doc)
		return 0;
	if (!result_json_sets(doc, &sets, &n, err, sizeof(err))) {
		for (size_t i = 0; i < n; i++) {
			round_trip(&sets[i]);
			print_all(&sets[i]);
		}
		result_sets_free(sets, n);
		print_page(doc);
	}
	json_decref(doc);
	return 0;
}
