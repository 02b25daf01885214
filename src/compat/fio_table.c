/*
 * The options of fio 3.33 (its HOWTO and options.c), each with what iorate makes of it: read
 * into the job's values (fio_opts.c, then settings in fio_job.c), accepted as of no effect with
 * why (they tune fio's reporting or process model), or refused with what iorate would need. A
 * name in no row is not an option of fio. docs/compat.md lists the same.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "util/suggest.h"

#define OFF(field) offsetof(struct fio_opts, field)
/* A number read into a field: unit, field, bounds. */
#define NUM(u, f) .type = FT_NUM, .unit = (u), .off = OFF(f)
#define PAIR(u, f) .type = FT_PAIR, .unit = (u), .off = OFF(f)

#define WHY_REPORT "reporting: iorate reports each job, each run group and the total, with " \
	"latency percentiles from full histograms"
#define WHY_LOGS "how fio keeps, compresses or stamps its log files: iorate writes them " \
	"uncompressed, times in ms from the job's start"
#define WHY_TIMING "fio's own clock and timing: iorate times every I/O with its own clock"
#define WHY_PLACE "CPU and memory placement: iorate leaves it to the scheduler"
#define WHY_PROC "fio's process model: iorate runs each job as threads of one process"
#define WHY_REAP "how fio collects completions: iorate reaps what completed and refills every " \
	"free slot"
#define WHY_LAYOUT "how fio lays a new file out: iorate writes a new file in full before the " \
	"run, and grows a smaller one"
#define WHY_VERIFY "how fio schedules or reports verification: iorate checks every read as it " \
	"comes back, then reads back all it wrote"
#define WHY_TRIM "trims of verified blocks (verify with trim_backlog), which iorate does not do"
#define WHY_RATEMIN "fio fails a job whose rate falls below it; iorate reports the rate reached"

#define WHY_TIOBENCH "an option of fio's tiobench profile, of no effect without " \
	"profile=tiobench (which iorate refuses)"
#define WHY_ACT "an option of fio's act profile, of no effect without profile=act (which " \
	"iorate refuses)"

#define NOEFFECT(n, t, w) {.name = n, .type = t, .how = FH_NOEFFECT, .why = w}
#define REFUSED(n, w, e) {.name = n, .type = FT_ANY, .how = FH_REFUSED, .why = w, .except = e}


