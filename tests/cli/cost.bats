#!/usr/bin/env bats
# 'iorate cost' where the user is: the region and currency of the settings file, the built-in
# lists and what is not in them, geo-replication and early deletion, and the calculator page
# opening on what is asked for or refused. Needs $IORATE.

load helpers

FIX="$BATS_TEST_DIRNAME/fixtures/calc"

# Fails, saying why, unless a line of $output is $1 exactly (line_ok takes a regex).
has_line() {
	printf '%s\n' "$output" | grep -Fxq -- "$1" || {
		echo "no line of the output is: $1" >&2
		return 1
	}
}

settings() {
	mkdir -p "$XDG_CONFIG_HOME/iorate"
	printf '%s\n' "$@" >"$XDG_CONFIG_HOME/iorate/config"
}

@test "cost: the settings file's region and currency are used, said, and the flags win" {
	settings '# where the prices are' 'region = westus' 'currency = GBP'
	iorate cost upload --data 750GiB --tier cool
	[ "$status" -eq 0 ]
	has_line "prices in:     region westus (from $XDG_CONFIG_HOME/iorate/config), currency GBP (from $XDG_CONFIG_HOME/iorate/config)"
	[[ "$output" == *"storage:       750.00 GB x 0.00843471 per GB-month x 1 = 6.33 GBP"* ]]
	[[ "$output" == *"converted from USD at 0.733453 GBP per USD"* ]]
	# The flag wins, and is not said to come from the file.
	iorate cost upload --data 750GiB --tier cool --region eastus --currency USD
	[ "$status" -eq 0 ]
	[[ "$output" == *"x 0.0152 per GB-month"* ]]
	[[ "$output" != *"prices in:"* ]]
	iorate cost upload --data 750GiB --tier cool --json
	[ "$(jq -r '.region_from + " " + .currency' <<<"$output")" = \
		"$XDG_CONFIG_HOME/iorate/config GBP" ]
	# Under $HOME the file is shown as ~/.config/iorate/config.
	mkdir -p .config/iorate
	printf 'region = westus\n' >.config/iorate/config
	HOME=$BATS_TEST_TMPDIR XDG_CONFIG_HOME= iorate cost upload --data 1GiB
	[ "$status" -eq 0 ]
	has_line "prices in:     region westus (from ~/.config/iorate/config)"
}

@test "cost: a bad settings line is refused with its file and line (exit 2)" {
	settings 'region = westus' '' 'zone = 3'
	iorate cost upload --data 1GiB
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "iorate: $XDG_CONFIG_HOME/iorate/config:3: unknown key 'zone' (known: region, currency)"* ]]
	settings 'region northeurope'
	iorate plan --iops 1000
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"config:1: 'region northeurope' is not 'key = value'"* ]]
}

@test "cost: North Europe in GBP (the StorSimple post's setting) is priced offline; other regions named" {
	iorate cost upload --data 750GiB --tier cool --redundancy ragrs --region northeurope \
		--currency GBP
	[ "$status" -eq 0 ]
	has_line "storage:       750.00 GB x 0.0183363 per GB-month x 1 = 13.75 GBP"
	has_line "geo-replication: 750.00 GB written x 0.0146691 per GB = 11.00 GBP"
	[[ "$output" == *"prices from:   converted from USD at 0.733453 GBP per USD (ECB"* ]]
	[[ "$output" == *"regions/northeurope/storage.json"*"(region northeurope, dated 2026-08-15"* ]]
	iorate cost upload --data 750GiB --region francecentral --currency GBP
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no catalog price for hot lrs storage in francecentral in GBP"* ]]
	[[ "$stderr" == *"'iorate catalog prices --provider azure --region francecentral --currency GBP'"* ]]
}

@test "cost: GRS and RA-GRS uploads pay the geo-replication transfer, or say it is unknown" {
	# Azure "Blob storage pricing": "Geo-replication data transfer", per GB written; westus
	# has 0.02 USD (infracost's storage_queue_test.golden), eastus none built in.
	iorate cost upload --data 750GiB --redundancy grs --region westus --currency USD
	[ "$status" -eq 0 ]
	has_line "geo-replication: 750.00 GB written x 0.02 per GB = 15.00 USD"
	has_line "total:         66.25 USD"
	iorate cost upload --data 750GiB --redundancy grs --region eastus --json
	[ "$status" -eq 0 ]
	jq -e '.geo_replicated and .geo_cost == null and .total_cents == 4656' <<<"$output"
	iorate cost upload --data 750GiB --redundancy grs --region eastus
	has_line "geo-replication: 750.00 GB written x price unknown, not in the total"
	has_line "total:         46.56 USD (without geo-replication: price unknown)"
	[[ "$output" == *"'iorate catalog prices --provider azure --region eastus --currency USD' downloads it, or give --geo-price"* ]]
	iorate cost upload --data 750GiB --redundancy grs --region eastus --geo-price 0.02
	has_line "total:         61.56 USD"
	iorate cost upload --data 750GiB --redundancy lrs --region westus
	[[ "$output" != *"geo-replication"* ]]
}

@test "cost: cool, cold and archive bill their minimum days: early deletion on its own line" {
	# Azure "Access tiers for blob data": 30, 90 and 180 days, billed pro rata when sooner.
	iorate cost upload --data 100GiB --tier archive --region eastus
	[ "$status" -eq 0 ]
	has_line "retention:     archive bills 180 days at least; kept 30 days (assumed: the months stored; --keep-days DAYS)"
	has_line "early deletion: 100.00 GB x 0.00099 per GB-month x 150/30 days = 0.50 USD"
	iorate cost upload --data 100GiB --tier cool --keep-days 21 --region eastus
	has_line "storage:       100.00 GB x 0.0152 per GB-month x 21/30 days = 1.06 USD"
	has_line "early deletion: 100.00 GB x 0.0152 per GB-month x 9/30 days = 0.46 USD"
	iorate cost upload --data 100GiB --tier cool --keep-days 30 --region eastus
	[[ "$output" != *"early deletion"* ]]
	iorate cost upload --data 100GiB --tier hot --region eastus
	[[ "$output" != *"retention"* ]]
	iorate cost upload --data 100GiB --tier cool --keep-days 21 --months 2
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--keep-days and --months"* ]]
}

@test "cost: the page opens on the region and currency asked for, or is refused (exit 2)" {
	iorate cost upload --region northeurope --currency GBP --html -
	[ "$status" -eq 0 ]
	data=$(sed -n 's|.*<script type="application/json" id="calc-data">\(.*\)</script>.*|\1|p' <<<"$output")
	[ -n "$data" ]
	jq -e '.upload.initial.region == "northeurope" and .upload.initial.currency == "GBP" and
		([.upload.markets[] | select(.region == "northeurope" and .currency == "GBP")] |
		 length == 1) and
		([.upload.prices[] | select(.currency == "GBP" and .region == "northeurope")] |
		 length > 0)' <<<"$data"
	# Not built in: refused with the reason and the command, no page written.
	iorate cost upload --region francecentral --currency GBP --html calc.html
	[ "$status" -eq 2 ]
	[ ! -e calc.html ]
	[[ "$stderr" == *"no storage prices for francecentral in GBP"* ]]
	[[ "$stderr" == *"'iorate catalog prices --provider azure --region francecentral --currency GBP' downloads them"* ]]
	# The settings file's region is asked for just the same.
	settings 'region = mars'
	iorate cost config --html calc.html
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no VM prices for mars"* ]]
	[ ! -e calc.html ]
}
