/*
 * The text of charts (report/chart.h): widths estimated from character cells, every text's box
 * kept as it is written, and the labels of categories set flat, wrapped, turned or as numbers
 * with a key, whichever is the first to fit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_int.h"

/* A font's ascent and descent, em: DejaVu Sans Mono's 0.928 and 0.236, rounded up. */
#define ASCENT 0.93
#define DESCENT 0.24
/* Baselines of stacked lines, px apart: a line's box is 1.17 em = 12.9 px at CHART_FS. */
#define LH 14.0
/* Space kept between neighbouring labels, px. */
#define GAP 4.0
/* The longest label turned upright before labels become numbers with a key, px. */
#define VERT_MAX 160.0
#define MARGIN 10.0

/* The code point at s and its length in bytes (1 for a byte that starts no valid sequence). */
static unsigned long utf8_next(const unsigned char *s, size_t *len)
{
	unsigned long c = s[0];
	size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
		   (c & 0xf8) == 0xf0 ? 4 : 0;

	if (n <= 1) {
		*len = 1;
		return c;
	}
	c &= 0x7fu >> n;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*len = 1;
			return s[0];
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*len = n;
	return c;
}

/* East Asian wide and fullwidth ranges (Unicode's EastAsianWidth W and F, the main blocks). */
static unsigned cp_cells(unsigned long c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
	    (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

/*
 * Whether the sequence of n bytes that decoded to c is a character XML may hold: shortest form,
 * no surrogate, no control character but tab and line breaks, not U+FFFE or U+FFFF.
 */
static bool xml_char(unsigned long c, size_t n)
{
	static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};

	if (c < 0x20)
		return c == '\t' || c == '\n' || c == '\r';
	return c >= least[n] && c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff) &&
	       c != 0xfffe && c != 0xffff && (n > 1 || c < 0x80);
}

/* Text and attribute values alike: the five characters XML gives a meaning escaped, and what
 * XML may not hold (control characters, bytes that are not UTF-8) as U+FFFD. */
void xml_esc(FILE *f, const char *s)
{
	size_t n;

	for (; s && *s; s += n) {
		unsigned long c = utf8_next((const unsigned char *)s, &n);

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (xml_char(c, n))
				fwrite(s, 1, n, f);
			else
				fputs("\xef\xbf\xbd", f);
		}
	}
}

size_t chart_cells(const char *s)
{
	size_t n = 0, len;

	while (s && *s) {
		n += cp_cells(utf8_next((const unsigned char *)s, &len));
		s += len;
	}
	return n;
}

double chart_text_width(const char *s, double px)
{
	return (double)chart_cells(s) * CHART_EM * px;
}

