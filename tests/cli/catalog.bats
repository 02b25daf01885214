#!/usr/bin/env bats
# catalog import (what the providers' CLIs print) and catalog prices (their public price lists,
# served here from recorded answers by a server on 127.0.0.1), then cost and plan on what they
# kept. Needs $IORATE and python3.

bats_require_minimum_version 1.5.0

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	FIX="$BATS_TEST_DIRNAME/fixtures"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
	DIR="$XDG_DATA_HOME/iorate/catalog"
	SERVER_PID=
}

teardown() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
	fi
}

# Starts the recorded price list server; $BASE is its URL, $LOG the requests it answered.
serve() {
	LOG="$BATS_TEST_TMPDIR/requests.log"
	# fd 3 closed: bats waits for it, and the server outlives a test that fails.
	python3 "$FIX/prices/serve.py" "$FIX/prices" "$BATS_TEST_TMPDIR/port" "$LOG" 3>&- &
	SERVER_PID=$!
	for _ in $(seq 100); do
		[ -s "$BATS_TEST_TMPDIR/port" ] && break
		kill -0 "$SERVER_PID" || return 1
		# Polls for the server's start, not a timing assertion.
		sleep 0.1
	done
	BASE="http://127.0.0.1:$(cat "$BATS_TEST_TMPDIR/port")"
}

@test "catalog import: each CLI is recognised; new entries kept, equal ones left, differences shown" {
	iorate catalog import "$FIX/catalog/az-skus.json" "$FIX/catalog/aws-instance-types.json" \
		"$FIX/catalog/gcloud-machine-types.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"az-skus.json: az vm list-skus --output json, 3 VM sizes, 1 disk types (2 entries of other kinds skipped)"* ]]
	[[ "$output" == *"aws-instance-types.json: aws ec2 describe-instance-types --output json, 4 VM sizes"* ]]
	[[ "$output" == *"gcloud-machine-types.json: gcloud compute machine-types list --format=json, 3 VM sizes"* ]]
	# D8s_v5's 304087040 B/s is 304.08704 MB/s, which is the page's 290 read as MiB/s: one
	# figure in two units, compared in one unit and not counted as a difference.
	[[ "$output" == *"differing from it: 1 "* ]]
	[[ "$output" == *"one figure in two units, not a difference (1)"*"
  azure:D8s_v5 uncached_mbps: built-in 290 MB/s, imported 304.087 MB/s = 290 MiB/s"* ]]
	[[ "$output" == *"aws:i4i.xlarge uncached_iops: built-in 5000 IOPS, imported 10000 IOPS"* ]]
	# n4 has no per-VM rules in the catalog (its per-VM Hyperdisk limits were not found):
	# said, not guessed.
	[[ "$output" == *"n4-highcpu-4"*"no per-VM limit applies"* ]]
	[ -f "$DIR/imported-azure.json" ] && [ -f "$DIR/imported-aws.json" ] && [ -f "$DIR/imported-gcp.json" ] || false
	# New ones only: F4s_v2, not D4s_v5 (equal) nor D8s_v5 (differs), nor the ZRS disk.
	jq -e '[.vms[].name] == ["F4s_v2"] and ([.disks[]] | length) == 0' "$DIR/imported-azure.json"
	jq -e '[.vms[].name] | sort == ["c7i.large", "i7ie.large"]' "$DIR/imported-aws.json"
	# Bytes per second and bytes become MB/s and GiB; the temp disk shares the cache's limits.
	jq -e '.vms[0] | .uncached_mbps == 100.663296 and .cache_gib == 100 and .local_gib == 32
		and .local_iops == 16000 and .local_write_mbps == 67.108864 and .units == "MB/s"
		and .aliases == ["Standard_F4s_v2"]' "$DIR/imported-azure.json"
	# The root volume takes one of c7i.large's 28 attachments; bursts last 30 minutes.
	jq -e '.vms[] | select(.name == "c7i.large") | .max_disks == 27 and .burst_iops == 40000
		and .burst_seconds == 1800 and .nitro == true' "$DIR/imported-aws.json"
	# Instance store in GB (10^9 bytes) becomes GiB.
	jq -e '.vms[] | select(.name == "i7ie.large") | .local_gib > 1164.15 and .local_gib < 1164.16
		and .max_disks == 31' "$DIR/imported-aws.json"
	# Shown to six significant digits: a converted figure's tail is arithmetic, not the source's.
	iorate catalog show i7ie.large
	[ "$status" -eq 0 ]
	[[ "$output" =~ local_gib\ +1164\.15\  ]]
	[[ "$output" != *1164.153* ]]
}

@test "catalog import: every command then loads the imported entries, sourced and dated" {
	iorate catalog import "$FIX/catalog/az-skus.json" "$FIX/catalog/gcloud-machine-types.json"
	[ "$status" -eq 0 ]
	iorate catalog show F4s_v2 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e --arg d "$(date -u +%F)" '.catalog == "azure" and .date == $d and
		(.source | startswith("imported from '"$FIX"'/catalog/az-skus.json on " + $d))'
	iorate model --vm F4s_v2 --disk P30 --depth 32 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.binding == "disk_iops" or .binding == "vm_uncached_iops"'
	iorate catalog list azure
	[[ "$output" == *"F4s_v2"*"uncached 6400 IOPS 100.663296 MB/s"* ]]
}

@test "catalog import: a GCP machine type gets its series' caps; list shows them, not zeros" {
	iorate catalog import "$FIX/catalog/gcloud-machine-types.json"
	[ "$status" -eq 0 ]
	iorate catalog list gcp
	[ "$status" -eq 0 ]
	line=$(echo "$output" | grep ' n2-highmem-32 ')
	[[ "$line" == *"32 vCPU  128 disks  by disk type: pd-balanced 50000 IOPS 1200 MiB/s"* ]]
	[[ "$line" == *"pd-ssd 60000 IOPS 1200 MiB/s"* ]]
	[[ "$line" != *" 0 IOPS"* ]]
	line=$(echo "$output" | grep ' n4-highcpu-4 ')
	[[ "$line" == *"no published VM limit"* ]]
	# The model applies them: the VM's pd-ssd cap binds a large volume.
	iorate model --vm n2-highmem-32 --disk pd-ssd:10000GiB -t 8 -o 64 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.binding == "vm_uncached_iops" and .predicted.iops == 60000 and
		(.limits[] | select(.name == "vm_uncached_iops") | .source | contains("N2 VMs"))'
}

@test "catalog import: a second import replaces an entry of the same name, keeps the others" {
	iorate catalog import "$FIX/catalog/aws-instance-types.json"
	[ "$status" -eq 0 ]
	jq '.InstanceTypes |= map(select(.InstanceType == "c7i.large") |
		.VCpuInfo.DefaultVCpus = 4 | .InstanceType = "c7i.large")' \
		"$FIX/catalog/aws-instance-types.json" > again.json
	iorate catalog import again.json --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.new == 1 and .replaced == 1'
	jq -e '[.vms[].name] | sort == ["c7i.large", "i7ie.large"]' "$DIR/imported-aws.json"
	jq -e '.vms[] | select(.name == "c7i.large") | .vcpus == 4' "$DIR/imported-aws.json"
}

@test "catalog import: malformed input names the file and the entry; nothing is written" {
	jq '.[2].capabilities[1].value = "four"' "$FIX/catalog/az-skus.json" > bad.json
	iorate catalog import bad.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bad.json: [2] 'Standard_F4s_v2': capability 'vCPUs': not a non-negative number"* ]]
	[ ! -e "$DIR" ]
	printf '{"InstanceTypes": [{"VCpuInfo": {}}]}' > noname.json
	iorate catalog import noname.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"noname.json: [0]: missing 'InstanceType'"* ]]
	printf '[{"name": "x"}]' > other.json
	iorate catalog import other.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"other.json: not a provider CLI's output: expected what 'az vm list-skus"* ]]
	printf '[\n{"guestCpus": 2,\n' > cut.json
	iorate catalog import cut.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cut.json:3:"* ]]
	printf '[]' > empty.json
	iorate catalog import empty.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"empty.json: an empty list"* ]]
	[ ! -e "$DIR" ]
}

