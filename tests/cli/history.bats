#!/usr/bin/env bats
# iorate history end to end: import, list with filters, show, compare, rm, run --save, and every
# kind of run JSON going into the history and coming back out as it went in. Runs are short,
# mostly with the null engine (no file is touched); the database is per test.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	export IORATE_HISTORY="$BATS_TEST_TMPDIR/h.db"
	export TZ=UTC
}

# two_runs [SECONDS]: two saved runs, a.json (4KiB reads of x) and b.json (8KiB, 30% writes, of
# x and y), each of SECONDS (0.1: a null run spins a core for all of it).
two_runs() {
	"$IORATE" run --engine null -d "${1:-0.1}" --json x > a.json
	"$IORATE" run --engine null -d "${1:-0.1}" -b 8k -w 30 --json x y > b.json
	iorate history import a.json
	[ "$status" -eq 0 ]
	[ "$output" = "imported a.json as run 1" ]
	iorate history import --label 'day 2' b.json
	[ "$status" -eq 0 ]
	[ "$output" = "imported b.json as run 2" ]
}

@test "history --help explains every command and option with examples" {
	iorate history --help
	[ "$status" -eq 0 ]
	for w in list show import compare rm --db --host --target --since --limit --label \
		--json --csv IORATE_HISTORY XDG_DATA_HOME Examples; do
		[[ "$output" == *"$w"* ]] || { echo "missing $w"; false; }
	done
}

@test "history list on no database: empty, says so, creates nothing" {
	iorate history list
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"no history yet in $IORATE_HISTORY"* ]]
	[ ! -e h.db ]
	iorate history list --json
	[ "$status" -eq 0 ]
	json_ok '.schema == 1 and .runs == []'
	# The JSON names the database itself; the other formats leave the note to stderr.
	[ -z "$stderr" ]
	iorate history list --csv
	[[ "$stderr" == *"no history yet in $IORATE_HISTORY"* ]]
	[ ! -e h.db ]
}

