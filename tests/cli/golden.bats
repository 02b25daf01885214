#!/usr/bin/env bats
# Golden outputs: saved results rendered in every format must come out byte for byte as the
# files in tests/cli/golden/, so a change to the result model, its JSON or a writer that alters
# a single character of text, JSON, CSV, fio JSON or HTML is seen. A change that is meant
# rewrites them: GOLDEN_UPDATE=1 bats tests/cli/golden.bats, then read the diff before
# committing it (docs/testing.md).

load helpers

GOLDEN="$BATS_TEST_DIRNAME/golden"
FIX="$BATS_TEST_DIRNAME/fixtures"
# Start times print in the local zone, the page's "generated" time is SOURCE_DATE_EPOCH's.
export TZ=UTC SOURCE_DATE_EPOCH=1700000000

# The runs, in this order, as history ids 1 to 4.
RUNS="run-cached run-ds2-p30 run-v1-open-loop run-groups"

setup() {
	cd "$BATS_TEST_TMPDIR"
	for r in $RUNS; do
		"$IORATE" history import "$FIX/$r.json" --db g.db > /dev/null
	done
}

# Compares $2 (a file made here) with the golden file $1, or writes it under GOLDEN_UPDATE=1.
golden() {
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$2" "$GOLDEN/$1"
		return 0
	fi
	diff -u "$GOLDEN/$1" "$2"
}

@test "golden: text, JSON, CSV and fio JSON of four saved runs, byte for byte" {
	local id=0
	for r in $RUNS; do
		id=$((id + 1))
		for f in text json csv fio-json; do
			"$IORATE" history show "$id" --db g.db --format "$f" > "$r.$f"
			golden "$r.$f" "$r.$f"
		done
	done
}

@test "golden: the HTML report of the three single runs, and of the run of five jobs" {
	"$IORATE" report --db g.db 1 2 3 --output three.html 2> /dev/null
	golden three.html three.html
	"$IORATE" report --db g.db 4 --output groups.html 2> /dev/null
	golden groups.html groups.html
}

@test "golden: SOURCE_DATE_EPOCH that is not a count of seconds is refused" {
	SOURCE_DATE_EPOCH=yesterday iorate report --db g.db 1 --output x.html
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"SOURCE_DATE_EPOCH: 'yesterday' is not a count of seconds"* ]]
	[ ! -e x.html ]
}