@test "catalog prices: Azure's API, every page followed, kept and used by cost in that currency" {
	serve
	iorate catalog prices --provider azure --region northeurope --currency GBP --endpoint "$BASE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"azure prices for northeurope in GBP"*"in 3 pages"* ]]
	[[ "$output" == *"kept:    4 VM sizes, 3 disk types, 2 blob storage tiers"* ]]
	# The filter and currency asked for, and the second page of VMs from NextPageLink.
	grep -q "currencyCode='GBP'&\$filter=serviceName eq 'Virtual Machines' and armRegionName eq 'northeurope' and priceType eq 'Consumption'" "$LOG"
	grep -q 'skip=1000' "$LOG"
	[[ "$stderr" == *"catalog prices: Virtual Machines: page 2"* ]]
	f="$DIR/prices-azure-northeurope-GBP.json"
	# Linux pay-as-you-go only: not Windows, Spot, dev/test or another region's.
	jq -e '[.prices[] | select(.kind == "vm" and .name == "D4s_v5")] | length == 1 and
		.[0].per_hour == 0.2 and .[0].currency == "GBP"' "$f"
	jq -e '[.prices[] | select(.name == "E4s_v5")][0].per_hour == 0.26' "$f"
	# Premium SSD v2: the paid tiers, per hour times 730.
	jq -e '.prices[] | select(.name == "pv2") | (.per_iops_month * 1e6 | round) == 3650 and
		(.per_mbps_month * 1e6 | round) == 29200' "$f"
	# Reals in the shortest form that reads back exactly: 0.00365, not 0.0036500000000000000.
	(( $(grep -cE '[0-9]\.[0-9]{15,}' "$f") == 0 )) || { grep -E '[0-9]\.[0-9]{15,}' "$f"; false; }
	iorate cost config --vm D4s_v5 --disk P30 --region northeurope --currency GBP --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.total_month == 256 and .currency == "GBP" and .stale_prices == 0
		and ([.lines[].source | startswith("Azure Retail Prices API")] | all)'
	# Standard SSD's operations meter bills every E size: E10's operations are in GBP too,
	# 100 IOPS x 3,600 x 730 / 10,000 x 0.0015 = 39.42.
	jq -e '.prices[] | select(.name == "E10") | .per_10k_transactions == 0.0015' "$f"
	jq -e '[.prices[] | select(.name == "P30") | has("per_10k_transactions")] == [false]' "$f"
	iorate cost config --vm D4s_v5 --disk E10 --iops 100 --region northeurope --currency GBP --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.lines[2].month_cents == 3942 and .currency == "GBP"'
	# The StorSimple post's wish: the storage account's prices filled in for a region.
	iorate cost upload --data 750GiB --tier hot --region northeurope --currency GBP --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.transactions == 1536000 and .write_per_10k == 0.045 and
		.per_gb_month == 0.016 and .currency == "GBP" and .price_stale == false'
	iorate plan --iops 5000 --provider azure --region northeurope --currency GBP --top 1 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.[0].cost.currency == "GBP" and .[0].cost.region == "northeurope"'
}