@test "import then list: newest first, with the workload and figures" {
	two_runs
	[ -f h.db ]
	iorate history list
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | wc -l)" -eq 3 ]
	[[ "$(echo "$output" | sed -n 2p)" =~ ^\ +2\ .*8KiB\ +1x1\ +30\ rand\ null.*x\ y\ +\"day\ 2\"$ ]]
	[[ "$(echo "$output" | sed -n 3p)" =~ ^\ +1\ .*4KiB\ +1x1\ +0\ rand\ null.*\ x$ ]]
	# The IOPS column itself (right-aligned under its heading), not any column that happens to match.
	iops=$(jq -r '.total.iops' a.json | awk '{printf "%.0f", $1}')
	got=$(echo "$output" | awk 'NR == 1 { e = index($0, " IOPS ") + 4 }
		NR == 3 { n = split(substr($0, 1, e), f, " "); print f[n] }')
	[ "$got" = "$iops" ] || { echo "IOPS column '$got', want $iops"; false; }
}

@test "list --json and --csv carry the same runs and figures" {
	two_runs
	iorate history list --json
	[ "$status" -eq 0 ]
	json_ok '.runs | length == 2'
	json_ok '.runs[0].id == 2 and .runs[0].label == "day 2" and .runs[0].params.bs == 8192'
	json_ok '.runs[0].targets == ["x", "y"] and .runs[1].params.write == 0'
	a=$(jq '.total.iops' a.json)
	echo "$output" | jq -e ".runs[1].total.iops == $a"
	iorate history list --csv
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1 | cut -d, -f1-4)" = "id,start_unix_ms,date,label" ]
	[ "$(echo "$output" | wc -l)" -eq 3 ]
	[[ "$(echo "$output" | sed -n 2p)" == 2,*,"day 2",*,8192,1,1,30,random,direct,null,* ]]
}

@test "list filters: --host, --target, --since, --limit" {
	two_runs
	iorate history list --json --target y
	json_ok '[.runs[].id] == [2]'
	iorate history list --json --target 'x'
	json_ok '[.runs[].id] == [2, 1]'
	iorate history list --json --host "$(jq -r .host.hostname a.json)"
	json_ok '.runs | length == 2'
	iorate history list --json --host no-such-host
	json_ok '.runs == []'
	iorate history list --json --limit 1
	json_ok '[.runs[].id] == [2]'
	iorate history list --json --since 1h
	json_ok '.runs | length == 2'
	iorate history list --json --since 2999-01-01
	json_ok '.runs == []'
	iorate history list --since tomorrowish
	[ "$status" -eq 2 ]
	[[ "$stderr" == "iorate: --since: 'tomorrowish' is not a date"* ]]
}

@test "show --json prints the run exactly as 'iorate run --json' did" {
	two_runs
	"$IORATE" history show 2 --json > show.json
	cmp show.json b.json
	"$IORATE" history show 1 --json > show.json
	cmp show.json a.json
}

@test "show prints byte for byte the report the run printed: two targets, writes" {
	"$IORATE" run --engine sync -c 4M -d 0.5 -w 30 -q --save a.dat b.dat > run.txt 2> err.txt
	[ "$(cat err.txt)" = "iorate: saved as run 1 in $IORATE_HISTORY" ]
	"$IORATE" history show 1 > show.txt
	cmp show.txt run.txt
	# What makes it a real check: both targets, reads and writes, latency percentiles.
	iorate history show 1 --json
	json_ok '(.targets | length) == 2 and all(.targets[]; .read.ios > 0 and .write.ios > 0)'
	json_ok '(.total.write.hist | length) > 1 and .total.write.lat_n == .total.write.ios'
	grep -q '^Write I/O$' show.txt
	grep -q '^ p99.999 |' show.txt
}

# A run printed with the output options "$@", saved in h.db, and shown again: the same bytes.
printed_again() {
	"$IORATE" run --engine null -d 0.3 -q --save --db h.db "$@" x > printed 2> err.txt
	[ "$(cat err.txt)" = "iorate: saved as run 1 in h.db" ]
	"$IORATE" history show --db h.db 1 > shown
	cmp printed shown
}

@test "show replays --units si: MB/s as printed, --units iec overrides" {
	printed_again --units si
	grep -q ' MB/s' printed
	! grep -q 'MiB/s' printed || false
	"$IORATE" history show --db h.db 1 --units iec > iec.txt
	grep -q 'MiB/s' iec.txt
	! cmp -s iec.txt printed || false
}

@test "show replays --series: the series table as printed" {
	printed_again --series
	grep -q -i '^series' printed
	"$IORATE" history show --db h.db 1 --format text > plain.txt
	! grep -q -i '^series' plain.txt || false
}

@test "show replays --brief: the one headline line as printed" {
	printed_again --brief
	[ "$(wc -l < printed)" -eq 1 ]
	grep -q '^read [0-9,]* IOPS' printed
	# the same for a run of several jobs: a line per group and the total
	rm h.db
	"$IORATE" run --engine null -d 0.3 -q --save --db h.db --brief --job-name a x \
		--job-name b -w 100 --stonewall y > printed 2> err.txt
	"$IORATE" history show --db h.db 1 > shown
	cmp printed shown
	(( $(wc -l < printed) > 1 ))
}

@test "show replays --csv: the CSV as printed, and takes the other formats to override" {
	printed_again --csv
	head -1 printed | grep -q ','
	"$IORATE" history show --db h.db 1 --json > shown.json
	"$IORATE" history show --db h.db 1 --format csv > shown.csv
	cmp printed shown.csv
	jq -e '.schema == 2' shown.json
	iorate history show --db h.db 1 --format nope
	[ "$status" -eq 2 ]
	iorate history show --db h.db 1 --json --brief
	[ "$status" -eq 2 ]
}

@test "show replays --fio-json: fio's layout as printed" {
	printed_again --fio-json
	jq -e '.jobs | length >= 1' printed
	jq -e 'has("fio version")' printed
}

@test "show of a run saved without its output settings prints default text" {
	printed_again --units si --csv
	# As a database of schema 4 holds its runs, migrated: no output settings.
	sqlite3 h.db 'UPDATE runs SET output = NULL'
	"$IORATE" history show --db h.db 1 > shown
	"$IORATE" history show --db h.db 1 --format text --units iec > text.txt
	cmp shown text.txt
	grep -q 'MiB/s' shown
	! cmp -s shown printed || false
	sqlite3 h.db "UPDATE runs SET output = '{\"format\": 3}'"
	iorate history show --db h.db 1
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"run 1: the stored output settings are not"* ]]
}

