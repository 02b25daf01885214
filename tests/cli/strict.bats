#!/usr/bin/env bats
# Input strictness: numbers are decimal, contradictory options are refused naming both, a job
# that cannot fit in memory is refused before it starts, and control bytes never reach the
# terminal raw.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# refused ARGS...: iorate exits 2 before any I/O, with one line on stderr and nothing on stdout.
refused() {
	iorate "$@"
	[ "$status" -eq 2 ] || { echo "exit $status for: $*"; return 1; }
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "stderr: $stderr"; return 1; }
}

@test "counts are decimal: -t 010 is 10 threads, -w 030 is 30 %, not octal" {
	iorate run --engine null --ios 3 -t 010 -o 010 -w 030 -q --json x
	[ "$status" -eq 0 ]
	json_ok '.params.threads == 10 and .params.depth == 10 and .params.write == 30'
	json_ok '.total.total.ios == 30'
}

@test "hexadecimal, signs and spaces in numbers are refused with the reason" {
	refused run --engine null -t 0x32 x
	[ "$stderr" = "iorate: --threads: '0x32' is hexadecimal; iorate reads numbers in decimal" ]
	refused run --engine null -w 0x32 x
	[[ "$stderr" == "iorate: --write: '0x32' is hexadecimal"* ]]
	refused run --engine null -o +4 x
	[ "$stderr" = "iorate: --depth: '+4' has a sign; give the digits alone" ]
	refused run --engine null -o -4 x
	[[ "$stderr" == *"'-4' has a sign"* ]]
	refused run --engine null -t ' 4' x
	[[ "$stderr" == *"' 4' has a space"* ]]
	refused run --engine null --seed 0x10 x
	refused run --engine null --ios 0x10 x
	refused run --engine null -d 0x10 x
	[[ "$stderr" == "iorate: --time: '0x10' is hexadecimal"* ]]
	refused run --engine null --rate-iops 0x1p4 x
	refused run --engine null -b 0x1000 x
	[[ "$stderr" == "iorate: --bs: '0x1000' is hexadecimal"* ]]
}

@test "sweep lists are decimal" {
	iorate sweep threads=08,010 --engine null --ios 2 -q --json x
	[ "$status" -eq 0 ]
	[ "$(jqv '[.rows[].threads] | map(tostring) | join(",")')" = "8,10" ]
	refused sweep threads=0x10 --engine null --ios 2 -q x
}

@test "disk counts in model specs are decimal: 010xP30 is ten disks" {
	refused model --vm azure-2015:DS3 --disk 010xP30
	[[ "$stderr" == *"10 data disks, but DS3 takes at most 8"* ]]
	iorate model --vm azure-2015:DS3 --disk 08xP30 --json
	[ "$status" -eq 0 ]
}

@test "DiskSpd flags are decimal; fio job files may use 0x as fio documents" {
	iorate diskspd --dry-run -t010 -o08 -d1 -c1M f.dat
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"--threads 10 --depth 8 "* ]]
	refused diskspd --dry-run -t0x10 -c1M f.dat
	[ "$stderr" = "iorate: diskspd: -t0x10: '0x10' is hexadecimal; iorate reads numbers in decimal" ]
	printf '[j]\nfilename=f.dat\nsize=0x100000\niodepth=010\nbs=0x1000\nioengine=null\n' >j.fio
	iorate run --job j.fio --ios 1 -q --json
	[ "$status" -eq 0 ]
	json_ok '.params.bs == 4096 and .params.depth == 10 and .params.size == 1048576'
}

@test "contradictory options are refused naming both, in run, sweep, mark and the translators" {
	refused run --engine null --ios 1 --json --csv x
	[ "$stderr" = "iorate: --json and --csv cannot be used together" ]
	refused run --engine null --ios 1 -r -s x
	[ "$stderr" = "iorate: -r and -s cannot be used together" ]
	refused run --engine null --ios 1 --sequential --random x
	[ "$stderr" = "iorate: --sequential and --random cannot be used together" ]
	refused run --engine null --ios 1 --format csv --json x
	[ "$stderr" = "iorate: --format csv and --json cannot be used together" ]
	refused run --engine null --ios 1 --cap-mbps 60 --cap-mibps 60 x
	[ "$stderr" = "iorate: --cap-mbps 60 and --cap-mibps 60 cannot be used together" ]
	refused run --engine null --ios 1 --vm-cap-mibps 60 --vm-cap-mbps 60 x
	refused sweep threads=1,2 --engine null --ios 1 --csv --json x
	[ "$stderr" = "iorate: --csv and --json cannot be used together" ]
	refused mark --json --csv .
	[ "$stderr" = "iorate: --json and --csv cannot be used together" ]
	refused diskspd --dry-run --json --csv -d1 -c1M f.dat
	[ "$stderr" = "iorate: --json and --csv cannot be used together" ]
	[ ! -e f.dat ]
	refused history list --json --csv
	[ "$stderr" = "iorate: --json and --csv cannot be used together" ]
	refused model --vm azure-2015:DS2 --disk P30 -r -s
	[ "$stderr" = "iorate: -r and -s cannot be used together" ]
}

@test "the same option twice still means the last one" {
	iorate run --engine null --ios 2 -t 2 -t 3 -s -s --csv --csv -q x
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^\*,total,6,')" -eq 1 ]
	iorate run --engine null --ios 1 --format csv --format json -q x
	[ "$status" -eq 0 ]
	json_ok '.params.pattern == "random"'
}