@test "catalog prices: AWS's bulk price list, found through its indexes and read as CSV" {
	serve
	iorate catalog prices --provider aws --region us-east-1 --endpoint "$BASE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"kept:    3 VM sizes, 4 disk types"* ]]
	grep -qx '/offers/v1.0/aws/index.json' "$LOG"
	grep -qx '/offers/v1.0/aws/AmazonEC2/current/region_index.json' "$LOG"
	grep -qx '/offers/v1.0/aws/AmazonEC2/20261120000000/us-east-1/index.csv' "$LOG"
	f="$DIR/prices-aws-us-east-1-USD.json"
	jq -e '[.prices[] | select(.kind == "vm")] | map(.name) | sort ==
		["c7i.large", "m5.large", "m7i.large"]' "$f"
	# gp3 throughput is priced per GiB/s-month: 40.96 / 1024 per MiB/s, per MB/s as recorded.
	jq -e '.prices[] | select(.name == "gp3") | .per_gib_month == 0.08 and
		.per_iops_month == 0.005 and (.per_mbps_month * 1.048576 * 1000000 | round) == 40000' "$f"
	# io2's three IOPS tiers, above 32,000 and 64,000 a volume; io2-bx is billed as io2.
	jq -e '[.prices[] | select(.name == "io2" or .name == "io2-bx") |
		[.per_iops_month, .per_iops_month_above]] ==
		[[0.065, [[32000, 0.0455], [64000, 0.03185]]], [0.065, [[32000, 0.0455], [64000, 0.03185]]]]' "$f"
	# 100,000 IOPS: 32,000 x 0.065 + 32,000 x 0.0455 + 36,000 x 0.03185 = 4,682.60.
	iorate cost config --vm r5b.24xlarge --disk io2-bx:1TiB:iops=100000 --vm-price 1 --region us-east-1 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.lines[] | select(.what | test("IOPS above")) | .month_cents] ==
		[208000, 145600, 114660]'
	iorate cost config --vm m5.large --disk gp3:200GiB:iops=4000:mbps=250 --region us-east-1 --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.total_month == 96.08 and
		([.lines[].source | startswith("AWS Price List Bulk API")] | all)'
	iorate catalog prices --provider aws --region us-east-1 --currency EUR --endpoint "$BASE"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--currency: AWS's price list is in USD only"* ]]
}

@test "catalog prices: an HTTP error or no server changes nothing, and says so precisely" {
	serve
	iorate catalog prices --provider azure --region northeurope --currency GBP --endpoint "$BASE"
	[ "$status" -eq 0 ]
	f="$DIR/prices-azure-northeurope-GBP.json"
	before=$(md5sum < "$f")
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/fail503"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"GET $BASE/fail503/api/retail/prices?"*": HTTP 503 (the server failed)"* ]]
	[[ "$stderr" == *"nothing written; cost and plan keep the 9 prices read $(date -u +%F) in $f"* ]]
	[ "$(md5sum < "$f")" = "$before" ]
	iorate catalog prices --provider aws --region us-east-1 --endpoint "$BASE/bad"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$BASE/bad/offers/v1.0/aws/index.json"*"not JSON"* ]]
	[[ "$stderr" == *"no aws prices for us-east-1 in USD were read before: cost and plan use the built-in prices"* ]]
	kill "$SERVER_PID"
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
	iorate catalog prices --provider azure --region northeurope --currency GBP --endpoint "$BASE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"GET $BASE/api/retail/prices?"*"(offline, or the server is down?)"* ]]
	[ "$(md5sum < "$f")" = "$before" ]
	iorate cost config --vm D4s_v5 --disk P30 --region northeurope --currency GBP --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.total_month == 256'
}

# Each attack of the recorded server ends the download before anything is written.
refused() {
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"nothing written"* ]]
	[ ! -e "$DIR/prices-azure-northeurope-GBP.json" ]
	[ ! -e "$DIR/prices-aws-us-east-1-USD.json" ]
}

@test "catalog prices: only https, http only from 127.0.0.1; redirects and links checked first" {
	serve
	for e in file:///etc/passwd ftp://127.0.0.1/ dict://127.0.0.1:11211/ http://127.0.0.2:1; do
		iorate catalog prices --provider azure --region northeurope --endpoint "$e"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"--endpoint '$e': only https is read (plain http only from 127.0.0.1)"* ]]
	done
	iorate catalog prices --provider azure --region northeurope --endpoint "https://x@$BASE"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a URL with a user name"* ]]
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/nextfile"
	refused
	[[ "$stderr" == *"NextPageLink 'file:///etc/passwd': only https is read"* ]]
	for k in redirftp:ftp://127.0.0.1:21/prices.json redirdict:dict://127.0.0.1:11211/stats; do
		iorate catalog prices --provider azure --region northeurope --currency GBP \
			--endpoint "$BASE/${k%%:*}"
		refused
		[[ "$stderr" == *"redirected to '${k#*:}': only https is read"* ]]
	done
	# Each of them was asked for once, and nothing after it.
	[ "$(grep -c . "$LOG")" -eq 3 ]
}

