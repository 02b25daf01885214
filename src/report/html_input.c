/*
 * The runs of an HTML page (report/html.h) and where each came from: a run's file, the history,
 * or a sweep's or mark's document, whose runs are known by the value swept or the test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_int.h"
#include "report/html_int.h"
#include "report/mark_fmt.h"
#include "report/sweep_fmt.h"
#include "result/result_json.h"
#include "util/err.h"
#include "util/parse.h"

void html_input_init(struct html_input *in)
{
	memset(in, 0, sizeof(*in));
}

void html_input_release(struct html_input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		result_set_release(&in->runs[i].run);
		free(in->runs[i].label);
		free(in->runs[i].source);
		free(in->runs[i].test);
	}
	for (size_t i = 0; i < in->ndocs; i++) {
		free(in->docs[i].source);
		free(in->docs[i].param);
	}
	free(in->runs);
	free(in->docs);
	html_input_init(in);
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*oom = true;
	return d;
}

int html_input_add(struct html_input *in, struct result_set *r, const char *label,
		   const char *source)
{
	struct html_run *p;
	bool oom = false;

	if (in->n == in->cap) {
		size_t nc = in->cap ? in->cap * 2 : 8;
		struct html_run *g = realloc(in->runs, nc * sizeof(*g));

		if (!g)
			return -ENOMEM;
		in->runs = g;
		in->cap = nc;
	}
	p = &in->runs[in->n];
	*p = (struct html_run){.doc = HTML_NO_DOC};
	p->label = dup_or_null(label, &oom);
	p->source = dup_or_null(source, &oom);
	if (oom) {
		free(p->label);
		free(p->source);
		return -ENOMEM;
	}
	/* A run owns only what its pointers point at: it moves by copy. */
	p->run = *r;
	result_set_init(r);
	in->n++;
	return 0;
}

/* A new document of the page, its runs starting at the next run added. */
static struct html_doc *add_doc(struct html_input *in, bool mark, const char *source,
				const char *param)
{
	struct html_doc *d;
	bool oom = false;

	if (in->ndocs == in->capdocs) {
		size_t nc = in->capdocs ? in->capdocs * 2 : 4;
		struct html_doc *g = realloc(in->docs, nc * sizeof(*g));

		if (!g)
			return NULL;
		in->docs = g;
		in->capdocs = nc;
	}
	d = &in->docs[in->ndocs];
	*d = (struct html_doc){.mark = mark, .first = in->n};
	d->source = dup_or_null(source, &oom);
	d->param = dup_or_null(param, &oom);
	if (oom) {
		free(d->source);
		free(d->param);
		return NULL;
	}
	in->ndocs++;
	return d;
}

static uint64_t u64_of(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
							       : 0;
}

/* The runs of sets, in the order result_json_sets() read them: sweep rows, then mark tests. */
static int add_table(struct html_input *in, const json_t *doc, struct result_set *sets,
		     size_t n, const char *source)
{
	static const enum mark_dir dirs[2] = {MARK_READ, MARK_WRITE}; /* as core reads them */
	const char *param = json_string_value(json_object_get(doc, SWEEP_DOC_PARAM)), *units;
	struct html_doc *d = NULL;
	size_t k = 0, i;
	json_t *x, *run;
	int rc;

	json_array_foreach(json_object_get(doc, SWEEP_DOC_ROWS), i, x) {
		if (!(run = json_object_get(x, SWEEP_DOC_ROW_RUN)) || json_is_null(run) || k >= n)
			continue;
		if (!d && !(d = add_doc(in, false, source, param ? param : "value")))
			return -ENOMEM;
		if ((rc = html_input_add(in, &sets[k++], NULL, source)))
			return rc;
		in->runs[in->n - 1].doc = (size_t)(d - in->docs);
		in->runs[in->n - 1].value = u64_of(json_object_get(x, param ? param : ""));
		in->runs[in->n - 1].bs = u64_of(json_object_get(x, SWEEP_DOC_ROW_BS));
		d->n++;
	}
	d = NULL;
	json_array_foreach(json_object_get(doc, MARK_DOC_TESTS), i, x) {
		for (int w = 0; w < 2; w++) {
			const char *name = json_string_value(json_object_get(x, MARK_DOC_TEST_NAME));
			const char *dir = mark_dir_names[dirs[w]];
			struct html_run *r;

			run = json_object_get(json_object_get(x, dir), MARK_DOC_RESULT);
			if (!run || json_is_null(run) || k >= n)
				continue;
			if (!d && !(d = add_doc(in, true, source, NULL)))
				return -ENOMEM;
			units = json_string_value(json_object_get(doc, MARK_DOC_UNITS));
			/* As 'iorate mark' printed its table: MB/s unless it was asked in iec
			 * (kdiskmark's figures are MB/s too; a document without units is si). */
			d->si = !units || strcmp(units, mark_units_names[MARK_UNITS_IEC]);
			if ((rc = html_input_add(in, &sets[k++], NULL, source)))
				return rc;
			r = &in->runs[in->n - 1];
			r->doc = (size_t)(d - in->docs);
			r->dir = dir;
			if (!(r->test = strdup(name ? name : "test")))
				return -ENOMEM;
			d->n++;
		}
	}
	return 0;
}

