#!/usr/bin/env bats
# End-to-end checks of model, plan, explain, cost and catalog. Needs $IORATE.

bats_require_minimum_version 1.5.0
load helpers

# The user catalog directory is the test's own: nothing imported or downloaded elsewhere counts.
setup() {
	cd "$BATS_TEST_TMPDIR"
	FIX="$BATS_TEST_DIRNAME/fixtures"
	TMP="$BATS_TEST_TMPDIR"
	export XDG_DATA_HOME="$TMP/data"
}

jq_py() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

@test "model: DS2 + 2xP30 uncached is held by the VM at 6,400 IOPS" {
	run "$IORATE" model --vm DS2 --disk 2xP30 --host-cache none --depth 32 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "d['binding']")" = vm_uncached_iops ]
	[ "$(echo "$output" | jq_py "round(d['predicted']['iops'])")" = 6400 ]
}

@test "model: A4 + 16 standard disks at 64 KiB flattens at the observed 286 MiB/s" {
	run "$IORATE" model --vm A4 --disk 16xstandard --bs 64k -t 8 -o 8 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "round(d['predicted']['mibps'])")" = 286 ]
}

@test "model: P20 timeline bursts for 30 minutes" {
	run "$IORATE" model --vm D8s_v5 --disk P20 --depth 32 --timeline 2h --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "round(d['timeline']['phases'][0]['end_s'])")" = 1800 ]
}

@test "model: unknown names suggest close ones, exit 2" {
	run "$IORATE" model --vm DS3x --disk P30
	[ "$status" -eq 2 ]
	[[ "$output" == *"did you mean DS3"* ]]
	run "$IORATE" model --vm A4 --disk P30
	[ "$status" -eq 2 ]
	[[ "$output" == *"premium"* ]]
}

@test "model --help lists options with examples" {
	run "$IORATE" model --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--disk 2xP30"* ]]
}

@test "model --help and the man page name the formats model prints, not run's" {
	run "$IORATE" model --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"prints; here: text, json"$'\n'* ]]
	"$IORATE" help --man | grep -q 'prints; here: text, json\. Example'
	run "$IORATE" model --vm DS2 --disk P30 --format csv
	[ "$status" -eq 2 ]
}

@test "catalog: a malformed --catalog is refused with file and field" {
	printf '{"catalog": "azure-2015", "vms": [{"name": "X1", "iosp": 1, "source": "s", "date": "d"}]}' > "$TMP/bad.json"
	run "$IORATE" catalog list --catalog "$TMP/bad.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad.json:1: vms[0] 'X1': unknown field 'iosp'"* ]]
	printf '{"catalog": \n' > "$TMP/syntax.json"
	run "$IORATE" model --vm DS2 --disk P30 --catalog "$TMP/syntax.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"syntax.json:2:"* ]]
}

@test "cost upload reproduces the StorSimple calculator" {
	run "$IORATE" cost upload --data 750GiB --write-price 0.10 --gb-price 0.0152 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "d['transactions']")" = 1536000 ]
	[ "$(echo "$output" | jq_py "round(d['total'], 2)")" = 26.76 ]
}

