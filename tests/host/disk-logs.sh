# fio's I/O logs (--write_bw_log, --write_iops_log, --write_lat_log, --write_hist_log): one line per
# measured I/O holding what the report summarises (the same count, mean and maximum),
# fio's columns and values; --log_avg_msec windows; file names per thread, per job and
# per repeat; names that must not be written refused before the run; the device unchanged.
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev l 32) || skip "losetup failed"
sum0=$(sha "$dev")
cd "$T" || exit 1

J() { jq -e "$1" "$T/out.json" >/dev/null || fail "${2:-$1}: $(jq -c '[.jobs[] | {jobname, r: .read.total_ios, w: .write.total_ios}]' "$T/out.json" 2>&1 | head -c 300)"; }
# awk over a log: fails with the message unless the program exits 0
L() { awk -F'[, ]+' "$2" "$1" || fail "$3: $(head -8 "$1" | tr '\n' '|')"; }

# every I/O of a size-based job, each log one line per I/O in fio's columns; lat = slat +
# clat; bw = bytes x 10^6 / clat; the offsets each 4k block of the region once
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --iodepth=4 --write_lat_log=x \
	--write_bw_log=x --write_iops_log=x --log_offset=1 -J > out.json || fail "per I/O: exit $?"
for k in bw iops slat clat lat; do
	[ -f "x_$k.1.log" ] || fail "per I/O: no x_$k.1.log ($(ls))"
	L "x_$k.1.log" 'NF != 6 || $3 != 0 || $4 != 4096 || $6 != 0 || $5 % 4096 || $5 >= 2097152 { exit 1 }
		END { exit NR != 512 }' "x_$k.1.log: 512 lines of time, value, 0, 4096, offset, 0"
done
L x_iops.1.log '$2 != 1 { exit 1 } { seen[$5]++ } END { exit length(seen) != 512 }' "iops log: each block once"
J '.jobs[0]["job options"] | .write_lat_log == "x" and .write_bw_log == "x" and .log_offset == "1"' "job options"
clat_mean=$(jq '.jobs[0].read.clat_ns.mean' out.json)
clat_max=$(jq '.jobs[0].read.clat_ns.max' out.json)
L x_clat.1.log "{ s += \$2; if (\$2 > m) m = \$2 } END { exit !((s / NR - $clat_mean) ^ 2 < 1e-6 && m == $clat_max) }" \
	"clat log: mean $clat_mean, max $clat_max"
paste -d, x_slat.1.log x_clat.1.log x_lat.1.log x_bw.1.log > joined
L joined '{ if ($1 != $7 || $1 != $13 || $5 != $11 || $2 + $8 != $14) exit 1;
	if ($20 != int(4096 * 1000000 / $8)) exit 1 } END { exit NR != 512 }' "lat = slat + clat, bw from clat"
L x_clat.1.log '$1 < p || $1 > 60000 { exit 1 } { p = $1 }' "times in ms from the start, in order"

# a mixed job: each direction's lines match its count (rewrite: writes put back what was read)
"$A" disk --filename="$dev" --rw=randrw --rwmixread=70 --size=4m --direct=1 --mode=rewrite \
	--write_iops_log=m -J > out.json 2>/dev/null || fail "randrw: exit $?"
r=$(jq '.jobs[0].read.total_ios' out.json) w=$(jq '.jobs[0].write.total_ios' out.json)
L m_iops.1.log "\$3 == 0 { r++ } \$3 == 1 { w++ } END { exit !(r == $r && w == $w && r + w == 1024) }" \
	"randrw: $r reads, $w writes"

# windows: rates over each whole window (none for the last, partial one, as fio), the
# latencies' mean or maximum (the last window's too)
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=1.1 --time_based --log_avg_msec=200 \
	--write_iops_log=w --write_bw_log=w --write_lat_log=w -J > out.json || fail "windows: exit $?"
L w_iops.1.log 'NF != 5 || $1 != 200 * NR || $3 != 0 || $4 != 0 || $2 <= 0 { exit 1 } END { exit NR != 5 }' \
	"iops windows at 200, 400, .. 1000 ms"
