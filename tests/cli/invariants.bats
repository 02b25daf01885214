#!/usr/bin/env bats
# Count invariants, for every way a run spreads its I/O: per direction (read, write, trim), in I/Os
# and in bytes, the targets of a job add up to the job, the jobs of a group to the group, the
# groups to the total, the directions to each `total` object and the series to the run; a block
# device's counts equal what /proc/diskstats saw (a loop device this file sets up, O_DIRECT); and
# the run's text, JSON, CSV, fio JSON and history all show the same figures. One row per mode:
# a new mode is a line in ROWS. Integers only: jq extracts, bash adds ($((...))).

load helpers

LOOP=""

teardown() {
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
	return 0
}


# The invariants of the run in $output (one job, or a document of several), as lines
# "WHAT EXPECTED ADDEND...": jq picks the integers out, the shell adds them.
INVARIANTS='
def jobs: if has("jobs") then .jobs else [.] end;
def n: . // 0;
def line($what; $want; $parts):
	[$what, ($want | n)] + ($parts | map(n)) | map(tostring) | join(" ");
. as $doc |
(jobs | to_entries[] | .key as $j | .value as $r |
	(("read", "write", "trim") as $d | ("ios", "bytes") as $k |
		line("job\($j): the targets'"'"' \($d).\($k)"; $r.total[$d][$k];
			[$r.targets[] | .[$d][$k]])),
	(("read", "write") as $d |
		line("job\($j): the series'"'"' \($d)_ios"; $r.total[$d].ios;
			[$r.series[]["\($d)_ios"]])),
	(("ios", "bytes") as $k |
		line("job\($j): total.total.\($k)"; $r.total.total[$k];
			[$r.total.read[$k], $r.total.write[$k], $r.total.trim[$k]])),
	($r.targets | to_entries[] | .key as $t | .value as $tg |
		(("ios", "bytes") as $k |
			line("job\($j) target\($t): total.\($k)"; $tg.total[$k];
				[$tg.read[$k], $tg.write[$k], $tg.trim[$k]])),
		(select($tg.blockdev) | ("read", "write") as $d |
			line("job\($j) target\($t): kernel.\($d)_bytes"; $tg.kernel["\($d)_bytes"];
				[$tg[$d].bytes])))),
($doc | select(has("jobs")) |
	(.groups | to_entries[] | .key as $g | .value as $G |
		("read", "write", "total") as $d | ("ios", "bytes") as $k |
		line("group\($g): \($d).\($k)"; $G[$d][$k];
			[$G.jobs[] as $i | $doc.jobs[$i].total[$d][$k]])),
	(("read", "write", "total") as $d | ("ios", "bytes") as $k |
		line("total: \($d).\($k) of the groups"; .total[$d][$k]; [.groups[][$d][$k]]),
		line("total: \($d).\($k) of the jobs"; .total[$d][$k]; [.jobs[].total[$d][$k]])))
'

# same WHAT A B: two integers are equal, or the test fails naming them.
same() {
	[ -n "$2" ] && [ -n "$3" ] && [ "$2" -eq "$3" ] ||
		{ echo "$1: '$2' != '$3'" >&2; return 1; }
}

# Bytes and I/Os the kernel counted for device $1: "rios rbytes wios wbytes dios dbytes".
kernel_counts() {
	local f d
	d=$(basename "$1")
	while read -r -a f; do
		if [ "${f[2]}" = "$d" ]; then
			echo "${f[3]} $((f[5] * 512)) ${f[7]} $((f[9] * 512))" \
				"${f[14]:-0} $((${f[16]:-0} * 512))"
			return 0
		fi
	done </proc/diskstats
	return 1
}