@test "the output options are refused by the history commands that do not print them" {
	"$IORATE" run --engine null -d 0.3 -q --save --db h.db x > /dev/null 2>&1
	iorate history list --db h.db --fio-json
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--fio-json: 'iorate history list' prints"* ]]
	iorate history list --db h.db --units si
	[ "$status" -eq 2 ]
	iorate history compare --db h.db 1 1 --csv
	[ "$status" -eq 2 ]
	iorate history rm --db h.db 1 --json
	[ "$status" -eq 2 ]
	iorate history list --db h.db --format csv
	[ "$status" -eq 0 ]
	[[ "$(head -1 <<< "$output")" == id,* ]]
}

@test "compare: IOPS, MiB/s, latency per direction with the ratio, and what differs" {
	two_runs 0.5
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"run 1"*"run 2"*"ratio"* ]]
	for r in "read IOPS" "read MiB/s" "read mean µs" "read p99 µs" "write IOPS" "total IOPS" \
		"total p99 µs"; do
		echo "$output" | grep -q "^$r " || { echo "missing $r"; false; }
	done
	echo "$output" | grep -qx '  --bs: 4KiB -> 8KiB'
	echo "$output" | grep -qx '  --write: 0% -> 30%'
	echo "$output" | grep -qx '  targets: \["x"\] -> \["x","y"\]'
	echo "$output" | grep -qx '  target 2: only in run 2'
	# Half-second runs have a point per 100 ms: about five values each, which are tested.
	echo "$output" | grep -q '^beyond noise: .* values per 0.1 s (the coarser series)'
	echo "$output" | grep -q '^total IOPS .* p [<=] '
	# Latency per interval is of both directions: the total's mean and p99 are tested, a
	# direction's not (run 2 also wrote).
	line_ok '^total mean µs .* (yes|no) +p [<=] '
	line_ok '^read mean µs .* -$'
	line_ok '^read p99 µs .* -$'
	line_ok "^interval \(latency per interval is of read and write together: a direction's mean and$"
	iorate history compare 1 2 --json
	json_ok '.figures[] | select(.direction == "total" and .metric == "mean_us") |
		.p != null and .samples_a >= 3 and .untested == null'
	json_ok '[.figures[] | select(.direction == "read" and (.metric | test("_us$"))) |
		.untested] == ["no values per interval", "no values per interval"]'
	iorate history compare 1 2 --json
	[ "$status" -eq 0 ]
	json_ok '.a.id == 1 and .b.id == 2'
	json_ok '.noise_test.interval_s == 0.1 and .noise_test.min_interval_s == 0.05'
	json_ok '.figures[] | select(.direction == "total" and .metric == "iops") |
		.samples_a >= 3 and .samples_a <= 5 and .samples_b >= 3 and .samples_b <= 5'
	ratio=$(echo "$output" | jq '.figures[] | select(.direction == "total" and .metric == "iops") | .ratio')
	want=$(jq -n --slurpfile a a.json --slurpfile b b.json '$b[0].total.iops / $a[0].total.iops')
	awk -v r="$ratio" -v w="$want" 'BEGIN { exit !((r - w) ^ 2 < 1e-12) }'
	# Against a run of 1 s points, the 100 ms points are added up to seconds: 0.7 s is one
	# value (a value needs half an interval), too few; p99 per interval does not add up.
	"$IORATE" run --engine null -d 0.7 --interval 1s --json x > c.json
	"$IORATE" history import c.json > /dev/null
	"$IORATE" run --engine null -d 0.7 --json x > d.json
	"$IORATE" history import d.json > /dev/null
	iorate history compare 4 3 --json
	json_ok '.noise_test.interval_s == 1'
	json_ok '.figures[] | select(.direction == "total" and .metric == "iops") |
		.samples_a == 1 and .samples_b == 1 and .untested == "too few intervals"'
	json_ok '.figures[] | select(.direction == "total" and .metric == "p99_us") |
		.untested == "different intervals: p99 per interval does not add up"'
	json_ok '.changes[] | select(.option == "--interval") | .a == 0 and .b == 1000000000'
	iorate history compare 4 3
	echo "$output" | grep -qx '  --interval: auto -> 1s'
}

