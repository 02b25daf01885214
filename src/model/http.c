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
#include "model/url.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/stop.h"

#define MAX_REDIRS 5

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

	/* An error's or a redirect's body is not the document asked for. */
	cu.getinfo(t->h, CURLINFO_RESPONSE_CODE, &t->status);
	if (t->status < 200 || t->status >= 300)
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

/* Called about once a second even while nothing arrives: a stop signal ends the transfer. */
static int on_progress(void *p, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	(void)p, (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return stop_requested();
}

/*
 * The schemes libcurl itself may use for url, beside iorate's own check of every URL it
 * requests: https, and http only to 127.0.0.1. Redirects are followed here, not by libcurl.
 */
static int protocols(CURL *h, const struct url_origin *o)
{
	const char *s = strcmp(o->scheme, "http") ? "https" : "http";
	long bits = strcmp(o->scheme, "http") ? CURLPROTO_HTTPS : CURLPROTO_HTTP;

	if (cu.setopt(h, CURLOPT_PROTOCOLS_STR, s) == CURLE_OK &&
	    cu.setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, s) == CURLE_OK)
		return 0;
	/* A libcurl before 7.85 has only the bit masks, deprecated since. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	if (cu.setopt(h, CURLOPT_PROTOCOLS, bits) == CURLE_OK &&
	    cu.setopt(h, CURLOPT_REDIR_PROTOCOLS, bits) == CURLE_OK)
		return 0;
#pragma GCC diagnostic pop
	return -ENOTSUP;
}

int http_get(const char *url, uint64_t deadline_ns, http_sink sink, void *ctx, char *err,
	     size_t errlen)
{
	char detail[CURL_ERROR_SIZE] = "", *hop = NULL, why[320];
	struct transfer t = {.sink = sink, .ctx = ctx};
	struct url_origin o;
	const char *at = url;
	CURLcode c = CURLE_OK;
	int ret = 0;

	if (errlen)
		err[0] = '\0';
	if ((ret = url_allowed(url, &o, why, sizeof(why))))
		return err_set(err, errlen, ret, "GET %s", why);
	if (!cu_ready())
		return err_set(err, errlen, -EIO, "GET %s: %s", url, cu.why);
	if (!(t.h = cu.init()))
		return -ENOMEM;
	cu.setopt(t.h, CURLOPT_WRITEFUNCTION, on_body);
	cu.setopt(t.h, CURLOPT_WRITEDATA, &t);
	cu.setopt(t.h, CURLOPT_ERRORBUFFER, detail);
	cu.setopt(t.h, CURLOPT_FOLLOWLOCATION, 0L);
	cu.setopt(t.h, CURLOPT_CONNECTTIMEOUT, 30L);
	/* A stalled transfer (under 1 byte/s for 60 s) fails instead of hanging. */
	cu.setopt(t.h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	cu.setopt(t.h, CURLOPT_LOW_SPEED_TIME, 60L);
	cu.setopt(t.h, CURLOPT_NOSIGNAL, 1L);
	cu.setopt(t.h, CURLOPT_NOPROGRESS, 0L);
	cu.setopt(t.h, CURLOPT_XFERINFOFUNCTION, on_progress);
	cu.setopt(t.h, CURLOPT_ACCEPT_ENCODING, "");
	cu.setopt(t.h, CURLOPT_USERAGENT, "iorate (price list reader)");
	for (int hops = 0; ; hops++) {
		uint64_t now = clock_mono_ns();
		char *loc = NULL;

		if (stop_requested()) {
			ret = err_set(err, errlen, -EINTR, "GET %s: interrupted", at);
			goto out;
		}
		if (deadline_ns && now >= deadline_ns) {
			ret = err_set(err, errlen, -ETIMEDOUT, "GET %s: out of time", at);
			goto out;
		}
		if (protocols(t.h, &o)) {
			ret = err_set(err, errlen, -ENOTSUP, "GET %s: this libcurl cannot be "
				      "limited to https", at);
			goto out;
		}
		cu.setopt(t.h, CURLOPT_URL, at);
		/* The time left of the whole download, at least 1 ms (0 would be no limit). */
		cu.setopt(t.h, CURLOPT_TIMEOUT_MS, deadline_ns ?
			  (long)((deadline_ns - now) / 1000000 + 1) : 0L);
		t.status = 0;
		detail[0] = '\0';
		c = cu.perform(t.h);
		cu.getinfo(t.h, CURLINFO_RESPONSE_CODE, &t.status);
		if (c != CURLE_OK || t.rc || t.status < 300 || t.status >= 400)
			break;
		/* A redirect: followed here, after the same check as the first URL. */
		if (cu.getinfo(t.h, CURLINFO_REDIRECT_URL, &loc) != CURLE_OK || !loc)
			break;
		if (hops >= MAX_REDIRS) {
			ret = err_set(err, errlen, -ELOOP, "GET %s: more than %d redirects", url,
				      MAX_REDIRS);
			goto out;
		}
		if ((ret = url_allowed(loc, &o, why, sizeof(why)))) {
			ret = err_set(err, errlen, ret, "GET %s: redirected to %s", at, why);
			goto out;
		}
		free(hop);
		if (!(hop = strdup(loc))) {
			ret = -ENOMEM;
			goto out;
		}
		at = hop;
	}
	if (t.rc) {
		ret = t.rc;
		if (errlen && !err[0])
			ret = err_set(err, errlen, t.rc, "GET %s: %s", at, t.rc == -EFBIG ?
				      "the answer is larger than a price list page can be" :
				      strerror(-t.rc));
	} else if (c == CURLE_ABORTED_BY_CALLBACK && stop_requested()) {
		ret = err_set(err, errlen, -EINTR, "GET %s: interrupted", at);
	} else if (c == CURLE_OPERATION_TIMEDOUT && deadline_ns && clock_mono_ns() >= deadline_ns) {
		ret = err_set(err, errlen, -ETIMEDOUT, "GET %s: out of time", at);
	} else if (c != CURLE_OK) {
		ret = curl_fail(c, at, detail, err, errlen);
	} else if (t.status >= 300 || t.status < 200) {
		ret = err_set(err, errlen, -EIO, "GET %s: HTTP %ld%s", at, t.status,
			      t.status == 404 ? " (not found)" :
			      t.status == 429 ? " (too many requests)" :
			      t.status >= 500 ? " (the server failed)" :
			      t.status >= 300 && t.status < 400 ? " (a redirect without a Location)" :
			      "");
	}
out:
	cu.cleanup(t.h);
	free(hop);
	return ret;
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