paste -d, w_iops.1.log w_bw.1.log > joined
L joined '{ d = $2 * 4 - $7; if (d > 4 || d < -4) exit 1 }' "bw = iops x 4 KiB"
L w_clat.1.log 'NR <= 5 && $1 != 200 * NR { exit 1 } END { exit NR != 6 || $1 < 1000 || $1 > 1200 }' \
	"clat windows, the last partial one too"
# the windows' I/Os are within the job's (the rates over time on this machine vary with
# its load: tests/unit/iolog.c checks each window's count against known completion times)
total=$(jq '.jobs[0].read.total_ios' out.json)
L w_iops.1.log "{ s += \$2 * 0.2 } END { exit !(s <= $total) }" "windows' I/Os within the total ($total)"
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=0.5 --time_based --log_avg_msec=100 \
	--log_max_value=1 --write_lat_log=mx -J > out.json || fail "log_max_value: exit $?"
clat_max=$(jq '.jobs[0].read.clat_ns.max' out.json)
L mx_clat.1.log "{ if (\$2 > m) m = \$2 } END { exit m != $clat_max }" "log_max_value: the largest window maximum is clat max ($clat_max)"

# --verify's read-back is in the logs, as fio's: a line per read per I/O (the bw, iops and
# latency logs), in the windows' latencies but not their rates (fio samples no verify
# read), in --write_iolog; psync's I/Os have no submission latency (no slat line, as fio);
# fio writes the same lines for the same job
vdev=$(loopdev v 16) || fail "losetup failed"
vlog() {   # TOOL...: the job, with the logs under $P
	"$@" --filename="$vdev" --rw=randwrite --size=2m --direct=1 --ioengine=psync --verify=crc32c --write_bw_log="$P" \
		--write_iops_log="$P" --write_lat_log="$P" --write_iolog="$P.iolog" > /dev/null 2>&1 || fail "verify logs $1: exit $?"
}
P=v vlog "$A" disk --mode=destroy
for k in bw iops clat lat; do
	L "v_$k.1.log" '$3 == 0 { r++ } $3 == 1 { w++ } END { exit !(r == 512 && w == 512 && NR == 1024) }' \
		"verify: v_$k.1.log holds 512 writes and 512 read-back reads"
done
[ ! -s v_slat.1.log ] || fail "psync: slat lines $(head -2 v_slat.1.log | tr '\n' '|')"
[ "$(grep -c ' read ' v.iolog)" = 512 ] && [ "$(grep -c ' write ' v.iolog)" = 512 ] ||
	fail "--write_iolog: $(grep -c ' read ' v.iolog) reads, $(grep -c ' write ' v.iolog) writes"
if command -v fio >/dev/null; then
	P=fv vlog fio --name=x
	for k in bw iops slat clat lat; do
		[ "$(awk -F', ' '{ print $3, $4 }' "fv_$k.1.log" | sort | uniq -c)" = \
			"$(awk -F', ' '{ print $3, $4 }' "v_$k.1.log" | sort | uniq -c)" ] || fail "verify: $k log's lines differ from fio's"
	done
	# (fio closes and reopens the file before its read-back: two more lines)
	[ "$(awk '$3 == "read" || $3 == "write" { print $3, $5 }' fv.iolog | sort | uniq -c)" = \
		"$(awk '$3 == "read" || $3 == "write" { print $3, $5 }' v.iolog | sort | uniq -c)" ] ||
		fail "--write_iolog: I/O lines differ from fio's"
fi
"$A" disk --filename="$vdev" --rw=randwrite --size=8m --direct=1 --iodepth=4 --mode=destroy --verify=crc32c \
	--log_avg_msec=10 --write_iops_log=vw --write_lat_log=vw -J > out.json 2>/dev/null || fail "verify windows: exit $?"
L vw_iops.1.log '$3 != 1 { exit 1 }' "verify windows: a read rate (fio has none: it samples no verify read)"
L vw_clat.1.log '$3 == 0 { r++ } END { exit !r }' "verify windows: no read latency"
L vw_slat.1.log '$3 == 0 { r++ } END { exit !r }' "verify windows: no read slat (io_uring)"

