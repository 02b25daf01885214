#!/usr/bin/env bats
# End-to-end checks of model, plan, explain, cost and catalog. Needs $IORATE.

bats_require_minimum_version 1.5.0

setup() { FIX="$BATS_TEST_DIRNAME/fixtures"; TMP="$(mktemp -d)"; }
teardown() { rm -rf "$TMP"; }

jq_py() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

@test "model: DS2 + 2xP30 uncached is held by the VM at 6,400 IOPS" {
	run "$IORATE" model --vm DS2 --disk 2xP30 --cache none --json
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
	run "$IORATE" model --vm D8s_v5 --disk P20 --duration 2h --json
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

@test "explain: flags caching when measured is far above every cap" {
	run "$IORATE" explain "$FIX/run-cached.json" --vm DS2 --disk P30
	[ "$status" -eq 0 ]
	[[ "$output" == *"caching is inflating"* ]]
	run "$IORATE" explain "$FIX/run-ds2-p30.json" --vm DS2 --disk P30 --json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq_py "d['at_limit']")" = disk_iops ]
}

@test "model commands: a bad option or a missing value is one line, by iorate, naming it (exit 2)" {
	for cmd in model plan explain catalog; do
		run --separate-stderr "$IORATE" "$cmd" --nope
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == "iorate: $cmd: unknown option '--nope'"* ]]
	done
	run --separate-stderr "$IORATE" model --vm
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "iorate: model: --vm needs a value"* ]]
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
	[ "$stderr" = "iorate: --write: '150' is not a percentage (0 to 100)" ]
}

@test "catalog: options may come before or after the words, abbreviated or not" {
	run "$IORATE" catalog --cat "$FIX/../../../data/catalog/aws.json" list
	[ "$status" -eq 0 ]
	run "$IORATE" catalog show --json azure-2015:DS14
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r .catalog)" = azure-2015 ]
}
