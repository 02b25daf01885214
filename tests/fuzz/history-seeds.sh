#!/bin/sh
# usage: history-seeds.sh IORATE DIR
# Makes fuzz_history's seeds in DIR, as SQLite's own test corpora are made: a valid history of
# two runs written by IORATE (its pages made 512 bytes, so each seed stays under 64 KiB), then
# copies of it damaged one way each: cut short, a bad page size, schema_version values iorate
# never writes, older schemas to migrate (1, 3, 4), and a run row with hostile values. Needs
# sqlite3.
set -eu
iorate=$1
dir=$2
tmp=$(mktemp -d /tmp/iorate-history-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"

"$iorate" run --engine null -d 0.05 --db "$tmp/v.db" x >/dev/null 2>&1
"$iorate" run --engine null -d 0.05 -b 8k -w 30 --json --db "$tmp/v.db" x >/dev/null 2>&1
sqlite3 "$tmp/v.db" "PRAGMA page_size = 512; VACUUM;"
cp "$tmp/v.db" "$dir/valid.db"

# copy NAME SQL: the valid history with SQL run on it (no SQL: the file as it is).
copy() {
	cp "$tmp/v.db" "$dir/$1.db"
	[ -z "${2:-}" ] || sqlite3 "$dir/$1.db" "$2"
}
# poke NAME OFFSET OCTAL-BYTES: the valid history with bytes replaced at OFFSET.
poke() {
	cp "$tmp/v.db" "$dir/$1.db"
	printf "$3" | dd of="$dir/$1.db" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

head -c 20000 "$tmp/v.db" >"$dir/truncated.db"
head -c 100 "$tmp/v.db" >"$dir/truncated-header.db"
poke pagesize-invalid 16 '\000\003'
poke pagesize-1024 16 '\004\000'
poke pagesize-65536 16 '\000\001'
copy version-minus-1 "UPDATE schema_version SET version = -1"
copy version-minus-100 "UPDATE schema_version SET version = -100"
copy version-int64-max "UPDATE schema_version SET version = 9223372036854775807"
copy version-text "UPDATE schema_version SET version = 'text'"
copy version-real "UPDATE schema_version SET version = 4.5"
copy version-two-rows "INSERT INTO schema_version VALUES (3)"
copy version-no-row "DELETE FROM schema_version"
copy schema-4 "ALTER TABLE runs DROP COLUMN output; UPDATE schema_version SET version = 4"
copy schema-3 "ALTER TABLE runs DROP COLUMN output; DROP TABLE devices;
	UPDATE schema_version SET version = 3"
# A history of schema 1 (runs without histograms), as the unit tests' fixture holds it.
sqlite3 "$tmp/v1.db" <"$(dirname "$0")/../unit/fixtures/history-v1.sql"
sqlite3 "$tmp/v1.db" "PRAGMA page_size = 512; VACUUM;"
cp "$tmp/v1.db" "$dir/schema-1.db"
copy runs-a-view "ALTER TABLE runs RENAME TO r; CREATE VIEW runs AS SELECT * FROM r"
copy trigger "CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM jobs; END"
copy orphan-rows "PRAGMA foreign_keys = OFF; DELETE FROM runs WHERE id = 1"
copy row-huge-sizes "UPDATE runs SET result_json = json_set(result_json,
	'$.params.bs', 9223372036854775807, '$.params.threads', 4294967296,
	'$.params.depth', 1e300, '$.total.read.ios', 18446744073709551615) WHERE id = 2"
copy row-negative-sizes "UPDATE runs SET result_json = json_set(result_json,
	'$.params.bs', -1, '$.params.threads', -100, '$.seconds', -1e308,
	'$.total.read.hist[0][0]', -5, '$.total.read.hist[1][1]', -1) WHERE id = 2"
copy row-bad-json "UPDATE runs SET result_json = '{\"schema\": 2, \"params\": [' WHERE id = 2"
copy row-json-wrong-shape "UPDATE runs SET result_json = json_set(result_json,
	'$.targets', 'x', '$.params', json('[1,2]'), '$.total.read.hist', json('{}')) WHERE id = 2"
copy row-nul-bytes "UPDATE runs SET result_json = CAST(x'7b22736368656d61223a00327d' AS TEXT),
	label = CAST(x'6100620a1b5b316d' AS TEXT) WHERE id = 2"
copy row-not-text "UPDATE runs SET result_json = x'7b7d', label = 12 WHERE id = 2;
	UPDATE runs SET output = 7 WHERE id = 1"
copy row-bad-output "UPDATE runs SET output = '{\"format\": \"\", \"units\": 1}' WHERE id = 2"
for f in "$dir"/*.db; do
	[ "$(wc -c <"$f")" -lt 65536 ] || { echo "$f: 64 KiB or more" >&2; exit 1; }
done