# fio's histogram log: a row per window and direction of 1856 clat buckets (fio's own
# layout: fiologparser_hist.py reads it), the windows' buckets adding up to json+'s bins
# exactly; --log_hist_coarseness sums 2^c of them per column
"$A" disk --filename="$dev" --rw=randrw --mode=rewrite --size=4m --direct=1 --iodepth=4 --runtime=1.2 --time_based \
	--write_hist_log=h --log_hist_msec=300 --output-format=json+ > out.json 2>/dev/null || fail "hist log: exit $?"
L h_clat_hist.1.log 'NF != 1859 || $3 != 4096 || ($2 != 0 && $2 != 1) || $1 > 1300 || ($1 % 300 && $1 < 1200) { exit 1 }
	END { exit NR < 6 }' "hist log: rows of time, direction, 4096, 1856 buckets"
for d in 0:read 1:write; do
	# the log's buckets summed over its rows, keyed as json+ keys them (the bucket's value)
	awk -F'[, ]+' -v d="${d%%:*}" '$2 == d { for (i = 4; i <= NF; i++) s[i - 4] += $i }
		END { for (k in s) if (s[k]) { idx = k + 0; if (idx < 128) v = idx; else { eb = int(idx / 64) - 1;
			v = 2 ^ (eb + 6) + int((idx % 64 + 0.5) * 2 ^ eb) } printf "%d %d\n", v, s[k] } }' \
		h_clat_hist.1.log | sort -n > log.bins
	jq -r ".jobs[0].${d#*:}.clat_ns.bins | to_entries[] | \"\(.key) \(.value)\"" out.json | sort -n > json.bins
	[ -s json.bins ] && cmp -s log.bins json.bins || fail "hist log ${d#*:}: buckets differ from json+ ($(diff log.bins json.bins | head -3 | tr '\n' '|'))"
done
"$A" disk --filename="$dev" --rw=randread --size=4m --runtime=0.5 --time_based --write_hist_log --log_hist_msec=100 \
	--log_hist_coarseness=3 -J > out.json || fail "coarseness: exit $?"
total=$(jq '.jobs[0].read.total_ios' out.json)
L job_clat_hist.1.log "NF != 235 { exit 1 } { for (i = 4; i <= NF; i++) s += \$i } END { exit s != $total }" \
	"coarseness 3: 232 columns, all $total I/Os"
expect 1 "write_hist_log: give its window, --log_hist_msec" "$A" disk --filename="$dev" --write_hist_log=q
expect 1 "log_hist_coarseness: no histogram log asked for" "$A" disk --filename="$dev" --log_hist_coarseness=2
expect 1 "log_hist_coarseness=7: out of range" "$A" disk --filename="$dev" --log_hist_coarseness=7

# names: the run's thread numbers (fio's), the job's name without a prefix, one file per
# job with --per_job_logs=0, the repeat with --repeat
"$A" disk --filename="$dev" --rw=randread --size=1m --name=a --numjobs=2 --write_iops_log --name=b \
	--write_iops_log=p -J > out.json || fail "names: exit $?"
[ -f a_iops.1.log ] && [ -f a_iops.2.log ] && [ -f p_iops.3.log ] && [ ! -e a_iops.3.log ] ||
	fail "names: $(ls ./*iops*)"
"$A" disk --filename="$dev" --rw=randread --size=1m --numjobs=2 --write_iops_log=one --per_job_logs=0 \
	-J > out.json || fail "per_job_logs=0: exit $?"
L one_iops.log 'END { exit NR != 512 }' "per_job_logs=0: both threads' 2 x 256 I/Os in one file"
"$A" disk --filename="$dev" --rw=randread --size=1m --repeat=2 --write_iops_log=rep -J > out.json ||
	fail "repeat: exit $?"
L rep_iops.1.r2.log 'END { exit NR != 256 }' "repeat 2's log"
[ -f rep_iops.1.r1.log ] || fail "repeat: $(ls ./rep*)"
# a job file's bare key: the job's name
printf '[global]\nfilename=%s\nrw=randread\nsize=1m\n[jf]\nwrite_bw_log\n' "$dev" > t.fio
"$A" disk t.fio -J > out.json || fail "job file: exit $?"
L jf_bw.1.log 'END { exit NR != 256 }' "job file: write_bw_log alone"

