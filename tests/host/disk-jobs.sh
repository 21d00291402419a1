# fio's job layout: several --name jobs on one command line and fio job files; a group's
# jobs run at once (overlapping measured windows), --stonewall starts a new group; global
# options apply to every job, a job's own win; --group_reporting merges a group into one
# report; concurrent rewrite jobs leave the device as it was; bad job files name the line.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev m 64) || skip "losetup failed"
sum0=$(sha "$dev")

J() {
	local show=${3:-'[.jobs[] | {jobname, groupid, assay: (.assay | {start_ms, end_ms, threads}), n: .read.total_ios}]'}
	jq -e "$1" "$T/out.json" >/dev/null || fail "${2:-$1}: $(jq -c "$show" "$T/out.json" 2>&1 | head -c 400)"
}

# two jobs at once, a third after them; global --direct and --iodepth, job a's own --iodepth
"$A" disk --filename="$dev" --direct=1 --iodepth=2 --runtime=0.6 --time_based \
	--name=a --rw=randread --iodepth=8 --name=b --rw=read --bs=64k --name=c --stonewall --rw=randread \
	-J > "$T/out.json" || fail "three jobs: exit $?"
J '[.jobs[].jobname] == ["a", "b", "c"] and [.jobs[].groupid] == [0, 0, 1]' "jobs and groups"
J '.jobs[0] | ."job options" | .iodepth == "8" and .bs == "4096" and .rw == "randread" and .direct == "1"' "a's options"
J '.jobs[1] | ."job options" | .iodepth == "2" and .bs == "65536" and .rw == "read" and .direct == "1"' "b's options"
J '.jobs[2] | ."job options" | .iodepth == "2" and .bs == "4096"' "c: global options only"
J 'all(.jobs[]; .read.total_ios > 0 and .assay.status == "ok")' "every job measured"
# a and b measure over the same window; c starts once both have ended
J '.jobs[0].assay as $a | .jobs[1].assay as $b | ($a.start_ms < $b.end_ms) and ($b.start_ms < $a.end_ms)' "a and b overlap"
J '.jobs[2].assay.start_ms >= ([.jobs[0].assay.end_ms, .jobs[1].assay.end_ms] | max)' "c after a and b"
"$A" disk --filename="$dev" --direct=1 --runtime=0.6 --time_based --name=a --rw=randread --name=b --rw=read \
	> "$T/out.txt" || fail "text: exit $?"
grep -q '^a: (groupid=0, jobs=1)' "$T/out.txt" && grep -q '^b: (groupid=0, jobs=1)' "$T/out.txt" || fail "text: two jobs"
# fio's group summary (scripts grep these lines)
"$A" disk --filename="$dev" --direct=1 --size=2m --name=a --rw=randread --name=b --stonewall --rw=randrw \
	--mode=rewrite > "$T/out.txt" || fail "groups text: exit $?"
grep -q '^Run status group 0 (all jobs):$' "$T/out.txt" && grep -q '^Run status group 1 (all jobs):$' "$T/out.txt" &&
	[ "$(grep -cE '^ +READ: bw=[0-9.]+[KMG]?i?B/s \([0-9.]+[kMG]?B/s\), .*, io=[0-9.]+[KMG]?i?B \(.*\), run=[0-9]+-[0-9]+msec$' "$T/out.txt")" = 2 ] &&
	grep -qE '^  WRITE: bw=' "$T/out.txt" || fail "groups text: $(grep -A3 'Run status' "$T/out.txt")"

# jobs[].assay.samples: the per-interval series behind fio's iops_*/bw_* figures; per= of
# a job is its share of the group's bandwidth
"$A" disk --filename="$dev" --direct=1 --runtime=2.3 --time_based --iops_avg_time=500 --name=a --rw=randread \
	--name=b --rw=read --bs=64k -J > "$T/out.json" || fail "samples: exit $?"
J 'all(.jobs[]; .assay.samples.interval_ms == 500 and (.assay.samples.read.iops | length) == .read.iops_samples
	and ((.assay.samples.read.iops | add / length) - .read.iops_mean | fabs) < 0.01
	and ((.assay.samples.read.bw_bytes | max) / 1024 - .read.bw_max | fabs) < 1)' "samples series" \
	'[.jobs[] | {s: .assay.samples, m: .read.iops_mean, n: .read.iops_samples}]'
# (fio's per= is the mean of a job's samples over the group's bandwidth: on a loaded
# machine the shares add up to 100 only roughly)
J 'all(.jobs[]; .read.bw_agg > 0 and .read.bw_agg < 150) and ([.jobs[].read.bw_agg] | add | . > 50 and . < 150)' "per= shares" \
	'[.jobs[].read.bw_agg]'

# --group_reporting given: one report for the group, every thread's I/O in it (exact,
# size-based: 256 + 32 + 2 x 128)
"$A" disk --filename="$dev" --direct=1 --group_reporting --name=a --rw=randread --size=1m \
	--name=b --rw=read --bs=64k --size=2m --name=c --rw=randread --bs=8k --size=1m --numjobs=2 \
	-J > "$T/out.json" || fail "group_reporting: exit $?"
J '(.jobs | length) == 1 and .jobs[0].jobname == "a" and .jobs[0].read.total_ios == 544 and .jobs[0].assay.threads == 4' \
	"group_reporting: one report" '.jobs[] | {jobname, n: .read.total_ios, t: .assay.threads}'
"$A" disk --filename="$dev" --direct=1 --name=a --rw=randread --size=1m --name=b --rw=read --bs=64k --size=2m \
	-J > "$T/out.json" || fail "no group_reporting: exit $?"
J '[.jobs[].read.total_ios] == [256, 32]' "jobs apart without --group_reporting"

# a fio job file; the command line's options win over its [global], its jobs' own win
cat > "$T/t.fio" <<EOF
; as fio reads it
[global]
ioengine=libaio
direct=1
filename=$dev
runtime=5
time_based
iodepth = 4

[rand]
rw=randread
iodepth=16
# a comment
[seq]
stonewall
rw=read
bs=1m
description=sequential
EOF
"$A" disk "$T/t.fio" --runtime=0.4 -J > "$T/out.json" || fail "job file: exit $?"
J '[.jobs[] | [.jobname, .groupid, ."job options".ioengine, ."job options".iodepth, ."job options".runtime]] ==
	[["rand", 0, "libaio", "16", "0.4"], ["seq", 1, "libaio", "4", "0.4"]]' "job file" \
	'[.jobs[] | {jobname, groupid, o: ."job options"}]'
J '.jobs[1]."job options".bs == "1048576" and .jobs[1].assay.start_ms >= .jobs[0].assay.end_ms' "job file: seq after rand"