# check_json: every line of INVARIANTS holds: its addends add up to what it expects.
check_json() {
	local what want parts v t n=0
	while IFS=' ' read -r -a parts; do
		# The label is every word up to the first number.
		what=""
		while [[ ! "${parts[0]}" =~ ^-?[0-9]+$ ]]; do
			what+="${parts[0]} "
			parts=("${parts[@]:1}")
		done
		want=${parts[0]}
		t=0
		for v in "${parts[@]:1}"; do t=$((t + v)); done
		same "$what" "$want" "$t"
		n=$((n + 1))
	done < <(jq -r "$INVARIANTS" <<<"$output")
	[ "$n" -gt 10 ] || { echo "only $n invariants checked" >&2; return 1; }
}

# The figures each format must show, from the JSON in $output: "KEY IOS BYTES" lines, KEY
# being "job J TARGET DIRECTION" (TARGET a path or '*' for the job), "group G * DIRECTION" or
# "run - * DIRECTION".
EXPECT='
def jobs: if has("jobs") then .jobs else [.] end;
(jobs | to_entries[] | .key as $j | .value as $r |
	(("read", "write", "trim", "total") as $d | select($d != "trim" or $r.total.trim) |
		"job \($j) * \($d) \($r.total[$d].ios) \($r.total[$d].bytes)",
		($r.targets[] | select($d != "trim" or .trim) |
			"job \($j) \(.path) \($d) \(.[$d].ios) \(.[$d].bytes)"))),
(("read", "write", "total") as $d | "run - * \($d) \(.total[$d].ios) \(.total[$d].bytes)"),
(.groups // [] | .[] | ("read", "write", "total") as $d |
	"group \(.group) * \($d) \(.[$d].ios) \(.[$d].bytes)")
'

