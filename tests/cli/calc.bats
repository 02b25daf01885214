#!/usr/bin/env bats
# The cost calculator page of 'iorate cost upload|config --html FILE': written through the write
# gate, self-contained, and showing in a browser the figures the command line prints. The pages
# are opened in headless Chromium (Debian's chromium, which 'make deps' installs), in a frame 360
# px wide, and driven by fixtures/calc/harness.js: each case sets the pull-downs and fields, and
# what the page then shows is compared, as text and in hundredths of the currency, with what
# 'iorate cost' prints for the same inputs. Needs $IORATE.

load helpers

FIX="$BATS_TEST_DIRNAME/fixtures/calc"

setup() {
	cd "$BATS_TEST_TMPDIR"
	# Made-up prices in two regions and two currencies of each provider; some dated today.
	sed "s/@TODAY@/$(date -u +%F)/" "$FIX/prices.json" >prices.json
	CASES=()
	ARGS=()
}

teardown() {
	[ -z "${LOOP:-}" ] || losetup -d "$LOOP" 2>/dev/null || true
}

need_chromium() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
	[ -n "$CHROMIUM" ] || skip "chromium is not installed ('make deps' installs it)"
}

# browse PAGE [PREFIX...]: opens PAGE (in this directory) unchanged in a frame 360 px wide, runs
# the cases of $CASES through harness.js, and leaves what the page showed in results.json.
# PREFIX runs Chromium under another command (unshare -n: without a network).
browse() {
	local page=$1
	shift
	{
		printf '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
		printf '<iframe id="page" src="%s" style="width:360px;height:800px;border:0">' "$page"
		printf '</iframe><pre id="results"></pre><script type="application/json" id="cases">['
		(IFS=,; printf '%s' "${CASES[*]}")
		printf ']</script><script>\n'
		cat "$FIX/harness.js"
		printf '</script></body></html>\n'
	} >harness.html
	# Its profile and caches in the test's directory, no sandbox (Chromium runs none as root),
	# /tmp for its shared memory; the frame may read the page beside it; scrollbars take no
	# width, as on a phone.
	HOME="$BATS_TEST_TMPDIR" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/.config" \
		XDG_CACHE_HOME="$BATS_TEST_TMPDIR/.cache" "$@" timeout 120 "$CHROMIUM" --headless \
		--no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars \
		--allow-file-access-from-files --user-data-dir="$BATS_TEST_TMPDIR/.chromium" \
		--dump-dom "file://$PWD/harness.html" >dom.html 2>chromium.log ||
		[ -s dom.html ] || skip "chromium could not start here: $(tail -1 chromium.log)"
	sed -n 's/.*<pre id="results">\([A-Za-z0-9+\/=]*\)<\/pre>.*/\1/p' dom.html |
		base64 -d >results.json
	jq -e 'has("results")' results.json >/dev/null || {
		echo "the page gave no results:" >&2
		cat results.json >&2
		tail -5 chromium.log >&2
		return 1
	}
}

# upload_case REGION CURRENCY TIER REDUNDANCY CHUNK DATA MONTHS [WRITE-PRICE [GB-PRICE]]
# [KEEP=DAYS] [GEO=P] upload_case REGION CURRENCY TIER REDUNDANCY CHUNK DATA MONTHS [WRITE [GB]]
# (with KEEP the command line is given --keep-days in place of --months, which it takes instead)
upload_case() {
	CASES+=("$(jq -cn --arg region "$1" --arg currency "$2" --arg tier "$3" \
		--arg redundancy "$4" --arg chunk "$5" --arg data "$6" --arg months "$7" \
		--arg write "${8:-}" --arg gb "${9:-}" --arg keep "${KEEP:-}" --arg geo "${GEO:-}" \
		'{part: "upload", $region, $currency, $tier, $redundancy, $chunk, $data, $months,
		$write, $gb, $keep, $geo}')")
	local a="--region $1 --currency $2 --tier $3 --redundancy $4 --chunk $5 --data $6"
	a+="${KEEP:+ --keep-days $KEEP}"
	[ -n "${KEEP:-}" ] || a+=" --months $7"
	a+="${8:+ --write-price $8}${9:+ --gb-price $9}${GEO:+ --geo-price $GEO}"
	ARGS+=("upload $a")
}