# fio's --bssplit/--bsrange: each I/O its own size; a size-based job does exactly the
# region's bytes with every engine; reads and writes may differ ("reads,writes")
for e in io_uring libaio posixaio psync sync mmap vsync; do
	"$A" disk --filename="$dev" --direct=1 --rw=randread --size=8m --iodepth=8 --ioengine=$e \
		--bssplit=4k/50:64k/30:1m/20 -J > "$T/out.json" || fail "bssplit $e: exit $?"
	J '.jobs[0] | .read.io_bytes == 8388608 and .read.total_ios > 8 and .read.total_ios < 2048 and .read.short_ios == 0
		and ."job options".bssplit == "4k/50:64k/30:1m/20"' "bssplit with $e" '.jobs[0] | {read, o: ."job options"}'
done
"$A" disk --filename="$dev" --direct=1 --rw=read --size=4m --bsrange=4k-60k -J > "$T/out.json" || fail "bsrange: exit $?"
J '.jobs[0].read | .io_bytes == 4194304 and .total_ios > 64 and .total_ios < 1024' "bsrange" '.jobs[0].read'
"$A" disk --filename="$dev" --direct=1 --rw=randrw --size=4m --bssplit=4k/100,256k/100 --mode=rewrite -J > "$T/out.json" ||
	fail "bssplit r,w: exit $?"
J '.jobs[0] | (.read.io_bytes / .read.total_ios == 4096) and (.write.io_bytes + .read.io_bytes == 4194304)
	and .write.io_bytes / .write.total_ios > 200000' "bssplit reads,writes" '.jobs[0] | {r: .read.io_bytes, w: .write.io_bytes}'
# fio's posixaio is glibc's POSIX AIO: one helper thread per file does its requests in
# order, so the device never has more than one of a file's I/Os at once whatever
# --iodepth says (fio's too: /sys/block/*/inflight); the job's CPU is its thread's (fio's
# RUSAGE_THREAD), the helpers' reported apart
b=$(basename "$(readlink -f "$dev")")
"$A" disk --filename="$dev" --ioengine=posixaio --rw=randread --bs=4k --direct=1 --iodepth=8 --runtime=1.5 \
	--time_based -J > "$T/pa.json" 2>"$T/pa.err" &
pid=$!
mx=0 busy=0 n=0
while kill -0 $pid 2>/dev/null; do   # (sampled the whole run: a loaded machine starts it late)
	read -r r w < "/sys/block/$b/inflight"
	[ "$r" -gt "$mx" ] && mx=$r
	[ "$r" -gt 0 ] && busy=$((busy + 1))
	n=$((n + 1))
done
wait $pid || fail "posixaio: exit $? $(cat "$T/pa.err")"
[ "$mx" = 1 ] && [ "$busy" -gt 10 ] || fail "posixaio: at most $mx in flight, busy in $busy of $n samples (want 1, some)"
jq -e '.jobs[0] | .read.total_ios > 100 and .read.clat_ns.N == .read.total_ios and
	(.assay.posixaio_helpers | .sys_cpu + .usr_cpu > 0 and .ctx > 0) and ."job options".ioengine == "posixaio"' \
	"$T/pa.json" >/dev/null || fail "posixaio figures: $(jq -c '.jobs[0] | [.read.total_ios, .assay.posixaio_helpers]' "$T/pa.json")"
"$A" disk --filename="$dev" --ioengine=posixaio --rw=randwrite --bs=16k --direct=1 --iodepth=4 --size=8m --mode=rewrite \
	--end_fsync=1 > "$T/pa.txt" || fail "posixaio rewrite: exit $?"
grep -qE '^  write: IOPS=.*\(8.00MiB/' "$T/pa.txt" && grep -qE '^  helpers      : usr=[0-9.]+%, sys=[0-9.]+%, ctx=[0-9]+ ' "$T/pa.txt" ||
	fail "posixaio text: $(grep -E 'write:|helpers' "$T/pa.txt")"
expect 1 "cmdprio_percentage: an io_uring and libaio option \\(--ioengine=posixaio\\)" \
	"$A" disk --filename="$dev" --ioengine=posixaio --cmdprio_percentage=10
# fio's vsync: a batch (--iodepth_batch) is done in its submit, each run of adjacent I/Os in
# one readv/writev: the device gets one request per run (/sys/block/*/stat), where psync
# makes one per I/O; random I/Os are seldom adjacent: about one request each
reqs() { awk -v c="$1" '{ print $c }' "/sys/block/$b/stat"; }
r0=$(reqs 1)
"$A" disk --filename="$dev" --ioengine=vsync --rw=read --bs=4k --direct=1 --iodepth=16 --iodepth_batch=16 --size=16m \
	-J > "$T/out.json" || fail "vsync: exit $?"
n=$(($(reqs 1) - r0))
[ "$n" -ge 256 ] && [ "$n" -le 300 ] || fail "vsync: 4096 reads of 4k in batches of 16 made $n requests, want about 256"
J '.jobs[0] | .read.total_ios == 4096 and .read.io_bytes == 16777216 and .read.clat_ns.N == 4096 and
	.read.slat_ns.N == 0 and .iodepth_submit."16" == 100 and .iodepth_complete."16" == 100 and
	."job options".ioengine == "vsync"' "vsync figures" '.jobs[0] | {read, iodepth_submit, iodepth_complete}'
r0=$(reqs 1)
"$A" disk --filename="$dev" --ioengine=vsync --rw=read --bs=4k --direct=1 --iodepth=16 --size=4m -J > "$T/out.json" ||
	fail "vsync batch 1: exit $?"
n=$(($(reqs 1) - r0))
[ "$n" -ge 1024 ] || fail "vsync: batches of 1 (fio's default) made $n requests for 1024 reads"
w0=$(reqs 5)
"$A" disk --filename="$dev" --ioengine=vsync --rw=randwrite --bs=4k --direct=1 --iodepth=8 --iodepth_batch=8 --size=4m \
	--mode=rewrite --numjobs=2 -J > "$T/out.json" || fail "vsync rewrite: exit $?"
n=$(($(reqs 5) - w0))
J '.jobs[0] | .write.total_ios == 2048 and .write.io_bytes == 8388608' "vsync rewrite" '.jobs[0].write'
[ "$n" -ge 1800 ] || fail "vsync: random rewrites of 4k made $n write requests for 2048, want about one each"
# fio's --io_submit_mode=offload: the job hands its I/Os to --iodepth threads of its own,
# each doing one at a time with the sync engine: several in flight at the device (where
# psync has one); clat is the helper's call, lat from the job's preparation (never less)
"$A" disk --filename="$dev" --ioengine=pvsync --io_submit_mode=offload --rw=randread --bs=4k --direct=1 --iodepth=8 \
	--runtime=1.5 --time_based -J > "$T/out.json" 2>"$T/pa.err" &
pid=$!
mx=0 n=0
while kill -0 $pid 2>/dev/null; do
	read -r r w < "/sys/block/$b/inflight"
	[ "$r" -gt "$mx" ] && mx=$r
	n=$((n + 1))