@test "compare: a cap, an open loop, a VM cap or a warm-up is listed; the IOPS change is beyond noise" {
	# Only the two capped runs need the intervals the noise test counts (ten points of 100 ms
	# in a run of 1 s).
	"$IORATE" run --engine null -d 0.5 --json x > free.json
	"$IORATE" run --engine null -d 1 --cap-iops 1000 --json x > capped.json
	"$IORATE" run --engine null -d 0.5 --rate-iops 400 --arrival poisson --vm-cap-mibps 100 \
		--warmup 0.5 --json x > open.json
	"$IORATE" run --engine null -d 0.5 --json x > free2.json
	"$IORATE" run --engine null -d 1 --cap-iops 4000 --json x > capped2.json
	for f in free capped open free2 capped2; do "$IORATE" history import $f.json > /dev/null; done
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx '  --cap-iops: off -> 1000'
	echo "$output" | grep -q "^beyond noise: Welch's t-test (two-sided)"
	# Two capped runs hold their rate second by second, so the test can tell them apart
	# whatever else the machine does (an uncapped null run's seconds vary with the load).
	iorate history compare 2 5
	echo "$output" | grep -qx '  --cap-iops: 1000 -> 4000'
	echo "$output" | grep -q '^total IOPS .* yes  p < 0.0001$'
	iorate history compare 1 3
	echo "$output" | grep -qx '  --rate-iops: off -> 400'
	echo "$output" | grep -qx '  --arrival: closed -> poisson'
	echo "$output" | grep -qx '  --vm-cap-mbps/--vm-cap-mibps: off -> 104.8576 MB/s (100 MiB/s)'
	echo "$output" | grep -qx '  --warmup: 0s -> 500ms'
	# Nothing else: a seed iorate chose is no parameter of the user's.
	[ "$(echo "$output" | sed -n '/^the runs differ in:$/,$p' | wc -l)" -eq 5 ]
	iorate history compare 1 3 --json
	json_ok '[.changes[].option] == ["--warmup", "--rate-iops", "--arrival", "--vm-cap-mbps/--vm-cap-mibps"]'
	json_ok '.changes[] | select(.key == "params.rate_iops") | .a == 0 and .b == 400'
	iorate history compare 2 5 --json
	json_ok '.figures[] | select(.direction == "total" and .metric == "iops") |
		.beyond_noise == true and .p < 0.01 and .samples_a >= 3 and .samples_b >= 3'
	json_ok '.noise_test.method == "welch_t" and .noise_test.threshold == 0.01'
	# Both runs only read: the read figures have the total's verdicts, mean latency and p99
	# as much as IOPS.
	for m in iops mean_us p99_us; do
		json_ok "[.figures[] | select(.metric == \"$m\" and .direction != \"write\")] |
			 length == 2 and .[0].p != null and .[0].p == .[1].p and
			 .[0].beyond_noise == .[1].beyond_noise"
	done
	iorate history rm 5
	[ "$status" -eq 0 ]
	# The same command twice: no parameter differs.
	iorate history compare 1 4
	echo "$output" | grep -qx 'the runs differ in no parameter'
	# The list shows the limits of each run compactly.
	iorate history list
	[ "$status" -eq 0 ]
	[[ "$(echo "$output" | sed -n 1p)" == *" LIMITS "*" TARGETS" ]]
	[[ "$(echo "$output" | sed -n 2p)" =~ \ -\ +x$ ]]
	[[ "$(echo "$output" | sed -n 3p)" == *"  vm 104.9MB/s open 400/s~ x" ]]
	[[ "$(echo "$output" | sed -n 4p)" == *"  cap 1000/s "*" x" ]]
	iorate history list --json
	json_ok '.runs[2].params.cap.iops == 1000 and .runs[1].params.rate_iops == 400'
	json_ok '.runs[1].params.arrival == "poisson" and .runs[0].params.emulate == null'
	iorate history list --csv
	[[ "$(echo "$output" | head -1)" == *",jobs,cap_iops,cap_mbps,"*",rate_iops,arrival,emulate" ]]
	[[ "$(echo "$output" | sed -n 4p)" == *",1,1000,0,0,0,0,0,0,0,0,0,0,closed," ]]
}