@test "catalog prices: a page link stays on the endpoint's server, is read once, 1000 pages at most" {
	serve
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/nexthost"
	refused
	[[ "$stderr" == *"NextPageLink 'https://example.invalid/api/retail/prices?p=2' leads away from $BASE, the server the download started on"* ]]
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/nextport"
	refused
	[[ "$stderr" == *"NextPageLink 'http://127.0.0.1:"*"/api/retail/prices' leads away from $BASE"* ]]
	# AWS's index entries too.
	iorate catalog prices --provider aws --region us-east-1 --endpoint "$BASE/awshost"
	refused
	[[ "$stderr" == *"GET $BASE/awshost/offers/v1.0/aws/index.json: AmazonEC2 'https://example.invalid/offers/v1.0/aws/AmazonEC2/current/region_index.json' leads away from $BASE"* ]]
	[ "$(grep -c . "$LOG")" -eq 3 ]
	: > "$LOG"
	# a links to b, b back to a: a is not read twice.
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/pingpong"
	refused
	[[ "$stderr" == *"GET $BASE/pingpong/api/retail/prices?p=b: NextPageLink '$BASE/pingpong/api/retail/prices?p=a' leads back to a page already read"* ]]
	[ "$(grep -c . "$LOG")" -eq 3 ]
	[ "$(grep -c 'p=a$' "$LOG")" -eq 1 ]
	: > "$LOG"
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/endless"
	refused
	[[ "$stderr" == *"?p=999: NextPageLink after 1000 pages, more than any price list has: refused"* ]]
	[ "$(grep -c . "$LOG")" -eq 1000 ]
}

# Starts a download from the server's drip (a byte a second) in the background: $PID.
drip() {
	"$IORATE" catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/drip" "$@" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" &
	PID=$!
}

# Waits for $PID to end, at most $1 tenths of a second (polled); its exit status in $status.
ended_within() {
	for _ in $(seq "$1"); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$PID" 2>/dev/null; then
		kill -KILL "$PID"
		wait "$PID" || true
		echo "still running after $1 tenths of a second" >&2
		return 1
	fi
	set +e
	wait "$PID"
	status=$?
	set -e
	stderr=$(cat "$BATS_TEST_TMPDIR/err")
}

@test "catalog prices: a server that drips ends at --timeout; Ctrl-C ends it at once, exit 130" {
	serve
	iorate catalog prices --provider azure --region northeurope --timeout 0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--timeout: '0' is not a duration above 0"* ]]
	iorate catalog list --timeout 2s
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--timeout are options of 'catalog prices'"* ]]
	# The server sends a byte a second for a minute: --timeout 2s ends it first.
	drip --timeout 2s
	ended_within 300
	refused
	[[ "$stderr" == *"GET $BASE/drip/api/retail/prices?"*": not done after --timeout 2s, the limit of the whole download"* ]]
	# Ctrl-C once the drip has started, with no --timeout (120 s): over within the wait.
	: > "$LOG"
	drip
	for _ in $(seq 100); do
		grep -q '^/drip/' "$LOG" && break
		sleep 0.1
	done
	grep -q '^/drip/' "$LOG"
	kill -INT "$PID"
	ended_within 30
	[ "$status" -eq 130 ]
	[[ "$stderr" == *"GET $BASE/drip/api/retail/prices?"*": interrupted"* ]]
	[[ "$stderr" == *"nothing written"* ]]
	[ ! -e "$DIR/prices-azure-northeurope-GBP.json" ]
	[ -z "$(ls -A "$DIR" 2>/dev/null)" ]
}

@test "catalog prices: a price of 1e308, -1 or NaN is refused naming the meter; so is a stored one" {
	serve
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/price/1e308"
	refused
	[[ "$stderr" == *"page 1: Items[0]: meter 'D4s v5' (skuName 'D4s v5', product 'Virtual Machines Dsv5 Series'): the price 1e+308 GBP is above 1e+07, the bound of per_hour: beyond any real price list"* ]]
	iorate catalog prices --provider azure --region northeurope --currency GBP \
		--endpoint "$BASE/price/-1"
	refused
	[[ "$stderr" == *"Items[0]: meter 'D4s v5' (skuName 'D4s v5', product 'Virtual Machines Dsv5 Series'): the price -1 GBP is negative"* ]]
	for v in NaN:"is not a number" Inf:"is infinite" 1e308:"1e+308 USD is above 1e+07, the bound of per_hour" -1:"-1 USD is negative"; do
		iorate catalog prices --provider aws --region us-east-1 --endpoint "$BASE/price/${v%%:*}"
		refused
		[[ "$stderr" == *"us-east-1/index.csv: SKU 'SKU001' (usage type 'BoxUsage:m5.large'): the price ${v#*:}"* ]]
	done
	# A stored price file is input too: a hand-edited 1e308 is refused, not printed "inf".
	mkdir -p "$DIR"
	printf '%s\n' '{"catalog": "prices-azure-westeurope-EUR", "provider": "azure", "prices": [
		{"catalog": "azure", "kind": "vm", "name": "D4s_v5", "per_hour": 1e308,
		 "region": "westeurope", "currency": "EUR", "source": "s", "date": "2026-01-01"}]}' \
		> "$DIR/prices-azure-westeurope-EUR.json"
	iorate cost config --vm azure:D4s_v5 --region westeurope --currency EUR
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"prices-azure-westeurope-EUR.json:2: prices[0] 'D4s_v5': field 'per_hour': the price 1e+308 EUR is above 1e+07, the bound of per_hour"* ]]
	[[ "$stderr" != *"inf"* ]]
}