done
wait $pid || fail "offload: exit $? $(cat "$T/pa.err")"
[ "$mx" -ge 2 ] || fail "offload: at most $mx reads in flight in $n samples, want several"
J '.jobs[0] | .read.total_ios > 100 and .read.clat_ns.N == .read.total_ios and .read.lat_ns.N == .read.total_ios and
	.read.slat_ns.N == 0 and .read.lat_ns.mean >= .read.clat_ns.mean and .read.lat_ns.min >= .read.clat_ns.min and
	.sys_cpu > 0 and (.assay | has("posixaio_helpers") | not) and
	(."job options" | .io_submit_mode == "offload" and .ioengine == "pvsync")' "offload figures" \
	'.jobs[0] | {r: (.read | {total_ios, clat_ns, lat_ns, slat_ns}), sys_cpu, a: .assay.posixaio_helpers}'
"$A" disk --filename="$dev" --ioengine=psync --io_submit_mode=offload --rw=read --bs=16k --direct=1 --iodepth=4 \
	--size=8m -J > "$T/out.json" || fail "offload size-based: exit $?"
J '.jobs[0].read | .io_bytes == 8388608 and .total_ios == 512' "offload: the region's bytes" '.jobs[0].read'
# (an engine with a kernel queue submits inline: fio's fixed-rate-submission.fio runs)
"$A" disk --filename="$dev" --ioengine=libaio --io_submit_mode=offload --rw=read --size=1m -J > "$T/out.json" 2> "$T/err" &&
	[ ! -s "$T/err" ] || fail "offload with libaio: exit $? ($(cat "$T/err"))"
J '.jobs[0].read.io_bytes == 1048576' "offload with libaio: inline"
# fio's --bs=reads,writes (an empty side keeps the other's size)
"$A" disk --filename="$dev" --direct=1 --rw=randrw --size=4m --bs=4k,256k --mode=rewrite -J > "$T/out.json" ||
	fail "bs r,w: exit $?"
J '.jobs[0] | (.read.io_bytes / .read.total_ios == 4096) and (.write.io_bytes + .read.io_bytes == 4194304)
	and .write.io_bytes / .write.total_ios > 200000 and ."job options".bs == "4096,262144"
	and (."job options" | has("bssplit") | not)' "bs reads,writes" '.jobs[0] | {r: .read.io_bytes, w: .write.io_bytes, o: ."job options"}'
"$A" disk --filename="$dev" --rw=randrw --size=1m --bs=8k --bs=,64k --mode=rewrite -J > "$T/out.json" &&
	J '.jobs[0]."job options".bs == "8192,65536"' "bs=,64k keeps the reads' 8k" || fail "bs=,64k: exit $?"

# io_uring's --sqthread_poll: a kernel thread takes the submissions (a rewrite's linked
# read and write never split, checked by the device's checksum at the end); --hipri on a
# device without polled queues (a loop device) fails with one line saying so
"$A" disk --filename="$dev" --direct=1 --rw=randread --size=4m --iodepth=8 --sqthread_poll -J > "$T/out.json" ||
	fail "sqthread_poll: exit $?"
J '.jobs[0] | .read.total_ios == 1024 and (.assay.io_uring_setup | test("SQPOLL"))' "sqthread_poll" '.jobs[0].assay'
"$A" disk --filename="$dev" --direct=1 --rw=randrw --size=4m --iodepth=16 --sqthread_poll --mode=rewrite -J \
	> "$T/out.json" || fail "sqthread_poll rewrite: exit $?"
J '.jobs[0] | .read.total_ios + .write.total_ios == 1024' "sqthread_poll rewrite"
expect 1 "hipri: polled I/O on this device \(NVMe needs poll queues" "$A" disk --filename="$dev" --direct=1 --hipri --size=1m

# concurrent rewrite jobs (random and sequential over the same blocks, a 2-thread one
# among them) leave every byte as it was; then so does a readonly run of writers
"$A" disk --filename="$dev" --direct=1 --mode=rewrite --runtime=1 --time_based --iodepth=8 \
	--name=w1 --rw=randwrite --name=w2 --rw=write --bs=64k --name=w3 --rw=randrw --numjobs=2 \
	--name=w4 --rw=randwrite --bssplit=4k/40:16k/40:128k/20 --ioengine=libaio \
	-J > "$T/out.json" || fail "concurrent rewrite: exit $?"
J 'all(.jobs[]; .write.total_ios > 0)' "every rewrite job wrote" '[.jobs[] | {jobname, w: .write.total_ios}]'
"$A" disk --filename="$dev" --name=w1 --rw=randwrite --name=w2 --rw=write --size=1m > /dev/null 2>&1
[ $? = 77 ] || fail "readonly writers: not all skipped"
[ "$(sha "$dev")" = "$sum0" ] || fail "the device changed"

# --startdelay: job b begins 300 ms after the group (a lower bound only: slowness can't
# fail it); --loops: the region that many times, measured as one
"$A" disk --filename="$dev" --size=1m --name=a --rw=read --name=b --rw=randread --startdelay=0.3 --loops=2 \
	-J > "$T/out.json" || fail "startdelay: exit $?"
J '.jobs[1].assay.start_ms >= 300 and .jobs[1]."job options".startdelay == "0.3"' "startdelay"
J '[.jobs[].read.total_ios] == [256, 512]' "loops=2"
# --zero_buffers writes zeros; by default every write is fresh random data
zdev=$(loopdev z 4) || fail "losetup z"
"$A" disk --filename="$zdev" --rw=write --size=1m --zero_buffers --mode=destroy --force -J > "$T/out.json" 2>/dev/null ||
	fail "zero_buffers: exit $?"
cmp -s -n 1048576 "$zdev" /dev/zero || fail "zero_buffers: not zeros"
"$A" disk --filename="$zdev" --rw=write --bs=64k --size=1m --mode=destroy --force -J > "$T/out.json" 2>/dev/null ||
	fail "random write: exit $?"
[ "$(head -c 1048576 "$zdev" | gzip -c | wc -c)" -gt 1000000 ] || fail "default writes compress"

# fio's --cpus_allowed: the job's threads run only there (read from /proc while it runs)
"$A" disk --filename="$dev" --rw=randread --runtime=2 --time_based --numjobs=2 --cpus_allowed=0 -J > "$T/cpu.json" &
pid=$!
allowed=
for i in $(seq 40); do
	sleep 0.05
	# the worker threads (the main one only waits for them)
	allowed=$(for t in /proc/$pid/task/*; do [ "${t##*/}" = $pid ] || cat $t/status; done 2>/dev/null |
		awk '/^Cpus_allowed_list/ { print $2 }' | sort -u | tr '\n' ' ')
	[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 3 ] && break