# [IOPS=N] [BS=SIZE] config_case PROVIDER REGION CURRENCY VM HOURS VM-PRICE DISK-PRICE COUNTxSPEC...
config_case() {
	local p=$1 r=$2 c=$3 vm=$4 h=$5 vp=$6 dp=$7 g groups=() a
	shift 7
	a="--region $r --currency $c --vm $p:$vm --hours $h${vp:+ --vm-price $vp}"
	a+="${dp:+ --disk-price $dp}${IOPS:+ --iops $IOPS}${BS:+ --bs $BS}"
	for g in "$@"; do
		groups+=("$(jq -cn --arg n "${g%%x*}" --arg s "${g#*x}" '[($n | tonumber), $s]')")
		# One disk is written without its count, as the page names it.
		[ "${g%%x*}" = 1 ] && a+=" --disk ${g#*x}" || a+=" --disk $g"
	done
	CASES+=("$(jq -cn --arg provider "$p" --arg region "$r" --arg currency "$c" --arg vm "$vm" \
		--arg hours "$h" --arg vm_price "$vp" --arg disk_price "$dp" --arg iops "${IOPS:-}" \
		--arg bs "${BS:-}" --argjson groups "[$(IFS=,; echo "${groups[*]}")]" '{part: "config",
		$provider, $region, $currency, $vm, $groups, $hours, $vm_price, $disk_price, $iops,
		$bs}')")
	ARGS+=("config $a")
}

# The page's figure "23.28 USD" in hundredths, for jq.
CENTS='def cents: split(" ")[0] | gsub("\\."; "") | tonumber;'

# same_error PAGE-ERROR: the command failed as bad usage, and the page says what it said.
same_error() {
	[ "$status" -eq 2 ] && [ "$1" = "${stderr#iorate: }" ] || {
		echo "command: exit $status: $stderr" >&2
		echo "page: $1" >&2
		return 1
	}
}

# check_upload I: case I as the page showed it, against 'iorate cost upload' (text, then JSON).
check_upload() {
	local page=${PAGES[$1]} args
	read -ra args <<<"${ARGS[$1]}"
	[[ "$page" != *'"harness_error"'* ]] || { echo "$page" >&2; return 1; }
	iorate cost "${args[@]}" --catalog prices.json
	if [ "$status" -ne 0 ]; then
		same_error "$(jq -r .error <<<"$page")"
		return
	fi
	# Every line before the chunk table, as the command prints it.
	diff <(jq -r '.lines[]' <<<"$page") <(printf '%s\n' "$output" | sed '/^$/,$d') >&2
	# The chunk table's rows, printed as the command prints them.
	diff <(jq -r '.chunks[] | @tsv' <<<"$page" | while IFS=$'\t' read -r c n a; do
		printf '  %8s  %12s writes  %10s\n' "$c" "$n" "$a"; done) \
		<(printf '%s\n' "$output" | sed '1,/^chunk size/d') >&2
	iorate cost "${args[@]}" --catalog prices.json --json
	jq -e --argjson p "$page" "$CENTS"'
		($p.total | cents) == .total_cents and
		($p.total | split(" ")[1] // "") == (.currency // "") and
		[$p.chunks[] | [(.[1] | tonumber), (.[2] | cents)]] ==
		[.by_chunk[] | [.transactions, .transaction_cost_cents]]' <<<"$output" >/dev/null || {
		echo "case $1 (${ARGS[$1]}): the page's $page" >&2
		echo "differs from: $output" >&2
		return 1
	}
}

# The text 'cost config' prints, rebuilt from what the page shows (its lines, total and note).
page_config_text() {
	local kind what amount source
	jq -r '(.lines[] | ["line", .what, .amount, .source]), ["total", "total", .total, ""],
		(select(.note != "") | ["note", .note, "", ""]) | @tsv' <<<"$1" |
		while IFS=$'\t' read -r kind what amount source; do
			case $kind in
			line) printf '%-52s %10s %s\n  %s\n' "$what" "${amount%% *}" "${amount#* }" \
				"$source" ;;
			total) printf '%-52s %10s %s\n' total "${amount%% *}" "${amount#* }" ;;
			note) printf '%s\n' "$what" ;;
			esac
		done
}

