/* Verification's findings as text and JSON (src/core/verify.h). */
#include "report/verify_fmt.h"

#include <errno.h>

#include <jansson.h>

#include "util/escape.h"
#include "util/jsonout.h"

static void put_found(FILE *f, const struct verify_bad *b)
{
	if (!b->has_found) {
		fputs("\n", f);
		return;
	}
	fprintf(f, "; its header says offset %llu, generation %u, thread %u, target %u, run %llu\n",
		(unsigned long long)b->found.offset, b->found.gen, b->found.thread, b->found.target,
		(unsigned long long)b->found.seed);
}

/* A checksum mismatch's two checksums: "; the header's crc32c 1a2b3c4d, the data's ...". */
static void put_sums(FILE *f, const struct verify_bad *b)
{
	char h[65], d[65];

	if (!b->sum)
		return;
	verify_sum_hex(b->sum_header, b->sum, h);
	verify_sum_hex(b->sum_data, b->sum, d);
	fprintf(f, "; the header's %s %s, the data's %s", verify_sum_name(b->sum), h, d);
}

static json_t *sums_json(const struct verify_bad *b)
{
	char h[65], d[65];

	if (!b->sum)
		return NULL;
	verify_sum_hex(b->sum_header, b->sum, h);
	verify_sum_hex(b->sum_data, b->sum, d);
	return json_pack("{s:s, s:s}", "header", h, "data", d);
}

void report_verify_text(FILE *f, const struct verify_result *v, const char *const *paths,
			unsigned npaths)
{
	fprintf(f, "\nVerification (%s, %u-byte blocks): %llu blocks checked, %llu bad", 
		verify_sum_name(v->sum), v->block, (unsigned long long)v->checked,
		(unsigned long long)v->bad);
	if (v->unknown)
		fprintf(f, ", %llu not checked (their last write failed)",
			(unsigned long long)v->unknown);
	fputs("\n", f);
	for (unsigned i = 0; i < v->nbads && i < VERIFY_SHOW; i++) {
		const struct verify_bad *b = &v->bads[i];
		fputs("  ", f);
		escape_fputs(b->target < npaths ? paths[b->target] : "?", f);
		fprintf(f, " at byte %llu: %s", (unsigned long long)b->offset,
			verify_why_text(b->why));
		if (b->want_gen)
			fprintf(f, " (expected generation %u)", b->want_gen);
		put_sums(f, b);
		put_found(f, b);
	}
	if (v->bad > VERIFY_SHOW)
		fprintf(f, "  ... and %llu more bad blocks%s\n",
			(unsigned long long)(v->bad - VERIFY_SHOW),
			v->bad > v->nbads ? " (the JSON lists the first 1024)" : " (see the JSON)");
}

static json_t *bad_obj(const struct verify_bad *b, const char *path)
{
	json_t *o = json_pack("{s:i, s:s?, s:I, s:s, s:s, s:i}", "target", (int)b->target, "path",
			      path, "offset", (json_int_t)b->offset, "why",
			      verify_why_name(b->why), "text", verify_why_text(b->why),
			      "expected_gen", (int)b->want_gen);

	if (o && b->has_found)
		json_object_set_new(o, "found",
				    json_pack("{s:I, s:I, s:i, s:i, s:i, s:i}", "seed",
					      (json_int_t)b->found.seed, "offset",
					      (json_int_t)b->found.offset, "gen", (int)b->found.gen,
					      "target", (int)b->found.target, "thread",
					      (int)b->found.thread, "block", (int)b->found.block));
	else if (o)
		json_object_set_new(o, "found", json_null());
	if (o && b->sum)
		json_object_set_new(o, "sum", sums_json(b));
	return o;
}