@test "list: the LIMITS column is as wide as its widest value; TARGETS stay aligned" {
	"$IORATE" run --engine null -d 0.1 --json x > free.json
	"$IORATE" run --engine null -d 0.1 --emulate aws:m5.large+gp3:1TiB --json x > aws.json
	"$IORATE" run --engine null -d 0.1 --cap-iops 1000 --json x > capped.json
	for f in free aws capped; do "$IORATE" history import $f.json > /dev/null; done
	iorate history list
	[ "$status" -eq 0 ]
	mapfile -t rows <<<"$output"
	(( ${#rows[@]} == 4 ))
	[[ "${rows[2]}" == *"  aws:m5.large+gp3:1TiB x" ]]
	# Byte positions: the heading's one two-byte character (µ) counted as one.
	export LC_ALL=C
	head=${rows[0]/µ/u}
	before=${head%%TARGETS*}
	for i in 1 2 3; do
		# Every row ends with its target, x, in the TARGETS column.
		(( ${#rows[i]} - 1 == ${#before} )) || { echo "row $i: ${rows[i]}" >&2; false; }
	done
	# The widest value and the heading still apart by a space.
	[[ "$head" == *" LIMITS                TARGETS" ]]
}

@test "compare: runs of several jobs name each job's differences and the jobs only one has" {
	"$IORATE" run --engine null -d 0.3 --json x > one.json
	"$IORATE" run --engine null -d 0.3 --job-name a x --job-name logs -b 8k --stonewall \
		--cap-iops 500 y --json > two.json
	"$IORATE" history import one.json two.json > /dev/null
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx '  jobs: 1 -> 2'
	echo "$output" | grep -qx '  job 1: --job-name: - -> a'
	echo "$output" | grep -qx '  job 2 (logs): only in run 2'
	iorate history compare 2 2
	echo "$output" | grep -qx 'the runs differ in no parameter'
}

@test "import: sweep JSON gives one run per row; the same file twice is not saved twice" {
	"$IORATE" sweep threads=1,2 --engine null -d 0.3 --json x > s.json
	iorate history import s.json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c 'imported s.json as run')" -eq 2 ]
	iorate history import s.json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c 'already saved as run')" -eq 2 ]
	iorate history list --json
	json_ok '[.runs[].params.threads] == [2, 1]'
}

@test "import: errors name the file and exit 1; usage errors exit 2" {
	echo '{"schema": 1, "rows": []}' > empty.json
	echo '{nope' > bad.json
	iorate history import empty.json
	[ "$status" -eq 1 ]
	[[ "$stderr" == "iorate: empty.json: holds no run"* ]]
	iorate history import bad.json
	[ "$status" -eq 1 ]
	[[ "$stderr" == "iorate: bad.json: not JSON"* ]]
	iorate history import missing.json
	[ "$status" -eq 1 ]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	iorate history import
	[ "$status" -eq 2 ]
	iorate history
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: history: needs a command: list, show, import, compare, rm or check (see 'iorate history --help')" ]
	iorate history --json
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: history: needs a command: list, show, import, compare, rm or check (see 'iorate history --help')" ]
	iorate history frob
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: history: 'frob' is not a command (list, show, import, compare, rm or check)" ]
	iorate history show abc
	[ "$status" -eq 2 ]
	iorate history compare 1
	[ "$status" -eq 2 ]
	iorate history list --label x
	[ "$status" -eq 2 ]
}

@test "rm removes one run; a missing run is a failure" {
	two_runs
	iorate history rm 1
	[ "$status" -eq 0 ]
	iorate history list --json
	json_ok '[.runs[].id] == [2]'
	iorate history rm 1
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: history: no run 1 in $IORATE_HISTORY" ]
	iorate history show 1
	[ "$status" -eq 1 ]
}

@test "--db overrides IORATE_HISTORY; a database from a newer iorate is refused" {
	"$IORATE" run --engine null -d 0.1 --json x > a.json
	iorate history import --db other.db a.json
	[ "$status" -eq 0 ]
	[ -f other.db ]
	[ ! -e h.db ]
	iorate history list --db other.db --json
	json_ok '.runs | length == 1'
	# The options may come before the command, as in every command that has subcommands.
	iorate history --db other.db --json list
	json_ok '.runs | length == 1'
	iorate history --db other.db ls --csv
	[ "$(echo "$output" | wc -l)" -eq 2 ]
	sqlite3 other.db 'UPDATE schema_version SET version = 99'
	iorate history list --db other.db
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"schema version 99 is newer than this iorate's"* ]]
}

@test "run --save keeps the run and says where; a failed save only warns" {
	"$IORATE" run --help | grep -q -- '--save'
	iorate run --engine null -d 0.5 --save --json x
	[ "$status" -eq 0 ]
	[ "$stderr" = "iorate: saved as run 1 in $IORATE_HISTORY" ]
	echo "$output" > r.json
	iorate history show 1 --json
	diff <(echo "$output") r.json
	# A database that cannot be used once the run is done costs a warning, not the run.
	echo "not a database" > bad.db
	iorate run --engine null -d 0.5 --db bad.db -q x
	[ "$status" -eq 0 ]
	[[ "$stderr" == "iorate: warning: the run was not saved: "* ]]
	# One that can be seen to be unusable beforehand is bad usage, before any I/O.
	iorate run --engine null -d 0.5 --save --db /proc/no/such/h.db -q x
	[ "$status" -eq 2 ]
	[ "$stderr" = "iorate: --db /proc/no/such/h.db: its directory does not exist" ]
}

# round_trips FILE [TOL]: every run FILE holds (iorate run, sweep or mark --json) goes into a
# fresh history and comes back out of 'history show --json' as it went in: a run's own file byte
# for byte; a run inside a sweep or mark document as the same JSON values, reals within TOL
# relative (default 0, exact; mark prints its document with 10 significant digits).
round_trips() {
	local file=$1 tol=${2:-0} db="$BATS_TEST_TMPDIR/rt.db" id backs=()
	rm -f "$db" back.*.json
	"$IORATE" history import --db "$db" "$file" > imported.txt
	for id in $(sed -n 's/^imported .* as run \([0-9]*\)$/\1/p' imported.txt); do
		"$IORATE" history show --db "$db" "$id" --json > "back.$id.json"
		backs+=("back.$id.json")
	done
	[ "${#backs[@]}" -eq "$(grep -c '^imported ' imported.txt)" ]
	same_runs "$file" "$tol" "${backs[@]}"
}

# same_runs DOC TOL BACK...: DOC holds as many runs as there are BACK files, and each is the same
# as its BACK: a run's own file byte for byte; the runs of a sweep or mark document as the same
# JSON values, integers and strings exactly, reals within TOL relative. One interpreter for them
# all: Python starts slowly on a busy machine.
same_runs() {
	python3 - "$@" <<'PY'
import json, sys
path, tol, backs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
text = open(path, "rb").read()
doc = json.loads(text)
if "params" in doc:
    runs = [doc]
else:
    runs = [r["run"] for r in doc.get("rows", []) if r.get("run")] + \
        [t[d]["result"] for t in doc.get("tests", []) for d in ("read", "write") if t.get(d)]
if not runs or len(runs) != len(backs):
    sys.exit(print("%s holds %d runs, %d came back" % (path, len(runs), len(backs)),
                   file=sys.stderr) or 1)
def same(x, y, at):
    if isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys():
        return all(same(x[k], y[k], at + "." + k) for k in x)
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return all(same(u, v, "%s[%d]" % (at, i)) for i, (u, v) in enumerate(zip(x, y)))
    if type(x) == type(y) and (x == y or (type(x) == float and
                                          abs(x - y) <= tol * max(abs(x), abs(y)))):
        return True
    print("differs at %s: %r != %r" % (at or ".", x, y), file=sys.stderr)
    return False
ok = True
for run, back in zip(runs, backs):
    if "params" in doc:
        ok = open(back, "rb").read() == text or (print("%s and %s differ" % (path, back),
                                                       file=sys.stderr) and False)
    else:
        ok = same(run, json.load(open(back)), "") and ok
sys.exit(0 if ok else 1)
PY
}

@test "every kind of run JSON goes into the history and comes back out as it went in" {
	"$IORATE" run --engine null -d 0.3 -w 30 --json x y > two.json
	round_trips two.json
	"$IORATE" run --engine sync -c 4M -d 0.5 -w 50 -s --cache buffered --fill zero -q \
		--json f.dat > sync.json
	round_trips sync.json
	"$IORATE" run --engine null -d 1 -b 8k --cap-iops 1500 --burst-iops 3000 \
		--burst-seconds 0.5 --rate-iops 2000 --arrival poisson -q --json z > open.json
	jq -e '.schedule.late_ios >= 0 and (.series | any(has("credit_iops")))' open.json
	round_trips open.json
	"$IORATE" run --engine null -d 0.2 --no-latency --ios 1000 -t 2 --trace tr.log -q \
		--json w > nolat.json
	jq -e '.total.total.lat_us == null and .total.read.lat_min_ns == null' nolat.json
	round_trips nolat.json
	"$IORATE" sweep depth=1,2 --engine null -d 0.2 -q --json x > sweep.json
	round_trips sweep.json
	mkdir d
	"$IORATE" mark --json --runs 1 --measure 100ms --pause 0 --size 8M --engine null d \
		> mark.json 2>/dev/null
	round_trips mark.json 1e-8
}

@test "a file that is not a run is refused naming the key; nothing is saved" {
	"$IORATE" run --engine null -d 0.2 --json x > r.json
	jq '.targets[0].read.hist[0][0] = 99999' r.json > bad.json
	iorate history import bad.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: bad.json: targets[0].read.hist[0]: bucket 99999 is not after -1 and below 4352" ]
	jq 'del(.params.depth)' r.json > nodepth.json
	"$IORATE" sweep depth=1,2 --engine null -d 0.2 -q --json x | jq '.rows[1].run.seconds = "1"' > s.json
	iorate history import s.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: s.json: rows[1].run.seconds: not a number" ]
	iorate history import nodepth.json
	[ "$stderr" = "iorate: nodepth.json: params.depth: missing" ]
	iorate history list --json
	json_ok '.runs == []'
}

@test "a run saved before histograms were kept (JSON schema 1) imports, shows and compares" {
	v1="$BATS_TEST_DIRNAME/fixtures/run-v1-open-loop.json"
	iorate history import "$v1"
	[ "$status" -eq 0 ]
	iorate history show 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"Note: saved by iorate 0.1.0 without latency histograms"* ]]
	[[ "$output" == *"z: 1 GiB"* ]]
	# Its percentiles come back as they were saved.
	iorate history show 1 --json
	[ "$(echo "$output" | jq -c .total.read.lat_us)" = "$(jq -c .total.read.lat_us "$v1")" ]
	json_ok '.schema == 2 and .params.arrival == "fixed" and .total.read.ios == 2000'
	"$IORATE" run --engine null -d 0.2 -b 8k --json z > new.json
	"$IORATE" history import new.json >/dev/null
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"read p99 µs"* ]]
	# The same old file again is the same run.
	iorate history import "$v1"
	[ "$output" = "$v1: already saved as run 1" ]
}