# check_config I: case I as the page showed it, against 'iorate cost config'.
check_config() {
	local page=${PAGES[$1]} args
	read -ra args <<<"${ARGS[$1]}"
	[[ "$page" != *'"harness_error"'* ]] || { echo "$page" >&2; return 1; }
	iorate cost "${args[@]}" --catalog prices.json
	if [ "$status" -ne 0 ]; then
		same_error "$(jq -r .error <<<"$page")"
		return
	fi
	diff <(page_config_text "$page") <(printf '%s\n' "$output") >&2 || {
		echo "case $1: ${ARGS[$1]}" >&2
		return 1
	}
	iorate cost "${args[@]}" --catalog prices.json --json
	jq -e --argjson p "$page" "$CENTS"'
		[$p.lines[] | [.what, (.amount | cents)]] == [.lines[] | [.what, .month_cents]] and
		($p.total | cents) == .total_month_cents and
		($p.total | split(" ")[1]) == .currency' <<<"$output" >/dev/null || {
		echo "case $1 (${ARGS[$1]}): the page's $page" >&2
		echo "differs from: $output" >&2
		return 1
	}
}

# The page is no wider than a phone's 360 px with either part open (after the last case).
narrow() {
	jq -e '.facts.frame_width == 360 and .facts.widths.upload <= 360 and
		.facts.widths.config <= 360' results.json
}

check_all() {
	local i n=0
	mapfile -t PAGES < <(jq -c '.results[]' results.json)
	[ "${#PAGES[@]}" -eq "${#ARGS[@]}" ] ||
		{ echo "the page showed ${#PAGES[@]} results of ${#ARGS[@]} cases" >&2; return 1; }
	for i in "${!ARGS[@]}"; do
		case ${ARGS[$i]} in
		upload*) check_upload "$i" ;;
		config*) check_config "$i" ;;
		esac
		n=$((n + 1))
	done
	echo "checked $n cases" >&3
}

@test "calc: upload figures are the command line's, in every region, currency, tier, size" {
	need_chromium
	run "$IORATE" cost upload --catalog prices.json --html calc.html
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# Each region and currency with two of four shapes, each shape in several of them.
	upload_case northeurope GBP hot lrs 524288 750GiB 1
	upload_case northeurope GBP hot lrs 65536 1.5TiB 12
	upload_case northeurope EUR cool lrs 4194304 123456789 1
	upload_case northeurope EUR hot lrs 524288 1000 0.5
	upload_case westeurope GBP hot lrs 524288 750GiB 1
	upload_case westeurope GBP cool lrs 4194304 123456789 1
	upload_case westeurope EUR hot lrs 65536 1.5TiB 12
	upload_case westeurope EUR hot lrs 524288 1000 0.5
	upload_case eastus USD hot lrs 524288 750GiB 1
	upload_case eastus USD hot lrs 65536 1.5TiB 12
	# Other tiers and redundancies where they are priced, one that is not (refused alike).
	upload_case northeurope GBP hot grs 65536 1GiB 2.5
	upload_case northeurope GBP archive lrs 524288 4k 1
	upload_case westeurope GBP hot ragrs 524288 2TiB 3
	upload_case westeurope EUR cold lrs 4194304 10TiB 1
	upload_case eastus USD hot grs 524288 750GiB 1
	upload_case eastus USD cold lrs 524288 100GiB 6
	upload_case westeurope EUR archive zrs 524288 1TiB 1
	# Prices of one's own: one (the other from the catalog), and both (no currency then).
	upload_case northeurope EUR hot lrs 524288 750GiB 1 0.125
	upload_case northeurope EUR hot lrs 524288 750GiB 1 "" 0.03125
	upload_case westeurope EUR archive zrs 524288 3GiB 1 0.1 0.01
	# Geo-replication (built in for westus, converted too) and early deletion, kept N days.
	upload_case westus USD hot grs 524288 750GiB 1
	upload_case westus GBP cool ragrs 65536 750GiB 2.5
	GEO=0.03 upload_case northeurope GBP hot grs 524288 1TiB 1
	GEO=0.02 upload_case westeurope EUR archive zrs 524288 3GiB 1 0.1 0.01
	GEO=0.02 upload_case westeurope EUR hot grs 524288 3GiB 1 0.1 0.01
	KEEP=21 upload_case eastus USD cool lrs 524288 100GiB 1
	KEEP=45.5 upload_case northeurope GBP archive lrs 4194304 2TiB 1
	KEEP=400 upload_case westus EUR cool grs 524288 1GiB 1
	browse calc.html
	check_all
	narrow
}

