/*
 * The test lists of `iorate mark`'s profiles and presets, as CrystalDiskMark 8 and 9 and
 * KDiskMark 3 define them (docs/compat.md, "iorate mark", cites where). A profile names its
 * tests by slot; the preset fills each slot with a block size, queue depth and thread count.
 */
#include <string.h>

#include "cmd/mark_suite.h"
#include "cmd/options.h"

#define T(n, s, b, q, t) {.name = n, .seq = s, .bs = b, .depth = q, .threads = t}
static const struct mark_test seq1m_q8t1 = T("SEQ1M Q8T1", true, 1u << 20, 8, 1);
static const struct mark_test seq1m_q1t1 = T("SEQ1M Q1T1", true, 1u << 20, 1, 1);
static const struct mark_test seq128k_q32t1 = T("SEQ128K Q32T1", true, 128u << 10, 32, 1);
static const struct mark_test rnd4k_q32t1 = T("RND4K Q32T1", false, 4u << 10, 32, 1);
static const struct mark_test rnd4k_q32t16 = T("RND4K Q32T16", false, 4u << 10, 32, 16);
static const struct mark_test rnd4k_q1t1 = T("RND4K Q1T1", false, 4u << 10, 1, 1);

const struct mark_profile_info mark_profiles[MARK_NPROFILES] = {
	[MARK_PROFILE_DEFAULT] = {.name = "default", .title = "Default", .has_mix = true},
	[MARK_PROFILE_PEAK] = {.name = "peak", .title = "Peak Performance", .has_mix = true},
	[MARK_PROFILE_REAL] = {.name = "real", .title = "Real World Performance", .has_mix = true},
	[MARK_PROFILE_DEMO] = {.name = "demo", .title = "Demo"},
};

#define S(n) ((uint64_t)(n) * 1000000000ull)
const struct mark_preset_info mark_presets[MARK_NPRESETS] = {
	[MARK_PRESET_STANDARD] = {.name = "standard", .title = "Standard", .measure_ns = S(5),
				  .pause_ns = S(5)},
	[MARK_PRESET_NVME] = {.name = "nvme", .title = "NVMe SSD", .measure_ns = S(5),
			      .pause_ns = S(5)},
	/* The same tests as Standard, each run 1 s, with 30 s for the flash to recover between. */
	[MARK_PRESET_FLASH] = {.name = "flash", .title = "Flash Memory", .measure_ns = S(1),
			       .pause_ns = S(30)},
};

/*
 * [profile][preset]: the Real World profile ignores the preset (both tools fix its two tests),
 * the Demo runs SEQ1M Q8T1 alone, and NVMe SSD changes the Default's second and third tests and
 * the Peak's random one.
 */
static const struct mark_test *const suites[MARK_NPROFILES][MARK_NPRESETS][MARK_MAX_TESTS] = {
	[MARK_PROFILE_DEFAULT] = {
		[MARK_PRESET_STANDARD] = {&seq1m_q8t1, &seq1m_q1t1, &rnd4k_q32t1, &rnd4k_q1t1},
		[MARK_PRESET_NVME] = {&seq1m_q8t1, &seq128k_q32t1, &rnd4k_q32t16, &rnd4k_q1t1},
		[MARK_PRESET_FLASH] = {&seq1m_q8t1, &seq1m_q1t1, &rnd4k_q32t1, &rnd4k_q1t1},
	},
	[MARK_PROFILE_PEAK] = {
		[MARK_PRESET_STANDARD] = {&seq1m_q8t1, &rnd4k_q32t1},
		[MARK_PRESET_NVME] = {&seq1m_q8t1, &rnd4k_q32t16},
		[MARK_PRESET_FLASH] = {&seq1m_q8t1, &rnd4k_q32t1},
	},
	[MARK_PROFILE_REAL] = {
		[MARK_PRESET_STANDARD] = {&seq1m_q1t1, &rnd4k_q1t1},
		[MARK_PRESET_NVME] = {&seq1m_q1t1, &rnd4k_q1t1},
		[MARK_PRESET_FLASH] = {&seq1m_q1t1, &rnd4k_q1t1},
	},
	[MARK_PROFILE_DEMO] = {
		[MARK_PRESET_STANDARD] = {&seq1m_q8t1},
		[MARK_PRESET_NVME] = {&seq1m_q8t1},
		[MARK_PRESET_FLASH] = {&seq1m_q8t1},
	},
};

unsigned mark_suite_tests(enum mark_profile p, enum mark_preset s,
			  const struct mark_test *out[MARK_MAX_TESTS + 1])
{
	unsigned n = 0;

	for (unsigned i = 0; i < MARK_MAX_TESTS && suites[p][s][i]; i++)
		out[n++] = suites[p][s][i];
	for (unsigned i = n; i <= MARK_MAX_TESTS; i++)
		out[i] = NULL;
	return n;
}

int mark_profile_find(const char *name)
{
	for (int p = 0; p < MARK_NPROFILES; p++)
		if (!strcmp(name, mark_profiles[p].name))
			return p;
	return -1;
}

int mark_preset_find(const char *name)
{
	for (int s = 0; s < MARK_NPRESETS; s++)
		if (!strcmp(name, mark_presets[s].name))
			return s;
	return -1;
}

int mark_opt_profile(struct opt_ctx *c, const char *val, int *out)
{
	if ((*out = mark_profile_find(val)) >= 0)
		return 0;
	if (mark_preset_find(val) >= 0)
		return opt_refuse(c, val,
				  "is a --preset, not a profile (default, peak, real, demo)");
	return opt_refuse(c, val, "is not a profile (default, peak, real, demo)");
}

int mark_opt_preset(struct opt_ctx *c, const char *val, int *out)
{
	if ((*out = mark_preset_find(val)) >= 0)
		return 0;
	return opt_refuse(c, val, "is not a preset (standard, nvme, flash)");
}