int html_input_add_doc(struct html_input *in, const json_t *doc, const char *source, char *err,
		       size_t errlen)
{
	struct result_set *sets;
	size_t n;
	int rc = result_json_sets(doc, &sets, &n, err, errlen);

	if (rc)
		return rc;
	if (!n) {
		rc = err_set(err, errlen, -ENODATA, "holds no run (expected the JSON of 'iorate "
			     "run --json', 'sweep --json' or 'mark --json')");
	} else if (json_object_get(doc, "params") || json_object_get(doc, "jobs")) {
		rc = html_input_add(in, &sets[0], NULL, source);
	} else {
		rc = add_table(in, doc, sets, n, source);
	}
	if (rc == -ENOMEM)
		(void)err_set(err, errlen, rc, "out of memory");
	result_sets_free(sets, n);
	return rc;
}

const char *html_run_number(const struct html_input *in, size_t i, char *buf, size_t len)
{
	if (in->runs[i].id > 0)
		snprintf(buf, len, "#%lld", in->runs[i].id);
	else
		snprintf(buf, len, "%zu", i + 1);
	return buf;
}

bool html_input_mark_si(const struct html_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->runs[i].doc == HTML_NO_DOC || !in->docs[in->runs[i].doc].mark ||
		    !in->docs[in->runs[i].doc].si)
			return false;
	return in->n > 0;
}

const char *html_sweep_value(const struct html_doc *d, uint64_t v, char *buf, size_t len)
{
	if (d->param && !strcmp(d->param, "bs"))
		return fmt_size(v, buf, len);
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

#define MAXW 48
/* A command line as units: an option with the word after it ("-b 64k"), or a word alone. */
struct words {
	char w[MAXW][128];
	size_t n;
};

static void split(const char *cmd, struct words *ws)
{
	char tok[MAXW + 1][128];
	size_t nt = 0;

	while (cmd && *cmd && nt < MAXW + 1) {
		size_t len;

		cmd += strspn(cmd, " ");
		if (!(len = strcspn(cmd, " ")))
			break;
		snprintf(tok[nt++], sizeof(tok[0]), "%.*s", (int)len, cmd);
		cmd += len;
	}
	ws->n = 0;
	for (size_t i = nt && !strcmp(tok[0], "iorate"); i < nt && ws->n < MAXW; i++) {
		char *w = ws->w[ws->n++];

		if (tok[i][0] == '-' && i + 1 < nt && tok[i + 1][0] != '-') {
			/* Joined by a no-break space: a chart's label never breaks between them. */
			snprintf(w, sizeof(ws->w[0]), "%.60s\xc2\xa0%.60s", tok[i], tok[i + 1]);
			i++;
		} else {
			snprintf(w, sizeof(ws->w[0]), "%s", tok[i]);
		}
	}
}

static bool has_word(const struct words *ws, const char *w)
{
	for (size_t i = 0; i < ws->n; i++)
		if (!strcmp(ws->w[i], w))
			return true;
	return false;
}

/* Runs named by their command: the words not every such run of the page has. */
static void command_name(const struct words *all, size_t n, size_t i, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int pass = 0; pass < 2 && !buf[0]; pass++)
		for (size_t k = 0; k < all[i].n; k++) {
			bool common = pass == 0;

			for (size_t j = 0; j < n && common; j++)
				common = has_word(&all[j], all[i].w[k]);
			if (!common && o + 1 < len)
				o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
						      all[i].w[k]);
		}
	if (!buf[0])
		snprintf(buf, len, "run");
}

