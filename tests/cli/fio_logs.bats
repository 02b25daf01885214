#!/usr/bin/env bats
# End to end: fio's log files (write_bw_log, write_iops_log, write_lat_log, write_hist_log and
# their options; iorate run's --log-*), written with fio 3.33's names and line format and
# compared with the files fio itself writes for the same job. Needs $IORATE; the comparisons
# need fio (make deps installs it).

bats_require_minimum_version 1.5.0
load helpers

# Each log file of the current directory with the distinct column counts of its lines
# ("a_bw.1.log 5"; an empty file alone), one line per file and count, sorted.
shapes() {
	local f
	for f in *.log; do
		if [ -s "$f" ]; then
			awk -F', ' -v f="$f" '{print f, NF}' "$f"
		else
			echo "$f"
		fi
	done | sort -u
}

# Runs the job file $1 with fio in ./fio and with iorate in ./iorate (its JSON in
# iorate/r.json); each makes its own t.dat.
both() {
	mkdir -p fio iorate
	(cd fio && fio --output=/dev/null "../$1")
	cd iorate
	iorate fio -q --json "../$1"
	cd ..
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	echo "$output" >iorate/r.json
}

@test "fio logs: each kind has fio's file names and columns, per I/O, averaged, with offsets" {
	need_fio
	# Rate-bounded so each job lasts long enough for histogram lines; b is time-based, as fio
	# writes averaged bandwidth entries from a timer that a job of a few windows may not see.
	cat >j.fio <<-'EOF'
	[global]
	filename=t.dat
	size=1m
	bs=4k
	ioengine=psync
	rate_iops=2000
	write_bw_log
	write_iops_log
	write_lat_log=L
	write_hist_log=H
	log_hist_msec=10
	[a]
	rw=randrw
	number_ios=100
	[b]
	rw=randread
	time_based
	runtime=400ms
	log_avg_msec=50
	log_max_value=1
	log_offset=1
	log_prio=1
	EOF
	both j.fio
	(cd fio && shapes) >fio.shapes
	(cd iorate && shapes) >iorate.shapes
	cat fio.shapes
	diff fio.shapes iorate.shapes
	# Every kind is there: per-I/O (5 columns), averaged with offsets and priorities (6), and
	# fio's histogram (time, direction, block size and 1856 bins).
	grep -qx 'a_bw.1.log 5' iorate.shapes
	grep -qx 'b_bw.2.log 6' iorate.shapes
	grep -qx 'H_clat_hist.1.log 1859' iorate.shapes
	grep -qx 'L_slat.2.log' iorate.shapes
	# log_prio prints the priority in full, as fio does.
	grep -q ', 0x0000$' iorate/L_lat.2.log
}

@test "fio logs: a per-I/O latency log has a line per I/O, and the bandwidth log its rate" {
	cat >j.fio <<-'EOF'
	[a]
	filename=t.dat
	size=512k
	bs=4k
	rw=randrw
	ioengine=psync
	write_lat_log=x
	write_bw_log=x
	write_iops_log=x
	EOF
	iorate fio -q --json j.fio
	[ "$status" -eq 0 ]
	ios=$(echo "$output" | jq '.total.read.ios + .total.write.ios')
	[ "$ios" -eq 128 ]
	[ "$(wc -l <x_lat.1.log)" -eq "$ios" ]
	[ "$(wc -l <x_clat.1.log)" -eq "$ios" ]
	[ "$(wc -l <x_iops.1.log)" -eq "$ios" ]
	reads=$(awk -F', ' '$3 == 0' x_lat.1.log | wc -l)
	[ "$reads" -eq "$(echo "$output" | jq .total.read.ios)" ]
	# Line by line, the bandwidth is fio's: bytes * 10^6 / the I/O's latency in ns.
	paste -d, x_lat.1.log x_bw.1.log | awk -F', *' '
		{ want = int($4 * 1000000 / $2); if ($7 != want || $1 != $6 || $4 != 4096) bad++ }
		END { exit bad > 0 }'
	awk -F', ' '$2 != 1 { exit 1 }' x_iops.1.log
}