@test "catalog prices: GCP's list needs a key, and the refusal says so; bad words are refused" {
	iorate catalog prices --provider gcp --region us-central1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot be read without an API key"*"GCP prices stay the built-in ones"* ]]
	iorate catalog prices --provider azure --region "north europe"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--region: expected a region name"* ]]
	iorate catalog prices --region northeurope
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--provider and --region are required"* ]]
	[ ! -e "$DIR" ]
}

# A kept price list of a given age, for the staleness checks.
price_list() {
	mkdir -p "$DIR"
	jq -n --arg d "$1" '{catalog: "prices-azure-westeurope-EUR", provider: "azure",
		prices: [{catalog: "azure", kind: "vm", name: "D4s_v5", per_hour: 0.2,
			region: "westeurope", currency: "EUR", source: "recorded for the test",
			date: $d},
		{catalog: "azure", kind: "disk", name: "P30", per_month: 120, region: "westeurope",
			currency: "EUR", source: "recorded for the test", date: $d}]}' \
		> "$DIR/prices-azure-westeurope-EUR.json"
}

@test "cost and plan flag prices older than 90 days, in text and JSON" {
	price_list "$(date -u -d '-100 days' +%F)"
	iorate cost config --vm D4s_v5 --disk P30 --region westeurope --currency EUR
	[ "$status" -eq 0 ]
	[[ "$output" == *"STALE: 100 days old"* ]]
	[[ "$output" == *"note: 2 price lines are older than 90 days or undated"* ]]
	iorate cost config --vm D4s_v5 --disk P30 --region westeurope --currency EUR --json
	echo "$output" | jq -e '.stale_prices == 2 and .stale_after_days == 90 and
		([.lines[] | .stale and .age_days == 100] | all) and .total_month == 266'
	iorate plan --iops 4000 --provider azure --region westeurope --currency EUR --top 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"STALE: 100 days old"* ]]
	iorate plan --iops 4000 --provider azure --region westeurope --currency EUR --top 1 --json
	echo "$output" | jq -e '.[0].cost.stale_prices >= 1'
	price_list "$(date -u -d '-10 days' +%F)"
	iorate cost config --vm D4s_v5 --disk P30 --region westeurope --currency EUR --json
	echo "$output" | jq -e '.stale_prices == 0 and ([.lines[].age_days] == [10, 10])'
	# The built-in prices are years old or undated: flagged too.
	iorate cost config --vm D4s_v5 --disk P30 --region eastus --json
	echo "$output" | jq -e '.stale_prices == 2'
}

# The catalog files as 'make install' puts them, under this test's own DESTDIR; $INST is the
# installed directory, which iorate reads through IORATE_CATALOG_DIR (docs/catalog.md, Layers).
install_catalog() {
	ROOT="$BATS_TEST_DIRNAME/../.."
	make -s -C "$ROOT" install-catalog DESTDIR="$BATS_TEST_TMPDIR/dest" PREFIX=/usr/local
	INST="$BATS_TEST_TMPDIR/dest/usr/local/share/iorate/catalog"
	export IORATE_CATALOG_DIR="$INST"
}

# jq EXPR FILE: rewrites FILE through jq.
edit() {
	jq "$1" "$2" > "$2.new" && mv "$2.new" "$2"
}

