/*
 * How each foreign syntax spells the fields the core and the model name in their messages
 * (util/field.h): every option of 'iorate run' a translator sets (compat_setting.name) is here
 * with the flag, element or option it comes from, and the remedies that name a value
 * (FIELD_VAL("cache", "buffered")) are here as that syntax writes them. Every setting a
 * translation makes is recorded with the flag it came from (compat_spell_record()), so a field
 * that two flags set is spelled as the user gave it (DiskSpd's -t or -F; fio's bs or bsrange).
 * test_compat_spell.c runs every flag of each translator and fails on a field with no spelling.
 */
#include <stdio.h>
#include <string.h>

#include "compat/compat.h"
#include "compat/fio.h"
#include "util/field.h"

#define N(map) (sizeof(map) / sizeof((map)[0]))

/* The flag each field was set from last, as typed ("-F4", "--blocksize=8k"), and its name. */
static struct {
	char field[32], typed[64], option[48];
} typed[128];
static unsigned ntyped;

void compat_spell_record(const char *field, const char *flag)
{
	unsigned i = 0;

	if (!flag)
		return;
	while (i < ntyped && strcmp(typed[i].field, field))
		i++;
	if (i == N(typed) || strlen(field) >= sizeof(typed[i].field))
		return;
	ntyped += i == ntyped;
	snprintf(typed[i].field, sizeof(typed[i].field), "%s", field);
	snprintf(typed[i].typed, sizeof(typed[i].typed), "%s", flag);
	/* fio's form: "--name=value" on a command line, "name=value" in a job file */
	const char *o = flag + strspn(flag, "-");
	snprintf(typed[i].option, sizeof(typed[i].option), "%.*s", (int)strcspn(o, "= "), o);
}

void compat_spell_forget(void)
{
	ntyped = 0;
}

static const char *typed_flag(const char *field)
{
	for (unsigned i = 0; i < ntyped; i++)
		if (!strcmp(typed[i].field, field))
			return typed[i].typed;
	return NULL;
}

/* ---- DiskSpd: flags ---- */

static const struct field_map dspd_fields[] = {
	{.field = "bs", .spelled = "-b"}, {.field = "time", .spelled = "-d"},
	{.field = "warmup", .spelled = "-W"}, {.field = "cooldown", .spelled = "-C"},
	{.field = "threads", .spelled = "-t"}, {.field = "threads", .spelled = "-F"},
	{.field = "depth", .spelled = "-o"}, {.field = "write", .spelled = "-w"},
	{.field = "size", .spelled = "-c"}, {.field = "keep", .spelled = "-c"},
	{.field = "align", .spelled = "-r"}, {.field = "offset", .spelled = "-B"},
	{.field = "range", .spelled = "-f"}, {.field = "cache", .spelled = "-S"},
	{.field = "cache", .spelled = "-h"}, {.field = "seed", .spelled = "-z"},
	{.field = "cap-mbps", .spelled = "-g"}, {.field = "cap-iops", .spelled = "-g"},
	{.field = "fill", .spelled = "-Z"}, {.field = "random-pct", .spelled = "-rs"},
	{.field = "distribution", .spelled = "-rd"}, {.field = "thread-stride", .spelled = "-T"},
	{.field = "seq-threads", .spelled = "-s"}, {.field = "gap", .spelled = "-s"},
	{.field = "sequential", .spelled = "-s"}, {.field = "random", .spelled = "-r"},
	{.field = "interval", .spelled = "-D"},
};

static const struct field_map dspd_pairs[] = {
	{.field = "cache=buffered", .spelled = "-Sb"}, {.field = "cache=direct", .spelled = "-Su"},
	{.field = "cache=writethrough", .spelled = "-Sw"},
	{.field = "cache=directsync", .spelled = "-Sh"}, {.field = "write=100", .spelled = "-w100"},
	{.field = "write=0", .spelled = "-w0"},
};

static const char *dspd_field(const char *field)
{
	return field_map_spell(dspd_fields, N(dspd_fields), field, typed_flag(field));
}

/* A pair from the table, or NULL: the flag then the value, as DiskSpd writes -o8. */
static const char *pair_of(const struct field_map *map, size_t n, const char *field,
			   const char *value)
{
	char key[96];

	snprintf(key, sizeof(key), "%s=%s", field, value);
	return field_map_spell(map, n, key, NULL);
}

