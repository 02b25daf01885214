#!/usr/bin/env bats
# Output formats are chosen by name from one table: every command prints the formats it has
# and refuses any other by name, with exit 2, before any work.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	FIX="$BATS_TEST_DIRNAME/fixtures"
}

# refused LINE ARGS...: exit 2, nothing on stdout, exactly LINE on stderr.
refused() {
	local want="$1"
	shift
	iorate "$@"
	[ "$status" -eq 2 ] || { echo "exit $status for: $*"; return 1; }
	[ -z "$output" ] || { echo "stdout for $*: $output"; return 1; }
	[ "$stderr" = "$want" ] || { echo "stderr for $*: $stderr"; return 1; }
}

@test "the model commands print text or json and refuse csv by name" {
	refused "iorate: --format csv: 'iorate model' prints text or json" \
		model --vm DS2 --disk P30 --format csv
	refused "iorate: --format csv: 'iorate plan' prints text or json" \
		plan --iops 1000 --format csv
	refused "iorate: --format csv: 'iorate explain' prints text or json" \
		explain "$FIX/run-ds2-p30.json" --vm DS2 --disk P30 --format csv
	refused "iorate: --format csv: 'iorate cost upload' prints text or json" \
		cost upload --data 1GiB --format csv
	refused "iorate: --format csv: 'iorate cost config' prints text or json" \
		cost --format csv config --vm DS2 --disk P30
	refused "iorate: --format csv: 'iorate catalog list' prints text or json" \
		catalog list --format csv
	refused "iorate: --format csv: 'iorate catalog show' prints text or json" \
		catalog show P20 --format=csv
}

@test "dry runs, verify and history compare print text or json and refuse the others by name" {
	printf '[j]\nfilename=f.dat\nsize=1m\nrw=read\nioengine=null\n' > j.fio
	refused "iorate: --csv: 'iorate run --dry-run' prints text or json" \
		run --dry-run --csv --engine sync -c 1M new.dat
	refused "iorate: --format fio-json: 'iorate run --dry-run' prints text or json" \
		run --format fio-json --dry-run -c 1M new.dat
	refused "iorate: --csv: 'iorate run --dry-run' prints text or json" \
		run --job j.fio --dry-run --csv
	refused "iorate: --fio-json: 'iorate fio --dry-run' prints text or json" \
		fio --dry-run --fio-json j.fio
	refused "iorate: --format csv: 'iorate verify' prints text or json" \
		verify --format csv new.dat
	refused "iorate: --csv: 'iorate history compare' prints text or json" \
		history compare --db h.db 1 2 --csv
	[ ! -e new.dat ] && [ ! -e f.dat ] && [ ! -e h.db ]
	# The formats they have: the dry run's JSON is the job's params, verify's its findings.
	iorate run --dry-run --format json -b 8k -c 1M new.dat
	json_ok '.bs == 8192 and .targets == ["new.dat"]'
	iorate run --dry-run --format text -b 8k -c 1M new.dat
	[[ "$output" == "iorate run --bs 8KiB "*" new.dat" ]]
	iorate fio --dry-run --format json j.fio
	json_ok '.translation == "fio" and (.jobs | length) == 1'
	"$IORATE" run --verify -w 100 -s --engine sync -c 1M --io-size 1M --keep -q v.dat >/dev/null
	iorate verify --format json -q v.dat
	[ "$status" -eq 0 ]
	json_ok '.bad == 0 and .checked > 0 and .targets[0].path == "v.dat"'
}

@test "a format refused is refused before the command's own checks" {
	# An unknown VM would be exit 2 too, but with another message: the format is checked first.
	refused "iorate: --format csv: 'iorate model' prints text or json" \
		model --vm NOPE --disk P30 --format csv
	refused "iorate: --format csv: 'iorate catalog show' prints text or json" \
		catalog show NOPE --format csv
}

@test "a name that is no format is refused by every command, naming the formats" {
	local line="iorate: --format: 'xml' is not an output format (text, json, csv, fio-json, fio-json+, fio-terse)"
	refused "$line" run --format xml --engine null -d 1 x
	refused "$line" sweep threads=1,2 --format xml --engine null -d 1 x
	refused "$line" mark --format xml --engine null .
	refused "$line" model --format xml --vm DS2 --disk P30
	refused "$line" plan --format xml --iops 1000
	refused "$line" explain --format xml "$FIX/run-ds2-p30.json" --vm DS2 --disk P30
	refused "$line" cost upload --data 1GiB --format xml
	refused "$line" catalog list --format xml
	refused "$line" diskspd --format xml -d1 x
}

