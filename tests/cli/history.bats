#!/usr/bin/env bats
# iorate history end to end: import, list with filters, show, compare, rm, run --save.
# Runs are 0.5 s with the null engine (no file is touched); the database is per test.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	export IORATE_HISTORY="$BATS_TEST_TMPDIR/h.db"
	export TZ=UTC
}

# Two saved runs: a.json (4KiB reads of x) and b.json (8KiB, 30% writes, of x and y).
two_runs() {
	"$IORATE" run --engine null -d 0.5 --json x > a.json
	"$IORATE" run --engine null -d 0.5 -b 8k -w 30 --json x y > b.json
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
	iorate history show 2 --json
	[ "$status" -eq 0 ]
	diff <(echo "$output") b.json
	iorate history show 1
	[ "$status" -eq 0 ]
	[[ "$output" == "run 1  "* ]]
	[[ "$output" == *"command: iorate run --engine null -d 0.5 --json x"* ]]
	[[ "$output" == *"4KiB random, 0% writes"* ]]
}

@test "compare: IOPS, MiB/s, latency per direction with the ratio, and what differs" {
	two_runs
	iorate history compare 1 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"run 1"*"run 2"*"ratio"* ]]
	for r in "read IOPS" "read MiB/s" "read mean µs" "read p99 µs" "write IOPS" "total IOPS" \
		"total p99 µs"; do
		echo "$output" | grep -q "^$r " || { echo "missing $r"; false; }
	done
	[[ "$output" == *"bs: 4096 -> 8192"* ]]
	[[ "$output" == *"write: 0 -> 30"* ]]
	iorate history compare 1 2 --json
	[ "$status" -eq 0 ]
	json_ok '.a.id == 1 and .b.id == 2'
	ratio=$(echo "$output" | jq '.figures[] | select(.direction == "total" and .metric == "iops") | .ratio')
	want=$(jq -n --slurpfile a a.json --slurpfile b b.json '$b[0].total.iops / $a[0].total.iops')
	awk -v r="$ratio" -v w="$want" 'BEGIN { exit !((r - w) ^ 2 < 1e-12) }'
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
	iorate history frob
	[ "$status" -eq 2 ]
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
	"$IORATE" run --engine null -d 0.5 --json x > a.json
	iorate history import --db other.db a.json
	[ "$status" -eq 0 ]
	[ -f other.db ]
	[ ! -e h.db ]
	iorate history list --db other.db --json
	json_ok '.runs | length == 1'
	command -v sqlite3 >/dev/null || skip "no sqlite3 command to age the database"
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
	iorate run --engine null -d 0.5 --db /proc/no/such/h.db -q x
	[ "$status" -eq 0 ]
	[[ "$stderr" == "iorate: warning: the run was not saved: "* ]]
}
