/*
 * libFuzzer target: the price list readers of 'catalog prices' on any answer a server could
 * send: the same bytes as an Azure Retail Prices API page, as an AWS offer file in CSV (fed in
 * pieces whose size the first byte chooses) and as the AWS service and region indexes. Each reads
 * or refuses with a message; what is read becomes a list of prices. The same text as a URL: one
 * allowed is https, or http to 127.0.0.1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/prices.h"
#include "model/url.h"
#include "fuzz_util.h"

static void azure(const char *text)
{
	struct prices_azure a = {.region = "northeurope", .currency = "GBP", .source = "s",
				 .date = "2026-01-02"};
	char err[512] = "", *next = NULL;
	unsigned v, d, s;

	if (prices_azure_init(&a))
		abort();
	if (prices_azure_page(&a, text, &next, err, sizeof(err)) && !err[0])
		abort();
	free(next);
	json_decref(prices_azure_list(&a, &v, &d, &s));
	prices_azure_release(&a);
}

static void aws(const uint8_t *data, size_t size)
{
	struct prices_aws a = {.region = "us-east-1", .source = "s", .date = "2026-01-02"};
	size_t piece = size ? data[0] % 97 + 1 : 1;
	char err[512] = "";
	unsigned v, d;
	int ret = 0;

	if (prices_aws_init(&a))
		abort();
	for (size_t at = 0; !ret && at < size; at += piece)
		ret = prices_aws_feed(&a, (const char *)data + at,
				      size - at < piece ? size - at : piece, err, sizeof(err));
	if (!ret)
		ret = prices_aws_finish(&a, err, sizeof(err));
	if (ret && !err[0])
		abort();
	json_decref(prices_aws_list(&a, &v, &d));
	prices_aws_release(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), err[512], *url = NULL;

	if (!text)
		abort();
	azure(text);
	aws(data, size);
	if (prices_aws_region_url(text, "us-east-1", &url, err, sizeof(err)) == 0 && !url)
		abort(); /* found means a URL */
	free(url);
	url = NULL;
	if (prices_aws_offer_url(text, "AmazonEC2", &url, err, sizeof(err)) == 0)
		free(url);
	struct url_origin o;

	if (url_allowed(text, &o, err, sizeof(err)) == 0 && strcmp(o.scheme, "https") &&
	    (strcmp(o.scheme, "http") || strcmp(o.host, "127.0.0.1")))
		abort();
	if (url_allowed(text, &o, err, sizeof(err)) && !err[0])
		abort();
	free(text);
	return 0;
}
