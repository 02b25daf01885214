/*
 * The regions and currencies the providers' price lists know (2026), for "did you mean" only:
 * a name missing here is still asked of the price list, since providers add regions.
 */
#include <string.h>
#include <strings.h>

#include "model/prices.h"
#include "util/suggest.h"

static const char azure_regions[] =
	"eastus eastus2 westus westus2 westus3 centralus northcentralus southcentralus "
	"westcentralus canadacentral canadaeast brazilsouth brazilsoutheast mexicocentral "
	"northeurope westeurope uksouth ukwest francecentral francesouth germanywestcentral "
	"germanynorth switzerlandnorth switzerlandwest norwayeast norwaywest swedencentral "
	"swedensouth polandcentral italynorth spaincentral austriaeast belgiumcentral "
	"eastasia southeastasia japaneast japanwest koreacentral koreasouth australiaeast "
	"australiasoutheast australiacentral australiacentral2 centralindia southindia "
	"westindia jioindiawest jioindiacentral uaenorth uaecentral qatarcentral israelcentral "
	"southafricanorth southafricawest newzealandnorth indonesiacentral malaysiawest "
	"chilecentral taiwannorth";
static const char aws_regions[] =
	"us-east-1 us-east-2 us-west-1 us-west-2 ca-central-1 ca-west-1 sa-east-1 mx-central-1 "
	"eu-west-1 eu-west-2 eu-west-3 eu-central-1 eu-central-2 eu-north-1 eu-south-1 "
	"eu-south-2 ap-east-1 ap-south-1 ap-south-2 ap-northeast-1 ap-northeast-2 "
	"ap-northeast-3 ap-southeast-1 ap-southeast-2 ap-southeast-3 ap-southeast-4 "
	"ap-southeast-5 ap-southeast-7 me-south-1 me-central-1 il-central-1 af-south-1";
/* The currencies of Azure's Retail Prices API; AWS's list is in USD only. */
static const char currencies[] = "USD AUD BRL CAD CHF CNY DKK EUR GBP INR JPY KRW NOK NZD RUB "
				 "SEK TWD";

const char *prices_near(const char *provider, bool currency, const char *word, char *out,
			size_t len)
{
	bool aws = provider && !strncmp(provider, "aws", 3);
	const char *list = currency ? currencies : aws ? aws_regions : azure_regions;
	struct suggest s;
	char key[64];

	out[0] = '\0';
	/* A name the list has is not a typo. */
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " ");

		if (n < sizeof(key)) {
			memcpy(key, p, n);
			key[n] = '\0';
			if (!strcasecmp(key, word))
				return out;
		}
		p += n + strspn(p + n, " ");
	}
	suggest_init(&s, word);
	suggest_add_words(&s, list);
	return suggest_list(&s, NULL, out, len);
}