@test "cost config and plan bill the operations of Standard SSD and HDD at the I/O rate" {
	# 4 x E10 at 2,000 IOPS for 730 h: 5,256,000,000 operations at 0.002 per 10,000.
	run "$IORATE" cost config --vm D4s_v5 --disk 4xE10 --iops 2000 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.lines[2].what')" = "4 x E10: 2000 IOPS x 730 h of operations x 0.002 per 10k" ]
	[ "$(echo "$output" | jq -r '.lines[2].month_cents')" = 105120 ]
	# Without a rate the price is named, not counted.
	run "$IORATE" cost config --vm D4s_v5 --disk 4xE10
	[ "$status" -eq 0 ]
	[[ "$output" == *"4 x E10: operations at 0.002 per 10k, not counted (no I/O rate)"* ]]
	run "$IORATE" cost config --vm D4s_v5 --disk 4xE10 --iops 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"--iops: '0' is not a number"* ]]
	# An S6 is billed at most 858,000 operations an hour.
	run "$IORATE" cost config --vm D4s_v5 --disk 4xS6 --iops 4000
	[[ "$output" == *"4 x S6: 4000 IOPS x 730 h of operations (capped) x 0.0005 per 10k"*"125.27 USD"* ]]
	# A Standard SSD counts an I/O above 256 KiB as several, a Standard HDD one above 16 KiB:
	# 1 MiB is 4 operations on an E10 (2,000 x 4 x 3,600 x 730 / 10,000 x 0.002 = 4,204.80)
	# and 64 KiB is 4 on an S30 (500 x 4 x 3,600 x 730 / 10,000 x 0.0005 = 262.80).
	run "$IORATE" cost config --vm D4s_v5 --disk E10 --iops 2000 --bs 1m --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.lines[2].what')" = "1 x E10: 2000 IOPS (4 ops each) x 730 h of operations x 0.002 per 10k" ]
	[ "$(echo "$output" | jq -r '.lines[2].month_cents')" = 420480 ]
	run "$IORATE" cost config --vm D4s_v5 --disk E10 --iops 2000 --bs 256k --json
	[ "$(echo "$output" | jq -r '.lines[2].month_cents')" = 105120 ]
	run "$IORATE" cost config --vm D4s_v5 --disk S30 --iops 500 --bs 64k --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.lines[2].what')" = "1 x S30: 500 IOPS (4 ops each) x 730 h of operations x 0.0005 per 10k" ]
	[ "$(echo "$output" | jq -r '.lines[2].month_cents')" = 26280 ]
	# So 20,000 IOPS on Azure is not 40 Standard HDDs at their capacity price.
	# (Without their operations, an S6 volume is among the five cheapest.)
	run "$IORATE" plan --iops 20000 --capacity 2TiB --provider azure --top 5 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq length)" -eq 5 ]
	echo "$output" | jq -e '[.[] | .config.disks[] | .type | test("^[SE][0-9]")] | any | not'
}

@test "plan: impossible target names the requirement" {
	run "$IORATE" plan --iops 90000000
	[ "$status" -eq 1 ]
	[[ "$output" == *"--iops"* ]]
}

# Every provider's built-in prices price a realistic target: the top answer has a total from the
# catalog (a source on every line, no command-line price) and the answers are sorted by cost.
plan_priced() {
	run "$IORATE" plan --iops 20000 --capacity 2TiB --provider "$1" --top 3 --json
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d, 'no answer'
assert all(o['config']['catalog'] == '$1' for o in d), [o['config']['catalog'] for o in d]
c = d[0]['cost']
assert c['currency'] == 'USD' and c['total_month'] > 0, c
assert c['lines'] and all(l['source'] != 'given on the command line' for l in c['lines']), c
assert abs(sum(l['month'] for l in c['lines']) - c['total_month']) < 0.01, c
t = [o['cost']['total_month'] for o in d]
assert t == sorted(t), t
assert all(o['predicted']['iops'] >= 20000 * 0.9999 for o in d)
"
}

@test "plan: azure answers are priced and ranked by cost" {
	plan_priced azure
}

@test "plan: aws answers are priced and ranked by cost" {
	plan_priced aws
}

@test "plan: gcp answers are priced and ranked by cost" {
	plan_priced gcp
}

@test "plan: configurations without a price are skipped and counted" {
	run "$IORATE" plan --iops 20000 --capacity 2TiB --provider azure --top 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"USD a month"* ]]
	[[ "$output" == *"more configurations meet the target but have no price"* ]]
}

@test "plan: unpriced answers say so without contradiction and name the command to fix it" {
	run "$IORATE" plan --iops 20k --provider azure --region northeurope --currency GBP
	[ "$status" -eq 1 ]
	[[ "$output" == "iorate: plan: no priced configuration meets the target: "[0-9]*" configurations meet it, but none has a price for region 'northeurope' in GBP; download them with 'iorate catalog prices --provider azure --region northeurope --currency GBP', or give prices with --catalog FILE"* ]]
	[[ "$output" != *"no configuration meets"* ]]
	run "$IORATE" plan --iops 20k --provider azure --region northeuorpe --currency GPB
	[ "$status" -eq 1 ]
	[[ "$output" == *"'northeuorpe' is no region of Azure's price list (did you mean northeurope?)"* ]]
	[[ "$output" == *"'GPB' is no currency of Azure's price list (did you mean GBP?)"* ]]
	# A priced answer says when its currency is a default, and how to ask another.
	run "$IORATE" plan --iops 20k --provider aws --top 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"in USD (that of the first price in scope; --currency asks another)"* ]]
	run "$IORATE" plan --iops 20k --provider aws --top 1 --currency USD
	[[ "$output" != *"--currency asks another"* ]]
}

