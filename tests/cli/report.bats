#!/usr/bin/env bats
# iorate report end to end: an HTML page from history ids and JSON files. Null engine, 0.5 s.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	export IORATE_HISTORY="$BATS_TEST_TMPDIR/h.db"
}

@test "report --help explains the arguments with examples" {
	iorate report --help
	[ "$status" -eq 0 ]
	for w in -o --db --title ID FILE.json sweep Examples; do
		[[ "$output" == *"$w"* ]] || { echo "missing $w"; false; }
	done
}

@test "a run's JSON file becomes a page with SVG charts and the run's figures" {
	"$IORATE" run --engine null -d 0.5 -w 30 --json x > r.json
	iorate report r.json -o r.html
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$stderr" = "iorate: wrote r.html (1 run)" ]
	grep -q '^<!DOCTYPE html>' r.html
	[ "$(grep -o '<svg' r.html | wc -l)" -eq 4 ]
	for c in 'IOPS per second' 'MiB/s per second' 'p99 latency per second' \
		'Latency percentiles'; do
		grep -q "$c" r.html || { echo "missing chart $c"; false; }
	done
	iops=$(jq -r '.total.total.iops' r.json | awk '{printf "%.1f", $1}')
	mibps=$(jq -r '.total.total.mibps' r.json | awk '{printf "%.2f", $1}')
	grep -q "<td>$iops</td>" r.html
	grep -q "<td>$mibps</td>" r.html
	# self-contained: nothing fetched, no script
	[ "$(grep -Ec '<script|src=|href="http|@import' r.html)" -eq 0 ]
}

@test "strings from the run are escaped: a <script> in a target path stays text" {
	"$IORATE" run --engine null -d 0.5 --json x |
		jq '.targets[0].path = "<script>alert(1)</script>" | .host.hostname = "a&b"' > r.json
	iorate report r.json --title '<i>t</i>' -o r.html
	[ "$status" -eq 0 ]
	[ "$(grep -c '<script' r.html)" -eq 0 ]
	[ "$(grep -c '<i>t' r.html)" -eq 0 ]
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' r.html
	grep -q 'a&amp;b' r.html
}

@test "several runs from the history: a comparison table and charts by run" {
	"$IORATE" run --engine null -d 0.5 --json x > a.json
	"$IORATE" run --engine null -d 0.5 -b 64k --json x > b.json
	"$IORATE" history import a.json b.json --label 'day & 1' >/dev/null
	iorate report 1 2 -o -
	[ "$status" -eq 0 ]
	[[ "$output" == *"<h2>Comparison</h2>"* ]]
	[[ "$output" == *"IOPS by run"* ]]
	[[ "$output" == *"p99 latency by run"* ]]
	[[ "$output" == *"run 1: day &amp; 1"* ]]
	[ "$(echo "$output" | grep -o '<svg' | wc -l)" -eq 10 ]
	# no argument: the newest run in the history
	iorate report -o newest.html
	[ "$status" -eq 0 ]
	grep -q '<h2>run 2: day &amp; 1</h2>' newest.html
}

@test "errors: no -o is usage (2); a missing run or file is a failure (1), no page left" {
	iorate report r.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: report: needs -o FILE.html (or -o - for stdout)" ]
	iorate report missing.json -o out.html
	[ "$status" -eq 1 ]
	[ ! -e out.html ]
	"$IORATE" run --engine null -d 0.5 --json x > a.json
	"$IORATE" history import a.json >/dev/null
	iorate report 7 -o out.html
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no run 7"* ]]
	[ ! -e out.html ]
	iorate report a.json -o /proc/no/such/dir/out.html
	[ "$status" -eq 1 ]
}

@test "a sweep's JSON gives one section per run" {
	"$IORATE" sweep depth=1,2 --engine null -d 0.3 --json x > s.json
	iorate report s.json -o s.html
	[ "$status" -eq 0 ]
	grep -q '<h2>s.json #1</h2>' s.html
	grep -q '<h2>s.json #2</h2>' s.html
}