static const char *first_command(const struct result_set *s)
{
	return s->njobs ? s->jobs[0].job.command_line : NULL;
}

static void doc_name(const struct html_input *in, const struct html_run *r, char *buf,
		     size_t len)
{
	const struct html_doc *d = &in->docs[r->doc];
	char v[32], bs[32];
	bool several = false;

	if (d->mark) {
		snprintf(buf, len, "%s %s", r->test, r->dir);
		return;
	}
	for (size_t i = d->first; i < d->first + d->n; i++)
		several |= in->runs[i].bs != in->runs[d->first].bs;
	snprintf(buf, len, "%s=%s", d->param, html_sweep_value(d, r->value, v, sizeof(v)));
	if (several && strcmp(d->param, "bs"))
		snprintf(buf + strlen(buf), len - strlen(buf), " bs=%s",
			 fmt_size(r->bs, bs, sizeof(bs)));
}

/* Names the runs without label or document by their commands' distinguishing words. */
static int command_names(const struct html_input *in, char **names)
{
	struct words *all = calloc(in->n ? in->n : 1, sizeof(*all));
	size_t m = 0, *idx = calloc(in->n ? in->n : 1, sizeof(*idx));
	int rc = 0;

	if (!all || !idx) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < in->n; i++)
		if (!in->runs[i].label && in->runs[i].doc == HTML_NO_DOC) {
			split(first_command(&in->runs[i].run), &all[m]);
			idx[m++] = i;
		}
	for (size_t k = 0; k < m && !rc; k++) {
		char buf[512], fit[160];

		command_name(all, m, k, buf, sizeof(buf));
		if (!(names[idx[k]] = strdup(chart_fit(buf, 48 * CHART_EM * CHART_FS, CHART_FS,
						       fit, sizeof(fit)))))
			rc = -ENOMEM;
	}
out:
	free(all);
	free(idx);
	return rc;
}

/* The second and later of equal names get " (2)", " (3)". */
static int number_repeats(char **names, size_t n)
{
	unsigned *k = calloc(n ? n : 1, sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			k[i] += !strcmp(names[i], names[j]);
	for (size_t i = 0; i < n; i++) {
		char *s;

		if (!k[i])
			continue;
		if (asprintf(&s, "%s (%u)", names[i], k[i] + 1) < 0) {
			free(k);
			return -ENOMEM;
		}
		free(names[i]);
		names[i] = s;
	}
	free(k);
	return 0;
}

char **html_names(const struct html_input *in)
{
	char **names = calloc(in->n ? in->n : 1, sizeof(*names));

	if (!names)
		return NULL;
	for (size_t i = 0; i < in->n; i++) {
		const struct html_run *r = &in->runs[i];
		char buf[512];

		if (r->label)
			snprintf(buf, sizeof(buf), "%s", r->label);
		else if (r->doc != HTML_NO_DOC)
			doc_name(in, r, buf, sizeof(buf));
		else
			continue;
		if (!(names[i] = strdup(buf)))
			goto fail;
	}
	if (command_names(in, names) || number_repeats(names, in->n))
		goto fail;
	return names;
fail:
	html_names_free(names, in->n);
	return NULL;
}

void html_names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

const char *html_slug(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; s && *s && o + 1 < len && o < 40; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			buf[o++] = c;
		else if (o && buf[o - 1] != '-')
			buf[o++] = '-';
	}
	while (o && buf[o - 1] == '-')
		o--;
	buf[o] = '\0';
	return buf;
}