static const char *dspd_pair(const char *field, const char *value)
{
	return pair_of(dspd_pairs, N(dspd_pairs), field, value);
}

const struct field_spelling compat_diskspd_spelling = {
	.field = dspd_field, .pair = dspd_pair, .sep = "",
};

/* ---- DiskSpd: the elements of an XML profile (-X) ---- */

static const struct field_map xml_fields[] = {
	{.field = "bs", .spelled = "<BlockSize>"}, {.field = "time", .spelled = "<Duration>"},
	{.field = "warmup", .spelled = "<Warmup>"}, {.field = "cooldown", .spelled = "<Cooldown>"},
	{.field = "threads", .spelled = "<ThreadsPerFile>"},
	{.field = "threads", .spelled = "<ThreadCount>"},
	{.field = "depth", .spelled = "<RequestCount>"},
	{.field = "write", .spelled = "<WriteRatio>"}, {.field = "size", .spelled = "<FileSize>"},
	{.field = "keep", .spelled = "<FileSize>"}, {.field = "align", .spelled = "<Random>"},
	{.field = "offset", .spelled = "<BaseFileOffset>"},
	{.field = "range", .spelled = "<MaxFileSize>"},
	{.field = "cache", .spelled = "<DisableOSCache>"},
	{.field = "cache", .spelled = "<WriteThrough>"},
	{.field = "cache", .spelled = "<DisableAllCache>"},
	{.field = "seed", .spelled = "<RandSeed>"},
	{.field = "cap-mbps", .spelled = "<Throughput>"},
	{.field = "cap-iops", .spelled = "<Throughput>"},
	{.field = "fill", .spelled = "<WriteBufferContent>"},
	{.field = "random-pct", .spelled = "<RandomRatio>"},
	{.field = "distribution", .spelled = "<Distribution>"},
	{.field = "thread-stride", .spelled = "<ThreadStride>"},
	{.field = "gap", .spelled = "<StrideSize>"},
	{.field = "seq-threads", .spelled = "<InterlockedSequential>"},
	{.field = "sequential", .spelled = "<StrideSize>"},
	{.field = "random", .spelled = "<Random>"},
	{.field = "interval", .spelled = "<IoBucketDuration>"},
};

static const struct field_map xml_pairs[] = {
	{.field = "cache=buffered", .spelled = "<DisableOSCache>false"},
	{.field = "cache=direct", .spelled = "<DisableOSCache>true"},
	{.field = "cache=writethrough", .spelled = "<WriteThrough>true"},
	{.field = "cache=directsync", .spelled = "<DisableAllCache>true"},
};

static const char *xml_field(const char *field)
{
	return field_map_spell(xml_fields, N(xml_fields), field, typed_flag(field));
}

static const char *xml_pair(const char *field, const char *value)
{
	return pair_of(xml_pairs, N(xml_pairs), field, value);
}

const struct field_spelling compat_diskspd_xml_spelling = {
	.field = xml_field, .pair = xml_pair, .sep = "",
};

/* ---- SQLIO ---- */

static const struct field_map sqlio_fields[] = {
	{.field = "bs", .spelled = "-b"}, {.field = "time", .spelled = "-s"},
	{.field = "threads", .spelled = "-t"}, {.field = "depth", .spelled = "-o"},
	{.field = "write", .spelled = "-k"}, {.field = "cache", .spelled = "-B"},
	{.field = "offset", .spelled = "-S"}, {.field = "random", .spelled = "-f"},
	{.field = "sequential", .spelled = "-f"}, {.field = "size", .spelled = "-F"},
	{.field = "keep", .spelled = "-F"}, {.field = "threads", .spelled = "-F"},
};

static const struct field_map sqlio_pairs[] = {
	{.field = "cache=buffered", .spelled = "-BY"}, {.field = "cache=direct", .spelled = "-BH"},
	{.field = "cache=writethrough", .spelled = "-BS"},
	{.field = "cache=directsync", .spelled = "-BN"}, {.field = "write=100", .spelled = "-kW"},
	{.field = "write=0", .spelled = "-kR"},
};