@test "no work is done when the format is refused: no test file is made" {
	mkdir d
	refused "iorate: --format: 'xml' is not an output format (text, json, csv, fio-json, fio-json+, fio-terse)" \
		run --format xml --engine sync -d 1 -c 1M new.dat
	[ ! -e new.dat ]
	refused "iorate: --format: 'yaml' is not an output format (text, json, csv, fio-json, fio-json+, fio-terse)" \
		mark --format yaml --runs 1 --measure 1s --pause 0 -c 1M d
	[ -z "$(ls d)" ]
}

@test "--format json is --json, --format text the default, and the two cannot be mixed" {
	iorate model --vm DS2 --disk 2xP30 --json
	local json="$output"
	iorate model --vm DS2 --disk 2xP30 --format json
	[ "$status" -eq 0 ]
	[ "$output" = "$json" ]
	iorate model --vm DS2 --disk 2xP30
	local text="$output"
	iorate model --vm DS2 --disk 2xP30 --format text
	[ "$output" = "$text" ]
	[[ "$text" == "configuration: DS2 + 2 x P30 (azure-2015), host cache none"* ]]
	iorate cost upload --data 750GiB --write-price 0.10 --gb-price 0.0152 --format json
	[ "$status" -eq 0 ]
	[ "$(jqv .transactions)" = 1536000 ]
	refused "iorate: --json and --format text cannot be used together" \
		plan --iops 1000 --json --format text
}

@test "sweep takes every format of a table of runs, row by row or whole" {
	iorate sweep threads=1,2 --format csv --engine null -d 0.2 x
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | head -1 | cut -d, -f1-2)" = "threads,bs" ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 3 ]
	iorate sweep threads=1 --format json --engine null -d 0.2 x
	[ "$status" -eq 0 ]
	json_ok '.param == "threads" and (.rows | length) == 1'
}

@test "catalog show prints a table of figures with units and sources; --json the entry" {
	iorate catalog show azure-2015:DS14
	[ "$status" -eq 0 ]
	[ "${output:0:1}" != "{" ]
	[[ "$output" == "DS14, a VM size of catalog azure-2015"* ]]
	[[ "$output" == *$'\ndate:       2020-11-01\n'* ]]
	[[ "$output" == *$'\nsource [1]: \'Previous generations of virtual machine sizes\', Microsoft Docs, MicrosoftDocs/azure-docs articles/virtual-machines/'* ]]
	line_ok '^  uncached_iops +51200  IOPS +\[1\]$'
	line_ok '^  uncached_mbps +512  MiB/s +\[1\]$'
	# The temp disk's latency is an estimate, with a source of its own.
	[[ "$output" == *$'\nsource [2]: estimate (Microsoft publishes no temp disk latency)\n'* ]]
	line_ok '^  local_latency_ms +0\.1  ms +\[2\]$'
	# A figure with a source of its own names it; an AWS disk's MB/s are MiB/s as written.
	iorate catalog show aws:gp3
	[ "$status" -eq 0 ]
	line_ok '^  latency_read_ms +[0-9.]+  ms +\[2\]$'
	line_ok '^  mbps +125  MiB/s +\[1\]$'
	iorate catalog show azure-2015:DS14 --json
	[ "$status" -eq 0 ]
	json_ok '.name == "DS14" and .catalog == "azure-2015" and .uncached_iops == 51200'
	json_ok '.local_latency_ms == 0.1'
	iorate catalog show --format json P20
	[ "$status" -eq 0 ]
	json_ok '.name == "P20" and .iops == 2300'
}

# The paths of a JSON document (array indices as []), each with its jq type, one a line,
# leaving out the values of "job options" and "global options" (what each job set).
json_paths() {
	jq -r 'paths as $p | select(($p | index("job options") // index("global options")) as $i |
		$i == null or $i == ($p | length) - 1) |
		($p | map(if type == "number" then "[]" else . end) | join(".")) + " " +
		(getpath($p) | type)' "$1" | sort -u
}