@test "calc: configuration figures are the command line's, 3 providers x 2 regions x 2 currencies" {
	need_chromium
	# Each page opens on provisioned disks of its provider, which are then among its choices.
	run "$IORATE" cost config --catalog prices.json --vm azure:D4s_v5 \
		--disk pv2:1TiB:iops=8000:mbps=300 --disk 2xP30 --region westeurope --currency EUR \
		--html azure.html
	[ "$status" -eq 0 ]
	# Each region and currency with one or two shapes, every shape in one of them at least.
	config_case azure westeurope EUR D2s_v5 730 "" "" 1xP30
	config_case azure westeurope EUR D4s_v5 200 "" "" 1xpv2:1TiB:iops=8000:mbps=300 2xP30
	config_case azure westeurope GBP D4s_v5 730 "" "" 2xP30 1xP10 4xE10
	config_case azure northeurope EUR D4s_v5 200 "" "" 1xpv2:1TiB:iops=8000:mbps=300 2xP30
	config_case azure northeurope GBP E4s_v5 1 "" "" 1xE10
	config_case azure northeurope GBP D4s_v5 730 "" "" 2xP30 1xP10 4xE10
	# The built-in prices; your own prices; a tie of rounding (2.5 h prints as 2 h).
	config_case azure eastus USD D2s_v5 730 "" "" 1xP30 2xP10
	config_case azure eastus USD D2s_v5 2.5 0.125 "" 1xP30
	config_case azure westeurope GBP E4s_v5 730 "" 0.005 3xP30
	# Operations of Standard SSD and HDD: named without a rate, shared by count, capped an hour.
	config_case azure eastus USD D4s_v5 730 "" "" 4xE10
	IOPS=2000 config_case azure eastus USD D4s_v5 730 "" "" 4xE10 2xS6 1xP10
	IOPS=4000 config_case azure eastus USD D4s_v5 100 "" "" 4xS6
	# Operations of S4, S6, S70 and S80 by 16 KiB unit (S70 and S80: 16 at most), others one an I/O.
	IOPS=100 BS=1m config_case azure eastus USD D4s_v5 730 "" "" 1xS80 2xE10 1xS4
	IOPS=30 BS=20k config_case azure eastus USD D4s_v5 730 "" "" 2xS6
	# What the command line refuses, the page refuses with the same words.
	config_case azure-2015 eastus USD A4 730 "" "" 1xP30
	config_case azure-2015 eastus USD DS1 730 "" "" 3xP10
	config_case azure eastus USD D2s_v5 730 "" "" 1xlocal 1xP10
	browse azure.html
	check_all

	run "$IORATE" cost config --catalog prices.json --vm aws:m5.large \
		--disk gp3:1TiB:iops=6000:mbps=250 --disk 2xio1:100GiB:iops=3000 --html aws.html
	[ "$status" -eq 0 ]
	CASES=()
	ARGS=()
	config_case aws eu-west-1 USD m5.large 730 "" "" 1xgp3:1TiB:iops=6000:mbps=250
	config_case aws eu-west-1 EUR m5.xlarge 730 "" "" 1xgp3:1TiB:iops=6000:mbps=250 \
		2xio1:100GiB:iops=3000
	config_case aws eu-central-1 USD c5.large 500 "" "" 3xgp2:512GiB 1xst1:1TiB 1xgp3:64GiB
	config_case aws eu-central-1 EUR m5.xlarge 730 "" "" 1xgp3:1TiB:iops=6000:mbps=250 \
		2xio1:100GiB:iops=3000
	config_case aws eu-central-1 EUR c5.large 500 "" "" 3xgp2:512GiB 1xst1:1TiB 1xgp3:64GiB
	# Every line, however many groups: 16 here, as the command line keeps.
	config_case aws us-east-1 USD m5.large 730 "" "" 1xgp3:1TiB:iops=6000:mbps=250 \
		1xgp3:1TiB:iops=6000:mbps=250 1xgp3:1TiB:iops=6000:mbps=250 \
		1xgp3:1TiB:iops=6000:mbps=250 1xgp3:1TiB:iops=6000:mbps=250
	# io2's IOPS tiers: a line for each tier reached, above 32,000 and 64,000 a volume.
	config_case aws us-east-1 USD r5b.24xlarge 730 "" "" 1xio2-bx:1TiB 2xio2:128GiB 1xio2:64GiB
	browse aws.html
	check_all

	run "$IORATE" cost config --catalog prices.json --vm gcp:c3-standard-8 \
		--disk hyperdisk-balanced:512GiB:iops=5000:mbps=300 --disk pd-ssd:1TiB \
		--disk hyperdisk-throughput:4TiB:mbps=300 --region us-central1 --html gcp.html
	[ "$status" -eq 0 ]
	CASES=()
	ARGS=()
	config_case gcp europe-west1 USD n2-standard-2 730 "" "" 1xpd-ssd:1TiB
	config_case gcp europe-west1 EUR c3-standard-8 730 "" "" \
		1xhyperdisk-balanced:512GiB:iops=5000:mbps=300 1xpd-ssd:1TiB
	config_case gcp europe-west4 USD n2-standard-4 730 "" "" 4xpd-balanced:256GiB
	config_case gcp europe-west4 USD c3-standard-8 730 "" "" \
		1xhyperdisk-balanced:512GiB:iops=5000:mbps=300 1xpd-ssd:1TiB
	config_case gcp europe-west4 EUR n2-standard-2 730 "" "" 1xpd-ssd:1TiB
	config_case gcp us-central1 USD n2-standard-8 730 "" "" 2xpd-ssd:512GiB
	# Hyperdisk Throughput: every MiB/s provisioned is billed, with no free baseline to name.
	config_case gcp us-central1 USD c3-standard-8 730 "" "" 1xhyperdisk-throughput:4TiB:mbps=300
	# Limits by disk type: N2 takes no Hyperdisk Balanced; C3 at 8 vCPUs at most 16, over groups.
	config_case gcp europe-west1 USD n2-standard-4 730 "" "" \
		1xhyperdisk-balanced:512GiB:iops=5000:mbps=300
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		10xhyperdisk-balanced:512GiB:iops=5000:mbps=300 7xhyperdisk-balanced:512GiB:iops=5000:mbps=300
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		10xhyperdisk-balanced:512GiB:iops=5000:mbps=300 6xhyperdisk-balanced:512GiB:iops=5000:mbps=300
	# Hyperdisk volumes of all types together: at most 32 at 8 vCPUs.
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		16xhyperdisk-balanced:512GiB:iops=5000:mbps=300 17xhyperdisk-throughput:2TiB
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		16xhyperdisk-balanced:512GiB:iops=5000:mbps=300 16xhyperdisk-throughput:2TiB
	# And at most 257 TiB of Hyperdisk below 32 vCPUs: 8 x 16 TiB + 9 x 16 TiB is over.
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		8xhyperdisk-balanced:16TiB 9xhyperdisk-throughput:16TiB
	config_case gcp europe-west1 USD c3-standard-8 730 "" "" \
		8xhyperdisk-balanced:16TiB 8xhyperdisk-throughput:16TiB
	browse gcp.html
	check_all
	narrow
}