@test "installed catalog: make install-catalog copies every file; unchanged, it changes nothing" {
	install_catalog
	for f in "$ROOT"/data/catalog/*.json; do
		cmp "$f" "$INST/$(basename "$f")"
	done
	iorate catalog list
	[ "$status" -eq 0 ]
	[[ "$output" == *"layers: built-in; installed: $INST; user: $DIR"* ]]
	[[ "$output" != *"otherwise than"* ]]
	[ -z "$stderr" ]
	# Each entry now comes from the installed file, in the same place: lookups are unchanged.
	iorate catalog show m6i.large --json
	json_ok '.layer == "installed" and .uncached_iops == 3600 and (has("differs") | not)'
	iorate catalog list aws --json
	json_ok '[.[] | .layer] | unique == ["installed"]'
	# azure-2015.json sorts before azure.json, yet an unqualified P30 is still azure's.
	iorate catalog show P30 --json
	json_ok '.catalog == "azure" and .layer == "installed"'
}

@test "installed catalog: an edited entry changes catalog, model, cost, plan and run --emulate" {
	install_catalog
	edit '(.vms[] | select(.name == "m6i.large") | .uncached_iops) = 5000 |
		(.disks[] | select(.name == "gp3") | .iops) = 3100' "$INST/aws.json"
	edit '(.prices[] | select(.name == "m6i.large") | .per_hour) = 0.00099' "$INST/prices.json"
	iorate catalog show m6i.large
	[ "$status" -eq 0 ]
	line_ok '^  uncached_iops +5000  IOPS +\[1\]$'
	[[ "$output" == *$'\nlayer:      installed catalog, '"$INST/aws.json"$'\n'* ]]
	[[ "$output" == *"  uncached_iops: built-in 3600 IOPS, installed 5000 IOPS ($INST/aws.json)"* ]]
	line_ok '^  per hour +0\.00099  USD +us-east-1$'
	iorate catalog list aws
	[[ "$output" == *"m6i.large"*"uncached 5000 IOPS 81.25 MB/s"*"0.00099 USD per hour"* ]]
	[[ "$output" == *"the installed catalog gives these figures otherwise"* ]]
	[[ "$output" == *"  aws:gp3 iops: built-in 3000 IOPS, installed 3100 IOPS ($INST/aws.json)"* ]]
	[[ "$output" == *"  price aws:m6i.large per_hour: built-in 0.096, installed 0.00099"* ]]
	[ -z "$stderr" ]
	iorate catalog list aws --json
	json_ok '.[] | select(.name == "m6i.large") | .layer == "installed" and
		.differs == [{"field": "uncached_iops", "unit": "IOPS", "layer": "installed",
		"value": 5000, "below": "built-in", "below_value": 3600, "file": "'"$INST/aws.json"'"}]'
	# The other commands use the edited figures and say, once, that the layers differ.
	iorate model --vm m6i.large --disk 4xgp3:1TiB:iops=16000 --depth 32 --json
	json_ok '.binding == "vm_uncached_iops" and .predicted.iops == 5000'
	[[ "$stderr" == "iorate: note: 3 figures of the installed catalog differ from the catalog below it and are used ('iorate catalog list' names them)" ]]
	iorate model --vm m6i.large --disk gp3:100GiB --depth 32 --json
	json_ok '.predicted.iops == 3100'
	iorate cost config --vm m6i.large --disk gp3:100GiB
	[ "$status" -eq 0 ]
	[[ "$output" == *"m6i.large: 730 h x 0.00099 per hour"* ]]
	iorate plan --iops 4000 --provider aws --top 1 --json
	[ "$status" -eq 0 ]
	json_ok '.[0].config.vm == "m6i.large" and
		(.[0].cost.lines[0].what | startswith("m6i.large: 730 h x 0.00099 per hour"))'
	iorate run --emulate aws:m6i.large+gp3:100GiB --dry-run "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--cap-iops 3100 "* ]]
	# Without the installed layer, the built-in figures again.
	IORATE_CATALOG_DIR="$BATS_TEST_TMPDIR/none" iorate run --emulate aws:m6i.large+gp3:100GiB \
		--dry-run "$BATS_TEST_TMPDIR/t"
	[[ "$output" == *"--cap-iops 3000 "* ]]
}

@test "catalog layers: installed entries added, the user's over the installed, --catalog first" {
	install_catalog
	edit '.vms += [.vms[] | select(.name == "m6i.large") | .name = "m6i.huge" |
		.uncached_iops = 7000]' "$INST/aws.json"
	mkdir -p "$DIR"
	jq -n '{catalog: "aws", vms: [{name: "m6i.huge", vcpus: 2, uncached_iops: 8000,
		source: "written by the user", date: "2026-01-01"}]}' > "$DIR/imported-aws.json"
	iorate catalog show m6i.huge --json
	json_ok '.layer == "user" and .uncached_iops == 8000 and
		(.differs | map(.field) | index("uncached_iops") != null)'
	iorate catalog list aws
	[[ "$output" == *"the user catalog gives these figures otherwise"*"aws:m6i.huge uncached_iops: installed 7000 IOPS, user 8000 IOPS"* ]]
	jq -n '{catalog: "aws", vms: [{name: "m6i.huge", vcpus: 2, uncached_iops: 9000,
		source: "a --catalog file", date: "2026-01-02"}]}' > mine.json
	iorate catalog show m6i.huge --catalog mine.json --json
	json_ok '.layer == "--catalog" and .uncached_iops == 9000'
	# A broken installed file is named, as a --catalog file is.
	printf '{"catalog": "aws", "vms": [{"name": "x", "iosp": 1}]}' > "$INST/zz.json"
	iorate catalog list
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$INST/zz.json"*"unknown field 'iosp'"* ]]
}

@test "installed catalog: without IORATE_CATALOG_DIR, the directory of the Makefile's PREFIX" {
	unset IORATE_CATALOG_DIR
	prefix=$(sed -n 's/^PREFIX *?= *//p' "$BATS_TEST_DIRNAME/../../Makefile")
	iorate catalog list
	[ "$status" -eq 0 ]
	[[ "$output" == *"layers: built-in; installed: $prefix/share/iorate/catalog; user: $DIR"* ]]
}

# Fails when $output holds a decimal with the noise of double arithmetic (0.045000000000000005).
noise() {
	no_line '[0-9]\.[0-9]*0{6,}[1-9]'
}