@test "fio-json has every path fio 3.33's own JSON has, with its type, and the run's counts" {
	command -v fio >/dev/null || skip "fio is not installed (make deps installs it)"
	# fio itself: two jobs in two groups, each bounded by size=, on a file made here.
	cat > t.fio <<-EOF
	[global]
	ioengine=psync
	filename=$BATS_TEST_TMPDIR/f.dat
	size=1M
	bs=4k
	[r]
	rw=randread
	[w]
	stonewall
	rw=randrw
	rwmixwrite=50
	EOF
	fio --output-format=json t.fio > fio.json
	# iorate, the same workload: 1 MiB of I/O each.
	iorate run --fio-json --engine sync -c 1M --io-size 1M --db h.db --job-name r i.dat \
		--job-name w --stonewall -w 50 i.dat
	[ "$status" -eq 0 ]
	echo "$output" > ours.json
	# disk_util lists the disk under the file for both.
	json_paths fio.json > fio.paths
	json_paths ours.json > ours.paths
	missing=$(comm -23 fio.paths ours.paths)
	[ -z "$missing" ] || { echo "paths of fio's that iorate lacks or types differently:"
		echo "$missing"; false; }
	jq -e '."fio version" == "fio-3.33" and (.jobs | length) == 2' ours.json
	jq -e --slurpfile f fio.json '[.disk_util[].name] == [$f[0].disk_util[].name]' ours.json
	jq -e '[.jobs[].groupid] == [0, 1] and [.jobs[].jobname] == ["r", "w"]' ours.json
	jq -e '.jobs[1]."job options".rw == "randrw" and .jobs[1]."job options".rwmixwrite == "50"' \
		ours.json
	jq -e '.jobs[0].read.clat_ns.percentile."99.000000" >= .jobs[0].read.clat_ns.min' ours.json
	# The same 1 MiB as fio moved, in the same number of 4 KiB I/Os.
	jq -e --slurpfile f fio.json '.jobs[0].read.io_bytes == $f[0].jobs[0].read.io_bytes and
		.jobs[0].read.total_ios == $f[0].jobs[0].read.total_ios' ours.json
	jq -e --slurpfile f fio.json '(.jobs[1].read.io_bytes + .jobs[1].write.io_bytes) ==
		($f[0].jobs[1].read.io_bytes + $f[0].jobs[1].write.io_bytes)' ours.json
	# And they are the run's own counts, as its own JSON (kept by --db) has them.
	"$IORATE" history show --db h.db 1 --json > own.json
	for j in 0 1; do
		for d in read write; do
			jq -e --slurpfile o own.json ".jobs[$j].$d.io_bytes ==
				\$o[0].jobs[$j].total.$d.bytes and .jobs[$j].$d.total_ios ==
				\$o[0].jobs[$j].total.$d.ios and .jobs[$j].$d.clat_ns.N ==
				\$o[0].jobs[$j].total.$d.lat_n" ours.json
		done
	done
}

@test "fio-json of one job: its group, its options, and no work when it is refused" {
	iorate run --engine null -d 0.3 -b 8k -w 30 -o 4 --engine null --format fio-json x
	[ "$status" -eq 0 ]
	json_ok '(.jobs | length) == 1 and .jobs[0].jobname == "job1" and .jobs[0].groupid == 0'
	json_ok '.jobs[0]."job options" | .bs == "8192" and .rw == "randrw" and .iodepth == "4"'
	json_ok '.jobs[0]."job options".ioengine == "null" and ."global options".bs == "8192"'
	json_ok '.jobs[0].trim.io_bytes == 0 and .jobs[0].read.slat_ns.N == 0 and .disk_util == []'
	json_ok '.jobs[0].read.iops > 0 and .jobs[0].read.bw == (.jobs[0].read.bw_bytes / 1024 | floor)'
	json_ok '[.jobs[0].latency_us[]] | add > 0'
	refused "iorate: --format fio-json: 'iorate sweep' prints text, json or csv" \
		sweep threads=1,2 --format fio-json --engine null -d 1 x
	refused "iorate: --fio-json and --json cannot be used together" \
		run --fio-json --json --engine null -d 1 x
}
