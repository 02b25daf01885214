#include "core/json_in.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"
#include "util/parse.h"
#include "util/stop.h"

struct input {
	FILE *f;
	uint64_t total;
	int why;                    /* 0, -EFBIG, -EINTR or the read's -errno */
};

/* Opens path ("-": standard input); -EFBIG at once when it is a regular file over the bound. */
static int input_open(struct input *in, const char *path, uint64_t *size)
{
	struct stat st;

	*in = (struct input){.f = strcmp(path, "-") ? fopen(path, "re") : stdin};
	*size = 0;
	if (!in->f)
		return -errno;
	if (fstat(fileno(in->f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > JSON_INPUT_MAX) {
		*size = (uint64_t)st.st_size;
		return -EFBIG;
	}
	return 0;
}

static void input_close(struct input *in)
{
	if (in->f && in->f != stdin)
		fclose(in->f);
}

/* Up to len bytes of the input, or (size_t)-1 with in->why past the bound or on a signal. */
static size_t input_read(void *buf, size_t len, void *arg)
{
	struct input *in = arg;
	size_t n;

	if (stop_requested()) {
		in->why = -EINTR;
		return (size_t)-1;
	}
	n = fread(buf, 1, len, in->f);
	if (!n && ferror(in->f)) {
		in->why = stop_requested() ? -EINTR : errno ? -errno : -EIO;
		return (size_t)-1;
	}
	if ((in->total += n) > JSON_INPUT_MAX) {
		in->why = -EFBIG;
		return (size_t)-1;
	}
	return n;
}

/* Why an input was not read, after "PATH: ". */
static void why_text(char *buf, size_t len, int why, uint64_t size)
{
	char b1[32], b2[32];

	if (why == -EFBIG && size)
		snprintf(buf, len, "%s (%llu bytes) is larger than the %s a JSON input may be",
			 fmt_size(size, b1, sizeof(b1)), (unsigned long long)size,
			 fmt_size(JSON_INPUT_MAX, b2, sizeof(b2)));
	else if (why == -EFBIG)
		snprintf(buf, len, "larger than the %s a JSON input may be",
			 fmt_size(JSON_INPUT_MAX, b2, sizeof(b2)));
	else if (why == -EINTR)
		snprintf(buf, len, "interrupted while reading it");
	else
		snprintf(buf, len, "%s", strerror(-why));
}

static json_t *fail(json_error_t *je, const char *path, int why, uint64_t size, bool open)
{
	char text[160], full[4608];
	size_t n;

	why_text(text, sizeof(text), why, size);
	/* jansson's words for a file it cannot open, which messages and tests expect */
	if (open)
		snprintf(full, sizeof(full), "unable to open %s: %s", path, text);
	else
		snprintf(full, sizeof(full), "%s", text);
	memset(je, 0, sizeof(*je));
	je->line = je->column = -1;
	snprintf(je->source, sizeof(je->source), "%s", path);
	/* The text's last byte holds jansson's error code: the message ends before it. */
	n = strlen(full) < sizeof(je->text) - 2 ? strlen(full) : sizeof(je->text) - 2;
	memcpy(je->text, full, n);
	je->text[n] = '\0';
	return NULL;
}

json_t *json_input_load(const char *path, size_t flags, json_error_t *je)
{
	struct input in;
	uint64_t size;
	json_t *doc;
	int r = input_open(&in, path, &size);

	if (r) {
		input_close(&in);
		return fail(je, path, r, size, r != -EFBIG);
	}
	doc = json_load_callback(input_read, &in, flags, je);
	input_close(&in);
	if (!doc && in.why)
		return fail(je, path, in.why, 0, false);
	return doc;
}

int json_input_read(const char *path, char **text, char *err, size_t errlen)
{
	struct input in;
	uint64_t size;
	size_t len = 0, cap = 0, n;
	char *buf = NULL, why[128];
	int r = input_open(&in, path, &size);

	*text = NULL;
	while (!r) {
		if (cap - len < 65536 + 1) {
			char *g = realloc(buf, cap = cap ? 2 * cap : 65536 * 2);
			if (!g) {
				r = -ENOMEM;
				break;
			}
			buf = g;
		}
		if ((n = input_read(buf + len, 65536, &in)) == (size_t)-1)
			r = in.why;
		else if (!n)
			break;
		else
			len += n;
	}
	input_close(&in);
	if (r) {
		free(buf);
		why_text(why, sizeof(why), r, size);
		return err_set(err, errlen, r, "%s: %s", path, why);
	}
	if (!buf && !(buf = malloc(1)))
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", path);
	buf[len] = '\0';
	*text = buf;
	return 0;
}