@test "a job whose buffers cannot fit in MemAvailable is refused before any file is made" {
	refused run -t 1024 -o 4096 -b 1G big.dat
	want='^iorate: --threads 1024 x --depth 4096 x --bs 1GiB: needs 4\.0 PiB for buffers and '
	want+='histograms, more than the [0-9]+\.[0-9] (MiB|GiB|TiB) available$'
	[[ "$stderr" =~ $want ]]
	[ ! -e big.dat ]
	refused run -t 1024 -o 1024 -b 1G --engine null a b
	want="iorate: 2 targets x --threads 1024 x --depth 1024 x --bs 1GiB: needs 2.0 PiB for"
	[[ "$stderr" == "$want"* ]]
	# The same shape at a size that fits runs.
	iorate run -t 2 -o 4 -b 1M --engine null --ios 1 -q a b
	[ "$status" -eq 0 ]
}

# raw TEXT: fails when TEXT holds a control byte other than tab and newline.
no_raw_controls() {
	if printf '%s' "$1" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; then
		echo "raw control bytes in:"
		printf '%s' "$1" | od -c | head -20
		return 1
	fi
}

BAD=$'a\e]0;owned\a\rb'      # an xterm title sequence, a bell and a carriage return
SHOWN='a\x1b]0;owned\a\rb'

@test "error messages escape control bytes in what the user typed" {
	refused run --engine null -t $'4\e[31m' x
	[ "$stderr" = "iorate: --threads: '4\x1b[31m' is not a whole number (examples: 20000, 20k, 1.5M)" ]
	iorate run --job "$BAD.fio" x
	[ "$status" -eq 1 ]
	[ "$stderr" = "iorate: --job: $SHOWN.fio: No such file or directory" ]
	no_raw_controls "$stderr"
	refused run --engine null --ios 1 --json --format $'\a'
	[ "$stderr" = "iorate: --json and --format \a cannot be used together" ]
}

@test "the text report escapes target paths and the command line" {
	iorate run --engine null --ios 20 -w 50 --seed 1 -q "$BAD"
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	[[ "$output" == *"Command line: iorate run --engine null --ios 20 -w 50 --seed 1 -q '$SHOWN'"* ]]
	# The command line, the list of targets, the total, read and write tables.
	[ "$(printf '%s\n' "$output" | grep -cF "$SHOWN")" -ge 5 ]
	# JSON keeps the exact bytes, by its own escaping.
	iorate run --engine null --ios 2 -q --json "$BAD"
	[ "$(jqv '.targets[0].path')" = "$BAD" ]
}

@test "history text tables escape paths, labels and command lines" {
	iorate run --engine null --ios 2 -q --json "$BAD"
	echo "$output" >r.json
	iorate history import --db h.db --label $'before\e[8m' r.json
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	iorate history list --db h.db
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	[[ "$output" == *"$SHOWN"*'"before\x1b[8m"'* ]]
	# show prints the run's own report, which escapes what the run was given
	iorate history show --db h.db 1
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	[[ "$output" == *"Command line: iorate run --engine null --ios 2 -q --json '$SHOWN'"* ]]
	[[ "$output" == *"	  $SHOWN: "* ]]
}

@test "sweep's table and the translators' explanation escape what the user typed" {
	iorate sweep threads=1,2 --engine null --ios 1 -q "$BAD"
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	cmd="iorate sweep threads=1,2 --engine null --ios 1 -q '$SHOWN'"
	[[ "$output" == *"Command line: $cmd"* ]]
	iorate diskspd --dry-run -d1 -c1M "$BAD"
	[ "$status" -eq 0 ]
	no_raw_controls "$stderr"
	[[ "$stderr" == *"  $SHOWN"*"target"* ]]
	[[ "$stderr" == *"  = iorate run "*" $SHOWN"* ]]
	[ ! -e "$BAD" ]
}

@test "an unknown option, engine or fio word is answered with the closest one" {
	refused run --blocksize 4k x
	[ "$stderr" = "iorate: --blocksize: unknown option; did you mean --bs? (see 'iorate run --help')" ]
	refused run --iodepht 4 x
	[[ "$stderr" == *"--iodepht: unknown option; did you mean --depth?"* ]]
	refused run --engine nul x
	[[ "$stderr" == *"'nul' is not an engine of this build"*"did you mean null?" ]]
	iorate fio --iodepht=4 --name=a --filename=f --size=1m
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--iodepht=4: not an option of fio 3.33; did you mean --iodepth?"* ]]
	[ ! -e f ]
	iorate fio --name=a --rw=randreed --ioengine=libai --filename=f --size=1m
	[[ "$stderr" == *"did you mean randread?"* ]]
	[[ "$stderr" == *"--ioengine=libai: is not an engine of fio; did you mean libaio?"* ]]
	# Commands, subcommands and the options of the foreign front ends alike.
	refused rn x
	[ "$stderr" = "iorate: 'rn' is not a command; did you mean run? (see 'iorate --help')" ]
	refused history lst
	[[ "$stderr" == "iorate: history: 'lst' is not a command; did you mean list?"* ]]
	refused diskspd --dryrun -c1M x
	[[ "$stderr" == *"--dryrun: not an iorate option here; did you mean --dry-run?"* ]]
	refused sweep --iodepht 4 x
	[[ "$stderr" == *"--iodepht: unknown option; did you mean --depth?"* ]]
}

@test "fio's engine names and k/M/G counts are taken: --engine psync, --ios 2k, --cap-iops 1M" {
	iorate run --engine psync --ios 2k --cap-iops 1M --size 64k -q --json f
	[ "$status" -eq 0 ]
	json_ok '.params.engine == "sync" and .total.total.ios == 2000'
}