static const struct fio_opt table[] = {
	/* names, files and sizes */
	{.name = "name", .type = FT_STR, .id = FO_NAME, .off = OFF(name)},
	{.name = "description", .type = FT_STR, .id = FO_DESC, .off = OFF(desc)},
	{.name = "filename", .type = FT_STR, .id = FO_FILENAME, .off = OFF(filename)},
	{.name = "directory", .type = FT_STR, .id = FO_DIRECTORY, .off = OFF(directory)},
	{.name = "filename_format", .type = FT_STR, .id = FO_FILENAME_FORMAT,
	 .off = OFF(filename_format)},
	{.name = "nrfiles", .alias = "nr_files", NUM(FIO_COUNT, nrfiles), .u32 = true, .min = 1,
	 .max = 1u << 20, .id = FO_NRFILES},
	{.name = "file_service_type", .type = FT_WORD, .id = FO_FILE_SERVICE,
	 .read = fio_read_fst},
	{.name = "size", NUM(FIO_BYTES, size), .pct = true, .pct_off = OFF(size_pct), .min = 1,
	 .z_off = OFF(size_z), .id = FO_SIZE},
	{.name = "io_size", .alias = "io_limit", NUM(FIO_BYTES, io_size), .pct = true,
	 .pct_off = OFF(io_size_pct), .z_off = OFF(io_size_z), .min = 1, .id = FO_IO_SIZE},
	{.name = "filesize", .type = FT_WORD, .id = FO_FILESIZE, .read = fio_read_filesize},
	{.name = "offset", .alias = "fileoffset", NUM(FIO_BYTES, offset), .pct = true,
	 .pct_off = OFF(offset_pct), .z_off = OFF(offset_z), .id = FO_OFFSET},
	{.name = "offset_increment", NUM(FIO_BYTES, offset_inc), .pct = true,
	 .pct_off = OFF(offset_inc_pct), .z_off = OFF(offset_inc_z), .id = FO_OFFSET_INC},
	{.name = "number_ios", NUM(FIO_COUNT, number_ios), .id = FO_NUMBER_IOS},
	{.name = "loops", NUM(FIO_COUNT, loops), .u32 = true, .min = 1, .max = 1u << 30,
	 .id = FO_LOOPS},
	{.name = "kb_base", .type = FT_WORD, .id = FO_KB_BASE, .read = fio_read_kb_base},
	{.name = "unlink", .type = FT_BOOL, .off = OFF(unlink), .id = FO_UNLINK},
	/* the pattern */
	{.name = "rw", .alias = "readwrite", .type = FT_WORD, .id = FO_RW, .read = fio_read_rw},
	{.name = "rw_sequencer", .type = FT_WORD, .id = FO_RW_SEQUENCER,
	 .read = fio_read_sequencer},
	{.name = "rwmixread", .type = FT_WORD, .id = FO_RWMIX, .read = fio_read_rwmix},
	{.name = "rwmixwrite", .type = FT_WORD, .id = FO_RWMIX, .read = fio_read_rwmix},
	{.name = "bs", .alias = "blocksize", PAIR(FIO_BYTES, bs), .min = 1, .id = FO_BS},
	{.name = "bsrange", .alias = "blocksize_range", .type = FT_WORD, .id = FO_BSRANGE,
	 .read = fio_read_bsrange},
	{.name = "bssplit", .type = FT_WORD, .id = FO_BSSPLIT, .read = fio_read_bssplit},
	{.name = "ba", .alias = "blockalign", PAIR(FIO_BYTES, ba), .min = 1, .id = FO_BA},
	{.name = "randrepeat", .alias = "allrandrepeat", .type = FT_BOOL, .off = OFF(randrepeat),
	 .id = FO_RANDREPEAT},
	{.name = "randseed", NUM(FIO_COUNT, randseed), .id = FO_RANDSEED},
	{.name = "norandommap", .type = FT_SET, .off = OFF(norandommap), .id = FO_NORANDOMMAP},
	{.name = "random_distribution", .type = FT_WORD, .id = FO_DIST, .read = fio_read_dist},
	{.name = "random_sequence_stride", .type = FT_BOOL, .off = OFF(seq_stride),
	 .id = FO_SEQ_STRIDE},
	{.name = "percentage_random", PAIR(FIO_COUNT, pct_random), .max = 100,
	 .id = FO_PCT_RANDOM},
	/* the engine and how it is driven */
	{.name = "ioengine", .type = FT_WORD, .id = FO_ENGINE, .read = fio_read_engine},
	{.name = "iodepth", NUM(FIO_COUNT, iodepth), .u32 = true, .min = 1, .max = 1u << 30,
	 .id = FO_IODEPTH},
	{.name = "iodepth_batch", .alias = "iodepth_batch_submit", NUM(FIO_COUNT, batch),
	 .u32 = true, .max = 1u << 30, .id = FO_BATCH},
	{.name = "direct", .type = FT_BOOL, .off = OFF(direct), .id = FO_DIRECT},
	{.name = "buffered", .type = FT_BOOL, .off = OFF(direct), .neg = true, .id = FO_DIRECT},
	{.name = "sync", .type = FT_WORD, .id = FO_SYNC, .read = fio_read_sync},
	{.name = "fsync", NUM(FIO_COUNT, fsync), .u32 = true, .max = 1u << 30, .id = FO_FSYNC},
	{.name = "fdatasync", NUM(FIO_COUNT, fdatasync), .u32 = true, .max = 1u << 30,
	 .id = FO_FDATASYNC},
	{.name = "end_fsync", .type = FT_BOOL, .off = OFF(end_fsync), .id = FO_END_FSYNC},
	{.name = "fsync_on_close", .type = FT_BOOL, .off = OFF(end_fsync), .id = FO_END_FSYNC},
	{.name = "invalidate", .type = FT_BOOL, .off = OFF(invalidate), .id = FO_INVALIDATE},
	{.name = "zero_buffers", .type = FT_SET, .off = OFF(zero_buffers), .id = FO_ZERO_BUFFERS},
	{.name = "verify", .type = FT_WORD, .id = FO_VERIFY, .read = fio_read_verify},
	{.name = "verify_interval", NUM(FIO_BYTES, verify_interval), .min = 512,
	 .id = FO_VERIFY_INTERVAL},
	/* time, rates and pauses */
	{.name = "numjobs", NUM(FIO_COUNT, numjobs), .u32 = true, .min = 1, .max = 1u << 20,
	 .id = FO_NUMJOBS},
	{.name = "time_based", .type = FT_SET, .off = OFF(time_based), .id = FO_TIME_BASED},
	{.name = "runtime", .alias = "timeout", NUM(FIO_SECONDS, runtime_ns), .id = FO_RUNTIME},
	{.name = "ramp_time", NUM(FIO_SECONDS, ramp_ns), .id = FO_RAMP},
	{.name = "startdelay", .type = FT_WORD, .id = FO_STARTDELAY,
	 .read = fio_read_startdelay},
	{.name = "thinktime", NUM(FIO_MICROSECONDS, think_ns), .id = FO_THINKTIME},
	{.name = "thinktime_blocks", NUM(FIO_COUNT, think_blocks), .u32 = true, .min = 1,
	 .max = 1u << 30, .id = FO_THINK_BLOCKS},
	{.name = "rate", PAIR(FIO_BYTES, rate), .id = FO_RATE},
	{.name = "rate_iops", PAIR(FIO_COUNT, rate_iops), .id = FO_RATE_IOPS},
	{.name = "rate_process", .type = FT_WORD, .id = FO_RATE_PROCESS,
	 .read = fio_read_rate_process},
	/* run groups */
	{.name = "stonewall", .alias = "wait_for_previous", .type = FT_SET, .off = OFF(stonewall),
	 .id = FO_STONEWALL},
	{.name = "new_group", .type = FT_SET, .off = OFF(new_group), .id = FO_NEW_GROUP},
	{.name = "group_reporting", .type = FT_SET, .off = OFF(group_reporting),
	 .id = FO_GROUP_REPORTING},
	{.name = "wait_for", .type = FT_STR, .off = OFF(wait_for), .id = FO_WAIT_FOR},
	/* how jobs end */
	{.name = "exitall", .type = FT_SET, .off = OFF(exitall), .id = FO_EXITALL},
	{.name = "exit_what", .type = FT_WORD, .id = FO_EXIT_WHAT, .read = fio_read_exit_what},
	{.name = "exitall_on_error", .type = FT_SET, .off = OFF(exitall_error),
	 .id = FO_EXITALL_ERROR},
	{.name = "continue_on_error", .type = FT_STR, .off = OFF(continue_on), .id = FO_CONTINUE},
	{.name = "ignore_error", .type = FT_STR, .off = OFF(ignore_error),
	 .id = FO_IGNORE_ERROR},
	/* the I/O priority of the job's threads */
	{.name = "prio", NUM(FIO_COUNT, prio), .u32 = true, .max = 7, .id = FO_PRIO},
	{.name = "prioclass", NUM(FIO_COUNT, prioclass), .u32 = true, .max = 3, .id = FO_PRIOCLASS},
	/* priorities per I/O (io_uring and libaio) and io_uring's polling thread */
	{.name = "cmdprio_percentage", .type = FT_STR, .off = OFF(cmdprio_pct),
	 .id = FO_CMDPRIO_PCT},
	{.name = "cmdprio_class", .type = FT_STR, .off = OFF(cmdprio_class), .id = FO_CMDPRIO_CLASS},
	{.name = "cmdprio", .type = FT_STR, .off = OFF(cmdprio_level), .id = FO_CMDPRIO_LEVEL},
	{.name = "cmdprio_bssplit", .type = FT_STR, .off = OFF(cmdprio_split),
	 .id = FO_CMDPRIO_SPLIT},
	{.name = "sqthread_poll", .type = FT_BOOL, .off = OFF(sqpoll), .id = FO_SQPOLL},
	{.name = "atomic", .type = FT_BOOL, .off = OFF(atomic), .id = FO_ATOMIC},
	/* the pvsync2 engine's flags of each I/O */
	{.name = "hipri", .type = FT_SET, .off = OFF(hipri), .id = FO_HIPRI},
	{.name = "hipri_percentage", NUM(FIO_COUNT, hipri_pct), .u32 = true, .max = 100,
	 .id = FO_HIPRI_PCT},
	{.name = "uncached", NUM(FIO_COUNT, uncached), .u32 = true, .id = FO_UNCACHED},
	{.name = "nowait", .type = FT_BOOL, .off = OFF(nowait), .id = FO_NOWAIT},
	/* the search for the deepest queue that keeps within a latency */
	{.name = "latency_target", NUM(FIO_MICROSECONDS, lat_target_ns), .id = FO_LAT_TARGET},
	{.name = "latency_window", NUM(FIO_MICROSECONDS, lat_window_ns), .id = FO_LAT_WINDOW},
	{.name = "latency_percentile", .type = FT_STR, .off = OFF(lat_pct), .id = FO_LAT_PCT},
	{.name = "latency_run", .type = FT_BOOL, .off = OFF(lat_run), .id = FO_LAT_RUN},
	/* flow control between jobs (fio's flow.c) */
	{.name = "flow", NUM(FIO_COUNT, flow), .u32 = true, .max = 1000, .id = FO_FLOW},
	{.name = "flow_id", NUM(FIO_COUNT, flow_id), .u32 = true, .id = FO_FLOW_ID},
	{.name = "flow_sleep", NUM(FIO_MICROSECONDS, flow_sleep_ns), .id = FO_FLOW_SLEEP},
	NOEFFECT("flow_watermark", FT_ANY, "deprecated by fio, which ignores it"),
	/* strided zones */
	{.name = "zonemode", .type = FT_WORD, .id = FO_ZONEMODE, .read = fio_read_zonemode},
	{.name = "zonesize", NUM(FIO_BYTES, zonesize), .id = FO_ZONESIZE},
	{.name = "zonerange", NUM(FIO_BYTES, zonerange), .id = FO_ZONERANGE},
	{.name = "zoneskip", NUM(FIO_BYTES, zoneskip), .id = FO_ZONESKIP},
	{.name = "zonecapacity", NUM(FIO_BYTES, zonecap), .min = 512, .id = FO_ZONECAP},
	{.name = "max_open_zones", NUM(FIO_COUNT, max_open), .u32 = true, .max = 1u << 24,
	 .id = FO_MAX_OPEN},
	{.name = "job_max_open_zones", NUM(FIO_COUNT, job_max_open), .u32 = true, .max = 1u << 24,
	 .id = FO_JOB_MAX_OPEN},
	{.name = "zone_reset_threshold", .type = FT_STR, .off = OFF(zrt), .id = FO_ZRT},
	{.name = "zone_reset_frequency", .type = FT_STR, .off = OFF(zrf), .id = FO_ZRF},
	{.name = "read_beyond_wp", .type = FT_BOOL, .off = OFF(read_beyond_wp), .id = FO_RBWP},
	{.name = "sprandom", .type = FT_BOOL, .off = OFF(sprandom), .id = FO_SPR},
	{.name = "spr_op", .type = FT_STR, .off = OFF(spr_op), .id = FO_SPR_OP},
	{.name = "spr_num_regions", NUM(FIO_COUNT, spr_regions), .u32 = true, .min = 1,
	 .max = 1u << 24, .id = FO_SPR_REGIONS},
	{.name = "spr_cs", NUM(FIO_BYTES, spr_cs), .id = FO_SPR_CS},
	NOEFFECT("ignore_zone_limits", FT_ANY, "emulated zones have no limits of a device's"),
	{.name = "fill_device", .alias = "fill_fs", .type = FT_BOOL, .off = OFF(fill_device),
	 .id = FO_FILL_DEVICE},
	/* steady state */
	{.name = "steadystate", .alias = "ss", .type = FT_STR, .off = OFF(ss), .id = FO_SS},
	{.name = "steadystate_duration", .alias = "ss_dur", NUM(FIO_SECONDS, ss_dur_ns),
	 .id = FO_SS_DUR},
	{.name = "steadystate_ramp_time", .alias = "ss_ramp", NUM(FIO_SECONDS, ss_ramp_ns),
	 .id = FO_SS_RAMP},
	{.name = "steadystate_check_interval", .alias = "ss_interval",
	 NUM(FIO_SECONDS, ss_interval_ns), .id = FO_SS_INTERVAL},
	/* what writes carry */
	{.name = "buffer_compress_percentage", NUM(FIO_COUNT, compress_pct), .u32 = true,
	 .max = 100, .id = FO_COMPRESS},
	{.name = "buffer_compress_chunk", NUM(FIO_BYTES, compress_chunk), .id = FO_COMPRESS_CHUNK},
	{.name = "dedupe_percentage", NUM(FIO_COUNT, dedupe_pct), .u32 = true, .max = 100,
	 .id = FO_DEDUPE},
	{.name = "dedupe_mode", .type = FT_WORD, .id = FO_DEDUPE_MODE,
	 .read = fio_read_dedupe_mode},
	{.name = "dedupe_working_set_percentage", NUM(FIO_COUNT, dedupe_set_pct), .u32 = true,
	 .max = 100, .id = FO_DEDUPE_SET},
	{.name = "dedupe_global", .type = FT_BOOL, .off = OFF(dedupe_global),
	 .id = FO_DEDUPE_GLOBAL},
	{.name = "buffer_pattern", .type = FT_STR, .off = OFF(buf_pattern), .id = FO_BUF_PATTERN},
	{.name = "refill_buffers", .type = FT_SET, .off = OFF(refill), .id = FO_REFILL},
	{.name = "scramble_buffers", .type = FT_BOOL, .off = OFF(scramble), .id = FO_SCRAMBLE},

	/* fio's log files */
	{.name = "write_bw_log", .type = FT_WORD, .bare = true, .id = FO_LOG_BW,
	 .read = fio_read_log},
	{.name = "write_iops_log", .type = FT_WORD, .bare = true, .id = FO_LOG_IOPS,
	 .read = fio_read_log},
	{.name = "write_lat_log", .type = FT_WORD, .bare = true, .id = FO_LOG_LAT,
	 .read = fio_read_log},
	{.name = "write_hist_log", .type = FT_WORD, .bare = true, .id = FO_LOG_HIST,
	 .read = fio_read_log},
	{.name = "log_avg_msec", NUM(FIO_COUNT, log_avg_ms), .max = 1u << 30, .id = FO_LOG_AVG},
	{.name = "log_hist_msec", NUM(FIO_COUNT, log_hist_ms), .max = 1u << 30,
	 .id = FO_LOG_HIST_MSEC},
	{.name = "log_max_value", .type = FT_BOOL, .off = OFF(log_max), .id = FO_LOG_MAX},
	{.name = "log_offset", .type = FT_BOOL, .off = OFF(log_offset), .id = FO_LOG_OFFSET},
	{.name = "log_prio", .type = FT_BOOL, .off = OFF(log_prio), .id = FO_LOG_PRIO},
	{.name = "per_job_logs", .type = FT_BOOL, .off = OFF(per_job_logs),
	 .id = FO_PER_JOB_LOGS},

	/* accepted, of no effect */
	NOEFFECT("thread", FT_SET, WHY_PROC),
	NOEFFECT("unique_filename", FT_BOOL, "names files apart for fio's client/server mode"),
	NOEFFECT("iodepth_batch_complete_min", FT_ANY, WHY_REAP),
	NOEFFECT("iodepth_batch_complete", FT_ANY, WHY_REAP),
	NOEFFECT("iodepth_batch_complete_max", FT_ANY, WHY_REAP),
	NOEFFECT("iodepth_low", FT_ANY, WHY_REAP),
	NOEFFECT("io_submit_mode", FT_ANY, WHY_PROC),
	NOEFFECT("softrandommap", FT_ANY, "of no effect without fio's random map, which iorate "
		 "does not keep (as with norandommap)"),
	NOEFFECT("random_generator", FT_ANY, "iorate's own generator (xoshiro256**) draws the "
		 "offsets: a sequence alike, not fio's"),
	NOEFFECT("openfiles", FT_ANY, "how many files fio keeps open: iorate opens every target "
		 "for the whole job"),
	NOEFFECT("fallocate", FT_ANY, WHY_LAYOUT),
	NOEFFECT("overwrite", FT_ANY, WHY_LAYOUT),
	NOEFFECT("create_serialize", FT_ANY, WHY_LAYOUT),
	NOEFFECT("create_fsync", FT_ANY, WHY_LAYOUT),
	NOEFFECT("create_on_open", FT_ANY, WHY_LAYOUT),
	NOEFFECT("allow_file_create", FT_ANY, WHY_LAYOUT),
	NOEFFECT("fadvise_hint", FT_ANY, "access hints: iorate gives the kernel none, so buffered "
		 "reads may read ahead where fio's would not"),
	NOEFFECT("allow_mounted_write", FT_ANY, "iorate's own --allow-write-device and --force "
		 "decide what may be written"),
	NOEFFECT("clocksource", FT_ANY, WHY_TIMING),
	NOEFFECT("gtod_reduce", FT_ANY, WHY_TIMING),
	NOEFFECT("gtod_cpu", FT_ANY, WHY_TIMING),
	NOEFFECT("disable_lat", FT_ANY, WHY_TIMING),
	NOEFFECT("disable_clat", FT_ANY, WHY_TIMING),
	NOEFFECT("disable_slat", FT_ANY, WHY_TIMING),
	{.name = "disable_bw_measurement", .alias = "disable_bw", .type = FT_ANY,
	 .how = FH_NOEFFECT, .why = WHY_TIMING},
	{.name = "mem", .alias = "iomem", .type = FT_ANY, .how = FH_NOEFFECT,
	 .why = "how fio allocates its buffers: iorate maps its own, in huge pages for I/Os of "
		"16 KiB and more"},
	{.name = "iomem_align", .alias = "mem_align", .type = FT_ANY, .how = FH_NOEFFECT,
	 .why = "iorate's buffers are page-aligned, on a huge page for I/Os of 16 KiB and more"},
	NOEFFECT("hugepage-size", FT_ANY, "iorate takes the kernel's transparent huge pages"),
	NOEFFECT("nice", FT_ANY, WHY_PROC),
	NOEFFECT("uid", FT_ANY, WHY_PROC),
	NOEFFECT("gid", FT_ANY, WHY_PROC),
	NOEFFECT("cpumask", FT_ANY, WHY_PLACE),
	NOEFFECT("cpus_allowed", FT_ANY, WHY_PLACE),
	NOEFFECT("cpus_allowed_policy", FT_ANY, WHY_PLACE),
	NOEFFECT("numa_cpu_nodes", FT_ANY, WHY_PLACE),
	NOEFFECT("numa_mem_policy", FT_ANY, WHY_PLACE),
	NOEFFECT("log_entries", FT_ANY, WHY_LOGS),
	NOEFFECT("log_hist_coarseness", FT_ANY, WHY_LOGS),
	NOEFFECT("log_compression", FT_ANY, WHY_LOGS),
	NOEFFECT("log_compression_cpus", FT_ANY, WHY_LOGS),
	NOEFFECT("log_store_compressed", FT_ANY, WHY_LOGS),
	NOEFFECT("log_unix_epoch", FT_ANY, WHY_LOGS),
	NOEFFECT("log_alternate_epoch", FT_ANY, WHY_LOGS),
	NOEFFECT("log_alternate_epoch_clock_id", FT_ANY, WHY_LOGS),
	NOEFFECT("write_iolog", FT_ANY, "a log of every I/O: iorate's --trace writes one, in its "
		 "own form"),
	NOEFFECT("bwavgtime", FT_ANY, WHY_REPORT),
	NOEFFECT("iopsavgtime", FT_ANY, WHY_REPORT),
	NOEFFECT("stats", FT_ANY, WHY_REPORT),
	NOEFFECT("clat_percentiles", FT_ANY, WHY_REPORT),
	NOEFFECT("lat_percentiles", FT_ANY, WHY_REPORT),
	NOEFFECT("slat_percentiles", FT_ANY, WHY_REPORT),
	NOEFFECT("percentile_list", FT_ANY, WHY_REPORT),
	NOEFFECT("significant_figures", FT_ANY, WHY_REPORT),
	NOEFFECT("unified_rw_reporting", FT_ANY, WHY_REPORT),
	NOEFFECT("disk_util", FT_ANY, WHY_REPORT),
	NOEFFECT("unit_base", FT_ANY, WHY_REPORT),
	NOEFFECT("error_dump", FT_ANY, WHY_REPORT),
	{.name = "rate_min", .alias = "ratemin", .type = FT_ANY, .how = FH_NOEFFECT,
	 .why = WHY_RATEMIN},
	NOEFFECT("rate_iops_min", FT_ANY, WHY_RATEMIN),
	{.name = "rate_cycle", .alias = "ratecycle", .type = FT_ANY, .how = FH_NOEFFECT,
	 .why = WHY_RATEMIN},
	NOEFFECT("thinktime_spin", FT_ANY, "the part of the pause fio spends spinning the CPU: "
		 "iorate sleeps the whole thinktime"),
	NOEFFECT("do_verify", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_offset", FT_ANY, "where fio puts its header in a block: iorate's is at "
		 "the start"),
	NOEFFECT("verify_fatal", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_dump", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_async", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_async_cpus", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_backlog", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_backlog_batch", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_write_sequence", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_state_load", FT_ANY, WHY_VERIFY),
	NOEFFECT("verify_state_save", FT_ANY, WHY_VERIFY),
	NOEFFECT("verifysort", FT_ANY, WHY_VERIFY),
	NOEFFECT("verifysort_nr", FT_ANY, WHY_VERIFY),
	NOEFFECT("experimental_verify", FT_ANY, WHY_VERIFY),
	NOEFFECT("trim_percentage", FT_ANY, WHY_TRIM),
	NOEFFECT("trim_verify_zero", FT_ANY, WHY_TRIM),
	NOEFFECT("trim_backlog", FT_ANY, WHY_TRIM),
	NOEFFECT("trim_backlog_batch", FT_ANY, WHY_TRIM),
	NOEFFECT("sqthread_poll_cpu", FT_ANY, "the CPU of io_uring's polling thread: iorate "
		 "leaves its placement to the scheduler"),
	NOEFFECT("fixedbufs", FT_ANY, "io_uring registered buffers: iorate's uring engine always "
		 "registers its buffers (where the memory lock limit allows)"),
	NOEFFECT("registerfiles", FT_ANY, "io_uring registered files: iorate's uring engine "
		 "always registers its files"),
	NOEFFECT("nonvectored", FT_ANY, "how fio's io_uring engine prepares an I/O"),
	NOEFFECT("userspace_reap", FT_ANY, WHY_REAP),
	NOEFFECT("gpu_dev_id", FT_ANY, "of no effect without a GPU engine, which iorate refuses"),
	/* fio's profiles add their options to every job's; of no effect without profile=. */
	NOEFFECT("threads", FT_ANY, WHY_TIOBENCH),
	NOEFFECT("block", FT_ANY, WHY_TIOBENCH),
	NOEFFECT("numruns", FT_ANY, WHY_TIOBENCH),
	NOEFFECT("dir", FT_ANY, WHY_TIOBENCH),
	NOEFFECT("device-names", FT_ANY, WHY_ACT),
	NOEFFECT("load", FT_ANY, WHY_ACT),
	NOEFFECT("test-duration", FT_ANY, WHY_ACT),
	NOEFFECT("threads-per-queue", FT_ANY, WHY_ACT),
	NOEFFECT("read-req-num-512-blocks", FT_ANY, WHY_ACT),
	NOEFFECT("large-block-op-kbytes", FT_ANY, WHY_ACT),
	NOEFFECT("prep", FT_ANY, WHY_ACT),

	/* refused: iorate does not have them (except the values that ask nothing) */
	REFUSED("verify_only", "verification without writing ('iorate verify TARGET' checks a "
		"target a run with --verify wrote)", "0"),
	NOEFFECT("verify_pattern", FT_ANY, "what fills a block around fio's header: iorate's "
		 "blocks carry data drawn from each write, and a checksum (verify=pattern alone is "
		 "refused)"),
	REFUSED("read_iolog", "replay of a log of I/Os", NULL),
	REFUSED("read_iolog_chunked", "replay of a log of I/Os", "0"),
	REFUSED("replay_no_stall", "replay of a log of I/Os", NULL),
	REFUSED("replay_redirect", "replay of a log of I/Os", NULL),
	REFUSED("replay_scale", "replay of a log of I/Os", "1"),
	REFUSED("replay_align", "replay of a log of I/Os", NULL),
	REFUSED("replay_time_scale", "replay of a log of I/Os", "100"),
	REFUSED("replay_skip", "replay of a log of I/Os", NULL),
	REFUSED("merge_blktrace_file", "merging of block traces", NULL),
	REFUSED("merge_blktrace_scalars", "merging of block traces", NULL),
	REFUSED("merge_blktrace_iters", "merging of block traces", NULL),
	REFUSED("exec_prerun", "commands run around a job (run them yourself)", NULL),
	REFUSED("exec_postrun", "commands run around a job (run them yourself)", NULL),
	REFUSED("ioscheduler", "switching of the device's I/O scheduler (set it in "
		"/sys/block/DEV/queue/scheduler)", NULL),
	REFUSED("lockmem", "locking of memory away from the page cache", "0"),
	REFUSED("write_hint", "write lifetime hints", "none"),
	REFUSED("create_only", "laying out of files without running the job", "0"),
	REFUSED("pre_read", "reading of the files into the page cache before the job", "0"),
	REFUSED("file_append", "writes past the end of the files", "0"),
	REFUSED("unlink_each_loop", "removal of the files after each loop", "0"),
	REFUSED("sync_file_range", "sync_file_range() calls", NULL),
	REFUSED("write_barrier", "barrier writes", "0"),
	{.name = "bs_unaligned", .alias = "blocksize_unaligned", .type = FT_ANY,
	 .how = FH_REFUSED, .why = "block sizes that are not multiples of the smallest",
	 .except = "0"},
	REFUSED("bs_is_seq_rand", "block sizes by sequential or random I/O instead of by "
		"direction", "0"),
	REFUSED("offset_align", "alignment of percentage offsets other than to the block size",
		"0"),
	REFUSED("max_latency", "end of a job when one I/O takes longer than a limit", NULL),
	REFUSED("rate_ignore_thinktime", "a rate that ignores the think time", "0"),
	REFUSED("thinktime_blocks_type", "counting of think-time blocks as they are issued (it "
		"counts completions)", "complete"),
	REFUSED("thinktime_iotime", "pauses by I/O time", "0"),
	REFUSED("lockfile", "locking of the files between jobs", "none"),
	REFUSED("opendir", "adding of every file of a directory", NULL),
	REFUSED("serialize_overlap", "holding back of an I/O that overlaps one in flight", "0"),
	REFUSED("profile", "fio's built-in profiles", NULL),
	REFUSED("cgroup", "control groups (it runs in its own)", NULL),
	REFUSED("cgroup_weight", "control groups (it runs in its own)", NULL),
	REFUSED("cgroup_nodelete", "control groups (it runs in its own)", "0"),
	REFUSED("block_error_percentiles", "trims", "0"),
	REFUSED("hipri", "polled completions", "0"),
	REFUSED("hipri_percentage", "polled completions", "0"),
	REFUSED("uncached", "uncached buffered I/O", "0"),
	REFUSED("nowait", "RWF_NOWAIT I/O", "0"),
	REFUSED("force_async", "io_uring I/O forced to its worker threads", "0"),
};

/* Every name of the table (names and aliases), sorted once: a job file's line is a bsearch. */
struct opt_name {
	const char *name;
	const struct fio_opt *o;
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

static int opt_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct opt_name *)a)->name, ((const struct opt_name *)b)->name);
}

