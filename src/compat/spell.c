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
	{"bs", "-b"},            {"time", "-d"},          {"warmup", "-W"},
	{"cooldown", "-C"},      {"threads", "-t"},       {"threads", "-F"},
	{"depth", "-o"},         {"write", "-w"},         {"size", "-c"},
	{"keep", "-c"},          {"align", "-r"},         {"offset", "-B"},
	{"range", "-f"},         {"cache", "-S"},         {"cache", "-h"},
	{"seed", "-z"},          {"cap-mbps", "-g"},      {"cap-iops", "-g"},
	{"fill", "-Z"},          {"random-pct", "-rs"},   {"distribution", "-rd"},
	{"thread-stride", "-T"}, {"seq-threads", "-s"},   {"gap", "-s"},
	{"sequential", "-s"},    {"random", "-r"},        {"interval", "-D"},
};

static const struct field_map dspd_pairs[] = {
	{"cache=buffered", "-Sb"}, {"cache=direct", "-Su"},  {"cache=writethrough", "-Sw"},
	{"cache=directsync", "-Sh"}, {"write=100", "-w100"}, {"write=0", "-w0"},
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
	{"bs", "<BlockSize>"},             {"time", "<Duration>"},
	{"warmup", "<Warmup>"},            {"cooldown", "<Cooldown>"},
	{"threads", "<ThreadsPerFile>"},   {"threads", "<ThreadCount>"},
	{"depth", "<RequestCount>"},
	{"write", "<WriteRatio>"},         {"size", "<FileSize>"},
	{"keep", "<FileSize>"},            {"align", "<Random>"},
	{"offset", "<BaseFileOffset>"},    {"range", "<MaxFileSize>"},
	{"cache", "<DisableOSCache>"},     {"cache", "<WriteThrough>"},
	{"cache", "<DisableAllCache>"},    {"seed", "<RandSeed>"},
	{"cap-mbps", "<Throughput>"},      {"cap-iops", "<Throughput>"},
	{"fill", "<WriteBufferContent>"},  {"random-pct", "<RandomRatio>"},
	{"distribution", "<Distribution>"}, {"thread-stride", "<ThreadStride>"},
	{"gap", "<StrideSize>"},           {"seq-threads", "<InterlockedSequential>"},
	{"sequential", "<StrideSize>"},    {"random", "<Random>"},
	{"interval", "<IoBucketDuration>"},
};

static const struct field_map xml_pairs[] = {
	{"cache=buffered", "<DisableOSCache>false"}, {"cache=direct", "<DisableOSCache>true"},
	{"cache=writethrough", "<WriteThrough>true"},
	{"cache=directsync", "<DisableAllCache>true"},
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
	{"bs", "-b"},    {"time", "-s"},   {"threads", "-t"},   {"depth", "-o"},
	{"write", "-k"}, {"cache", "-B"},  {"offset", "-S"},    {"random", "-f"},
	{"sequential", "-f"}, {"size", "-F"}, {"keep", "-F"},      {"threads", "-F"},
};

static const struct field_map sqlio_pairs[] = {
	{"cache=buffered", "-BY"}, {"cache=direct", "-BH"}, {"cache=writethrough", "-BS"},
	{"cache=directsync", "-BN"}, {"write=100", "-kW"},  {"write=0", "-kR"},
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
	{"bs", "bs"},                 {"bssplit", "bssplit"},     {"align", "blockalign"},
	{"time", "runtime"},          {"warmup", "ramp_time"},    {"start-delay", "startdelay"},
	{"threads", "numjobs"},       {"depth", "iodepth"},       {"batch", "iodepth_batch"},
	{"engine", "ioengine"},       {"cache", "direct"},        {"write", "rwmixwrite"},
	{"trim", "rw"},               {"trim-write", "rw"},       {"sequential", "rw"},
	{"random", "rw"},             {"gap", "rw"},              {"random-pct", "percentage_random"},
	{"distribution", "random_distribution"}, {"sequence-stride", "random_sequence_stride"},
	{"seed", "randseed"},         {"size", "size"},           {"range", "size"},
	{"offset", "offset"},         {"io-size", "io_size"},     {"ios", "number_ios"},
	{"keep", "unlink"},           {"no-invalidate", "invalidate"},
	{"fsync", "fsync"},           {"fdatasync", "fdatasync"}, {"end-fsync", "end_fsync"},
	{"thinktime", "thinktime"},   {"thinktime-blocks", "thinktime_blocks"},
	{"cap-iops", "rate_iops"},    {"cap-mbps", "rate"},       {"vm-cap-iops", "rate_iops"},
	{"vm-cap-mbps", "rate"},      {"rate-iops", "rate_iops"}, {"arrival", "rate_process"},
	{"verify", "verify"},         {"verify-sum", "verify"},   {"verify-block", "verify_interval"},
	{"exit-all", "exitall"},      {"exit-on-error", "exitall_on_error"},
	{"continue-on-error", "continue_on_error"}, {"ignore-error", "ignore_error"},
	{"ioprio", "prio"},           {"cmdprio", "cmdprio_percentage"},
	{"cmdprio-class", "cmdprio_class"}, {"cmdprio-split", "cmdprio_bssplit"},
	{"sqpoll", "sqthread_poll"},  {"atomic", "atomic"},
	{"flow", "flow"},             {"flow-id", "flow_id"},     {"flow-sleep", "flow_sleep"},
	{"latency-target", "latency_target"}, {"latency-window", "latency_window"},
	{"latency-percentile", "latency_percentile"}, {"latency-run", "latency_run"},
	{"steady", "steadystate"},    {"steady-time", "steadystate_duration"},
	{"steady-ramp", "steadystate_ramp_time"},
	{"steady-interval", "steadystate_check_interval"},
	{"until-full", "fill_device"},
	{"zbd", "zonemode"},          {"zone-size", "zonesize"},  {"zone-range", "zonerange"},
	{"zone-skip", "zoneskip"},    {"zone-capacity", "zonecapacity"},
	{"max-open-zones", "max_open_zones"}, {"job-max-open-zones", "job_max_open_zones"},
	{"zone-reset-threshold", "zone_reset_threshold"},
	{"zone-reset-frequency", "zone_reset_frequency"}, {"read-beyond-wp", "read_beyond_wp"},
	{"sprandom", "sprandom"},     {"spr-op", "spr_op"},       {"spr-cs", "spr_cs"},
	{"spr-num-regions", "spr_num_regions"},
	{"fill", "zero_buffers"},     {"compress", "buffer_compress_percentage"},
	{"compress-chunk", "buffer_compress_chunk"}, {"dedupe", "dedupe_percentage"},
	{"dedupe-set", "dedupe_working_set_percentage"}, {"dedupe-global", "dedupe_global"},
	{"data-pattern", "buffer_pattern"}, {"refill", "refill_buffers"},
	{"scramble", "scramble_buffers"},
};

static const struct field_map fio_pairs[] = {
	{"cache=buffered", "direct=0"},     {"cache=direct", "direct=1"},
	{"cache=writethrough", "direct=0 sync=dsync"}, {"cache=directsync", "direct=1 sync=dsync"},
	{"engine=uring", "ioengine=io_uring"}, {"engine=aio", "ioengine=libaio"},
	{"engine=sync", "ioengine=psync"},  {"write=100", "rw=write"},  {"write=0", "rw=read"},
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