@test "calc: the page opens on the command line's values and figures" {
	need_chromium
	run "$IORATE" cost upload --catalog prices.json --data 750GiB --tier cool \
		--region northeurope --currency GBP --months 12 --chunk 64k --html up.html
	[ "$status" -eq 0 ]
	local text=$output
	CASES=('{"part": "read"}')
	browse up.html
	diff <(jq -r '.results[0].upload.lines[]' results.json) <(printf '%s\n' "$text" | sed '/^$/,$d')
	jq -e '.results[0].open == "upload"' results.json
	# The printed view shows each choice as text.
	jq -e '.results[0].upload.chosen | index("Region: northeurope") and index("Tier: cool") and
		index("Data (4k = 4 KiB; 750GiB, 1.5TiB): 750GiB")' results.json
	jq -e '.facts.print_hides' results.json

	run "$IORATE" cost config --catalog prices.json --vm aws:m5.xlarge --disk 2xgp2:512GiB \
		--region eu-central-1 --currency EUR --hours 300 --html conf.html
	[ "$status" -eq 0 ]
	text=$output
	browse conf.html
	jq -e '.results[0].open == "config"' results.json
	diff <(page_config_text "$(jq -c '.results[0].config' results.json)") <(printf '%s\n' "$text")

	# The I/O rate too: the page opens billing the operations the command line billed.
	run "$IORATE" cost config --vm azure:D4s_v5 --disk 4xE10 --iops 2000 --html ops.html
	[ "$status" -eq 0 ]
	text=$output
	[[ "$text" == *"4 x E10: 2000 IOPS x 730 h of operations x 0.002 per 10k"* ]]
	browse ops.html
	diff <(page_config_text "$(jq -c '.results[0].config' results.json)") <(printf '%s\n' "$text")
}