const struct fio_opt *fio_opt_find(const char *name)
{
	static struct opt_name names[3 * NTABLE];
	static size_t n;
	const struct fio_opt *best = NULL;

	if (!n) {
		for (size_t i = 0; i < NTABLE; i++) {
			const char *v[] = {table[i].name, table[i].alias, table[i].alias2};
			for (size_t k = 0; k < 3; k++)
				if (v[k])
					names[n++] = (struct opt_name){.name = v[k],
								       .o = &table[i]};
		}
		qsort(names, n, sizeof(names[0]), opt_name_cmp);
	}
	const struct opt_name key = {.name = name};
	const struct opt_name *p = bsearch(&key, names, n, sizeof(names[0]), opt_name_cmp);

	if (!p)
		return NULL;
	/* A name two rows have: the first row's, as a search of the table in order finds. */
	while (p > names && !strcmp(p[-1].name, name))
		p--;
	for (; p < names + n && !strcmp(p->name, name); p++)
		best = !best || p->o < best ? p->o : best;
	return best;
}

const char *fio_opt_suggest(const char *name, const char *prefix, char *out, size_t len)
{
	struct suggest s;

	suggest_init(&s, name);
	for (size_t i = 0; i < NTABLE; i++) {
		suggest_add(&s, table[i].name, NULL);
		/* An alias typed close is answered with the name fio documents. */
		suggest_add(&s, table[i].alias, table[i].name);
		suggest_add(&s, table[i].alias2, table[i].name);
	}
	return suggest_tail(&s, prefix, out, len);
}