@test "an iorate-mpi run (ranks, every rank's targets) goes in and comes back out as it went in" {
	local mpi="${IORATE_MPI:-$(dirname "$IORATE")/iorate-mpi}"
	command -v mpirun >/dev/null || skip "mpirun not found (make deps installs openmpi-bin)"
	[ -x "$mpi" ] || skip "$mpi not built (MPI was not found at build time)"
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR="$BATS_TEST_TMPDIR"
	timeout 120 mpirun -q --oversubscribe -np 2 --mca btl self,vader \
		--mca oob_tcp_if_include lo --mca btl_tcp_if_include lo \
		"$mpi" run --engine null -d 0.3 -w 30 --json 'x%r' 'y%r' > mpi.json
	jq -e '(.ranks | length) == 2 and (.targets | length) == 4 and .ranks[1].first_target == 2' \
		mpi.json
	round_trips mpi.json
}

@test "the default database's directory is made on first import, as on first --save" {
	unset IORATE_HISTORY
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/fresh/data"
	"$IORATE" run --engine null -d 0.2 --json x > a.json
	iorate history import a.json
	[ "$status" -eq 0 ]
	[ -f "$XDG_DATA_HOME/iorate/history.db" ]
	[ "$(stat -c %a "$XDG_DATA_HOME/iorate")" = 700 ]
}

