/*
 * libFuzzer target: an --emulate profile ("azure-2015:DS2+2xP30", "aws:m5.large+gp3:1TiB") is
 * resolved against the built-in catalog into caps, or refused with a message. The catalog is
 * loaded once, before the first input (as emulate_profile() would load it, built-in layer
 * only), and each input resolved against it with emulate_profile_in(): loading it for every
 * input held the target to about 10 inputs a second.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/catalog.h"
#include "model/emulate.h"
#include "fuzz_util.h"

static struct catalog catalog;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512];

	fuzz_builtin_catalog_only();
	if (catalog_open_default(&catalog, err, sizeof(err)))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *profile = fuzz_cstr(data, size), err[512] = "";
	struct job_caps disk, vm;
	unsigned ndisks;
	uint64_t unit;

	if (!profile)
		abort();
	if (emulate_profile_in(&catalog, profile, &disk, &ndisks, &vm, &unit, err,
			       sizeof(err)) == 0) {
		/* The throttle divides by these: a profile that resolves gives usable caps. */
		if (!ndisks || isnan(disk.iops) || isnan(disk.mbps) || isnan(disk.burst_seconds) ||
		    disk.iops < 0 || disk.mbps < 0 || disk.burst_seconds < 0)
			abort();
	} else if (!err[0]) {
		abort();
	}
	free(profile);
	return 0;
}