done
wait $pid || fail "cpus_allowed: exit $?"
[ "$allowed" = "0 " ] || fail "cpus_allowed=0: threads allowed on '$allowed'"
jq -e '.jobs[0]."job options".cpus_allowed == "0"' "$T/cpu.json" >/dev/null || fail "cpus_allowed in job options"
expect 1 "cpus_allowed=0-4096: CPU .*: this machine has" "$A" disk --filename="$dev" --cpus_allowed=0-4096
expect 1 "cpus_allowed=1-0: not a list of CPU numbers" "$A" disk --filename="$dev" --cpus_allowed=1-0
expect 1 "sqthread_poll: an io_uring option" "$A" disk --filename="$dev" --ioengine=libaio --sqthread_poll
expect 1 "hipri: polled I/O needs --direct=1" "$A" disk --filename="$dev" --hipri
expect 1 "sqthread_poll_cpu=1000: this machine has" "$A" disk --filename="$dev" --sqthread_poll --sqthread_poll_cpu=1000

# bad input: one line naming the cause
printf '[global]\nbs=4q\n[a]\n' > "$T/b1.fio"
expect 1 "b1.fio:2: bs=4q: not a size" "$A" disk "$T/b1.fio" --filename="$dev"
printf '[a]\nrw=read\nopenfiles=4\n' > "$T/b2.fio"
expect 1 "b2.fio:3: openfiles: unknown option" "$A" disk "$T/b2.fio" --filename="$dev"
printf '[a]\nrw=read\n[global]\nbs=4k\n' > "$T/b3.fio"
expect 1 "b3.fio:3: \[global\] after a job" "$A" disk "$T/b3.fio" --filename="$dev"
printf 'ioengine=libaio\n[a\n' > "$T/b4.fio"
expect 1 "b4.fio:1: 'ioengine=libaio' comes before any \[section\]" "$A" disk "$T/b4.fio" --filename="$dev"
printf '[a]\nfilename=/dev/null\n' > "$T/b5.fio"
expect 1 "/dev/null has no size: give --size in bytes" "$A" disk "$T/b5.fio" --filename="$dev"
expect 1 "--profile and several --name jobs" "$A" disk --filename="$dev" --profile=qd1 --name=a --name=b
expect 1 "rw=sideways: unknown value" "$A" disk --filename="$dev" --name=a --rw=read --name=b --rw=sideways
[ "$(sha "$dev")" = "$sum0" ] || fail "the device changed"

# fio's job file conveniences: ${VAR} from the environment (unset: nothing), $ncpus,
# comments after a value (; or #); --section runs only the sections named (once or more,
# or a comma list), [global] always
printf '[global]\nfilename=${JDEV}\nsize=${JSIZE}m${JNOPE}\n[a]\nrw=randread ; the first\nnumjobs=$ncpus\n[b]\nrw=read # the second\n[c]\nrw=read\n' \
	> "$T/env.fio"
JDEV=$dev JSIZE=2 "$A" disk "$T/env.fio" --group_reporting=0 -J > "$T/out.json" 2>/dev/null || fail "env job file: exit $?"
J "[.jobs[] | [.jobname, .[\"job options\"].rw, .read.io_bytes]] == [$(for _ in $(seq "$(nproc)"); do printf '["a","randread",2097152],'; done)[\"b\",\"read\",2097152],[\"c\",\"read\",2097152]]" \
	"\${VAR}, \$ncpus, comments" '[.jobs[] | [.jobname, .["job options"].rw, .read.io_bytes]]'
JDEV=$dev JSIZE=2 "$A" disk "$T/env.fio" --section=c -J > "$T/out.json" 2>/dev/null || fail "--section: exit $?"
J '[.jobs[].jobname] == ["c"] and .jobs[0].read.io_bytes == 2097152' "--section=c (with [global])"
JDEV=$dev JSIZE=2 "$A" disk "$T/env.fio" --section b --section=c -J > "$T/out.json" 2>/dev/null || fail "--section x2: exit $?"
J '[.jobs[].jobname] == ["b", "c"]' "--section twice"
JDEV=$dev JSIZE=2 "$A" disk "$T/env.fio" --section=c,b -J > "$T/out.json" 2>/dev/null || fail "--section=c,b: exit $?"
J '[.jobs[].jobname] == ["b", "c"]' "--section=c,b: in the file's order"
JDEV=$dev JSIZE=2 expect 1 "^assay: error: disk: --section=d: .*env.fio has no such section$" "$A" disk "$T/env.fio" --section=d
expect 1 "^assay: error: disk: --section: it picks sections of a job file, and none was given$" \
	"$A" disk --filename="$dev" --section=a

# fio's include: another file's lines in place (its path beside the including file's); a
# bad line in it named by its own file and line; nested too deep, refused
mkdir -p "$T/inc"
printf 'rw=randread\nbs=8k\n' > "$T/inc/common.fio"
printf '[global]\nsize=1m\ninclude common.fio\n[a]\n[b]\ninclude more.fio\n' > "$T/inc/main.fio"
printf 'rw=read\n' > "$T/inc/more.fio"
(cd / && "$A" disk "$T/inc/main.fio" --filename="$dev" -J > "$T/out.json" 2>/dev/null) || fail "include: exit $?"
J '[.jobs[] | [.jobname, .["job options"].rw, .["job options"].bs, .read.total_ios]] ==
	[["a", "randread", "8192", 128], ["b", "read", "8192", 128]]' "include" '[.jobs[] | .["job options"]]'
printf 'rw=read\nbs=16q\n' > "$T/inc/more.fio"
expect 1 "^assay: error: disk: $T/inc/more.fio:2: bs=16q: not a size" "$A" disk "$T/inc/main.fio" --filename="$dev"
printf '[a]\ninclude loop.fio\n' > "$T/inc/loop.fio"
expect 1 "^assay: error: disk: $T/inc/loop.fio:2: include: nested more than 8 deep$" "$A" disk "$T/inc/loop.fio" --filename="$dev"
printf '[a]\ninclude none.fio\n' > "$T/inc/m2.fio"
expect 1 "^assay: error: disk: $T/inc/m2.fio:2: include none.fio: No such file or directory$" \
	"$A" disk "$T/inc/m2.fio" --filename="$dev"

# fio's io_size (bytes per thread, over the region as often as needed) and
# offset_increment (thread i's region i increments later): a destroy run on a device of
# its own changes exactly the two threads' regions, and each thread wrote io_size bytes
dv=$(loopdev oi 16 zero) || skip "losetup failed"
"$A" disk --filename="$dv" --rw=write --bs=64k --size=1m --io_size=3m --numjobs=2 --offset_increment=8m 	--mode=destroy --group_reporting=0 -J > "$T/out.json" 2>/dev/null || fail "io_size/offset_increment: exit $?"
J '[.jobs[].write.io_bytes] == [3145728, 3145728] and (.jobs[0]["job options"] | .io_size == "3145728" and
	.offset_increment == "8388608")' "io_size per thread" '[.jobs[] | {b: .write.io_bytes, o: .["job options"]}]'