# check_formats DB: the history's JSON of run 1 in DB is $output byte for byte, and its text,
# CSV and fio JSON show the figures of $output.
check_formats() {
	local db=$1 text csv fio key ios bytes got multi=0 line f j path d sec job n=0
	local -A want=() seen=()
	diff <(printf '%s\n' "$output") <("$IORATE" history show --db "$db" 1 --json) >&2
	while read -r key j path d ios bytes; do
		want["$key $j $path $d"]="$ios $bytes"
	done < <(jq -r "$EXPECT" <<<"$output")
	[[ "$output" == *'"jobs": ['* ]] && multi=1

	# CSV: a row per target and direction, and the job's or the run's ('*').
	csv=$("$IORATE" history show --db "$db" 1 --csv)
	while IFS=, read -r -a f; do
		if [ "$multi" = 1 ]; then
			case ${f[0]} in
			job) key="job $((f[1] - 1)) ${f[4]} ${f[5]}" ;;
			group) [ "${f[4]}" = "*" ] || continue; key="group ${f[3]} * ${f[5]}" ;;
			total) [ "${f[4]}" = "*" ] || continue; key="run - * ${f[5]}" ;;
			*) continue ;;
			esac
			got="${f[6]} ${f[7]}"
		else
			[[ "${f[0]}" != device:* && "${f[0]}" != target ]] || continue
			key="job 0 ${f[0]} ${f[1]}"
			got="${f[2]} ${f[3]}"
		fi
		[ -n "${want[$key]:-}" ] ||
			{ echo "csv: no such figure in the JSON: $key" >&2; return 1; }
		[ "${want[$key]}" = "$got" ] ||
			{ echo "csv $key: $got != ${want[$key]}" >&2; return 1; }
		seen["csv $key"]=1
	done <<<"$csv"
	for key in "${!want[@]}"; do
		[[ "$key" == job* || "$multi" = 1 ]] || continue
		[ -n "${seen["csv $key"]:-}" ] || { echo "csv: no row for $key" >&2; return 1; }
	done

	# fio's layout: a job's read, write and trim, as total_ios and io_bytes.
	fio=$("$IORATE" history show --db "$db" 1 --fio-json)
	while read -r j d ios bytes; do
		key="job $j * $d"
		if [ "$d" = trim ] && [ -z "${want[$key]:-}" ]; then
			[ "$ios $bytes" = "0 0" ]
			continue
		fi
		[ "${want[$key]}" = "$ios $bytes" ] ||
			{ echo "fio-json $key: $ios $bytes != ${want[$key]}" >&2; return 1; }
		n=$((n + 1))
	done < <(jq -r '.jobs | to_entries[] | .key as $j | ("read", "write", "trim") as $d |
		"\($j) \($d) \(.value[$d].total_ios) \(.value[$d].io_bytes)"' <<<"$fio")
	[ "$n" -gt 0 ]

	# Text: "bytes | I/Os" rows. One job: a table per direction ("Read I/O"), a row per target
	# then "total:". Several jobs: each job's targets (all directions together) then its "read:",
	# "write:", "total:"; a row per group; the run's own "read:", "write:", "total:".
	text=$("$IORATE" history show --db "$db" 1 --format text)
	sec="" job=0
	while IFS= read -r line; do
		case $line in
		"Total I/O") sec=total ;;
		"Read I/O") sec=read ;;
		"Write I/O") sec=write ;;
		"Trim I/O") sec=trim ;;
		"Job "*" of "*) job=${line#Job }; job=$((${job%% *} - 1)) ;;
		"Total of the run"*) job=run ;;
		esac
		# A group's row: group | jobs | seconds | bytes | I/Os | ...
		if [[ "$line" =~ ^\ +([0-9]+)(\ \|\ +[0-9.]+){2}\ \|\ +([0-9]+)\ \|\ +([0-9]+)\ \| ]]; then
			seen["text group ${BASH_REMATCH[1]} * total"]="${BASH_REMATCH[4]} ${BASH_REMATCH[3]}"
			continue
		fi
		[[ "$line" =~ ^()\ +([0-9]+)\ \|\ +([0-9]+)\ \|.*\|\ ([^ ]+)\ \( ]] ||
		[[ "$line" =~ ^([a-z]+):\ +([0-9]+)\ \|\ +([0-9]+)\ \| ]] || continue
		d=${BASH_REMATCH[1]}
		if [ "$multi" = 1 ]; then
			if [ "$job" = run ]; then
				key="run - * $d"
			elif [ -n "$d" ]; then
				key="job $job * $d"
			else
				key="job $job ${BASH_REMATCH[4]} total"
			fi
		elif [ -n "$sec" ]; then
			[ -n "$d" ] && key="job 0 * $sec" || key="job 0 ${BASH_REMATCH[4]} $sec"
		else
			continue
		fi
		seen["text $key"]="${BASH_REMATCH[3]} ${BASH_REMATCH[2]}"
	done <<<"$text"
	for key in "${!want[@]}"; do
		[[ "$key" == run* && "$multi" = 0 ]] && continue
		# Several jobs: the text has each target's total only.
		read -r _ _ path d <<<"$key"
		[[ "$multi" = 1 && "$path" != "*" && "$d" != total ]] && continue
		# The groups' table has their totals only.
		[[ "$key" == group* && "$d" != total ]] && continue
		# A direction without I/O has no table of its own in the text.
		[ -n "${seen["text $key"]:-}" ] || [ "${want[$key]}" != "0 0" ] || continue
		[ "${seen["text $key"]:-}" = "${want[$key]}" ] ||
			{ echo "text $key: '${seen["text $key"]:-}' != ${want[$key]}" >&2; return 1; }
	done
}