@test "explain: which cache served a run above every cap follows from the run's own settings" {
	# Buffered reads above every limit and no device counts: whether a page cache served
	# them is unknown, never inferred from the working set.
	run "$IORATE" explain "$FIX/run-cached.json" --vm DS2 --disk P30
	[ "$status" -eq 0 ]
	line_ok "^sits:       above every published limit$"
	line_ok "^device:     unknown: no device counts$"
	[[ "$output" == *"whether it served the I/O is unknown: no device counts"* ]]
	[[ "$output" != *"served from memory"* ]]
	[ "$(echo "$output" | grep -c "host-cache")" -eq 0 ]
	run "$IORATE" explain "$FIX/run-cached.json" --vm DS2 --disk P30 --json
	[ "$(echo "$output" | jq_py "d['origin']")" = above_limits ]
	run "$IORATE" explain "$FIX/run-cached.json" --vm DS2 --disk P30:cache=readonly
	line_ok "^sits:       above what any host-cache hit ratio allows$"
	# The same figures with direct I/O: never blamed on a page cache, in words or in JSON.
	jq '.params.cache = "direct"' "$FIX/run-cached.json" > "$TMP/direct.json"
	run "$IORATE" explain "$TMP/direct.json" --vm DS2 --disk P30
	[[ "$output" == *"used direct I/O (O_DIRECT), so no page cache served it"* ]]
	[[ "$output" != *"a page cache served"* ]]
	line_ok "^sits:       above every published limit$"
	run "$IORATE" explain "$TMP/direct.json" --vm DS2 --disk P30:cache=readonly --json
	[ "$(echo "$output" | jq_py "d['origin']")" = above_limits ]
	# A null-engine run (direct, no I/O at all) is above the limits, not served by a cache.
	"$IORATE" run --engine null -d 0.2 --json x > "$TMP/null.json"
	[ "$(jq -r '.params.cache' "$TMP/null.json")" = direct ]
	run "$IORATE" explain "$TMP/null.json" --vm DS2 --disk P10 --json
	[ "$(echo "$output" | jq_py "d['origin']")" = above_limits ]
	# Only writes: nothing is said of reads.
	jq '.params.write = 100' "$FIX/run-cached.json" > "$TMP/writes.json"
	run "$IORATE" explain "$TMP/writes.json" --vm DS2 --disk P30
	[[ "$output" != *"reads"* ]]
	# At the disk's limit, named, with its window and the tolerance.
	run "$IORATE" explain "$FIX/run-ds2-p30.json" --vm DS2 --disk P30 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "d['at_limit']")" = disk_iops ]
	[ "$(echo "$output" | jq_py "d['origin']")" = at_limit ]
	run "$IORATE" explain "$FIX/run-ds2-p30.json" --vm DS2 --disk P30
	line_ok "^sits at:    disk_iops, sustained: 5,000 IOPS \(within 15\.0%\)$"
}

@test "explain: the page-cache verdict follows the run's device counts, never a guess" {
	# Buffered reads whose diskstats show 98% of the I/Os and bytes reaching the device:
	# the device served them, whatever the working set and RAM.
	run "$IORATE" explain "$FIX/explain-buffered-98.json" --vm DS2 --disk P30
	[ "$status" -eq 0 ]
	line_ok "^device:     reads: 98\.0% of the I/Os and 98\.0% of the bytes reached sdc$"
	[[ "$output" != *"served from memory"* ]]
	[[ "$output" != *"page cache served"* ]]
	[[ "$output" == *"the device counts show the I/O reached the device"* ]]
	run "$IORATE" explain "$FIX/explain-buffered-98.json" --vm DS2 --disk P30 --json
	[ "$(echo "$output" | jq_py "d['origin']")" = above_limits ]
	# 2% reaching the device: the counts show a page cache served it.
	run "$IORATE" explain "$FIX/explain-buffered-2.json" --vm DS2 --disk P30
	line_ok "^sits:       above every published limit: a page cache served it$"
	line_ok "^device:     reads: 2\.0% of the I/Os and 2\.0% of the bytes reached sdc$"
	run "$IORATE" explain "$FIX/explain-buffered-2.json" --vm DS2 --disk P30 --json
	[ "$(echo "$output" | jq_py "d['origin']")" = page_cache ]
}