static const char *sqlio_field(const char *field)
{
	return field_map_spell(sqlio_fields, N(sqlio_fields), field, typed_flag(field));
}

static const char *sqlio_pair(const char *field, const char *value)
{
	return pair_of(sqlio_pairs, N(sqlio_pairs), field, value);
}

const struct field_spelling compat_sqlio_spelling = {
	.field = sqlio_field, .pair = sqlio_pair, .sep = "",
};

/* ---- fio: the option of a job file (or of its command line, with "--") ---- */

static const struct field_map fio_fields[] = {
	{.field = "bs", .spelled = "bs"}, {.field = "bssplit", .spelled = "bssplit"},
	{.field = "align", .spelled = "blockalign"}, {.field = "time", .spelled = "runtime"},
	{.field = "warmup", .spelled = "ramp_time"},
	{.field = "start-delay", .spelled = "startdelay"},
	{.field = "threads", .spelled = "numjobs"}, {.field = "depth", .spelled = "iodepth"},
	{.field = "batch", .spelled = "iodepth_batch"}, {.field = "engine", .spelled = "ioengine"},
	{.field = "cache", .spelled = "direct"}, {.field = "write", .spelled = "rwmixwrite"},
	{.field = "trim", .spelled = "rw"}, {.field = "trim-write", .spelled = "rw"},
	{.field = "sequential", .spelled = "rw"}, {.field = "random", .spelled = "rw"},
	{.field = "gap", .spelled = "rw"}, {.field = "random-pct", .spelled = "percentage_random"},
	{.field = "distribution", .spelled = "random_distribution"},
	{.field = "sequence-stride", .spelled = "random_sequence_stride"},
	{.field = "seed", .spelled = "randseed"}, {.field = "size", .spelled = "size"},
	{.field = "range", .spelled = "size"}, {.field = "offset", .spelled = "offset"},
	{.field = "io-size", .spelled = "io_size"}, {.field = "ios", .spelled = "number_ios"},
	{.field = "keep", .spelled = "unlink"}, {.field = "no-invalidate", .spelled = "invalidate"},
	{.field = "fsync", .spelled = "fsync"}, {.field = "fdatasync", .spelled = "fdatasync"},
	{.field = "end-fsync", .spelled = "end_fsync"},
	{.field = "thinktime", .spelled = "thinktime"},
	{.field = "log-bw", .spelled = "write_bw_log"},
	{.field = "log-iops", .spelled = "write_iops_log"},
	{.field = "log-lat", .spelled = "write_lat_log"},
	{.field = "log-hist", .spelled = "write_hist_log"},
	{.field = "log-avg", .spelled = "log_avg_msec"},
	{.field = "log-hist-interval", .spelled = "log_hist_msec"},
	{.field = "log-max", .spelled = "log_max_value"},
	{.field = "log-offset", .spelled = "log_offset"},
	{.field = "log-prio", .spelled = "log_prio"},
	{.field = "log-shared", .spelled = "per_job_logs"},
	{.field = "thinktime-blocks", .spelled = "thinktime_blocks"},
	{.field = "cap-iops", .spelled = "rate_iops"}, {.field = "cap-mbps", .spelled = "rate"},
	{.field = "vm-cap-iops", .spelled = "rate_iops"},
	{.field = "vm-cap-mbps", .spelled = "rate"}, {.field = "rate-iops", .spelled = "rate_iops"},
	{.field = "arrival", .spelled = "rate_process"}, {.field = "verify", .spelled = "verify"},
	{.field = "verify-sum", .spelled = "verify"},
	{.field = "verify-block", .spelled = "verify_interval"},
	{.field = "exit-all", .spelled = "exitall"},
	{.field = "exit-on-error", .spelled = "exitall_on_error"},
	{.field = "continue-on-error", .spelled = "continue_on_error"},
	{.field = "ignore-error", .spelled = "ignore_error"},
	{.field = "ioprio", .spelled = "prio"},
	{.field = "cmdprio", .spelled = "cmdprio_percentage"},
	{.field = "cmdprio-class", .spelled = "cmdprio_class"},
	{.field = "cmdprio-split", .spelled = "cmdprio_bssplit"},
	{.field = "sqpoll", .spelled = "sqthread_poll"}, {.field = "atomic", .spelled = "atomic"},
	{.field = "hipri", .spelled = "hipri"}, {.field = "nowait", .spelled = "nowait"},
	{.field = "dontcache", .spelled = "uncached"},
	{.field = "flow", .spelled = "flow"}, {.field = "flow-id", .spelled = "flow_id"},
	{.field = "flow-sleep", .spelled = "flow_sleep"},
	{.field = "latency-target", .spelled = "latency_target"},
	{.field = "latency-window", .spelled = "latency_window"},
	{.field = "latency-percentile", .spelled = "latency_percentile"},
	{.field = "latency-run", .spelled = "latency_run"},
	{.field = "steady", .spelled = "steadystate"},
	{.field = "steady-time", .spelled = "steadystate_duration"},
	{.field = "steady-ramp", .spelled = "steadystate_ramp_time"},
	{.field = "steady-interval", .spelled = "steadystate_check_interval"},
	{.field = "until-full", .spelled = "fill_device"}, {.field = "zbd", .spelled = "zonemode"},
	{.field = "zone-size", .spelled = "zonesize"},
	{.field = "zone-range", .spelled = "zonerange"},
	{.field = "zone-skip", .spelled = "zoneskip"},
	{.field = "zone-capacity", .spelled = "zonecapacity"},
	{.field = "max-open-zones", .spelled = "max_open_zones"},
	{.field = "job-max-open-zones", .spelled = "job_max_open_zones"},
	{.field = "zone-reset-threshold", .spelled = "zone_reset_threshold"},
	{.field = "zone-reset-frequency", .spelled = "zone_reset_frequency"},
	{.field = "read-beyond-wp", .spelled = "read_beyond_wp"},
	{.field = "sprandom", .spelled = "sprandom"}, {.field = "spr-op", .spelled = "spr_op"},
	{.field = "spr-cs", .spelled = "spr_cs"},
	{.field = "spr-num-regions", .spelled = "spr_num_regions"},
	{.field = "fill", .spelled = "zero_buffers"},
	{.field = "compress", .spelled = "buffer_compress_percentage"},
	{.field = "compress-chunk", .spelled = "buffer_compress_chunk"},
	{.field = "dedupe", .spelled = "dedupe_percentage"},
	{.field = "dedupe-set", .spelled = "dedupe_working_set_percentage"},
	{.field = "dedupe-global", .spelled = "dedupe_global"},
	{.field = "data-pattern", .spelled = "buffer_pattern"},
	{.field = "refill", .spelled = "refill_buffers"},
	{.field = "scramble", .spelled = "scramble_buffers"},
};