@test "a schema version of -1 or -100 is refused with the path, exit 1, the file unchanged" {
	two_runs
	for v in -1 -100; do
		cp h.db bad.db
		sqlite3 bad.db "UPDATE schema_version SET version = $v"
		sum=$(sha256sum < bad.db)
		for cmd in "history list" "history show 1" "history compare 1 2" "history rm 1" \
			"history import a.json" "report 1 --output r.html"; do
			iorate $cmd --db bad.db
			[ "$status" -eq 1 ] || { echo "$cmd: exit $status"; false; }
			[ "$stderr" = "iorate: history: bad.db: schema version $v is not one iorate writes (0..5): not an iorate history" ] ||
				{ echo "$cmd: $stderr"; false; }
			[ -z "$output" ]
		done
		# A run still happens and prints; only its save is refused.
		iorate run --engine null -d 0.05 --db bad.db x
		[ "$status" -eq 0 ]
		[[ "$stderr" == *"the run was not saved: bad.db: schema version $v is not one"* ]]
		iorate history check --db bad.db
		[ "$status" -eq 1 ]
		[ "$(echo "$output" | head -1)" = "refused: bad.db: schema version $v is not one iorate writes (0..5): not an iorate history" ]
		[ "$(echo "$output" | tail -1)" = "bad.db: 1 problem found" ]
		[ "$(sha256sum < bad.db)" = "$sum" ]
		[ ! -e r.html ]
	done
}