@test "explain: burst and sustained figures are separate lines, each with its window" {
	# 60 s of 4 KiB reads on a P10 (500 IOPS, 3,500 for 30 minutes of credit): the run sits
	# at the burst figure, named as the burst, and the sustained figure has its own line.
	run "$IORATE" explain "$FIX/explain-burst.json" --vm azure:D4s_v3 --disk P10
	[ "$status" -eq 0 ]
	line_ok "^sustained:  500 IOPS, 2\.0 MB/s, 64\.00 ms mean latency; bound by disk_iops$"
	line_ok "^burst:      3,500 IOPS, 14\.3 MB/s for up to 1,800 s while credits last; bound by \
disk_iops$"
	line_ok "^sits at:    disk_iops, burst: 3,500 IOPS \(within 15\.0%\)$"
	no_line "model binds at"
	# The JSON says the same: 500 is the sustained figure, 3,500 the burst the run sat at.
	run "$IORATE" explain "$FIX/explain-burst.json" --vm azure:D4s_v3 --disk P10 --json
	[ "$(echo "$output" | jq -r '.predicted.iops')" = 500 ]
	[ "$(echo "$output" | jq -r '.burst.iops')" = 3500 ]
	[ "$(echo "$output" | jq -r '.explanation.window')" = burst ]
	[ "$(echo "$output" |
	     jq -r '.explanation.items[] | select(.code == "at_limit") | .iops')" = 3500 ]
}

@test "explain: every figure of its text is in its JSON with the same value" {
	# Each number of each line but the first (the file and configuration names) must be a
	# figure of the JSON's items, as the text prints it.
	"$IORATE" run --engine null -d 0.3 --cap-iops 1000 --json x > "$TMP/cap.json"
	for args in "$FIX/explain-buffered-98.json --vm DS2 --disk P30" \
		    "$FIX/explain-buffered-2.json --vm DS2 --disk P30:cache=readonly" \
		    "$FIX/explain-burst.json --vm azure:D4s_v3 --disk P10" \
		    "$FIX/run-ds2-p30.json --vm DS2 --disk P30" \
		    "$TMP/cap.json --vm DS2 --disk P10"; do
		# shellcheck disable=SC2086 # the arguments are words
		text=$("$IORATE" explain $args)
		# shellcheck disable=SC2086
		"$IORATE" explain $args --json > "$TMP/x.json"
		# A number starts a word ("DS2" holds none); both sides as %.6g (6.40 is 6.4).
		echo "$text" | tail -n +2 | grep -oE '(^|[^[:alnum:]_.])[0-9][0-9,]*(\.[0-9]+)?' |
			tr -d ', (' | awk '{ printf "%.6g\n", $1 }' | sort -u > "$TMP/text-numbers"
		jq -r '.explanation.items[] | to_entries[] | select(.value | type == "number") |
		       .value' "$TMP/x.json" | awk '{ printf "%.6g\n", $1 }' |
			sort -u > "$TMP/json-numbers"
		[ -s "$TMP/text-numbers" ]
		while read -r n; do
			grep -qxF -- "$n" "$TMP/json-numbers" || {
				echo "$args: $n is in the text, not in the JSON's items" >&2
				return 1
			}
		done < "$TMP/text-numbers"
	done
}

@test "explain: a run under emulated caps measured the emulation, and sits at its cap" {
	# Four threads keep 500 IOPS in reach even when the machine is busy (QD1 would need
	# every I/O under 2 ms).
	"$IORATE" run --engine sync -d 1 -t 4 --size 16M --emulate azure-2015:DS2+P10 --json \
		"$BATS_TEST_TMPDIR/e.dat" > "$BATS_TEST_TMPDIR/e.json"
	[ "$(jq -r '.params.emulate' "$BATS_TEST_TMPDIR/e.json")" = "azure-2015:DS2+P10" ]
	run "$IORATE" explain "$BATS_TEST_TMPDIR/e.json" --vm DS2 --disk P10
	[ "$status" -eq 0 ]
	[[ "$output" == *"ran under emulated caps from azure-2015:DS2+P10: it measured the emulation"* ]]
	[[ "$output" == *"sits at the emulated disk_iops cap (500 IOPS)"* ]]
	line_ok "^sits at:    disk_iops, sustained: 500 IOPS \(within 15\.0%\)$"
	# Above the model, at the disk cap the run was emulated with: that is where it sits.
	"$IORATE" run --engine null -d 0.3 --cap-iops 1000 --json x > "$TMP/cap.json"
	run "$IORATE" explain "$TMP/cap.json" --vm DS2 --disk P10
	[ "$status" -eq 0 ]
	line_ok "^sits:       at the emulated disk_iops cap \(1,000 IOPS, within 15\.0%\)$"
	no_line "host-cache|page cache"
	run "$IORATE" explain "$TMP/cap.json" --vm DS2 --disk P10 --json
	[ "$(echo "$output" | jq_py "d['origin']")" = emulated ]
	[ "$(echo "$output" | jq_py "d['emulated_cap']['name']")" = disk_iops ]
	[ "$(echo "$output" | jq_py "round(d['emulated_cap']['value'])")" = 1000 ]
	# ...and at an emulated VM cap, in MB/s.
	"$IORATE" run --engine null -d 0.3 -b 64k --vm-cap-mbps 64 --json x > "$TMP/vmcap.json"
	run "$IORATE" explain "$TMP/vmcap.json" --vm DS2 --disk P10
	line_ok "^sits:       at the emulated vm_mbps cap \(64\.0 MB/s, within 15\.0%\)$"
	# The null engine moves nothing: explain says so instead of blaming a cache.
	"$IORATE" run --engine null -d 0.2 --json x > "$BATS_TEST_TMPDIR/n.json"
	run "$IORATE" explain "$BATS_TEST_TMPDIR/n.json" --vm DS2 --disk P10
	[[ "$output" == *"the null engine: no I/O reached any device"* ]]
	[[ "$output" != *"cache"*"served"* ]]
}