for mib in $(seq 0 15); do
	z=$(dd if="$dv" bs=1M skip="$mib" count=1 2>/dev/null | tr -d '\0' | wc -c)
	case $mib in 0|8) [ "$z" -gt 0 ] || fail "offset_increment: MiB $mib not written" ;;
	*) [ "$z" = 0 ] || fail "offset_increment: MiB $mib written ($z bytes), outside both regions" ;; esac
done
expect 1 "offset_increment=8388608: thread 2's region .*ends beyond $dv" \
	"$A" disk --filename="$dv" --size=1m --numjobs=3 --offset_increment=8m
expect 1 "io_size=5000: not a multiple of --bs=4096" "$A" disk --filename="$dv" --io_size=5000
# fio's exitall: when a thread of that job ends, its group ends (a job waiting out its
# --startdelay too); a job without it leaves the others running
"$A" disk --filename="$dv" --name=bg --rw=randread --runtime=30 --time_based --name=fg --rw=read --size=4m \
	--exitall -J > "$T/out.json" 2>/dev/null || fail "exitall: exit $?"
J '(.jobs[0].assay.end_ms - .jobs[1].assay.end_ms | fabs) < 1000 and .jobs[0].assay.end_ms < 10000 and
	.jobs[1].read.total_ios == 1024 and .jobs[1]["job options"].exitall == "1"' "exitall"
"$A" disk --filename="$dv" --name=bg --rw=randread --runtime=0.3 --time_based --exitall --name=late --startdelay=60 \
	--rw=read -J > "$T/out.json" 2>/dev/null || fail "exitall in a startdelay: exit $?"
J '.jobs[1].read.total_ios == 0 and .jobs[0].read.total_ios > 0' "exitall ends a startdelay"
"$A" disk --filename="$dv" --name=a --rw=randread --runtime=0.3 --time_based --name=b --rw=read --size=1m --runtime=1 \
	-J > "$T/out.json" 2>/dev/null || fail "no exitall: exit $?"
J '.jobs[0].assay.end_ms - .jobs[0].assay.start_ms > 250' "without exitall the others run on"
# fio's buffered is the opposite of direct; a test file goes with --unlink; settings of
# fio's file creation are accepted, with no effect
"$A" disk --filename="$dv" --rw=read --size=1m --buffered=0 -J > "$T/out.json" 2>/dev/null &&
	J '.jobs[0]["job options"].direct == "1"' "buffered=0" || fail "buffered=0: exit $?"
expect 1 "buffered=1 and --direct=1 contradict each other" "$A" disk --filename="$dv" --buffered=1 --direct=1
expect 1 "allow_mounted_write=1: assay never writes to a mounted device" "$A" disk --filename="$dv" --allow_mounted_write=1
"$A" disk --filename="$T/u.fio" --size=1m --rw=randread --unlink --fallocate=none --create_serialize=0 \
	--overwrite=1 --clocksource=cpu -J > "$T/out.json" 2> "$T/err" || fail "unlink: exit $?"
[ ! -e "$T/u.fio" ] && J '.jobs[0].read.total_ios == 256' "unlink" && [ ! -s "$T/err" ] ||
	fail "unlink: the test file stays ($(cat "$T/err"))"