# run_row OPTIONS...: runs iorate run OPTIONS with --json and --save, checks the run's invariants
# and its formats. 'DEV' among the options is a loop device of 32 MiB set up for the row (direct
# I/O to its file too); other targets are files created in the test's directory.
run_row() {
	local opts=" $* " before after i dev a b d
	if [[ " $opts " == *" DEV "* ]]; then
		need_root
		command -v losetup >/dev/null || skip "losetup is not installed"
		truncate -s 32M backing.img
		LOOP=$(losetup -f --show --direct-io=on backing.img) ||
			skip "cannot set up a loop device"
		opts=${opts/DEV/$LOOP}
	fi
	[ -z "$LOOP" ] || before=$(kernel_counts "$LOOP")
	# shellcheck disable=SC2086
	iorate run -q --json --save --db h.db $opts
	[ -z "$LOOP" ] || after=$(kernel_counts "$LOOP")
	[ "$status" -eq 0 ] || { echo "exit $status: $stderr" >&2; return 1; }
	jqv '.error // (.jobs // [] | map(.error // empty) | first) // empty' | grep . >&2 && return 1
	check_json
	if [ -n "$LOOP" ]; then
		# What the test itself saw the kernel count around the whole command: the writes and
		# discards are iorate's alone; its reads, plus libblkid's probe of the device first
		# (the measured window's reads are checked exactly above, as targets[].kernel).
		read -r -a b <<<"$before"
		read -r -a a <<<"$after"
		dev=$(jqv '[.targets[] | select(.blockdev)] |
			"\(map(.read.bytes) | add) \(map(.write.bytes) | add) \(map(.trim.bytes // 0) | add)"')
		read -r -a d <<<"$dev"
		same "diskstats write bytes" "$((a[3] - b[3]))" "${d[1]}"
		same "diskstats discard bytes" "$((a[5] - b[5]))" "${d[2]}"
		[ "$((a[1] - b[1]))" -ge "${d[0]}" ]
	fi
	check_formats h.db
	# Not an empty run: the row exercised what it names.
	[ "$(jqv '.total.total.ios')" -gt 0 ]
	for i in a b c d e f; do [ ! -e "$i" ]; done
}

# The table: one row per way of spreading I/O. Each thread stops after --ios (or --time), so a
# row takes a fraction of a second.
@test "one target" { run_row -c 1M -b 4k --ios 200 -d none -w 30 a; }
@test "several targets, block-size mix" {
	run_row -c 1M --bssplit 4k/50:16k/50 --ios 100 -d none -w 40 -t 2 a b c; }
@test "shared threads, roundrobin" { run_row -c 1M --bssplit 4k/50:64k/50 --ios 200 -d none \
	-w 50 -t 2 --shared-threads --file-service roundrobin a b c; }
@test "shared threads, sequential" { run_row -c 1M --bssplit 4k/50:64k/50 --ios 200 -d none \
	-w 50 -t 2 --shared-threads --file-service sequential:7 a b c; }
@test "shared threads, random" { run_row -c 1M --bssplit 8k/30:32k/70 --ios 200 -d none \
	-w 50 --shared-threads --file-service random a b c d; }
@test "jobs and groups" { run_row -c 1M -b 4k --ios 50 -d none --job-name j1 -w 30 a b \
	--job-name j2 -t 2 -b 16k c --stonewall --job-name j3 -w 100 d \
	--job-name j4 --shared-threads -t 2 e f; }
@test "verify" { run_row -c 1M -b 4k --ios 200 -d none -w 50 --verify a b; }
@test "trims" { run_row -c 1M -b 8k --ios 200 -d none -w 30 --trim 30 a b; }
@test "trim-write" { run_row -c 1M -b 8k --ios 100 -d none -w 100 --trim-write a; }
@test "strided zones" {
	run_row -c 2M -b 4k --ios 200 -d none -w 50 --zone-size 64k --zone-skip 64k a b; }
@test "emulated zones" {
	run_row -c 2M -b 4k --ios 200 -d none -w 100 -s --zbd --zone-size 256k a; }
@test "emulated caps" { run_row -c 1M -b 4k -d 0.3 -w 30 --cap-iops 1000 --cap-mbps 3 a b; }
@test "loop device, reads" { run_row -b 4k --ios 300 -d none --engine sync DEV; }
@test "loop device, writes and trims" { run_row -b 16k --ios 200 -d none -w 50 --trim 20 \
	--engine uring -o 4 --allow-write-device DEV; }
@test "loop device, shared with a file" { run_row -c 1M --bssplit 4k/50:64k/50 --ios 200 \
	-d none -w 40 --shared-threads --allow-write-device DEV a; }