@test "explain: at an emulated disk's burst, the burst is named, not a VM cap near it" {
	# A disk of 500 IOPS bursting to 3,500 under a VM cap of 4,000: within 15% of both,
	# the run waited on the disk's burst bucket, and the result says so.
	"$IORATE" run --engine null -d 1 -t 4 --cap-iops 500 --burst-iops 3500 \
		--burst-seconds 1800 --vm-cap-iops 4000 --json x > "$TMP/burst.json"
	[ "$(jq -r '.throttle.held_s.disk_iops_burst > .throttle.held_s.vm_iops' \
		"$TMP/burst.json")" = true ]
	run "$IORATE" explain "$TMP/burst.json" --vm azure:D4s_v3 --disk P10
	[ "$status" -eq 0 ]
	line_ok "^sits:       at the emulated disk_iops_burst cap \(3,500 IOPS, within 15\.0%\)$"
	line_ok "^emulated:   disk caps over 1 target\(s\): sustained 500 IOPS, burst 3,500 IOPS, \
burst window 1,800 s$"
	line_ok "^held:       the I/Os waited longest for disk_iops_burst: "
	no_line "vm_iops cap"
	# A result written before the waits were recorded: the nearest cap, the burst again.
	jq 'del(.throttle)' "$TMP/burst.json" > "$TMP/old.json"
	run "$IORATE" explain "$TMP/old.json" --vm azure:D4s_v3 --disk P10 --json
	[ "$(echo "$output" | jq -r '.emulated_cap.name')" = disk_iops_burst ]
}

@test "explain: a result with a depth iorate cannot have run is refused (exit 2)" {
	"$IORATE" run --engine null -d 0.2 --json x | jq '.params.depth = 5000' \
		> "$BATS_TEST_TMPDIR/deep.json"
	run --separate-stderr "$IORATE" explain "$BATS_TEST_TMPDIR/deep.json" --vm DS2 --disk P30
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not a result of 'iorate run --json'"*"depth 4096"* ]]
}

@test "model commands: a bad option or a missing value is one line, by iorate, naming it (exit 2)" {
	for cmd in model plan explain catalog; do
		run --separate-stderr "$IORATE" "$cmd" --nope
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[ "$stderr" = "iorate: --nope: unknown option (see 'iorate $cmd --help')" ]
	done
	run --separate-stderr "$IORATE" model --vm
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = "iorate: --vm: needs an argument (see 'iorate model --help')" ]
}

# plan and model take --bs and --write from the shared options: the same words, the same refusal.
@test "model and plan refuse a bad --bs or --write with the same message (exit 2)" {
	for bad in "--write 150" "-w 150" "--bs 0" "--bs 4q" "-b x"; do
		run --separate-stderr "$IORATE" model --vm DS2 --disk P30 $bad
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		local model_err="$stderr"
		run --separate-stderr "$IORATE" plan --iops 1000 $bad
		[ "$status" -eq 2 ]
		[ "$stderr" = "$model_err" ]
	done
	[[ "$stderr" == "iorate: --bs: 'x' is not a size"* ]]
	run --separate-stderr "$IORATE" plan --iops 1000 --write 150
	[ "$stderr" = "iorate: --write: '150' is not a percentage from 0 to 100" ]
}

@test "catalog: options may come before or after the words, abbreviated or not" {
	run "$IORATE" catalog --cat "$FIX/../../../data/catalog/aws.json" list
	[ "$status" -eq 0 ]
	run "$IORATE" catalog show --json azure-2015:DS14
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r .catalog)" = azure-2015 ]
}