"$A" disk --filename="$dv" --size=1m --rw=read --unlink -J > /dev/null 2>&1 || fail "unlink of a device: exit $?"
[ -b "$dv" ] || fail "--unlink removed the device node $dv"
# fio's sync: the writes' file opened O_SYNC or O_DSYNC (its flags read from /proc while
# the job runs); fsync_on_close accepted and shown
for s in sync:04010000 dsync:00010000 1:04010000; do
	"$A" disk --filename="$T/s.fio" --size=1m --rw=randwrite --mode=destroy --sync="${s%%:*}" --fsync_on_close 		--runtime=1.5 --time_based -J > "$T/out.json" 2>/dev/null &
	pid=$! flags=
	for _ in $(seq 30); do
		sleep 0.1
		for fd in /proc/$pid/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "$T/s.fio" ] &&
				flags=$(awk '/^flags:/ { print $2 }' "/proc/$pid/fdinfo/${fd##*/}" 2>/dev/null)
		done
		[ -n "$flags" ] && break
	done
	wait $pid || fail "sync=${s%%:*}: exit $?"
	[ -n "$flags" ] && [ $((8#$flags & 8#04010000)) = $((8#${s#*:})) ] ||
		fail "sync=${s%%:*}: the file's flags ${flags:-none}"
	J ".jobs[0][\"job options\"] | .sync == \"$( [ "${s%%:*}" = dsync ] && echo dsync || echo sync)\" and .fsync_on_close == \"1\"" \
		"sync=${s%%:*}: job options"
done
rm -f "$T/s.fio"
# fio's ETA line on stderr each second: --eta=always, or auto on a terminal (script(1)
# gives one), never with --eta=never; cleared at the end, the report untouched
"$A" disk --filename="$dv" --rw=randread --runtime=2.5 --time_based --eta=always -J > "$T/out.json" 2> "$T/err" ||
	fail "eta: exit $?"
[ "$(tr '\r' '\n' < "$T/err" | grep -cE '^Jobs: 1: \[[0-9.]+%\]\[r=[0-9.]+[KMG]?i?B/s,w=0B/s\]\[r=[0-9.]+[kM]?,w=0 IOPS\]\[eta 00m:0[0-3]s\]')" -ge 1 ] &&
	J '.jobs[0].read.total_ios > 0' "eta: the report" || fail "eta=always: $(tr '\r' '|' < "$T/err" | head -c 300)"
if command -v script >/dev/null; then
	script -qc "'$A' disk --filename='$dv' --rw=randread --runtime=1.5 --time_based -J > '$T/out.json'" /dev/null \
		> "$T/tty" 2>&1 < /dev/null
	grep -q 'Jobs: 1: \[' "$T/tty" || fail "eta=auto on a terminal: $(head -c 200 "$T/tty")"
	script -qc "'$A' disk --filename='$dv' --rw=randread --runtime=1.5 --time_based --eta=never -J > '$T/out.json'" \
		/dev/null > "$T/tty" 2>&1 < /dev/null
	! grep -q 'Jobs:' "$T/tty" || fail "eta=never on a terminal"
fi

# fio's --status-interval: the report so far every interval, in the run's formats, then the
# final one; the figures only grow
"$A" disk --filename="$dv" --rw=randread --direct=1 --runtime=2.2 --time_based --status-interval=0.5 --numjobs=2 \
	-J > "$T/status.json" 2>/dev/null || fail "status-interval: exit $?"
jq -se 'length >= 4 and (.[:-1] | all(.assay.status_report != null)) and .[-1].assay.status_report == null and
	([.[].jobs[0].read.total_ios] | . == sort) and .[-1].jobs[0].read.total_ios > .[0].jobs[0].read.total_ios and
	([.[].jobs[0].read.runtime] | . == sort)' "$T/status.json" >/dev/null ||
	fail "status-interval json: $(jq -sc 'map([.assay.status_report, .jobs[0].read.total_ios, .jobs[0].read.runtime])' "$T/status.json")"
"$A" disk --filename="$dv" --rw=randread --direct=1 --runtime=1.2 --time_based --status-interval=0.5 \
	--output-format=terse,normal > "$T/status.txt" 2>/dev/null || fail "status-interval text: exit $?"
[ "$(grep -c '^Run status group 0' "$T/status.txt")" -ge 3 ] && [ "$(grep -c '^3;' "$T/status.txt")" -ge 3 ] ||
	fail "status-interval text/terse: $(grep -c '^Run status' "$T/status.txt") reports"

expect 1 '^assay: error: disk: --status-interval=0.01: at least 0.1 s \(or 0: never\)$' "$A" disk --filename="$dv" \
	--status-interval=10ms

# fio's rate_min/rate_iops_min: a thread slower than that over a --rate_cycle fails the job
"$A" disk --filename="$dv" --rw=randread --direct=1 --runtime=2 --time_based --rate_iops=200 --rate_iops_min=1000 \
	--rate_cycle=500 -J > "$T/out.json" 2> "$T/err"
[ $? = 1 ] && grep -q -- '--rate_iops_min: reads at [0-9]* IOPS over the last [0-9]* ms, under the minimum 1000$' "$T/err" ||
	fail "rate_iops_min not met: $(cat "$T/err")"
J '.jobs[0].error == 110' "rate_iops_min: the job's error"
"$A" disk --filename="$dv" --rw=randread --direct=1 --runtime=1.5 --time_based --rate_iops=400 --rate_iops_min=50 \
	--rate_cycle=500 -J > "$T/out.json" 2>/dev/null || fail "rate_iops_min met: exit $?"
"$A" disk --filename="$dv" --rw=read --direct=1 --runtime=1.5 --time_based --rate=1m --rate_min=,4m,4m \
	-J > "$T/out.json" 2>/dev/null || fail "rate_min of writes on a read job: exit $?"
"$A" disk --filename="$dv" --rw=read --direct=1 --runtime=1.5 --time_based --rate=1m --rate_min=4m \
	-J > "$T/out.json" 2> "$T/err"
[ $? = 1 ] && grep -q -- '--rate_min: reads at [0-9]* B/s over the last [0-9]* ms, under the minimum 4194304 B/s$' \
	"$T/err" || fail "rate_min not met: $(cat "$T/err")"
expect 1 "rate_min=fast: 'fast' is not a rate" "$A" disk --filename="$dv" --rate_min=fast

# fio's --fsync is fsync(2), --fdatasync fdatasync(2), --end_fsync fsync(2); the seq profile's
# end is dd's fdatasync
if command -v strace >/dev/null; then
	f=/dev/shm/assay-test.$$.sync
	head -c 4194304 /dev/zero > "$f"
	calls() { strace -f -qq -e trace=fsync,fdatasync -o "$T/st" "$A" disk --filename="$f" --mode=destroy "$@" \
		-J > /dev/null 2>&1; grep -oE '(fsync|fdatasync)\(' "$T/st" | sort | uniq -c | awk '{ printf "%s%s", $2, $1 }'; }
	for eng in psync libaio io_uring; do
		[ "$(calls --rw=write --size=64k --ioengine=$eng --fsync=4)" = "fsync(4" ] || [ $eng = io_uring ] ||
			fail "$eng --fsync=4: $(calls --rw=write --size=64k --ioengine=$eng --fsync=4)"
		[ "$(calls --rw=write --size=64k --ioengine=$eng --fdatasync=4)" = "fdatasync(4" ] || [ $eng = io_uring ] ||
			fail "$eng --fdatasync=4"
	done
	[ "$(calls --rw=write --size=64k --ioengine=psync --end_fsync=1)" = "fsync(1" ] || fail "--end_fsync: fsync"
	[ "$(calls --profile=seq --size=2m --ioengine=psync)" = "fdatasync(1" ] || fail "seq: fdatasync"
	"$A" disk --filename="$f" --mode=destroy --rw=write --size=64k --fsync=4 -J > "$T/out.json" 2>/dev/null ||
		fail "io_uring --fsync: exit $?"
	J '.jobs[0] | .sync.total_ios == 4 and .["job options"].fsync == "4"' "io_uring --fsync=4: 4 syncs"
	expect 1 'fsync and --fdatasync: give one or the other' "$A" disk --filename="$f" --fsync=1 --fdatasync=1
	# pvsync2 --hipri in a rewrite: one draw for the read and its write-back, inline and
	# offloaded alike (each I/O's offset read and written with the same flag)
	for sm in inline offload; do
		rm -f "$T"/stf.*
		strace -ff -qq -e trace=preadv2,pwritev2 -o "$T/stf" "$A" disk --filename="$dev" --rw=randwrite --bs=4k \
			--size=1m --direct=1 --ioengine=pvsync2 --hipri --hipri_percentage=50 --mode=rewrite --iodepth=4 \
			--io_submit_mode=$sm > /dev/null 2>&1 || fail "rewrite hipri $sm: exit $?"
		# OFFSET READ-FLAG, OFFSET WRITE-FLAG: pairs of equal lines, half of them polled
		cat "$T"/stf.* | awk '/^p(read|write)v2\(/ { h = /RWF_HIPRI/; sub(/^.*\], 1, /, ""); sub(/[,)].*/, "")
			n[$0 " " h]++ } END { for (k in n) { split(k, a, " "); t[a[2]] += n[k] == 2; bad += n[k] != 2 }
			print t[1] + 0, t[0] + 0, bad + 0 }' > "$T/pairs"
		read -r hp nhp bad < "$T/pairs"
		[ "$bad" = 0 ] && [ $((hp + nhp)) = 256 ] && [ "$hp" -ge 64 ] && [ "$hp" -le 192 ] ||
			fail "rewrite hipri $sm: polled pairs $hp, unpolled $nhp, split $bad"
	done
fi

# fio's dedupe_percentage: that share of 4k writes identical (counted in the data written)
if command -v python3 >/dev/null; then
	f=/dev/shm/assay-test.$$.dedupe
	head -c 4194304 /dev/zero > "$f"
	for pct in 0 50 100; do
		"$A" disk --filename="$f" --rw=randwrite --size=4m --mode=destroy --iodepth=8 --dedupe_percentage=$pct \
			-J > /dev/null 2>&1 || fail "dedupe_percentage=$pct: exit $?"
		u=$(python3 -c "import hashlib,sys; d=open(sys.argv[1],'rb').read()
print(len({hashlib.sha1(d[i:i+4096]).digest() for i in range(0, len(d), 4096)}))" "$f")
		case $pct in
		0) [ "$u" = 1024 ] ;;
		50) [ "$u" -ge 460 ] && [ "$u" -le 570 ] ;;
		100) [ "$u" = 1 ] ;;
		esac || fail "dedupe_percentage=$pct: $u distinct blocks of 1024"
	done
	# dedupe_mode=working_set: the deduplicated writes each repeat one of the thread's
	# working set (5% of its region: 51 blocks of 4m; 25 of each thread's 2m), whose
	# blocks are also written once as unique ones: "distinct blocks, distinct contents
	# written more than once" as fio's (a thread each its own set; with dedupe_global one)
	dd() { python3 -c "import hashlib,sys,collections; d=open(sys.argv[1],'rb').read()
c=collections.Counter(hashlib.sha1(d[i:i+4096]).digest() for i in range(0, len(d), 4096))
print(len(c), len([k for k, v in c.items() if v > 1]))" "$f"; }
	for o in "--numjobs=1 --size=4m" "--numjobs=2 --size=2m" "--numjobs=2 --size=2m --dedupe_global=1"; do
		for t in a f; do
			head -c 4194304 /dev/zero > "$f"
			# shellcheck disable=SC2086
			if [ $t = a ]; then
				"$A" disk --filename="$f" --rw=randwrite --mode=destroy --iodepth=8 --dedupe_percentage=50 \
					--dedupe_mode=working_set --offset_increment=2m $o -J > "$T/out.json" 2>/dev/null ||
					fail "working_set $o: exit $?"
			else
				fio --name=x --filename="$f" --rw=randwrite --iodepth=8 --dedupe_percentage=50 \
					--dedupe_mode=working_set --offset_increment=2m $o --output=/dev/null || fail "fio working_set $o"
			fi
			read -r "u_$t" "s_$t" <<< "$(dd)"
		done
		# shellcheck disable=SC2154
		[ $((s_a - s_f)) -ge -2 ] && [ $((s_a - s_f)) -le 2 ] && [ "$u_a" -ge $((u_f - 40)) ] && [ "$u_a" -le $((u_f + 40)) ] ||
			fail "working_set $o: distinct blocks, repeated ones: assay $u_a $s_a, fio $u_f $s_f"
	done
	J '.jobs[0]["job options"] | .dedupe_mode == "working_set" and .dedupe_working_set_percentage == "5" and
		.dedupe_global == "1"' "working_set reported"
	expect 1 "dedupe_percentage=60 with --dedupe_working_set_percentage=50: more than 100%" "$A" disk --filename="$f" \
		--rw=randwrite --mode=destroy --dedupe_percentage=60 --dedupe_mode=working_set --dedupe_working_set_percentage=50
	expect 1 "dedupe_working_set_percentage=0: not one --bs block of the region" "$A" disk --filename="$f" \
		--rw=randwrite --mode=destroy --dedupe_percentage=60 --dedupe_mode=working_set --dedupe_working_set_percentage=0
	rm -f "$f"
fi

# fio's description: the JSON's desc
"$A" disk --filename="$dv" --size=1m --description="a note" -J > "$T/out.json" 2>/dev/null || fail "description: exit $?"
J '.jobs[0].desc == "a note"' "description"

# fio's fadvise_hint (default 1): buffered random reads go to the device one by one, no
# readahead (as fio's: POSIX_FADV_RANDOM); with --fadvise_hint=0 readahead merges them
reads() { awk '{ print $1 }' "/sys/block/${dv#/dev/}/stat"; }
r0=$(reads)
"$A" disk --filename="$dv" --rw=randread --bs=4k --size=16m --ioengine=psync -J > "$T/out.json" 2>/dev/null ||
	fail "fadvise: exit $?"
r1=$(reads)
"$A" disk --filename="$dv" --rw=randread --bs=4k --size=16m --ioengine=psync --fadvise_hint=0 -J > "$T/out.json" \
	2>/dev/null || fail "fadvise_hint=0: exit $?"
r2=$(reads)
[ $((r1 - r0)) -ge 4096 ] && [ $((r1 - r0)) -le 4100 ] || fail "fadvise_hint=1: $((r1 - r0)) device reads for 4096 4k reads"
[ $((r2 - r1)) -lt 4000 ] || fail "fadvise_hint=0: $((r2 - r1)) device reads, readahead should merge some"

# fio's ioscheduler: set for the run (seen from outside meanwhile), the old one back after
sched=/sys/block/${dv#/dev/}/queue/scheduler
before=$(cat "$sched")
want=$(tr -d '[]' < "$sched" | tr ' ' '\n' | grep -v "^$(sed 's/.*\[\(.*\)\].*/\1/' "$sched")$" | grep . | head -n 1)
if [ -n "$want" ]; then
	(sleep 0.7; cat "$sched" > "$T/during") &
	"$A" disk --filename="$dv" --rw=randread --runtime=1.5 --time_based --ioscheduler="$want" -J > "$T/out.json" \
		2>/dev/null || fail "ioscheduler=$want: exit $?"
	wait
	grep -q "\[$want\]" "$T/during" || fail "ioscheduler=$want: during the run: $(cat "$T/during")"
	[ "$(cat "$sched")" = "$before" ] || fail "ioscheduler: not put back: $(cat "$sched"), was $before"
	J ".assay.ioscheduler.used == \"$want\"" "ioscheduler in the JSON"
fi
expect 1 '^assay: error: disk: --ioscheduler=cfq: .* offers ' "$A" disk --filename="$dv" --ioscheduler=cfq

# fio's exit_what with --exitall: group (and stonewall, the same here) stops the jobs
# running with the one that ended; all also the groups after it
"$A" disk --filename="$dev" --rw=read --runtime=0.3 --time_based --name=a --exitall --exit_what=all --name=b \
	--runtime=30 --name=c --stonewall -J > "$T/out.json" 2> "$T/err.txt" || fail "exit_what=all: exit $?"
J '[.jobs[].jobname] == ["a", "b"] and .jobs[1].read.runtime < 10000' "exit_what=all: b stopped with a, c not run" \
	'[.jobs[] | [.jobname, .read.runtime]]'
grep -q "a ended with --exitall --exit_what=all: the jobs after it were not run" "$T/err.txt" || fail "exit_what=all: $(cat "$T/err.txt")"
"$A" disk --filename="$dev" --rw=read --runtime=0.3 --time_based --name=a --exitall --exit_what=stonewall --name=b \
	--runtime=30 --name=c --stonewall -J > "$T/out.json" 2>/dev/null || fail "exit_what=stonewall: exit $?"
J '[.jobs[].jobname] == ["a", "b", "c"] and .jobs[1].read.runtime < 10000' "exit_what=stonewall: b stopped, c run" \
	'[.jobs[] | [.jobname, .read.runtime]]'
# fio's new_group: a new reporting group (groupid) without waiting: all four run at once,
# --group_reporting sums each reporting group apart
"$A" disk --filename="$dev" --rw=read --runtime=0.3 --time_based --name=a --name=b --name=c --new_group --name=d \
	-J > "$T/out.json" 2>/dev/null || fail "new_group: exit $?"
J '[.jobs[].groupid] == [0, 0, 1, 1] and (.jobs[3].assay.start_ms < .jobs[0].assay.end_ms)' "new_group: groupids, at once" \
	'[.jobs[] | [.jobname, .groupid, .assay.start_ms, .assay.end_ms]]'
"$A" disk --filename="$dev" --rw=read --runtime=0.3 --time_based --name=a --name=b --name=c --new_group --name=d \
	--group_reporting -J > "$T/out.json" 2>/dev/null || fail "new_group, group_reporting: exit $?"
J '[.jobs[] | [.jobname, .groupid, .assay.threads]] == [["a", 0, 2], ["c", 1, 2]]' "new_group: a report per group" \
	'[.jobs[] | [.jobname, .groupid, .assay.threads]]'

# fio's wait_for: a job of the group starts once the one it names has ended (an --exitall
# ends the wait); the waitee must come first
"$A" disk --filename="$dev" --rw=read --runtime=0.4 --time_based --name=a --name=b --wait_for=a --runtime=0.2 \
	--name=c -J > "$T/out.json" 2>/dev/null || fail "wait_for: exit $?"
J '.jobs[0].assay as $a | .jobs[1].assay as $b | .jobs[2].assay as $c | $b.start_ms >= $a.end_ms and
	$c.start_ms < $a.end_ms and ([.jobs[].groupid] | unique) == [0]' "wait_for: b after a, c beside a" \
	'[.jobs[] | [.jobname, .assay.start_ms, .assay.end_ms]]'
"$A" disk --filename="$dev" --rw=read --runtime=0.3 --time_based --name=x --exitall --name=a --runtime=30 \
	--name=b --wait_for=a -J > "$T/out.json" 2>/dev/null || fail "wait_for and exitall: exit $?"
J '.jobs[2].read.total_ios == 0' "wait_for ended by exitall" '[.jobs[] | [.jobname, .read.total_ios]]'
expect 1 "wait_for=b: no job of that name before 'a'" "$A" disk --filename="$dev" --name=a --wait_for=b --name=b

# fio's allow_file_create=0: a file that is not there is an error, not laid out
expect 1 "$T/nofile does not exist, and --allow_file_create=0" "$A" disk --filename="$T/nofile" --size=1m --allow_file_create=0
[ ! -e "$T/nofile" ] || fail "allow_file_create=0 made the file"

# fio's name= in a section renames its job (--section still takes the section's name); in
# [global] it changes nothing, as in fio
printf '[global]\nname=ignored\nrw=read\nsize=64k\n[a]\nname=renamed one\n[b]\n' > "$T/nm.fio"
"$A" disk "$T/nm.fio" --filename="$dev" -J > "$T/out.json" 2>/dev/null || fail "name=: exit $?"
J '[.jobs[].jobname] == ["renamed one", "b"]' "name= renames the job" '[.jobs[].jobname]'
"$A" disk "$T/nm.fio" --filename="$dev" --section=a -J > "$T/out.json" 2>/dev/null || fail "name= and --section: exit $?"
J '[.jobs[].jobname] == ["renamed one"]' "name= with --section" '[.jobs[].jobname]'
printf '[a]\nname\n' > "$T/nm2.fio"
expect 1 "nm2.fio:2: name: give the job's name: name=NAME" "$A" disk "$T/nm2.fio" --filename="$dev"

# fio's arithmetic in values, in a job file (with its $variables) and on the command line
printf '[global]\nrw=read\nsize=($mb_memory/$mb_memory*(1m/2))\nbs=(4k*2)\n[a]\niodepth=(2^3)\n' > "$T/ar.fio"
printf '[a]\nbs=(4k/0)\n' > "$T/ar2.fio"
"$A" disk "$T/ar.fio" --filename="$dev" --offset='(1+2)*4k' -J > "$T/out.json" 2>/dev/null || fail "arithmetic: exit $?"
J '.jobs[0] | .read.io_bytes == 524288 and .["job options"].bs == "8192" and .["job options"].iodepth == "8" and
	.["job options"].offset == "12288"' "arithmetic" '.jobs[0] | [.read.io_bytes, .["job options"]]'
expect 1 "ar2.fio:2: bs=\(4k/0\): not a size" "$A" disk "$T/ar2.fio" --filename="$dev"

# fio's --showcmd: a job file (with the command line's options) as one command line, which
# runs the same jobs with the same options; --parse-only checks it all and runs nothing (no
# file laid out, nothing written, a refusal still refused)
printf "[global]\nrw=randread\nruntime=0.2\ntime_based\n[a b]\nfilename=%s\ndescription=it's q\n[c]\nfilename=%s/new.f\nsize=1m\nbs=8k\n" \
	"$dev" "$T" > "$T/show.fio"
cmd=$("$A" disk "$T/show.fio" --direct=1 --showcmd) || fail "showcmd: exit $?"
case $cmd in "assay disk --rw=randread --runtime=0.2 --time_based=1 --direct=1 '--name=a b' --filename=$dev '--description=it'\''s q' --name=c"*) ;;
	*) fail "showcmd: $cmd" ;; esac
