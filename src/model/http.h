#ifndef IORATE_MODEL_HTTP_H
#define IORATE_MODEL_HTTP_H
#include <stddef.h>
#include <stdint.h>

/*
 * HTTP GET with libcurl, for the providers' public price lists. The body is handed over as it
 * arrives, so a price list of gigabytes is read in one pass without holding it.
 */

/* Takes the next piece of the body; a non-zero return stops the transfer with that error. */
typedef int (*http_sink)(void *ctx, const char *data, size_t len);

/*
 * GETs url and hands the body to sink. 0, or a negative errno with err saying precisely what
 * failed: "GET URL: HTTP 503 (Service Unavailable)", "GET URL: cannot connect: Failed to connect
 * to 127.0.0.1 port 9 ... (offline?)", or the sink's own error (err already written).
 * url and every redirect must pass url_allowed() (https; http only to 127.0.0.1): -EPERM
 * otherwise, before the request. deadline_ns (clock_mono_ns(); 0: none) ends the transfer
 * with -ETIMEDOUT ("GET URL: out of time"), a stop signal within a second with -EINTR.
 */
int http_get(const char *url, uint64_t deadline_ns, http_sink sink, void *ctx, char *err,
	     size_t errlen);

/* A body gathered in memory (for JSON documents of a few megabytes at most). */
struct http_buf {
	char *data;                 /* NUL-terminated */
	size_t len, max;            /* max: refuse a longer body (0: 64 MiB) */
	size_t cap;                 /* allocated */
};
int http_buf_sink(void *ctx, const char *data, size_t len);
void http_buf_free(struct http_buf *b);

/* An escaped query value ("armRegionName eq 'x'" -> "armRegionName%20eq%20%27x%27"). */
char *http_escape(const char *s);

#endif