@test "catalog list: GCP VMs show their caps by disk type, in the unit of their source" {
	run "$IORATE" catalog list gcp
	[ "$status" -eq 0 ]
	[[ "$output" == *"n2-standard-8"*"by disk type: pd-balanced 15000 IOPS 800 MiB/s; pd-ssd 15000 IOPS 800 MiB/s"* ]]
	[[ "$output" != *"0 IOPS      0 MB/s"* ]]
	run "$IORATE" catalog list azure-2015
	[[ "$output" == *"DS2 "*"uncached 6400 IOPS 64 MiB/s"* ]]
	[[ "$output" == *"G2 "*"4 vCPU    8 disks"* ]]
}

@test "model: each disk group its own host cache, --read-hit, and the assumption printed" {
	run "$IORATE" model --vm D8s_v3 --disk 3xP30:cache=readwrite --disk 2xP30 --read-hit 100 \
		--depth 32 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "round(d['predicted']['iops'])")" = 25000 ]
	[ "$(echo "$output" | jq_py "d['config']['disks'][0]['cache'] + ' ' + d['config']['disks'][1]['cache']")" = "readwrite none" ]
	[ "$(echo "$output" | jq_py "round(d['config']['read_hit_pct'])")" = 100 ]
	run "$IORATE" model --vm D8s_v3 --disk 3xP30 --host-cache readonly --depth 32
	[ "$status" -eq 0 ]
	[[ "$output" == *"assumes:       0% of reads served by the host cache (no working set given: a cold cache)"* ]]
	[[ "$output" == *"bound by:      vm_uncached_iops"* ]]
	run "$IORATE" model --vm L8s_v3 --disk P30:cache=readonly
	[ "$status" -eq 2 ]
	[[ "$output" == *"--disk P30:cache=readonly: L8s_v3 does not support host caching"* ]]
}

@test "model: mbps= is read in the provider's unit, as --help says" {
	run "$IORATE" model --vm m5.4xlarge --disk gp3:1TiB:mbps=500 --bs 1m --depth 32 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "round(d['predicted']['mibps'])")" = 500 ]
	run "$IORATE" model --help
	[[ "$output" == *"MiB/s for AWS"* ]]
	run "$IORATE" model --vm m5.4xlarge --disk gp3:18GiB:iops=12000
	[ "$status" -eq 2 ]
	[[ "$output" == *"12000 IOPS need at least 24 GiB of gp3"* ]]
}

@test "plan: free per-volume baselines win, and the answer states its assumptions and dates" {
	run "$IORATE" plan --mbps 500 --bs 1m --provider aws --top 2 --json
	[ "$status" -eq 0 ]
	# c7g.4xlarge (625 MB/s baseline, 0.58 an hour) + 4 x gp3 of 1 GiB at their free 125 MiB/s.
	[ "$(echo "$output" | jq_py "round(d[0]['cost']['total_month'], 2)")" = 423.72 ]
	[ "$(echo "$output" | jq_py "d[0]['config']['disks'][0]['count']")" = 4 ]
	[ "$(echo "$output" | jq_py "all(l['date'] for l in d[0]['cost']['lines'])")" = True ]
	run "$IORATE" plan --iops 30000 --provider azure --top 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"assumes: no host-cache hits"* ]]
	[[ "$output" == *"bound by disk_iops"* ]]
	[[ "$output" != *"cache readonly"* ]]
}

@test "catalog show: io1's throughput tiers in MiB/s, a flag without a unit" {
	run "$IORATE" catalog show aws:io1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -Eq '^  mbps_by_iops from 32001 IOPS +0\.015625  MiB/s per IOPS +\[1\]$'
	printf '%s\n' "$output" | grep -Eq '^  iops_max_without_nitro +32000  IOPS +\[1\]$'
	printf '%s\n' "$output" | grep -Eq '^  throughput_follows_iops +yes +\[1\]$'
}