@test "calc: the page works without a network and names nothing to fetch" {
	need_chromium
	command -v unshare >/dev/null || skip "unshare is not installed"
	unshare -n true 2>/dev/null || skip "cannot make a network namespace here (needs root)"
	run "$IORATE" cost config --vm aws:m5.large --disk gp3:1TiB --html off.html
	[ "$status" -eq 0 ]
	local text=$output
	CASES=('{"part": "read"}')
	browse off.html unshare -n
	diff <(page_config_text "$(jq -c '.results[0].config' results.json)") <(printf '%s\n' "$text")
	jq -e '.results[0].upload.total | test("^[0-9]+\\.[0-9][0-9] USD$")' results.json
	jq -e '.facts.fetching == 0' results.json
	# No address to load from in the file either: no src or href given a value, @import or url().
	! grep -Eiq "(src|href)[[:space:]]*=[[:space:]]*[\"']|@import|url\\(" off.html || false
	grep -q "default-src 'none'" off.html
}

@test "calc: a catalog's strings cannot end the data or add markup" {
	need_chromium
	local evil='x</script><b>bold</b><!--'
	jq -n --arg n "$evil" '{catalog: "evil", vms: [{name: $n, vcpus: 2, max_disks: 4,
		uncached_iops: 1000, uncached_mbps: 100, source: "s</script><b>x</b>", date: "2026-01-01"}],
		disks: [{name: "d<b>1</b>", gib: 100, iops: 500, mbps: 60, source: "s", date: "d"}],
		prices: [{catalog: "evil", kind: "vm", name: $n, per_hour: 0.5, region: "r<b>",
		currency: "C<!--", source: "line\u2028sep\u2029</script><b>x</b>", date: "2026-11-01"},
		{catalog: "evil", kind: "disk", name: "d<b>1</b>", per_month: 3.25, region: "r<b>",
		currency: "C<!--", source: "s", date: "2026-11-01"}]}' >evil.json
	run "$IORATE" cost config --catalog evil.json --vm "evil:$evil" --disk 'd<b>1</b>' \
		--html evil.html
	[ "$status" -eq 0 ]
	local text=$output
	# In the file, the data holds no <, > or & and no raw U+2028: only escapes.
	sed -n 's/.*<script type="application\/json" id="calc-data">\(.*\)<\/script>.*/\1/p' \
		evil.html >data.json
	[ -s data.json ]
	! grep -q '[<>&]' data.json || false
	! LC_ALL=C grep -q "$(printf '\342\200\250')" data.json || false
	jq -e --arg n "$evil" '[.config.providers[] | select(.name == "evil") | .vms[].name] ==
		[$n]' data.json
	[ "$(grep -c '<script' evil.html)" -eq 2 ]
	CASES=('{"part": "read"}')
	browse evil.html
	jq -e --arg n "$evil" '.facts.bold == 0 and .facts.scripts == 2 and
		(.facts.vm_names | index($n + " (0.5 per hour)"))' results.json
	diff <(page_config_text "$(jq -c '.results[0].config' results.json)") <(printf '%s\n' "$text")
}