# refused before the run, one line naming the file; nothing created in a missing directory
expect 1 "write_bw_log: cannot create $T/none/x_bw.1.log: No such file or directory" \
	"$A" disk --filename="$dev" --rw=read --size=1m --write_bw_log="$T/none/x"
ln -s "$dev" "$T/s_bw.1.log"
expect 1 "write_bw_log: .*s_bw.1.log exists and is not a regular file" \
	"$A" disk --filename="$dev" --rw=read --size=1m --write_bw_log="$T/s"
head -c 1m /dev/urandom > f_lat.1.log
fsum=$(sha f_lat.1.log)
expect 1 "write_lat_log: .*f_lat.1.log exists and is the file under test" \
	"$A" disk --filename="$T/f_lat.1.log" --rw=read --write_lat_log="$T/f"
[ "$(sha f_lat.1.log)" = "$fsum" ] || fail "the file under test changed"
expect 1 "log_max_value: the maximum of each window, which needs --log_avg_msec" \
	"$A" disk --filename="$dev" --rw=read --size=1m --write_lat_log=z --log_max_value=1
expect 1 "log_offset: no log asked for" "$A" disk --filename="$dev" --rw=read --size=1m --log_offset=1
expect 1 "log_avg_msec=-1: out of range" "$A" disk --filename="$dev" --log_avg_msec=-1

# fio's log_unix_epoch: the time column in ms from the epoch, inside the run's wall time
t0=$(date +%s%3N)
"$A" disk --filename="$dev" --rw=randread --size=2m --write_lat_log=ue --write_hist_log=ue --log_hist_msec=10 \
	--log_unix_epoch=1 -J > out.json 2>/dev/null || fail "log_unix_epoch: exit $?"
t1=$(date +%s%3N)
for f in ue_clat.1.log ue_clat_hist.1.log; do
	awk -F', ' -v a="$t0" -v b="$t1" '$1 < a || $1 > b { bad++ } END { exit bad > 0 || NR == 0 }' "$f" ||
		fail "log_unix_epoch: $f times outside [$t0, $t1]: $(head -n 1 "$f" | cut -c1-60)"
done
expect 1 "log_unix_epoch: no log asked for" "$A" disk --filename="$dev" --rw=read --size=1m --log_unix_epoch=1

# the last column, as fio writes it: 1 for realtime I/O, else 0; with --log_prio the
# priority itself (0x%04x: class << 13 | level); compared with fio's own logs
for o in "--prioclass=2 --prio=3 --log_prio=1" "--prioclass=2 --prio=3" "--log_prio=1" "--prioclass=1 --prio=0"; do
	rm -f pr_*.log fp_*.log
	# shellcheck disable=SC2086 # the options split into words
	"$A" disk --filename="$dev" --rw=read --size=64k --write_lat_log=pr $o > /dev/null 2>&1 || {
		[ "${o#--prioclass=1}" != "$o" ] && continue     # realtime needs CAP_SYS_ADMIN
		fail "$o: exit $?"
	}
	want=$(case $o in *log_prio=1*) case $o in *prioclass=2*) echo 0x4003 ;; *) echo 0x0000 ;; esac ;;
		*prioclass=1*) echo 1 ;; *) echo 0 ;; esac)
	[ "$(awk -F', ' '{ print $NF }' pr_lat.1.log | sort -u)" = "$want" ] ||
		fail "$o: last column $(awk -F', ' '{ print $NF }' pr_lat.1.log | sort -u | tr '\n' ' '), want $want"
	if command -v fio >/dev/null; then
		# shellcheck disable=SC2086
		fio --name=x --filename="$dev" --rw=read --size=64k --write_lat_log=fp $o > /dev/null 2>&1 &&
			[ "$(awk -F', ' '{ print $NF }' fp_lat.1.log | sort -u)" = "$want" ] || fail "$o: fio's column differs"
	fi
done

[ "$(sha "$dev")" = "$sum0" ] || fail "the device changed"
finish