@test "model --mark: iorate mark's rows, predicted, its test file the working set" {
	run "$IORATE" model --mark --vm azure-2015:DS2 --disk P10:cache=readonly
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "iorate model --mark "*": CrystalDiskMark's tests, predicted" ]]
	[ "${lines[2]}" = "${lines[0]}" ]
	[ "${lines[3]}" = "* MB/s = 1,000,000 bytes/s, as CrystalDiskMark counts" ]
	[ "${lines[6]}" = "[Read]" ]
	[ "${lines[7]}" = "  SEQ    1MiB (Q=  8, T= 1):    67.109 MB/s [     64.0 IOPS] <125000.00 us>" ]
	[ "${lines[9]}" = "  RND    4KiB (Q= 32, T= 1):     2.048 MB/s [    500.0 IOPS] < 64000.00 us>" ]
	[ "${lines[11]}" = "[Write]" ]
	line_ok "^   Test: 1GiB working set$"
	line_ok "^  Cache: 100% of reads served by the host cache \(working set 1 GiB fits the 86 GiB host cache: reads hit after the first pass\)$"
	# The same rows as a measured table, in the same order.
	local predicted
	predicted=$(printf '%s\n' "$output" | grep -E '^(\[|  (SEQ|RND) )' | cut -c1-28)
	run "$IORATE" mark --runs 1 --measure 0.1s --pause 0 --no-prepare --size 1M "$TMP"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -E '^(\[|  (SEQ|RND) )' | cut -c1-28)" = "$predicted" ]
	run "$IORATE" model --mark --profile peak --vm azure-2015:DS2 --disk P10:cache=readonly --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '[.tests[].name] | join(",")')" = "SEQ1M Q8T1,RND4K Q32T1" ]
	[ "$(echo "$output" | jq -r '.tests[0].read.binding')" = vm_cached_mbps ]
	[ "$(echo "$output" | jq -r '.tests[0].read.read_hit_pct')" = 100 ]
	# A working set larger than the cache: each test's share, a scan none.
	run "$IORATE" model --mark --vm azure-2015:DS2 --disk P10:cache=readonly --working-set 200GiB
	line_ok "^  Cache: RND4K Q1T1: 43% of reads \(working set 200 GiB is larger than the 86 GiB host cache"
	line_ok "^  Cache: SEQ1M Q1T1: 0% of reads \(working set 200 GiB, read in order, is larger"
	# Its tests set the workload; --profile and --preset are --mark's.
	run --separate-stderr "$IORATE" model --mark -t 4 --vm DS2 --disk P10
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: model: --threads: not with --mark, whose tests set the workload" ]
	run --separate-stderr "$IORATE" model --preset nvme --vm DS2 --disk P10
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: model: --preset: only with --mark" ]
	# The same words as iorate mark's: a preset given as a profile is named as one.
	run --separate-stderr "$IORATE" model --mark --profile nvme --vm DS2 --disk P10
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --profile: 'nvme' is a --preset, not a profile (default, peak, real, demo)" ]
}

@test "model, plan: --working-set, --cache-state and --distribution refuse bad values (exit 2)" {
	for cmd in "model --vm DS2 --disk P30" "plan --iops 1000"; do
		run --separate-stderr "$IORATE" $cmd --working-set 5x
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == "iorate: --working-set: '5x' is not a size"* ]]
		run --separate-stderr "$IORATE" $cmd --working-set 0
		[ "$status" -eq 2 ]
		[ "$stderr" = "iorate: --working-set: '0' is below 1B" ]
		run --separate-stderr "$IORATE" $cmd --cache-state lukewarm
		[ "$status" -eq 2 ]
		[ "$stderr" = "iorate: --cache-state: 'lukewarm' is not a cache state (warm, cold)" ]
		run --separate-stderr "$IORATE" $cmd --distribution pareto:2
		[ "$status" -eq 2 ]
		[ "$stderr" = "iorate: --distribution: 'pareto:2' has a pareto h that is not between 0 and 1" ]
	done
	run --separate-stderr "$IORATE" model --vm DS2 --disk P30 --working-set
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --working-set: needs an argument (see 'iorate model --help')" ]
}

