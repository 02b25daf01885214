#!/usr/bin/env bats
# The report's charts as a person sees them: pages of a sweep, a mark and twelve runs laid out by
# headless Chromium, every text's box measured in the browser (tests/cli/fixtures/
# chart-check.js) and none overlapping another; the same charts as PNG files (--png), each twice
# its SVG's size and not blank (png_ok, tests/cli/png-info.py). Null engine, runs of 0.1 to
# 0.2 s. Without Chromium the overlap checks skip, except in CI (CI=true), where they fail.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	export IORATE_HISTORY="$BATS_TEST_TMPDIR/h.db"
}

# no_chromium WHY: the overlap checks cannot run. Skipped on a developer's machine; in CI
# (CI=true), where 'make deps' installs Chromium, that is a failure, not a silent skip.
no_chromium() {
	if [ "${CI:-}" = true ]; then
		echo "CI=true and $1: the chart-overlap check must run in CI" >&2
		return 1
	fi
	skip "$1"
}

# chromium_check PAGE: Chromium's verdict on PAGE's charts, "charts=N texts=N overlaps=N
# outside=N" and a line per fault, in $check. Skips when Chromium cannot start here (fails in
# CI).
chromium_check() {
	local dom
	command -v chromium >/dev/null ||
		{ no_chromium "chromium is not installed ('make deps' installs it)"; return 1; }
	{ cat "$1"; echo '<script>'; cat "$BATS_TEST_DIRNAME/fixtures/chart-check.js"
	  echo '</script>'; } >"$1.check.html"
	# Its profile and caches in the test's directory; no sandbox (Chromium runs none as root),
	# and /tmp rather than a small /dev/shm for its shared memory.
	dom=$(HOME="$BATS_TEST_TMPDIR" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/.config" \
		XDG_CACHE_HOME="$BATS_TEST_TMPDIR/.cache" timeout 120 chromium --headless \
		--no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
		--window-size=1400,1000 \
		--user-data-dir="$BATS_TEST_TMPDIR/.chromium" \
		--dump-dom "file://$BATS_TEST_TMPDIR/$1.check.html" 2>"$1.chromium.err") ||
		{ no_chromium "chromium could not start here: $(tail -1 "$1.chromium.err")"
		  return 1; }
	check=$(printf '%s\n' "$dom" | sed -n '/<pre id="chart-check">/,/<\/pre>/p' |
		sed 's/<[^>]*>//g')
	[ -n "$check" ] || { echo "the check did not run in the page" >&2; return 1; }
}

# no_overlap PAGE: every chart of PAGE measured, no text over another or outside its chart.
no_overlap() {
	chromium_check "$1"
	local svgs
	svgs=$(grep -o '<svg class="chart"' "$1" | wc -l)
	[[ "$check" == "charts=$svgs texts="*" overlaps=0 outside=0"* ]] ||
		{ echo "$1: $check" >&2; return 1; }
	[ "$svgs" -gt 0 ]
}

