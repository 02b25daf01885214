#ifndef IORATE_CMD_MARK_SUITE_H
#define IORATE_CMD_MARK_SUITE_H
#include <stdbool.h>
#include <stdint.h>

#include "report/mark_fmt.h"

/*
 * The tests `iorate mark` runs: a profile (CrystalDiskMark's and KDiskMark's Default, Peak
 * Performance, Real World Performance, Demo) picks which tests, a preset (their settings:
 * Standard, NVMe SSD, Flash Memory) picks the queues and threads of some, and the Flash Memory
 * preset also shorter runs with longer pauses. docs/compat.md cites the sources.
 */
enum mark_profile { MARK_PROFILE_DEFAULT, MARK_PROFILE_PEAK, MARK_PROFILE_REAL, MARK_PROFILE_DEMO,
		    MARK_NPROFILES };
enum mark_preset { MARK_PRESET_STANDARD, MARK_PRESET_NVME, MARK_PRESET_FLASH, MARK_NPRESETS };

struct mark_profile_info {
	const char *name, *title;  /* "peak", "Peak Performance" */
	bool has_mix;              /* the Demo profile has no Mix test in either tool */
};
struct mark_preset_info {
	const char *name, *title;  /* "nvme", "NVMe SSD" */
	uint64_t measure_ns, pause_ns; /* its defaults for --measure and --pause */
};

extern const struct mark_profile_info mark_profiles[MARK_NPROFILES];
extern const struct mark_preset_info mark_presets[MARK_NPRESETS];

/*
 * The tests of profile p under preset s, in the order they run, into out (NULL after the last);
 * returns how many (1 to MARK_MAX_TESTS).
 */
unsigned mark_suite_tests(enum mark_profile p, enum mark_preset s,
			  const struct mark_test *out[MARK_MAX_TESTS + 1]);

/* The profile or preset called name: its index, or -1. */
int mark_profile_find(const char *name);
int mark_preset_find(const char *name);

/*
 * --profile and --preset as mark and model --mark read them: the index into *out, or the
 * refusal of opt_refuse() (a preset given as a profile is named as such).
 */
struct opt_ctx;
int mark_opt_profile(struct opt_ctx *c, const char *val, int *out);
int mark_opt_preset(struct opt_ctx *c, const char *val, int *out);

/* The help of mark's --profile and --preset, which model --mark takes too. */
#define MARK_PROFILE_HELP                                                                        \
	"the tests: default (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), peak (SEQ1M Q8T1, " \
	"RND4K Q32T1), real (SEQ1M Q1T1, RND4K Q1T1) or demo (SEQ1M Q8T1), as CrystalDiskMark's " \
	"and KDiskMark's profiles (model: with --mark)"
#define MARK_PRESET_HELP                                                                         \
	"standard (default); nvme: SEQ128K Q32T1 and RND4K Q32T16 in default, RND4K Q32T16 in "  \
	"peak; flash: 1 s runs, 30 s pauses (model: with --mark)"

#endif