@test "model: the working set gives the host cache's hits, --read-hit wins, no cache size is unknown" {
	run "$IORATE" model --vm D8s_v3 --disk 3xP30:cache=readonly -t 8 --working-set 10GiB --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.host_cache.basis')" = fits ]
	[ "$(echo "$output" | jq -r '.config.read_hit_pct')" = 100 ]
	[ "$(echo "$output" | jq -r '.binding')" = vm_cached_iops ]
	run "$IORATE" model --vm D8s_v3 --disk 3xP30:cache=readonly -t 8 --working-set 10GiB --cache-state cold
	line_ok "^assumes:       0% of reads served by the host cache \(the first pass over the 10 GiB working set: a cold cache, every read misses\)"
	run "$IORATE" model --vm D8s_v3 --disk 3xP30:cache=readonly --working-set 10GiB --read-hit 30 --json
	[ "$(echo "$output" | jq -r '.host_cache.basis + " " + (.host_cache.read_hit_pct | tostring)')" = "given 30" ]
	# A VM that publishes no host-cache size: the ratio is unknown, and none is assumed.
	jq '.vms |= map(select(.name == "D8s_v3") | .name = "Nocache" | .aliases = [] | del(.cache_gib))
	    | {catalog, provider, vms: .vms}' "$BATS_TEST_DIRNAME/../../data/catalog/azure.json" > "$TMP/nocache.json"
	run "$IORATE" model --catalog "$TMP/nocache.json" --vm Nocache --disk 3xP30:cache=readonly \
		--working-set 10GiB --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.host_cache.basis + " " + (.host_cache.read_hit_pct | tostring)')" = "unknown null" ]
	[[ "$(echo "$output" | jq -r '.host_cache.why')" == "unknown: Nocache publishes no host-cache size"* ]]
}

@test "model: gp3 and io1 outside AWS's range are refused naming it and its page (exit 2)" {
	run "$IORATE" model --vm m5.large --disk gp3:100GiB:iops=2000
	[ "$status" -eq 2 ]
	[[ "$output" == *"gp3 takes 3,000 to 16,000 IOPS (Amazon EBS volume types), not 2000"* ]]
	[ "${#lines[@]}" -eq 1 ]
	run "$IORATE" model --vm m5.large --disk gp3:100GiB:mbps=1001
	[ "$status" -eq 2 ]
	[[ "$output" == *"gp3 takes 125 to 1,000 MiB/s"* ]]
	run "$IORATE" model --vm m5.large --disk io1:100GiB:iops=99
	[ "$status" -eq 2 ]
	[[ "$output" == *"io1 takes 100 to 64,000 IOPS (Provisioned IOPS SSD volumes)"* ]]
	run "$IORATE" model --vm m5.large --disk gp3:100GiB:iops=3000
	[ "$status" -eq 0 ]
}

@test "model, catalog: AWS data disks are the volume limit less the root volume" {
	run "$IORATE" model --vm m5.large --disk 27xgp3:100GiB
	[ "$status" -eq 2 ]
	[[ "$output" == *"27 data disks, but m5.large takes at most 26"* ]]
	run "$IORATE" model --vm m5.large --disk 26xgp3:100GiB
	[ "$status" -eq 0 ]
	run "$IORATE" catalog show aws:m5.large
	[ "$status" -eq 0 ]
	# The limit cites its own page, not the EBS-optimized table.
	[[ "$output" =~ max_disks\ +26\ +disks\ +\[2\] ]]
	[[ "$output" == *"Amazon EBS volume limits for Amazon EC2 instances"* ]]
}

@test "model: Premium SSD v2 meets its own VM column; --controller picks the Ebsv5 table" {
	# Dsv6 sizes series (dsv6-series.md): D16s_v6, Premium SSD v2 and Ultra Disk, 33,333 IOPS.
	run "$IORATE" model --vm D16s_v6 --disk 2xpv2:64GiB:iops=20000 --depth 32
	[ "$status" -eq 0 ]
	[[ "$output" == *"predicted:     33333 IOPS"* ]]
	[[ "$output" == *"bound by:      vm_uncached_iops (D16s_v6 Premium SSD v2 and Ultra Disk: 33333 IOPS)"* ]]
	# Ebdsv5 and Ebsv5 series (ebdsv5-ebsv5-series.md): E16bs_v5, 48,400 SCSI, 66,000 NVMe.
	run "$IORATE" model --vm E16bs_v5 --disk 10xP50 -t 8 -o 64 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "round(d['predicted']['iops'])")" = 48400 ]
	[ "$(echo "$output" | jq_py "d['config']['controller']")" = scsi ]
	run "$IORATE" model --vm E16bs_v5 --disk 10xP50 --controller nvme -t 8 -o 64
	[ "$status" -eq 0 ]
	[[ "$output" == *"configuration: E16bs_v5 over NVMe + 10 x P50"* ]]
	[[ "$output" == *"predicted:     66000 IOPS"* ]]
	run "$IORATE" model --vm D16s_v6 --disk P30 --controller nvme
	[ "$status" -eq 2 ]
	[[ "$output" == "iorate: --controller: D16s_v6 publishes no caps by disk controller"* ]]
	run "$IORATE" model --vm E16bs_v5 --disk P30 --controller ide
	[ "$status" -eq 2 ]
	[[ "$output" == *"--controller"*"ide"* ]]
}
