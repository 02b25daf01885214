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
	for w in --output --png --units --db --title ID FILE.json sweep knee Examples; do
		[[ "$output" == *"$w"* ]] || { echo "missing $w"; false; }
	done
}

@test "a run's JSON file becomes a page with SVG charts and the run's figures" {
	"$IORATE" run --engine null -d 0.5 -w 30 --json x > r.json
	iorate report r.json --output r.html
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$stderr" = "iorate: wrote r.html (1 run)" ]
	grep -q '^<!DOCTYPE html>' r.html
	[ "$(grep -o '<svg' r.html | wc -l)" -eq 4 ]
	for c in 'IOPS over the run' 'Throughput over the run, MiB/s' 'p99 latency over the run' \
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
	"$IORATE" run --engine null -d 0.1 --json x |
		jq '.targets[0].path = "<script>alert(1)</script>" | .host.hostname = "a&b"' > r.json
	iorate report r.json --title '<i>t</i>' --output r.html
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
	iorate report 1 2 --output -
	[ "$status" -eq 0 ]
	[[ "$output" == *"<h2>Comparison</h2>"* ]]
	[[ "$output" == *"IOPS by run"* ]]
	[[ "$output" == *"p99 latency by run"* ]]
	[[ "$output" == *"Throughput by run, MiB/s"* ]]
	# Both carry the label they were imported under: the second is told apart by a number.
	# Runs are numbered by their history id, and each chart of a run names it and its command.
	[[ "$output" == *"<h2>#1. day &amp; 1</h2>"* ]]
	[[ "$output" == *"<h2>#2. day &amp; 1 (2)</h2>"* ]]
	[[ "$output" == *'aria-label="IOPS over the run — run #2: iorate run --engine null -d 0.5 -b 64k --json x"'* ]]
	iorate report 2 1 --output -
	[[ "$output" == *"<h2>#2. day &amp; 1</h2>"*"<h2>#1. day &amp; 1 (2)</h2>"* ]]
	[[ "$output" == *'id="run-2-day-1-iops-over-time"'* ]]
	[[ "$output" == *"From history run 2"* ]]
	[ "$(echo "$output" | grep -o '<svg' | wc -l)" -eq 11 ]
	# no argument: the newest run in the history
	iorate report --output newest.html
	[ "$status" -eq 0 ]
	grep -q '<h2>#2. day &amp; 1</h2>' newest.html
	grep -q 'From history run 2' newest.html
}

@test "errors: no --output is usage (2); a missing run or file is a failure (1), no page left" {
	iorate report r.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: report: needs --output FILE.html (or --output - for stdout) or --png DIR" ]
	iorate report missing.json --output out.html
	[ "$status" -eq 1 ]
	[ ! -e out.html ]
	"$IORATE" run --engine null -d 0.1 --json x > a.json
	"$IORATE" history import a.json >/dev/null
	iorate report 7 --output out.html
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no run 7"* ]]
	[ ! -e out.html ]
	# An output whose directory is missing is bad usage, found before anything is read.
	iorate report a.json --output /proc/no/such/dir/out.html
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --output /proc/no/such/dir/out.html: its directory does not exist" ]
}

@test "a sweep's JSON gives one section per run, each named by the value swept" {
	"$IORATE" sweep depth=1,2 --engine null -d 0.3 --json x > s.json
	iorate report s.json --output s.html
	[ "$status" -eq 0 ]
	grep -q '<h2>1. depth=1</h2>' s.html
	grep -q '<h2>2. depth=2</h2>' s.html
	grep -q '<h2>Sweep of depth</h2>' s.html
	# One sweep needs no comparison of its runs: its own section has them.
	[ "$(grep -c '<h2>Comparison</h2>' s.html)" -eq 0 ]
	[ "$(grep -c '#1</h2>' s.html)" -eq 0 ]
}

@test "a run drawn from the history is the page drawn from its file; a schema 1 file draws too" {
	"$IORATE" run --engine null -d 0.5 -w 30 --json x y > r.json
	"$IORATE" history import r.json >/dev/null
	"$IORATE" report r.json --output file.html 2>/dev/null
	"$IORATE" report 1 --output db.html 2>/dev/null
	# All but the page's generation time, the run's name and its number (a place on the page,
	# or the history id).
	same='s/<h2>#\?1\./<h2>N./; s/ — run [^"<]*//g'
	diff <(grep -v -e '^<p class="meta">' file.html | sed "$same") \
		<(grep -v -e '^<p class="meta">' db.html | sed "$same")
	grep -q 'aria-label="IOPS over the run — run 1: iorate run --engine null' file.html
	grep -q 'aria-label="IOPS over the run — run #1: iorate run --engine null' db.html
	# Named by its command (without the program's name) either way; its source told apart.
	nb=$'\xc2\xa0' # an option and its value are joined by a no-break space
	grep -qF "<h2>1. run --engine${nb}null -d${nb}0.5 -w${nb}30 --json${nb}x y</h2>" file.html
	grep -q '<p class="meta">From r.json</p>' file.html
	grep -q '<p class="meta">From history run 1</p>' db.html
	iorate report "$BATS_TEST_DIRNAME/fixtures/run-v1-open-loop.json" --output v1.html
	[ "$status" -eq 0 ]
	grep -q 'Note: saved by iorate 0.1.0 without latency histograms' v1.html
	[ "$(grep -o '<svg' v1.html | wc -l)" -eq 4 ]
}

@test "a mark's JSON gives one section per test and direction" {
	mkdir d
	"$IORATE" mark --json --runs 1 --measure 100ms --pause 0 --size 8M --engine null d \
		> m.json 2>/dev/null
	iorate report m.json --output m.html
	[ "$status" -eq 0 ]
	[ "$stderr" = "iorate: wrote m.html (8 runs)" ]
	grep -q '<h2>1. SEQ1M Q8T1 read</h2>' m.html
	grep -q '<h2>8. RND4K Q1T1 write</h2>' m.html
	[ "$(grep -c '#[0-9]</h2>' m.html)" -eq 0 ]
}