sum1=$(sha "$dev")
PATH=$BUILD:$PATH eval "$cmd --parse-only -J" > "$T/out.json" 2>/dev/null || fail "parse-only: exit $?"
J '.assay.parse_only and (.jobs | length) == 0' "parse-only: nothing run"
[ ! -e "$T/new.f" ] || fail "parse-only laid out a file"
[ "$("$A" disk "$T/show.fio" -section c --showcmd)" = "assay disk --rw=randread --runtime=0.2 --time_based=1 --name=c --filename=$T/new.f --size=1m --bs=8k" ] ||
	fail "showcmd with --section: $("$A" disk "$T/show.fio" -section c --showcmd)"
PATH=$BUILD:$PATH eval "$cmd -J" > "$T/a.json" 2>/dev/null || fail "showcmd's line: exit $?"
"$A" disk "$T/show.fio" --direct=1 -J > "$T/b.json" 2>/dev/null || fail "the job file: exit $?"
[ "$(jq -c '[.jobs[] | .["job options"], .desc]' "$T/a.json")" = "$(jq -c '[.jobs[] | .["job options"], .desc]' "$T/b.json")" ] ||
	fail "showcmd: other jobs than the file's: $(jq -c '[.jobs[] | .["job options"]]' "$T/a.json")"
expect 1 "rw=sideways: unknown value" "$A" disk "$T/show.fio" --parse-only --rw=read \
	--section=c --rw=sideways
expect 1 "refusing --mode=destroy: $dev has 67108864 bytes, not 1024" "$A" disk --filename="$dev" --rw=write \
	--mode=destroy --expect-size=1k --parse-only
[ "$(sha "$dev")" = "$sum1" ] || fail "showcmd/parse-only changed the device"
finish