@test "one damaged run among three: list shows two and names it; check lists it and exits 1" {
	two_runs
	"$IORATE" run --engine null -d 0.1 -b 16k --json x > c.json
	iorate history import c.json
	[ "$status" -eq 0 ]
	iorate history check
	[ "$status" -eq 0 ]
	[ "$output" = "$IORATE_HISTORY: no damage found" ]
	sqlite3 h.db "UPDATE runs SET result_json = json_set(result_json, '\$.params.bs', -1) WHERE id = 2"
	sum=$(sha256sum < h.db)
	for fmt in text json csv; do
		iorate history list --format "$fmt"
		[ "$status" -eq 0 ]
		[ "$stderr" = "iorate: run 2: params.bs: not an integer from 0 to 18446744073709551615 (skipped; see 'iorate history check')" ]
	done
	iorate history list --json
	json_ok '[.runs[].id] == [3, 1]'
	iorate history list
	[ "$(echo "$output" | wc -l)" -eq 3 ]
	# One run is read: a damaged one is a failure naming it.
	iorate history show 2
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: run 2: params.bs: not an integer from 0 to 18446744073709551615" ]
	iorate history show 3
	[ "$status" -eq 0 ]
	iorate history check
	[ "$status" -eq 1 ]
	[ "$output" = "run 2: params.bs: not an integer from 0 to 18446744073709551615
$IORATE_HISTORY: 1 problem found" ]
	[ "$(sha256sum < h.db)" = "$sum" ]
}

@test "check: SQLite's integrity problems and a file that is not a history, exit 1; nothing written" {
	two_runs
	head -c 20000 h.db > cut.db
	echo 'not a database' > text.db
	sqlite3 view.db 'CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (5)'
	for f in cut.db text.db view.db; do
		sum=$(sha256sum < $f)
		iorate history check --db $f
		[ "$status" -eq 1 ]
		[ "$(echo "$output" | tail -1)" = "$f: 1 problem found" ]
		[ "$(sha256sum < $f)" = "$sum" ]
		iorate history list --db $f
		[ "$status" -eq 1 ]
		[[ "$stderr" == "iorate: history: $f: "* ]]
		[ "$(sha256sum < $f)" = "$sum" ]
	done
	iorate history check --db text.db
	[ "$output" = "integrity: file is not a database
text.db: 1 problem found" ]
	iorate history check --db view.db
	[ "$output" = "refused: view.db: the table runs is missing: not an iorate history
view.db: 1 problem found" ]
	# A database of an older schema is checked as it is: not migrated.
	sqlite3 h.db 'ALTER TABLE runs DROP COLUMN output; UPDATE schema_version SET version = 4'
	sum=$(sha256sum < h.db)
	iorate history check
	[ "$status" -eq 0 ]
	[ "$(sha256sum < h.db)" = "$sum" ]
	iorate history check --db missing.db
	[ "$status" -eq 1 ]
	[ ! -e missing.db ]
	# An empty file is a new history: nothing is wrong with it, and nothing is made in it.
	: > empty.db
	iorate history check --db empty.db
	[ "$status" -eq 0 ]
	[ "$output" = "empty.db: no damage found" ]
	[ ! -s empty.db ]
	iorate history check extra
	[ "$status" -eq 2 ]
	iorate history check --json
	[ "$status" -eq 2 ]
}
