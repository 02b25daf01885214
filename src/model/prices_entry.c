/*
 * The bottom of the price list readers (prices.h): what prices.c, prices_azure.c and
 * prices_aws.c share when they build a price entry.
 */
#include <errno.h>

#include <jansson.h>

#include "model/prices.h"

int prices_set_first(json_t *e, const char *key, double v)
{
	if (!e)
		return -ENOMEM;
	if (json_object_get(e, key))
		return 0;
	return json_object_set_new(e, key, json_real(v)) ? -ENOMEM : 0;
}