static json_t *report_verify_json(const struct verify_result *v,
				  const struct verify_target_report *t, unsigned n)
{
	json_t *o = json_object(), *ts = json_array(), *bads = json_array();

	for (unsigned i = 0; i < n; i++)
		json_array_append_new(ts, json_pack("{s:s, s:I, s:I, s:I, s:I, s:s?}", "path",
						    t[i].path, "unwritten",
						    (json_int_t)t[i].unwritten, "lost",
						    (json_int_t)t[i].lost, "lost_unplaced",
						    (json_int_t)t[i].lost_unplaced, "suspicious",
						    (json_int_t)t[i].suspicious, "error",
						    t[i].error ? t[i].errmsg : NULL));
	for (unsigned i = 0; i < v->nbads; i++)
		json_array_append_new(bads, bad_obj(&v->bads[i], v->bads[i].target < n
									  ? t[v->bads[i].target].path
									  : NULL));
	json_object_set_new(o, "sum", json_string(verify_sum_name(v->sum) ? verify_sum_name(v->sum)
									 : "unknown"));
	json_object_set_new(o, "block", json_integer(v->block));
	json_object_set_new(o, "checked", json_integer((json_int_t)v->checked));
	json_object_set_new(o, "bad", json_integer((json_int_t)v->bad));
	json_object_set_new(o, "targets", ts);
	json_object_set_new(o, "bad_blocks", bads);
	return o;
}

/* Target i's lost writes: how many, and where the first few are. */
#define LOST_SHOW 4
static void put_lost(FILE *f, const struct verify_result *v, unsigned i,
		     const struct verify_target_report *t)
{
	unsigned shown = 0;

	if (!t->lost)
		return;
	fputs("  ", f);
	escape_fputs(t->path, f);
	fprintf(f, ": %llu lost writes (blocks the run wrote that hold no iorate header)",
		(unsigned long long)t->lost);
	for (unsigned k = 0; k < v->nbads && shown < LOST_SHOW; k++)
		if (v->bads[k].target == i && v->bads[k].why == VERIFY_UNWRITTEN)
			fprintf(f, "%s%llu", shown++ ? ", " : ", at bytes ",
				(unsigned long long)v->bads[k].offset);
	if (t->lost > shown && shown)
		fputs(", ...", f);
	if (t->lost_unplaced)
		fprintf(f, "; %llu of them beyond the ranges its result records, not placed",
			(unsigned long long)t->lost_unplaced);
	fputc('\n', f);
}

int verify_fmt_text(FILE *f, const struct verify_report *r)
{
	const struct verify_target_report *t = r->targets;

	report_verify_text(f, r->result, r->paths, r->n);
	for (unsigned i = 0; i < r->n; i++)
		put_lost(f, r->result, i, &t[i]);
	for (unsigned i = 0; i < r->n; i++) {
		if (!t[i].unwritten)
			continue;
		fputs("  ", f);
		escape_fputs(t[i].path, f);
		if (!t[i].suspicious)
			fprintf(f, ": %llu blocks without an iorate header (not written by it)\n",
				(unsigned long long)t[i].unwritten);
		else
			fprintf(f, ": %llu blocks without an iorate header, %llu of them between the "
				"run's own (suspicious: lost writes, or blocks a random run never "
				"wrote; the run's saved result, --result, tells which)\n",
				(unsigned long long)t[i].unwritten,
				(unsigned long long)t[i].suspicious);
	}
	for (unsigned i = 0; i < r->n; i++) {
		if (!t[i].error)
			continue;
		fputs("  ", f);
		escape_fputs(t[i].path, f);
		fputs(": not checked to the end: ", f);
		escape_fputs(t[i].errmsg, f); /* it names the path too */
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int verify_fmt_json(FILE *f, const struct verify_report *r)
{
	json_t *j = report_verify_json(r->result, r->targets, r->n);
	int w = j ? jsonout_dumpf(j, f, JSON_INDENT(2)) : -ENOMEM;

	json_decref(j);
	if (fputc('\n', f) == EOF && !w)
		w = -EIO;
	return w;
}

static const struct verify_format formats[] = {
	{.f = REPORT_TEXT, .write = verify_fmt_text},
	{.f = REPORT_JSON, .write = verify_fmt_json},
};

const struct report_formats verify_formats = REPORT_FORMATS("iorate verify", formats);
