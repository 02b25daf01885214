#!/usr/bin/env bats
# Allocation failures: each command below is run under AddressSanitizer with its Nth allocation
# failing (build/iorate-san-failalloc, tests/alloc/failalloc.c; libc's and the libraries'
# allocations included), for N = 1, 1 + STRIDE, ... until a run reaches no Nth allocation, which
# must then succeed. A run whose allocation failed must exit 1 or 2 with a last line
# "iorate: ...", no sanitizer report (LeakSanitizer's included) and no file left behind that was
# not there before it (but a history that holds the run it saved); a run that absorbs the failure
# (a stdio buffer it can do without) exits 0.
# Small commands step over every allocation; the longer ones stride (the STRIDE of each row),
# which keeps the file to a few hundred runs. tests/run-all.sh runs it after the unit tests;
# alone: make build/iorate build/iorate-san-failalloc && FAILALLOC=$PWD/build/iorate-san-failalloc \
#   IORATE=$PWD/build/iorate bats tests/alloc/failalloc.bats

: "${FAILALLOC:?set FAILALLOC to build/iorate-san-failalloc}"
: "${IORATE:?set IORATE to build/iorate}"
export ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export XDG_DATA_HOME="$BATS_TEST_TMPDIR/xdg-data" IORATE_CATALOG_DIR="$BATS_TEST_TMPDIR/none"

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# fail_each STRIDE CMD...: as the file's header says. STRIDE/UPTO/DENSE: every DENSE-th allocation
# up to UPTO (where a command opens its files), then every STRIDE-th.
fail_each() {
	local stride=${1%%/*} upto="" dense=1 n=1 before after rc count fired err
	local tmp=$BATS_TEST_TMPDIR/.fa
	if [[ "$1" == */*/* ]]; then
		upto=${1#*/}
		dense=${upto#*/}
		upto=${upto%/*}
	fi
	shift
	mkdir -p "$tmp"
	before=$(ls -A | sort)
	while :; do
		rc=0
		IORATE_FAIL_ALLOC=$n IORATE_FAIL_ALLOC_OUT="$tmp/count" \
			"$FAILALLOC" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
		err=$(cat "$tmp/err")
		count="" fired=""
		[ ! -s "$tmp/count" ] || read -r count fired <"$tmp/count"
		rm -f "$tmp/count"
		if [[ -z "$count" || "$err" == *Sanitizer* || "$err" == *"runtime error"* ]]; then
			echo "allocation $n failing: exit $rc: $err" >&2
			return 1
		fi
		after=$(ls -A | sort)
		if [ "$fired" = 0 ]; then
			[ "$rc" -eq 0 ] || { echo "no failure, exit $rc: $err" >&2; return 1; }
			echo "# $* : $count allocations, one in $stride failed in turn" \
				"${upto:+(one in $dense up to $upto)}" >&3
			break
		elif [ "$rc" -ne 0 ]; then
			if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
				echo "allocation $n of $count: exit $rc: $err" >&2
				return 1
			fi
			if ! tail -1 <<<"$err" | grep -q '^iorate: .'; then
				echo "allocation $n of $count: exit $rc, no error line: $err" >&2
				return 1
			fi
			# A run measured whole whose report could not be printed is saved all
			# the same (docs/safety.md): a history it made must hold it.
			if [[ "$err" =~ iorate:\ saved\ as\ run\ [0-9]+\ in\ ([^ ]+) ]] &&
				"$IORATE" history show --db "${BASH_REMATCH[1]}" 1 --json >/dev/null
			then
				after=$(grep -vxF -- "${BASH_REMATCH[1]}" <<<"$after" || true)
			fi
			if [ "$after" != "$before" ]; then
				echo "allocation $n of $count: exit $rc, files left:" \
					$(comm -13 <(echo "$before") <(echo "$after")) "($err)" >&2
				return 1
			fi
		fi
		# What a run made goes before the next.
		after=$(ls -A | sort)
		[ "$after" = "$before" ] || rm -rf -- $(comm -13 <(echo "$before") <(echo "$after"))
		n=$((n + (n < ${upto:-0} ? dense : stride)))
	done
}

@test "allocation failures: run, every allocation" {
	fail_each 1 run -q -c 256k -b 4k --ios 16 -d none --interval 10ms -w 50 a.dat
}

@test "allocation failures: run --dry-run, every allocation" {
	fail_each 1 run --dry-run -c 1m -t 2 -w 30 a.dat b.dat
}

@test "allocation failures: run, two jobs of several threads, JSON" {
	fail_each 97 run -q -c 256k -b 4k --ios 16 -d none --interval 10ms --job-name a a.dat \
		--job-name b -t 2 b.dat --json
}

@test "allocation failures: run --save into a new history" {
	fail_each 211 run -q -c 256k -b 4k --ios 16 -d none --interval 10ms -w 50 a.dat --save \
		--db h.db
}

@test "allocation failures: run --save into an existing history, CSV" {
	"$IORATE" run -q -c 256k -b 4k --ios 8 -d none --interval 10ms a.dat --save --db h.db \
		>/dev/null 2>&1
	fail_each 601 run -q -c 256k -b 4k --ios 16 -d none --interval 10ms a.dat --save --db \
		h.db --csv
	# The history that was there still holds its run.
	"$IORATE" history show --db h.db 1 --json >/dev/null
}

@test "allocation failures: fio --dry-run" {
	fail_each 7 fio --dry-run --name=a --rw=randread --bs=4k --filename=f --size=1m \
		--name=b --rw=write --filename=g --size=1m --iodepth=4
}

@test "allocation failures: diskspd -X (libxml2) --dry-run" {
	cat >p.xml <<-XML
	<?xml version="1.0"?>
	<Profile><TimeSpans><TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Targets>
	<Target><Path>a.dat</Path><BlockSize>8192</BlockSize><Random>8192</Random>
	<WriteRatio>50</WriteRatio><FileSize>1048576</FileSize></Target>
	<Target><Path>b.dat</Path><BlockSize>65536</BlockSize>
	<ThreadsPerFile>2</ThreadsPerFile></Target>
	</Targets></TimeSpan></TimeSpans></Profile>
	XML
	fail_each 11 diskspd -Xp.xml --dry-run
}

@test "allocation failures: model (the catalog, jansson)" {
	fail_each 1999 model --vm DS2 --disk 2xP30 --host-cache none --json
}

@test "allocation failures: model --mark, a working set" {
	fail_each 401 model --mark --vm azure-2015:DS2 --disk P10:cache=readonly \
		--distribution zipf:1.1 --working-set 200GiB --json
}

@test "allocation failures: plan" {
	fail_each 2003 plan --iops 20000 --capacity 2TiB --provider azure
}

@test "allocation failures: report --output" {
	"$IORATE" run -q -c 256k -b 4k --ios 16 -d none --interval 10ms a.dat --json >r.json
	fail_each 37 report r.json --output r.html
}

@test "allocation failures: history import into a new history" {
	"$IORATE" run -q -c 256k -b 4k --ios 8 -d none --interval 10ms --job-name x a.dat \
		--job-name y b.dat --json >r.json
	fail_each 499/150/3 history import --db new.db r.json
}

@test "allocation failures: history list and show (SQLite)" {
	"$IORATE" run -q -c 256k -b 4k --ios 8 -d none --interval 10ms a.dat --save --db h.db \
		>/dev/null 2>&1
	fail_each 2003 history list --db h.db
	fail_each 2011 history show 1 --db h.db --fio-json
}