static const struct field_map fio_pairs[] = {
	{.field = "cache=buffered", .spelled = "direct=0"},
	{.field = "cache=direct", .spelled = "direct=1"},
	{.field = "cache=writethrough", .spelled = "direct=0 sync=dsync"},
	{.field = "cache=directsync", .spelled = "direct=1 sync=dsync"},
	{.field = "engine=uring", .spelled = "ioengine=io_uring"},
	{.field = "engine=aio", .spelled = "ioengine=libaio"},
	{.field = "engine=sync", .spelled = "ioengine=psync"},
	{.field = "engine=posixaio", .spelled = "ioengine=posixaio"},
	{.field = "engine=pvsync", .spelled = "ioengine=pvsync"},
	{.field = "engine=pvsync2", .spelled = "ioengine=pvsync2"},
	{.field = "write=100", .spelled = "rw=write"}, {.field = "write=0", .spelled = "rw=read"},
};

/* The option the field came from, when fio has it (its alias as written too), else the table's. */
const char *compat_fio_spell(const char *field)
{
	for (unsigned i = 0; i < ntyped; i++)
		if (!strcmp(typed[i].field, field) && fio_opt_find(typed[i].option))
			return typed[i].option;
	return field_map_spell(fio_fields, N(fio_fields), field, NULL);
}

static const char *fio_pair(const char *field, const char *value)
{
	return pair_of(fio_pairs, N(fio_pairs), field, value);
}

const struct field_spelling compat_fio_spelling = {
	.field = compat_fio_spell, .pair = fio_pair, .sep = "=",
};