bool chart_boxes_overlap(const struct chart_box *a, const struct chart_box *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

struct chart_box chart_text_box(double x, double y, enum chart_anchor a, bool vertical,
				double px, const char *s)
{
	double w = chart_text_width(s, px), lead = a == CHART_START ? 0 : a == CHART_MIDDLE ?
						   w / 2 : w;

	/* Turned a quarter (rotate(-90) about the anchor), the text runs up the page and its
	 * ascent lies to the left of the baseline. */
	if (vertical)
		return (struct chart_box){.x = x - ASCENT * px, .y = y - w + lead,
					  .w = (ASCENT + DESCENT) * px, .h = w};
	return (struct chart_box){.x = x - lead, .y = y - ASCENT * px, .w = w,
				  .h = (ASCENT + DESCENT) * px};
}

static void keep_box(struct chart_ctx *g, const struct chart_box *b)
{
	if (g->nboxes == g->capboxes) {
		size_t nc = g->capboxes ? g->capboxes * 2 : 32;
		struct chart_box *n = realloc(g->boxes, nc * sizeof(*n));

		if (!n) {
			g->oom = true;
			return;
		}
		g->boxes = n;
		g->capboxes = nc;
	}
	g->boxes[g->nboxes++] = *b;
}

void chart_text(struct chart_ctx *g, double x, double y, enum chart_anchor a, bool vertical,
		double px, const char *cls, const char *s)
{
	static const char *const anchors[] = {"start", "middle", "end"};
	struct chart_box b = chart_text_box(x, y, a, vertical, px, s);
	bool title = !strcmp(cls, "ct");

	keep_box(g, &b);
	fprintf(g->f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" fill=\"%s\"", x, y, cls,
		title ? "#222" : "#555");
	if (a != CHART_START)
		fprintf(g->f, " text-anchor=\"%s\"", anchors[a]);
	if (title)
		fprintf(g->f, " font-size=\"%g\" font-weight=\"bold\"", px);
	if (vertical)
		fprintf(g->f, " transform=\"rotate(-90 %.1f %.1f)\"", x, y);
	fputc('>', g->f);
	xml_esc(g->f, s);
	fputs("</text>", g->f);
}

bool chart_clear(const struct chart_ctx *g, const struct chart_box *b, double w, double h)
{
	if (b->x < 1 || b->y < 1 || b->x + b->w > w - 1 || b->y + b->h > h - 1)
		return false;
	for (size_t i = 0; i < g->nboxes; i++) {
		struct chart_box pad = {.x = g->boxes[i].x - 2, .y = g->boxes[i].y - 1,
					.w = g->boxes[i].w + 4, .h = g->boxes[i].h + 2};

		if (chart_boxes_overlap(b, &pad))
			return false;
	}
	return true;
}

const char *chart_fit(const char *s, double w, double px, char *buf, size_t len)
{
	size_t cells = 0, max = (size_t)floor(w / (CHART_EM * px)), o = 0, n;

	if (!len)
		return "";
	if (chart_cells(s) <= max) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	/* Room for the ellipsis (one cell, three bytes). */
	while (*s && o + 8 < len) {
		unsigned c = cp_cells(utf8_next((const unsigned char *)s, &n));

		if (cells + c + 1 > max)
			break;
		memcpy(buf + o, s, n);
		o += n, s += n, cells += c;
	}
	memcpy(buf + o, "\xe2\x80\xa6", 4);
	return buf;
}

/* Breaks s at spaces into at most 3 lines of at most w pixels each; false when a word is
 * longer than w or more lines are needed. */
static bool wrap(const char *s, double w, char lines[3][256], unsigned *nl)
{
	*nl = 0;
	while (*s) {
		size_t wl;
		char word[256];

		s += strspn(s, " ");
		if (!*s)
			break;
		if ((wl = strcspn(s, " ")) >= sizeof(word))
			return false;
		memcpy(word, s, wl);
		word[wl] = '\0';
		s += wl;
		if (chart_text_width(word, CHART_FS) > w)
			return false;
		if (*nl) {
			char *line = lines[*nl - 1];
			size_t l = strlen(line);

			if (l + 1 + wl < 256) {
				line[l] = ' ';
				memcpy(line + l + 1, word, wl + 1);
				if (chart_text_width(line, CHART_FS) <= w)
					continue;
				line[l] = '\0';
			}
		}
		if (*nl == 3)
			return false;
		memcpy(lines[(*nl)++], word, wl + 1);
	}
	return *nl > 0;
}

static double widest(const char *const *cats, size_t n)
{
	double w = 0;

	for (size_t i = 0; i < n; i++)
		w = fmax(w, chart_text_width(cats[i], CHART_FS));
	return w;
}

/* The number of category i as the key names it. */
static const char *key_num(size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%zu", i + 1);
	return buf;
}

/* Numbers for the categories, flat or turned, and a key in columns under the chart. */
static void plan_key(const char *const *cats, size_t n, double slot, struct chart_cats *p)
{
	char num[24];
	double nw = chart_text_width(key_num(n - 1, num, sizeof(num)), CHART_FS);
	double room = CHART_W - 2 * MARGIN, entry = 0;

	p->mode = CHART_LABELS_KEY;
	p->every = 1;
	if (nw <= slot - GAP) {
		p->height = LH + 4;
	} else {
		/* Turned numbers need a line's height per slot: fewer are labelled if narrower. */
		double need = (ASCENT + DESCENT) * CHART_FS + GAP;

		p->every = slot >= need ? 1 : (unsigned)ceil(need / slot);
		p->turned = true;
		p->height = 6 + nw + 6;
	}
	for (size_t i = 0; i < n; i++) {
		char e[600];

		snprintf(e, sizeof(e), "%zu %s", i + 1, cats[i]);
		entry = fmax(entry, chart_text_width(e, CHART_FS));
	}
	p->key_colw = fmin(entry + 16, room);
	p->key_cols = (unsigned)fmax(1, floor(room / p->key_colw));
	p->key_rows = (unsigned)((n + p->key_cols - 1) / p->key_cols);
	p->key_colw = room / p->key_cols;
	p->key_h = 8 + LH * p->key_rows;
}

void chart_cats_plan(const char *const *cats, size_t n, double slot, struct chart_cats *p)
{
	double w = widest(cats, n), avail = slot - GAP;
	unsigned most = 0;

	*p = (struct chart_cats){.mode = CHART_LABELS_NONE, .every = 1};
	if (!n)
		return;
	if (w <= avail) {
		p->mode = CHART_LABELS_FLAT;
		p->height = LH + 4;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char lines[3][256];
		unsigned nl;

		if (!wrap(cats[i], avail, lines, &nl)) {
			most = 4;
			break;
		}
		most = nl > most ? nl : most;
	}
	if (most <= 3) {
		p->mode = CHART_LABELS_WRAPPED;
		p->height = LH * most + 4;
		return;
	}
	if (w <= VERT_MAX && slot >= (ASCENT + DESCENT) * CHART_FS + GAP) {
		p->mode = CHART_LABELS_VERTICAL;
		p->height = 6 + w + 6;
		return;
	}
	plan_key(cats, n, slot, p);
}

/* A label under slot centre cx: flat lines from the axis at y down, or turned. */
static void cat_label(struct chart_ctx *g, const char *s, double cx, double y, bool vertical)
{
	if (vertical) {
		/* The baseline a little right of centre centres the glyphs' box on the slot. */
		chart_text(g, cx + (ASCENT - DESCENT) / 2 * CHART_FS, y + 6, CHART_END, true,
			   CHART_FS, "al", s);
	} else {
		chart_text(g, cx, y + LH, CHART_MIDDLE, false, CHART_FS, "al", s);
	}
}

static void key_write(struct chart_ctx *g, const char *const *cats, size_t n,
		      const struct chart_cats *p, double y)
{
	for (size_t i = 0; i < n; i++) {
		size_t col = i / p->key_rows, row = i % p->key_rows;
		char e[600], fit[600];

		snprintf(e, sizeof(e), "%zu %s", i + 1, cats[i]);
		chart_text(g, MARGIN + (double)col * p->key_colw, y + LH * (double)(row + 1),
			   CHART_START, false, CHART_FS, "al",
			   chart_fit(e, p->key_colw - 12, CHART_FS, fit, sizeof(fit)));
	}
}

void chart_cats_write(struct chart_ctx *g, const char *const *cats, size_t n, double x0,
		      double slot, double y, const struct chart_cats *p, double key_y)
{
	for (size_t i = 0; i < n; i++) {
		double cx = x0 + slot * ((double)i + 0.5);
		char lines[3][256], num[24];
		unsigned nl;

		switch (p->mode) {
		case CHART_LABELS_FLAT:
			cat_label(g, cats[i], cx, y, false);
			break;
		case CHART_LABELS_WRAPPED:
			wrap(cats[i], slot - GAP, lines, &nl);
			for (unsigned k = 0; k < nl; k++)
				cat_label(g, lines[k], cx, y + LH * k, false);
			break;
		case CHART_LABELS_VERTICAL:
			cat_label(g, cats[i], cx, y, true);
			break;
		case CHART_LABELS_KEY:
			if (i % p->every == 0)
				cat_label(g, key_num(i, num, sizeof(num)), cx, y, p->turned);
			break;
		}
	}
	if (p->mode == CHART_LABELS_KEY)
		key_write(g, cats, n, p, key_y);
}
