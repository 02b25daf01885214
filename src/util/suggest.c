#include "util/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

unsigned suggest_distance(const char *a, const char *b)
{
	unsigned d[65][65], m = (unsigned)strlen(a), n = (unsigned)strlen(b);

	if (n > 64 || m > 64)
		return 99;
	for (unsigned i = 0; i <= m; i++)
		d[i][0] = i;
	for (unsigned j = 0; j <= n; j++)
		d[0][j] = j;
	for (unsigned i = 1; i <= m; i++)
		for (unsigned j = 1; j <= n; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned v = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			/* "iodepht" for "iodepth" is one slip of the fingers, not two. */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[m][n];
}

void suggest_init(struct suggest *s, const char *word)
{
	*s = (struct suggest){.word = word ? word : "", .dist = {99, 99, 99}};
}

void suggest_add(struct suggest *s, const char *key, const char *shown)
{
	size_t wl = strlen(s->word);
	unsigned d;

	if (!key || !*s->word)
		return;
	shown = shown ? shown : key;
	if (strlen(shown) >= sizeof(s->best[0]))
		return;
	d = suggest_distance(s->word, key);
	/* A word typed short ("rand" for "randread") is close whatever its length. */
	if (wl >= 2 && !strncasecmp(key, s->word, wl) && d > 1)
		d = 1;
	/* One slip in a short word, two in a longer one, three past 12 letters: "nope" is not
	 * "time" (three edits), though both have four letters. */
	if (d > (wl <= 4 ? 1u : wl <= 12 ? 2u : 3u) || d >= wl)
		return;
	for (int j = 0; j < 3; j++)
		if (s->best[j][0] && !strcasecmp(s->best[j], shown)) {
			if (d >= s->dist[j])
				return;
			for (int k = j; k < 2; k++) {
				memcpy(s->best[k], s->best[k + 1], sizeof(s->best[k]));
				s->dist[k] = s->dist[k + 1];
			}
			s->best[2][0] = '\0', s->dist[2] = 99;
			break;
		}
	for (int k = 0; k < 3; k++)
		if (d < s->dist[k]) {
			for (int j = 2; j > k; j--) {
				memcpy(s->best[j], s->best[j - 1], sizeof(s->best[j]));
				s->dist[j] = s->dist[j - 1];
			}
			snprintf(s->best[k], sizeof(s->best[k]), "%s", shown);
			s->dist[k] = d;
			return;
		}
}

void suggest_add_words(struct suggest *s, const char *words)
{
	char key[64];

	for (const char *p = words; p && *p;) {
		size_t n = strcspn(p, " ");

		if (n && n < sizeof(key)) {
			memcpy(key, p, n);
			key[n] = '\0';
			suggest_add(s, key, NULL);
		}
		p += n;
		p += strspn(p, " ");
	}
}

const char *suggest_list(const struct suggest *s, const char *prefix, char *out, size_t len)
{
	size_t at = 0;

	if (!len)
		return out;
	out[0] = '\0';
	for (int k = 0; k < 3 && s->best[k][0]; k++) {
		/* Only the ties of the best: "--bs" alone, not "--bs, --batch, --cap-mbps". */
		if (k && s->dist[k] > s->dist[0])
			break;
		int w = snprintf(out + at, len - at, "%s%s%s", k ? ", " : "", prefix ? prefix : "",
				 s->best[k]);
		if (w < 0 || (size_t)w >= len - at) {
			out[at] = '\0';
			break;
		}
		at += (size_t)w;
	}
	return out;
}

const char *suggest_tail(const struct suggest *s, const char *prefix, char *out, size_t len)
{
	char list[200];

	suggest_list(s, prefix, list, sizeof(list));
	snprintf(out, len, "%s%s%s", *list ? "; did you mean " : "", list, *list ? "?" : "");
	return out;
}