@test "calc: --html goes through the write gate: a device, FIFO, link, missing directory refused" {
	mkfifo fifo
	echo precious >victim
	ln -s victim link
	local p
	for p in /dev/null fifo link nodir/calc.html; do
		run "$IORATE" cost upload --html "$p"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--html $p"* ]]
		run "$IORATE" cost config --vm DS14 --disk P30 --vm-price 1 --html "$p"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--html $p"* ]]
	done
	[ -p fifo ] && [ "$(cat victim)" = precious ] && [ ! -e nodir ] || false
	# A block device (a loop device over a file of this test), left as it was.
	need_root
	command -v losetup >/dev/null || skip "losetup is not installed"
	truncate -s 8M dev.img
	local sum
	sum=$(sha256sum <dev.img)
	LOOP=$(losetup -f --show dev.img) || skip "cannot set up a loop device"
	run "$IORATE" cost upload --data 1GiB --html "$LOOP"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is a block device"* ]]
	losetup -d "$LOOP"
	LOOP=
	[ "$(sha256sum <dev.img)" = "$sum" ]
}

@test "calc: --html - writes the page alone to stdout; a page replaces only what it is told to" {
	iorate cost upload --data 750GiB --html -
	[ "$status" -eq 0 ]
	[[ "$output" == "<!DOCTYPE html>"* ]]
	[[ "$output" == *"</html>" ]]
	iorate cost upload --data 750GiB --json --html -
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--html - and --json both write to stdout"* ]]
	# The usual output is printed, and the page written beside it.
	iorate cost upload --data 750GiB --html calc.html
	[ "$status" -eq 0 ]
	[[ "$output" == upload:* ]]
	[ -s calc.html ]
	echo old >calc.html
	iorate cost config --vm aws:m5.large --disk gp3:1TiB --json --html calc.html
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.total_month_cents > 0'
	grep -q '"open":"config"' calc.html
	# A configuration the command line refuses writes no page.
	rm calc.html
	iorate cost config --vm azure-2015:A4 --disk P30 --html calc.html
	[ "$status" -eq 2 ]
	[ ! -e calc.html ]
	# Half a configuration is refused as before.
	iorate cost config --vm DS14 --html calc.html
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--vm and --disk go together"* ]]
	iorate cost upload --disk P30 --html calc.html
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--vm and --disk go together"* ]]
	[ ! -e calc.html ]
}