@test "prices print as the list wrote them: 0.00099, 0.045, never 0.0010 or 0.04500000001" {
	iorate cost upload --data 750GiB --tier archive
	[ "$status" -eq 0 ]
	[[ "$output" == *"x 0.00099 per GB-month"* ]]
	[[ "$output" != *"0.0010"* ]]
	iorate cost config --vm m6i.large --disk st1:1TiB
	[[ "$output" == *"1 x st1: 1024 GiB x 0.045 per GiB-month"* ]]
	iorate cost config --vm m6i.large --disk gp3:100GiB:iops=4000:mbps=130
	[[ "$output" == *"m6i.large: 730 h x 0.096 per hour"* ]]
	[[ "$output" == *"1 x gp3: 1000 IOPS above 3000 x 0.005 per IOPS"* ]]
	[[ "$output" == *"1 x gp3: 5.24288 MB/s (5 MiB/s) above 131.072 x 0.03815 per MB/s"* ]]
	# Hyperdisk Throughput has no free baseline: every MiB/s it is given is billed.
	iorate cost config --vm c3-standard-8 --disk hdt:4TiB:mbps=300 --json
	[ "$status" -eq 0 ]
	json_ok 'any(.lines[]; .what == "1 x hyperdisk-throughput: 4096 GiB x 0.005 per GiB-month"
		and .month_cents == 2048)'
	json_ok 'any(.lines[]; .what == "1 x hyperdisk-throughput: 314.5728 MB/s (300 MiB/s) x 0.23842 per MB/s"
		and .month_cents == 7500)'
	iorate catalog show st1
	line_ok '^  per GiB-month +0\.045  USD +us-east-1$'
	iorate catalog list aws
	[[ "$output" == *"st1 "*"0.045 USD per GiB-month, us-east-1"* ]]
	# A list kept by 'catalog prices' holds each price as a double prints it (17 digits): the
	# decimal it came from is what shows, in catalog, cost and plan alike.
	mkdir -p "$DIR"
	printf '%s\n' '{"catalog": "prices-aws-us-east-1-USD", "provider": "aws", "prices": [
		{"catalog": "aws", "kind": "disk", "name": "st1", "per_gib_month": 0.045000000000000005,
		 "region": "us-east-1", "currency": "USD", "source": "kept", "date": "2026-11-30"},
		{"catalog": "aws", "kind": "vm", "name": "m6i.large", "per_hour": 0.096000000000000002,
		 "region": "us-east-1", "currency": "USD", "source": "kept", "date": "2026-11-30"}]}' \
		> "$DIR/prices-aws-us-east-1-USD.json"
	iorate cost config --vm m6i.large --disk st1:1TiB
	[[ "$output" == *"x 0.045 per GiB-month"* && "$output" == *"x 0.096 per hour"* ]]
	noise '.'
	iorate catalog show st1
	line_ok '^  per GiB-month +0\.045  USD +us-east-1$'
	# m6i.large with st1 is the 55th cheapest answer (of the smaller and Graviton sizes).
	iorate plan --iops 500 --capacity 1TiB --provider aws --top 60
	[ "$status" -eq 0 ]
	line_ok '^   m6i\.large: 730 h x 0\.096 per hour +70\.08  \(2026-11-30\)$'
	line_ok '^   1 x st1: 1024 GiB x 0\.045 per GiB-month +46\.08  \(2026-11-30\)$'
	noise '.'
	# A price given on the command line too.
	iorate cost config --vm D4s_v5 --disk P30 --vm-price 0.00099 --disk-price 0.045
	[ "$status" -eq 0 ]
	[[ "$output" == *"730 h x 0.00099 per hour"* && "$output" == *"at 0.045 per month"* ]]
}

@test "catalog show: a labelled table with units, the date and the sources; its prices" {
	iorate catalog show aws:m6i.large
	[ "$status" -eq 0 ]
	[[ "$output" == "m6i.large, a VM size of catalog aws"$'\n'"date:       2023-05-11"$'\n'* ]]
	line_ok '^  figure +value  unit +source$'
	line_ok '^  uncached_mbps +81\.25  MB/s +\[1\]$'
	line_ok '^  burst_seconds +1800  s +\[1\]$'
	line_ok '^  price \(as written\) +value  currency +region$'
	line_ok '^  per hour +0\.096  USD +us-east-1$'
	line_ok '^    dated 2026-07-20; STALE: [0-9]+ days old; source: .*Price List API'
	iorate catalog show azure:E10
	[[ "$output" == *$'\n    dated undated; STALE: of unknown age; source: '* ]]
	iorate catalog show gcp:hyperdisk-throughput
	line_ok '^  iops_per_mbps +4  IOPS per MiB/s +\[1\]$'
	line_ok '^  per MB/s-month +0\.23842  USD +us-central1$'
	# The 2015 catalog's sizes without a quote of the time.
	iorate catalog show azure-2015:DS1
	[[ "$output" == *$'\n  no price in the catalog (cost and plan ask for one)'* ]]
	iorate catalog show gcp:hyperdisk-extreme --json
	json_ok '.iops_max == 350000 and .mbps_by_iops == [[0, 0.25, 5000]]
		and .prices[0].per_iops_month == 0.032 and .prices[0].date == "2026-07-30"'
	iorate catalog show gcp:hyperdisk-balanced --json
	json_ok '.iops == 3000 and .prices[0].per_iops_month == 0.005 and .prices[0].date == "2026-08-21"'
	# How Azure counts the operations it bills is the disk type's, with its own source.
	iorate catalog show azure:S70
	line_ok '^  per 10,000 transactions +0\.0005  USD +eastus$'
	line_ok '^  ops_per_hour_max +93000000  ops per hour +\[3\]$'
	line_ok '^  ops_unit_kib +16  KiB +\[3\]$'
	line_ok '^  ops_per_io_max +16  ops per I/O +\[3\]$'
	line_ok "^source \[3\]: 'Understand Azure Disk Storage billing'"
	iorate catalog show azure:E30
	line_ok '^  ops_unit_kib +256  KiB +\[[0-9]\]$'
	no_line 'ops_per_hour_max'
	iorate catalog show azure:P30
	no_line 'ops_'
	# io2's IOPS tiers under its first price.
	iorate catalog show aws:io2
	line_ok '^  per IOPS-month +0\.065  USD +us-east-1$'
	line_ok '^    above 32000 IOPS +0\.0455  USD +us-east-1$'
	line_ok '^    above 64000 IOPS +0\.03185  USD +us-east-1$'
	iorate catalog list aws
	[[ "$output" == *"io2-bx "*"0.065 per IOPS-month (less above 32000, 64000 IOPS), us-east-1"* ]]
}