# png_ok PAGE DIR: DIR holds a PNG for each chart of PAGE and nothing else, each twice the
# width and height of the SVG of its name in PAGE and not blank (20 distinct pixel values or
# more; tests/cli/png-info.py).
png_ok() {
	local page=$1 dir=$2 svgs files n=0 png pw ph distinct svg w h
	svgs=$(grep -o '<svg class="chart"' "$page" | wc -l)
	files=$(find "$dir" -mindepth 1 | wc -l)
	(( svgs > 0 && files == svgs )) ||
		{ echo "$dir: $files files for the $svgs charts of $page" >&2; return 1; }
	while read -r png pw ph distinct; do
		svg=$(grep -o "<svg class=\"chart\"[^>]*id=\"$(basename "$png" .png)\"" "$page")
		w=$(sed -n 's/.* width="\([0-9]*\)".*/\1/p' <<<"$svg")
		h=$(sed -n 's/.* height="\([0-9]*\)".*/\1/p' <<<"$svg")
		[[ -n "$w" && -n "$h" ]] || { echo "$png: no chart of its name in $page" >&2; return 1; }
		(( pw == w * 2 && ph == h * 2 )) ||
			{ echo "$png: ${pw}x$ph, its SVG ${w}x$h" >&2; return 1; }
		(( distinct >= 20 )) || { echo "$png: $distinct colours" >&2; return 1; }
		n=$((n + 1))
	done < <(paste -d ' ' <(printf '%s\n' "$dir"/*.png) \
		<(python3 "$BATS_TEST_DIRNAME/png-info.py" "$dir"/*.png))
	(( n == svgs )) || { echo "$dir: $n PNGs read of $svgs" >&2; return 1; }
}

@test "the check finds texts that overlap or leave their chart (it can fail)" {
	cp "$BATS_TEST_DIRNAME/fixtures/overlap.html" page.html
	chromium_check page.html
	[[ "$check" == "charts=1 texts=4 overlaps=1 outside=1"* ]]
	[[ "$check" == *'"first label" and "second label"'* ]]
	[[ "$check" == *'outside: chart 0: "out of the chart"'* ]]
}

@test "a sweep: figures against the value swept, the load-latency knee, no overlapping text" {
	"$IORATE" sweep depth=1,2,4,8,16 --engine null -d 0.1 --json x > s.json
	iorate report s.json --output s.html
	[ "$status" -eq 0 ]
	for c in 'IOPS by depth' 'Throughput by depth, MiB/s' 'p99 latency by depth' \
		'Load and latency: p99 against IOPS'; do
		grep -q "aria-label=\"$c\"" s.html || { echo "missing chart $c"; false; }
	done
	# The x axis is what was swept, each point named by its value.
	grep -q '>depth: I/Os in flight per thread (log scale)</text>' s.html
	for v in 1 2 4 8 16; do grep -q "<h2>[0-9]*. depth=$v</h2>" s.html; done
	# The knee is marked on the curve and named under it, or its absence is said.
	grep -Eq '<p class="knee">(Knee at depth=[0-9]+ |No knee: )' s.html
	if grep -q 'Knee at' s.html; then grep -q '>knee</text>' s.html; fi
	no_overlap s.html
}

@test "a mark: tests named as CrystalDiskMark does, figures in the units of its own table" {
	mkdir d
	"$IORATE" mark --json --runs 1 --measure 100ms --pause 0 --size 8M --engine null d \
		> m.json 2>/dev/null
	mkdir mp
	iorate report m.json --output m.html --png mp
	[ "$status" -eq 0 ]
	png_ok m.html mp
	grep -q '<h2>1. SEQ1M Q8T1 read</h2>' m.html
	grep -q '<h2>2. SEQ1M Q8T1 write</h2>' m.html
	grep -q 'aria-label="Throughput by test, MB/s"' m.html
	# The mark counted MB/s: the page does too, the same figure its table printed.
	mbps=$(printf '%.2f' "$(jq -r '.tests[0].read.mbps' m.json)")
	grep -q "<td class=\"l\">SEQ1M Q8T1</td><td>$mbps</td>" m.html
	[ "$(grep -c 'MiB/s' m.html)" -eq 0 ]
	no_overlap m.html
	# A mark in kdiskmark's units, or of no units written (si, mark's default), printed MB/s.
	jq '.units = "kdiskmark"' m.json > k.json
	jq 'del(.units)' m.json > n.json
	for f in k n; do
		iorate report $f.json --output $f.html
		[ "$status" -eq 0 ]
		grep -q 'aria-label="Throughput by test, MB/s"' $f.html
		[ "$(grep -c 'MiB/s' $f.html)" -eq 0 ]
	done
	# --units iec: MiB/s everywhere, tables and charts alike.
	iorate report m.json --units iec --output iec.html
	mibps=$(printf '%.2f' "$(jq -r '.tests[0].read.mibps' m.json)")
	grep -q "<td class=\"l\">SEQ1M Q8T1</td><td>$mibps</td>" iec.html
	grep -q 'aria-label="Throughput by test, MiB/s"' iec.html
	[ "$(grep -c 'MB/s' iec.html)" -eq 0 ]
	iorate report m.json --units metric --output x.html
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--units: 'metric' is not a unit system (iec: MiB/s, si: MB/s)"* ]]
}

# nightly [BS...]: runs saved under long file names, differing in block size (4k to 128k: twelve
# runs, or the sizes given) and writes (0 and 30 %).
nightly() {
	local b w sizes=("$@")
	[ $# -gt 0 ] || sizes=(4k 8k 16k 32k 64k 128k)
	for b in "${sizes[@]}"; do
		for w in 0 30; do
			"$IORATE" run --engine null -d 0.1 -b "$b" -w "$w" --json target > \
				"results-of-the-nightly-storage-benchmark-on-the-build-host-$b-$w.json"
		done
	done
}

@test "twelve runs under long file names: named by what tells them apart, no overlapping text" {
	nightly
	# (Their PNGs are the --png tests' concern: 51 charts rendered would only take time.)
	iorate report results-*.json --output c.html
	[ "$status" -eq 0 ]
	nb=$'\xc2\xa0'
	grep -qF "<h2>1. -b${nb}128k -w${nb}0</h2>" c.html
	grep -qF ">-b${nb}4k -w${nb}30</a>" c.html
	[ "$(grep -c 'results-of-the-nightly.*#' c.html)" -eq 0 ]
	# 3 comparison charts, 4 per run.
	[ "$(grep -o '<svg class="chart"' c.html | wc -l)" -eq 51 ]
	no_overlap c.html
}

@test "--png DIR: every chart of the page as a PNG, twice its SVG's size, none blank" {
	"$IORATE" sweep depth=1,4,16 --engine null -d 0.1 --json x > s.json
	mkdir charts
	iorate report s.json --output s.html --png charts
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"iorate: wrote 16 charts into charts"* ]]
	[ "$(ls charts | wc -l)" -eq 16 ]
	[ "$(grep -o '<svg class="chart"' s.html | wc -l)" -eq 16 ]
	for f in sweep-1-iops-by-depth sweep-1-throughput-by-depth sweep-1-p99-by-depth \
		sweep-1-p99-against-iops run-1-depth-1-iops-over-time \
		run-3-depth-16-latency-percentiles; do
		[ -f "charts/$f.png" ] || { echo "missing $f.png"; false; }
	done
	png_ok s.html charts
}

@test "--png alone writes the charts and no page; a missing DIR is made, a file is usage" {
	nightly 4k 8k
	mkdir out
	iorate report results-*-4k-0.json results-*-8k-0.json --png out
	[ "$status" -eq 0 ]
	[ "$stderr" = "iorate: wrote 11 charts into out" ]
	[ -f out/comparison-iops-by-run.png ]
	[ -f out/comparison-throughput-by-run.png ]
	[ -f out/comparison-p99-by-run.png ]
	[ "$(ls | grep -c '\.html$')" -eq 0 ]
	read -r _ _ distinct < <(python3 "$BATS_TEST_DIRNAME/png-info.py" out/comparison-p99-by-run.png)
	[ "$distinct" -ge 20 ]
	# A DIR that does not exist yet is made; one whose parent is missing, or a dangling
	# link (made through the link, it would land elsewhere), is refused and nothing made.
	iorate report results-*-4k-0.json --png new
	[ "$status" -eq 0 ]
	[ -d new ] && [ ! -L new ] && [ "$(ls new | wc -l)" -gt 0 ]
	iorate report results-*-4k-0.json --png no/such/dir
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --png no/such/dir: its directory does not exist" ]
	ln -s "$BATS_TEST_TMPDIR/elsewhere" dangling
	iorate report results-*-4k-0.json --png dangling
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --png dangling: not a directory but a symbolic link" ]
	[ ! -e "$BATS_TEST_TMPDIR/elsewhere" ]
	iorate report results-*-4k-0.json --png results-of-the-nightly-storage-benchmark-on-the-build-host-4k-0.json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *": not a directory but a regular file" ]]
	# Nothing was written into a directory refused, nor a partial file left in one accepted.
	[ "$(ls out | wc -l)" -eq 11 ]
	[ -z "$(find out -name '.*')" ]
}

@test "a run whose strings hold control characters still renders: XML gets U+FFFD instead" {
	"$IORATE" run --engine null -d 0.1 --json x |
		jq '.command_line = "iorate run \u0001\u001b[31m <b> x"' > r.json
	mkdir out
	iorate report r.json --output r.html --png out
	[ "$status" -eq 0 ]
	[ "$(ls out | wc -l)" -eq 4 ]
	grep -qF "<h2>1. run "$'\xef\xbf\xbd\xef\xbf\xbd'"[31m &lt;b&gt; x</h2>" r.html
	[ "$(grep -c $'\x01' r.html)" -eq 0 ]
}