@test "calc: an option of the other subcommand is refused, or opens the page's other part" {
	# Without the page it would do nothing: refused, naming it and where it belongs.
	local opt
	for opt in "--vm DS14" "--disk P30" "--hours 200" "--vm-price 1" "--disk-price 2" \
		"--iops 500" "--bs 64k" "--provider aws"; do
		iorate cost upload --data 1GiB --write-price 0.05 --gb-price 0.02 $opt
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"${opt%% *} is for 'cost config'"* ]]
	done
	for opt in "--data 1GiB" "--chunk 64k" "--write-price 0.05" "--gb-price 0.02" \
		"--tier cool" "--redundancy grs" "--months 3"; do
		iorate cost config --vm DS14 --disk P30 --vm-price 1 --disk-price 2 $opt
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"${opt%% *} is for 'cost upload'"* ]]
	done
	# Both take the region and the currency.
	iorate cost config --vm aws:m5.large --disk gp3:1TiB --region us-east-1 --currency USD
	[ "$status" -eq 0 ]
	# A configuration the page cannot open on is refused before the upload is printed.
	for opt in "--vm DS14" "--vm NOPE --disk P30"; do
		iorate cost upload --data 1GiB --write-price 0.05 --gb-price 0.02 $opt --html calc.html
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ ! -e calc.html ]
	done
	# --provider alone opens the page's configuration on that provider; an unknown one is refused.
	iorate cost upload --html - --provider aws
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" |
		sed -n 's/.*<script type="application\/json" id="calc-data">\(.*\)<\/script>.*/\1/p' >prov.json
	jq -e '.config.initial.provider == "aws" and .config.initial.vm == null' prov.json
	iorate cost config --html calc.html --provider nosuch
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--provider: no catalog or provider 'nosuch'"* ]]
	[ ! -e calc.html ]
	# With --html, each part of the page opens on what was given for it.
	iorate cost upload --data 1GiB --tier cool --vm aws:m5.large --disk 2xgp3:1TiB \
		--hours 200 --iops 500 --bs 64k --html - --write-price 0.05 --gb-price 0.02
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" |
		sed -n 's/.*<script type="application\/json" id="calc-data">\(.*\)<\/script>.*/\1/p' >up.json
	jq -e '.open == "upload" and .upload.initial.data == "1073741824" and
		.upload.initial.tier == "cool" and .config.initial.provider == "aws" and
		.config.initial.vm != null and .config.initial.hours == 200 and
		.config.initial.iops == 500 and .config.initial.bs == 65536 and
		(.config.initial.groups | length) == 1' up.json
	iorate cost config --vm aws:m5.large --disk gp3:1TiB --data 750GiB --chunk 64k \
		--months 3 --redundancy grs --gb-price 0.02 --html -
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" |
		sed -n 's/.*<script type="application\/json" id="calc-data">\(.*\)<\/script>.*/\1/p' >conf.json
	jq -e '.open == "config" and .upload.initial.data == "805306368000" and
		.upload.initial.chunk == 65536 and .upload.initial.months == 3 and
		.upload.initial.redundancy == "grs" and .upload.initial.gb_price == 0.02 and
		.upload.initial.write_price == null' conf.json
}

@test "calc: the page holds the prices 'cost' uses: downloaded lists and imported sizes too" {
	local dir="$XDG_DATA_HOME/iorate/catalog"
	mkdir -p "$dir"
	cp prices.json "$dir/prices-azure-northeurope-GBP.json"
	jq -n '{catalog: "azure", vms: [{name: "Z2s_test", vcpus: 2, max_disks: 4, premium: true,
		uncached_iops: 3750, uncached_mbps: 85, source: "imported for a test", date: "2026-01-01"}]}' \
		>"$dir/imported-azure.json"
	run "$IORATE" cost upload --html - --tier cool
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" |
		sed -n 's/.*<script type="application\/json" id="calc-data">\(.*\)<\/script>.*/\1/p' >data.json
	# The downloaded list's regions, and the one 'cost upload' finds first for cool LRS.
	jq -e '[.upload.markets[] | .region + " " + .currency] | index("northeurope GBP") and
		index("westeurope EUR") and index("eastus USD")' data.json
	iorate cost upload --data 1GiB --tier cool --json
	jq -e --arg r "$(jq -r .price_region <<<"$output")" --arg c "$(jq -r .currency <<<"$output")" \
		'.upload.initial.region == $r and .upload.initial.currency == $c' data.json
	jq -e '.config.providers[] | select(.name == "azure") | .vms | map(.name) | index("Z2s_test")' \
		data.json
}