@test "catalog: AWS m7i, every size and both metal ones, with its EBS caps and a price" {
	iorate catalog list aws --json
	[ "$status" -eq 0 ]
	json_ok '[.[] | select(.kind == "vm" and (.name | startswith("m7i.")))] | length == 11'
	iorate catalog show m7i.4xlarge --json
	json_ok '.uncached_iops == 20000 and .uncached_mbps == 625 and .burst_iops == 40000
		and .burst_mbps == 1250 and .burst_seconds == 1800 and .max_disks == 31 and .vcpus == 16'
	iorate catalog show m7i.48xlarge --json
	# The dedicated limit of 128 EBS volumes holds the root volume: 127 data disks.
	json_ok '.uncached_iops == 240000 and .uncached_mbps == 5000 and .max_disks == 127
		and ((.burst_iops // 0) == 0)'
	# The model takes the instance's cap: 4 gp3 volumes of 16,000 IOPS are held to 20,000.
	iorate model --vm m7i.4xlarge --disk 4xgp3:1TiB:iops=16000 --depth 32 --json
	[ "$status" -eq 0 ]
	json_ok '.predicted.iops == 20000 and .binding == "vm_uncached_iops"'
	iorate cost config --vm m7i.large --disk gp3:100GiB
	[ "$status" -eq 0 ]
	[[ "$output" == *"730 h x 0.1008 per hour"* ]]
}

@test "catalog, model, plan: a GCP machine type's limits by disk type" {
	iorate catalog show gcp:c3-standard-4
	[ "$status" -eq 0 ]
	line_ok '^  max_disks hyperdisk-balanced +16  disks +\[1\]$'
	line_ok '^  max_disks hyperdisk-extreme +0  disks +\[1\]$'
	line_ok '^  max_disks hyperdisk-\* +24  disks +\[1\]$'
	line_ok '^  max_gib hyperdisk-\* +263168  GiB +\[[0-9]\]$'
	line_ok "About Google Cloud Hyperdisk'"
	line_ok '^  mem_gib +16  GiB +\[1\]$'
	iorate model --vm c3-standard-4 --disk 10xhdb:100GiB --disk 7xhdb:100GiB
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--disk: 17 hyperdisk-balanced disks, but c3-standard-4 takes at most 16"* ]]
	iorate model --vm n2-standard-8 --disk hdb:100GiB
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--disk: n2-standard-8 takes no hyperdisk-balanced disks"* ]]
	# Hyperdisk's per-VM limits are in the catalog only for c4-*-192 and c4-*-288: plan leaves
	# it out of the other machine types unless told, and says so; then Hyperdisk Extreme only
	# where the machine type takes it: C3 from 88 vCPUs, C3D from 60, C4 from 96.
	iorate plan --iops 300000 --provider gcp --top 5
	[ "$status" -eq 0 ]
	line_ok '^1\. c4-standard-192 \+ '
	[[ "$output" == *"(left out: "*"hyperdisk-extreme"*"--uncapped includes them)"* ]]
	iorate plan --iops 300000 --provider gcp --top 5 --uncapped
	[ "$status" -eq 0 ]
	line_ok '^   note: c3.*publishes no per-VM limit for hyperdisk-(balanced|extreme) disks'
	iorate plan --iops 300000 --provider gcp --top 40 --json --uncapped
	[ "$status" -eq 0 ]
	json_ok 'length > 5 and all(.[]; .config.disks[0].type != "hyperdisk-extreme" or
		(.config.vm | test("^(c3-standard-(88|176)|c3d-standard-(60|90|180|360)|c4-standard-(96|144|192|288))$")))'
	json_ok 'any(.[]; .config.disks[0].type == "hyperdisk-extreme")'
}

@test "catalog list: every VM row states its caps, none of them 0" {
	for c in azure aws gcp azure-2015; do
		iorate catalog list "$c"
		[ "$status" -eq 0 ]
		no_line ' 0 IOPS| 0 MB/s| 0 MiB/s'
		printf '%s\n' "$output" | sed -n '/VM sizes:/,/disk types:/p' | grep -v ':$' |
			grep -Ev 'uncached [0-9.]+ (IOPS|MB/s|MiB/s)|by disk type: [a-z]|no published VM limit' \
			&& return 1
	done
	true
}