@test "run --log-avg: bandwidth and IOPS windows add up to the bytes and I/Os done" {
	iorate run --engine sync --cache buffered -b 4k --size 1m --time none --ios 400 \
		--cap-iops 2000 --log-bw w --log-iops w --log-avg 20ms --json t.dat
	[ "$status" -eq 0 ]
	bytes=$(echo "$output" | jq .total.read.bytes)
	[ "$bytes" -eq $((400 * 4096)) ]
	[ -s w_bw.1.log ] && [ -s w_iops.1.log ]
	# Each entry is the rate since the one before: KiB/s times its span is the bytes it saw;
	# all of them but the last partial window's (up to 20 ms at 8000 KiB/s).
	logged=$(awk -F', ' '{ s += $2 * 1024 * ($1 - t) / 1000; t = $1 } END { printf "%d", s }' \
		w_bw.1.log)
	echo "logged $logged of $bytes"
	[ "$logged" -le $((bytes * 101 / 100)) ]
	[ "$logged" -ge $((bytes * 80 / 100)) ]
	ios=$(awk -F', ' '{ s += $2 * ($1 - t) / 1000; t = $1 } END { printf "%d", s }' w_iops.1.log)
	[ "$ios" -le 404 ] && [ "$ios" -ge 320 ]
	# Averaged entries carry no block size, as fio's.
	awk -F', ' 'NF != 5 || $4 != 0 || $3 != 0 { exit 1 }' w_bw.1.log
	# Entry by entry, KiB/s of 4 KiB I/Os is four times the IOPS of the same window.
	paste -d, w_bw.1.log w_iops.1.log | awk -F', *' '
		{ d = $2 - 4 * $7; if ($1 != $6 || d < 0 || d > 3) bad++ } END { exit bad > 0 }'
}

@test "run --log-hist: a line per direction and window of fio's 1856 bins, counting every I/O" {
	iorate run --engine sync --cache buffered -b 4k --size 1m --time none --ios 200 -w 50 \
		--cap-iops 2000 --log-hist h --log-hist-interval 10ms --log-lat l --json t.dat
	[ "$status" -eq 0 ]
	[ "$(awk -F', ' '{print NF}' h_clat_hist.1.log | sort -u)" = 1859 ]
	awk -F', ' '($2 != 0 && $2 != 1) || $3 != 4096 { exit 1 }' h_clat_hist.1.log
	# The bins hold each I/O once; the last window, still open at the end, is not written.
	n=$(awk -F', ' '{ for (i = 4; i <= NF; i++) s += $i } END { print s }' h_clat_hist.1.log)
	echo "binned $n"
	[ "$n" -le 200 ] && [ "$n" -ge 150 ]
	[ "$(wc -l <l_lat.1.log)" -eq 200 ]
}

@test "fio logs: per_job_logs=0 gives one file per kind, shared by the jobs, as fio names it" {
	need_fio
	cat >j.fio <<-'EOF'
	[c]
	filename=t.dat
	size=256k
	bs=4k
	rw=randread
	ioengine=psync
	numjobs=2
	per_job_logs=0
	write_bw_log=q
	write_lat_log=q
	EOF
	both j.fio
	[ "$(cd fio && ls *.log)" = "$(cd iorate && ls *.log)" ]
	[ "$(cd iorate && ls *.log | tr '\n' ' ')" = "q_bw.log q_clat.log q_lat.log q_slat.log " ]
	# Both jobs' I/Os are in the one file, as fio puts them.
	[ "$(wc -l <iorate/q_lat.log)" -eq 128 ]
	[ "$(wc -l <fio/q_lat.log)" -eq 128 ]
}

@test "fio logs: a log that would replace a target, or in a missing directory, is refused" {
	cat >j.fio <<-'EOF'
	[a]
	filename=x_bw.1.log
	size=64k
	rw=write
	write_bw_log=x
	EOF
	iorate fio -q j.fio
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"x_bw.1.log"*"is also a target"* ]]
	[ ! -e x_bw.1.log ]
	iorate run --engine sync --size 64k --time none --ios 4 --log-lat nodir/p t.dat
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"--log-lat"*"nodir/p_lat.1.log"* ]]
	[ ! -e t.dat ]
}
