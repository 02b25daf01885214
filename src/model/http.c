/* HTTP GET with libcurl (http.h): one easy handle per request, errors said precisely. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "model/http.h"
#include "util/err.h"

/*
 * libcurl and what it brings (a TLS library, Kerberos, LDAP, ...) are opened on the first
 * download, not linked: loaded at start they cost every run about 4 MiB of memory for what
 * only 'catalog prices' does.
 */
static struct {
	bool ok;
	char why[256];
	CURLcode (*global_init)(long);
	CURL *(*init)(void);
	CURLcode (*setopt)(CURL *, CURLoption, ...);
	CURLcode (*getinfo)(CURL *, CURLINFO, ...);
	CURLcode (*perform)(CURL *);
	void (*cleanup)(CURL *);
	const char *(*strerror)(CURLcode);
	char *(*escape)(CURL *, const char *, int);
	void (*free)(void *);
} cu;
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;

static void cu_open(void)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define SYM(field, nm) {.name = nm, .off = offsetof(__typeof__(cu), field)}
		SYM(global_init, "curl_global_init"), SYM(init, "curl_easy_init"),
		SYM(setopt, "curl_easy_setopt"),      SYM(getinfo, "curl_easy_getinfo"),
		SYM(perform, "curl_easy_perform"),    SYM(cleanup, "curl_easy_cleanup"),
		SYM(strerror, "curl_easy_strerror"),  SYM(escape, "curl_easy_escape"),
		SYM(free, "curl_free"),
#undef SYM
	};
	void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(cu.why, sizeof(cu.why), "libcurl cannot be loaded (Debian package "
			 "libcurl4): %s", dlerror());
		return;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *f = dlsym(h, syms[i].name);

		if (!f) {
			snprintf(cu.why, sizeof(cu.why), "libcurl.so.4 has no %s", syms[i].name);
			return;
		}
		/* A function pointer is stored from dlsym's object pointer, as POSIX allows. */
		memcpy((char *)&cu + syms[i].off, &f, sizeof(f));
	}
	if (cu.global_init(CURL_GLOBAL_DEFAULT)) {
		snprintf(cu.why, sizeof(cu.why), "libcurl could not start");
		return;
	}
	cu.ok = true;
}

static bool cu_ready(void)
{
	pthread_once(&cu_once, cu_open);
	return cu.ok;
}

struct transfer {
	http_sink sink;
	void *ctx;
	int rc;                     /* the sink's error, which stopped the transfer */
	long status;                /* the HTTP status, known once the body starts */
	CURL *h;
};

static size_t on_body(char *data, size_t size, size_t n, void *p)
{
	struct transfer *t = p;

	/* An error status's body is not the document asked for. */
	cu.getinfo(t->h, CURLINFO_RESPONSE_CODE, &t->status);
	if (t->status >= 400)
		return size * n;
	if ((t->rc = t->sink(t->ctx, data, size * n)))
		return 0;
	return size * n;
}

/* Why a transfer failed, in words a user can act on. */
static int curl_fail(CURLcode c, const char *url, const char *detail, char *err, size_t errlen)
{
	const char *hint = "";

	switch (c) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		hint = " (offline, or no DNS?)";
		break;
	case CURLE_COULDNT_CONNECT:
		hint = " (offline, or the server is down?)";
		break;
	case CURLE_OPERATION_TIMEDOUT:
		hint = " (no answer in time)";
		break;
	default:
		break;
	}
	return err_set(err, errlen,
		       c == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT : c == CURLE_COULDNT_CONNECT ?
		       -ECONNREFUSED : c == CURLE_COULDNT_RESOLVE_HOST ? -EHOSTUNREACH : -EIO,
		       "GET %s: %s%s", url, *detail ? detail : cu.strerror(c), hint);
}

int http_get(const char *url, http_sink sink, void *ctx, char *err, size_t errlen)
{
	char detail[CURL_ERROR_SIZE] = "";
	struct transfer t = {.sink = sink, .ctx = ctx};
	CURLcode c;

	if (errlen)
		err[0] = '\0';
	if (!cu_ready())
		return err_set(err, errlen, -EIO, "GET %s: %s", url, cu.why);
	if (!(t.h = cu.init()))
		return -ENOMEM;
	cu.setopt(t.h, CURLOPT_URL, url);
	cu.setopt(t.h, CURLOPT_WRITEFUNCTION, on_body);
	cu.setopt(t.h, CURLOPT_WRITEDATA, &t);
	cu.setopt(t.h, CURLOPT_ERRORBUFFER, detail);
	cu.setopt(t.h, CURLOPT_FOLLOWLOCATION, 1L);
	cu.setopt(t.h, CURLOPT_MAXREDIRS, 5L);
	cu.setopt(t.h, CURLOPT_CONNECTTIMEOUT, 30L);
	/* A stalled transfer (under 1 byte/s for 60 s) fails instead of hanging. */
	cu.setopt(t.h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	cu.setopt(t.h, CURLOPT_LOW_SPEED_TIME, 60L);
	cu.setopt(t.h, CURLOPT_NOSIGNAL, 1L);
	cu.setopt(t.h, CURLOPT_ACCEPT_ENCODING, "");
	cu.setopt(t.h, CURLOPT_USERAGENT, "iorate (price list reader)");
	c = cu.perform(t.h);
	cu.getinfo(t.h, CURLINFO_RESPONSE_CODE, &t.status);
	cu.cleanup(t.h);
	if (t.rc) {
		if (errlen && !err[0])
			return err_set(err, errlen, t.rc, "GET %s: %s", url, t.rc == -EFBIG ?
				       "the answer is larger than a price list page can be" :
				       strerror(-t.rc));
		return t.rc;
	}
	if (c != CURLE_OK)
		return curl_fail(c, url, detail, err, errlen);
	if (t.status >= 400 || t.status < 200)
		return err_set(err, errlen, -EIO, "GET %s: HTTP %ld%s", url, t.status,
			       t.status == 404 ? " (not found)" :
			       t.status == 429 ? " (too many requests)" :
			       t.status >= 500 ? " (the server failed)" : "");
	return 0;
}

int http_buf_sink(void *ctx, const char *data, size_t len)
{
	struct http_buf *b = ctx;
	size_t max = b->max ? b->max : 64u << 20, cap = b->cap ? b->cap : 16384;
	char *p;

	if (b->len + len > max)
		return -EFBIG;
	/* Doubled, not grown by each piece: a page of n pieces is copied O(n) times, not O(n^2). */
	while (cap < b->len + len + 1)
		cap *= 2;
	if (cap != b->cap) {
		if (!(p = realloc(b->data, cap)))
			return -ENOMEM;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

void http_buf_free(struct http_buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *http_escape(const char *s)
{
	char *e, *copy;

	if (!cu_ready() || !(e = cu.escape(NULL, s, 0)))
		return NULL;
	copy = strdup(e);
	cu.free(e);
	return copy;
}
