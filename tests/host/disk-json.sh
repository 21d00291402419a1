# assay disk's JSON holds fio's keys with fio's units, consistent with each other;
# rwmix, per-thread reports, repeats, psync, the io_uring fallback, text output.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev j 64) || skip "losetup failed"

J() {
	local show=${3:-'.jobs[0].read | {iops, total_ios, runtime}'}
	jq -e "$1" "$T/out.json" >/dev/null || fail "${2:-$1}: $(jq -c "$show" "$T/out.json" 2>&1 | head -c 300)"
}

# a fio command line, pasted
"$A" disk --name=pasted --filename="$dev" --rw=randrw --rwmixread=70 --bs=4k --iodepth=16 --direct=1 \
	--runtime=1 --time_based --ioengine=io_uring --numjobs=1 --group_reporting --mode=rewrite \
	--output-format=json > "$T/out.json" || fail "randrw run: exit $?"
J '.jobs | length == 1' "one job"
J '.jobs[0].jobname == "pasted"'
for d in read write; do
	for k in io_bytes io_kbytes bw_bytes bw iops runtime total_ios short_ios drop_ios \
		bw_min bw_max bw_agg bw_mean bw_dev bw_samples iops_min iops_max iops_mean iops_stddev iops_samples; do
		J ".jobs[0].$d | has(\"$k\")" "$d.$k missing"
	done
	for s in slat_ns clat_ns lat_ns; do
		J ".jobs[0].$d.$s | has(\"min\") and has(\"max\") and has(\"mean\") and has(\"stddev\") and has(\"N\")" "$d.$s"
	done
	J ".jobs[0].$d.clat_ns.percentile | keys == [\"1.000000\",\"10.000000\",\"20.000000\",\"30.000000\",\"40.000000\",\"5.000000\",\"50.000000\",\"60.000000\",\"70.000000\",\"80.000000\",\"90.000000\",\"95.000000\",\"99.000000\",\"99.500000\",\"99.900000\",\"99.950000\",\"99.990000\"]" "$d percentile list"
	# figures agree with each other as fio defines them
	J ".jobs[0].$d | (.io_kbytes == (.io_bytes / 1024 | floor)) and (.total_ios * 4096 == .io_bytes)" "$d bytes"
	J ".jobs[0].$d | ((.bw_bytes - .io_bytes * 1000 / .runtime) | fabs) < .bw_bytes * 0.01" "$d bw_bytes vs io_bytes/runtime"
	J ".jobs[0].$d | ((.iops - .total_ios * 1000 / .runtime) | fabs) < .iops * 0.01" "$d iops vs total_ios/runtime"
	J ".jobs[0].$d | .bw == (.bw_bytes / 1024 | floor) or .bw == (.bw_bytes / 1024 | floor) - 1" "$d bw KiB/s"
	J ".jobs[0].$d.clat_ns | .N > 0 and .min <= .mean and .mean <= .max" "$d clat"
	J "[.jobs[0].$d.clat_ns.percentile | to_entries | sort_by(.key | tonumber) | .[].value] | . == sort" "$d percentiles ordered"
	J ".jobs[0].$d.clat_ns.N == .jobs[0].$d.total_ios" "$d clat N"
done
J '.jobs[0] | has("usr_cpu") and has("sys_cpu") and has("ctx") and has("job_runtime")' "job cpu keys"
# a job of four threads reported as one: fio adds their runtimes up (job_runtime) and its CPU %
# is over that, a thread's average (at most 100); the same in fio 3.33, run here
for tool in assay fio; do
	if [ $tool = assay ]; then run=("$A" disk -J); else run=(fio --output-format=json); fi
	"${run[@]}" --name=n --ioengine=null --size=1g --rw=randread --numjobs=4 --group_reporting --time_based \
		--runtime=1 > "$T/g.json" 2>/dev/null || fail "$tool: four threads: exit $?"
	jq -e '.jobs[0] | (.job_runtime / .read.runtime) as $k | $k > 3.6 and $k < 4.4 and
		.usr_cpu + .sys_cpu <= 100.5' "$T/g.json" > /dev/null ||
		fail "$tool: four threads' job_runtime and CPU %: $(jq -c '.jobs[0] | [.job_runtime, .read.runtime, .usr_cpu, .sys_cpu]' "$T/g.json")"
done
J '.jobs[0].assay | has("steal_pct") and has("other_cpu_pct") and (.within.read | has("250us"))' "assay keys"
J '(.jobs[0].read.total_ios / (.jobs[0].read.total_ios + .jobs[0].write.total_ios) - 0.70 | fabs) < 0.02' \
	"rwmixread=70" '.jobs[0] | {r: .read.total_ios, w: .write.total_ios}'
J '."fio version" and .timestamp and .jobs[0]."job options".rw == "randrw"' "top-level keys"

# per-thread reports without group_reporting; all threads with it
"$A" disk --filename="$dev" --rw=randread --numjobs=3 --group_reporting=0 --runtime=0.5 --time_based -J \
	> "$T/out.json" || fail "numjobs=3: exit $?"
J '.jobs | length == 3' "3 per-thread jobs"
"$A" disk --filename="$dev" --rw=randread --numjobs=3 --runtime=0.5 --time_based -J > "$T/out.json" || fail "group: exit $?"
J '.jobs | length == 1 and .[0].assay.threads == 3' "grouped"

# size-based: exactly size/bs I/Os
"$A" disk --filename="$dev" --rw=randread --bs=8k --size=4m -J > "$T/out.json" || fail "size run: exit $?"
J '.jobs[0].read.total_ios == 512' "size=4m bs=8k: 512 I/Os"

# repeats: mean, stddev, 95% CI
"$A" disk --filename="$dev" --profile=qd1 --runtime=0.3 --repeat=3 -J > "$T/out.json" || fail "repeat: exit $?"
J '.jobs | length == 3' "3 repeats"
J '.assay.repeats.qd1.read.iops | .n == 3 and .ci95_low <= .mean and .mean <= .ci95_high and (.values | length) == 3' \
	"repeat stats" '.assay.repeats'
"$A" disk --filename="$dev" --profile=qd1 --runtime=0.3 --repeat=2 > "$T/out.txt" || fail "repeat text: exit $?"
grep -qE '^  qd1 +read  IOPS [0-9]+ \+- [0-9]+ \[' "$T/out.txt" && grep -q '^across 2 repeats' "$T/out.txt" ||
	fail "repeat text: no summary across repeats"
# the summary figures of a disk test in a suite run (the loop device named): IOPS,
# bandwidth, clat p50/p99 and the job's steal, folded into steal.max
"$A" run --tests=disk --disks="${dev#/dev/}" --disk-profile=qd1 --disk-time=0.5 -J > "$T/run.json" 2>/dev/null ||
	fail "run: exit $?"
jq -e '[.summary[].name] as $n | ["disk.qd1.read.iops", "disk.qd1.read.bw", "disk.qd1.read.clat.p50",
	"disk.qd1.read.clat.p99", "disk.qd1.steal", "steal.max"] | all(. as $k | $n | index($k) != null)' "$T/run.json" \
	>/dev/null || fail "run summary: $(jq -c '[.summary[].name]' "$T/run.json" 2>&1 | head -c 300)"
# the disks' scheduler for a suite's disk tests (assay.disk-ioscheduler), put back after;
# one the disk does not offer: the disk test fails with the offers named
sched=/sys/block/${dev#/dev/}/queue/scheduler
before=$(cat "$sched")
want=$(grep -oE 'mq-deadline|kyber|none' "$sched" | grep -vxF "$(grep -oE '\[[^]]*\]' "$sched" | tr -d '[]')" | head -1)
if [ -n "$want" ]; then
	"$A" run --tests=disk --disks="${dev#/dev/}" --disk-profile=qd1 --disk-time=0.3 --disk-ioscheduler="$want" -J \
		> "$T/run.json" 2>/dev/null || fail "run --disk-ioscheduler=$want: exit $?"
	jq -e --arg w "$want" '.tests[] | select(.name == "disk") | .status == "ok" and .result.assay.ioscheduler.used == $w' \
		"$T/run.json" >/dev/null || fail "run --disk-ioscheduler=$want: $(jq -c '.tests' "$T/run.json" | head -c 300)"
	[ "$(cat "$sched")" = "$before" ] || fail "run --disk-ioscheduler: not put back: $(cat "$sched"), was $before"
fi
"$A" run --tests=disk --disks="${dev#/dev/}" --disk-profile=qd1 --disk-time=0.3 --disk-ioscheduler=cfq -J \
	> "$T/run.json" 2>/dev/null && fail "run --disk-ioscheduler=cfq: exit 0"
jq -e '.tests[] | select(.name == "disk") | .status == "failed" and (.result.error | test("^--ioscheduler=cfq: .* offers "))' \
	"$T/run.json" >/dev/null || fail "run --disk-ioscheduler=cfq: $(jq -c '.tests' "$T/run.json" | head -c 300)"

# every engine, and fio's batching options on the queued ones: a size-based job does
# exactly size/bs I/Os, every one timed from its own submit (no clat from time zero)
for args in "--ioengine=psync" "--ioengine=sync" "--ioengine=libaio --iodepth=16" \
	"--ioengine=io_uring --iodepth=16 --iodepth_batch_submit=0" \
	"--ioengine=io_uring --iodepth=16 --iodepth_batch_submit=3 --iodepth_batch_complete_min=4 --iodepth_batch_complete_max=5" \
	"--ioengine=libaio --iodepth=16 --iodepth_batch=8 --iodepth_batch_complete=2 --iodepth_batch_complete_max=3" \
	"--ioengine=io_uring --iodepth=8 --iodepth_batch_complete_min=0" \
	"--ioengine=libaio --iodepth=8 --iodepth_batch_complete_min=0"; do
	"$A" disk --filename="$dev" --rw=randread --bs=4k --size=2m --direct=1 $args -J > "$T/out.json" ||
		fail "$args: exit $?"
	eng=${args%% *}
	J ".jobs[0].read.total_ios == 512 and .\"global options\".ioengine == \"${eng#--ioengine=}\" and
	   .jobs[0].read.clat_ns.max < 5e9 and .jobs[0].read.slat_ns.min >= 0" "$args"
done
"$A" disk --filename="$dev" --rw=randread --ioengine=libaio --direct=1 --runtime=0.3 --time_based \
	--force-io_uring-error=38 -J > "$T/out.json" 2> "$T/err"
[ $? = 1 ] || fail "forced libaio failure: exit $?, want 1"
grep -q 'libaio unavailable (Function not implemented): measured with psync instead' "$T/err" ||
	fail "no libaio fallback warning"
# more AIO events than the system allows: the job fails and names the limit (no fallback)
nj=$(( $(cat /proc/sys/fs/aio-max-nr) / 4096 + 2 ))
if [ $nj -le 256 ]; then
	"$A" disk --filename="$dev" --rw=randread --ioengine=libaio --iodepth=4096 --numjobs=$nj --runtime=0.3 \
		--time_based > /dev/null 2> "$T/err"
	rc=$?   # as fio's: how many threads failed (those past the limit)
	[ $rc -ge 1 ] && [ $rc -le $nj ] && grep -q 'is beyond what /proc/sys/fs/aio-max-nr leaves free' "$T/err" ||
		fail "aio-max-nr exceeded: exit $rc: $(cat "$T/err")"
fi

# no io_uring (forced): psync measures, the result is marked, exit 1, one warning line
"$A" disk --filename="$dev" --rw=randread --direct=1 --runtime=0.3 --time_based --force-io_uring-error=38 -J \
	> "$T/out.json" 2> "$T/err"
rc=$?
[ $rc = 1 ] || fail "forced io_uring failure: exit $rc, want 1"
J '.assay.ioengine_fallback | test("Function not implemented")' "fallback marked" '.assay'
J '.jobs[0].read.total_ios > 0' "fallback measured"
grep -q 'io_uring unavailable (Function not implemented): measured with psync instead' "$T/err" || fail "no fallback warning"

# fio's distributions and disk_util: shares that add up, the device's own counters
"$A" disk --filename="$dev" --rw=randread --bs=4k --size=2m --iodepth=8 --direct=1 -J > "$T/out.json" || fail "dist: exit $?"
J '[.jobs[0].iodepth_level[]] | add | . > 99.9 and . < 100.1' "iodepth_level adds up to 100%" '.jobs[0].iodepth_level'
# every key fio 3.33 puts in a job's JSON is there too (but "eta", fio's INT_MAX at the end)
if command -v fio >/dev/null; then
	paths() { jq -r '.jobs[0] | [paths(scalars)] | map(map(tostring) | join(".")) | .[]' "$1" |
		sed -E 's/percentile\.[0-9.]+/percentile.P/; s/\.[0-9]+(\.|$)/.N\1/g' | sort -u; }
	fio --name=x --filename="$dev" --rw=randrw --bs=4k --size=4m --output-format=json > "$T/fio.json" 2>/dev/null ||
		fail "fio failed"
	"$A" disk --filename="$dev" --rw=randrw --bs=4k --size=4m --mode=rewrite -J > "$T/out.json" 2>/dev/null ||
		fail "randrw: exit $?"
	missing=$(comm -23 <(paths "$T/fio.json") <(paths "$T/out.json") | grep -vx eta | tr '\n' ' ')
	[ -z "$missing" ] || fail "fio's job keys missing: $missing"
	J '.jobs[0] | ([.iodepth_submit[]] | add | . > 99.9 and . < 100.1) and ([.iodepth_complete[]] | add | . > 99.9) and
		.iodepth_submit["4"] == 100 and .latency_depth == 1 and .latency_percentile == 100 and
		.["job options"].name == "job" and .["job options"].filename == "'"$dev"'"' "submit/complete, latency_*, name"
	# submits of 5-8 I/Os only when they are batched
	for b in 1 8; do
		"$A" disk --filename="$dev" --rw=randread --size=8m --iodepth=32 --iodepth_batch_submit=$b --direct=1 -J \
			> "$T/out.json" 2>/dev/null || fail "batch $b: exit $?"
		J ".jobs[0].iodepth_submit | if $b == 1 then .[\"4\"] == 100 else .[\"8\"] > 0 end" "batches of $b" \
			'.jobs[0] | [.iodepth_submit, .iodepth_complete]'
	done
fi

# fio's iodepth_low, with fio's batching (each I/O submitted at once, one completion a
# reap): the queue fills to 16, drains to 4, fills again (each I/O issued at depth 5..16:
# fio's 25/66.7/8.3%); 0: kept full, each reap one I/O; a maximum of --iodepth: all there are
fiob="--iodepth_batch_submit=1 --iodepth_batch_complete_max=1"
for e in io_uring libaio; do
	"$A" disk --filename="$dev" --rw=randread --iodepth=16 --iodepth_low=4 $fiob \
		--ioengine=$e --direct=1 --runtime=0.5 --time_based -J > "$T/out.json" || fail "iodepth_low ($e): exit $?"
	J '.jobs[0].iodepth_level | (.["4"] - 25 | fabs) < 0.5 and (.["8"] - 66.67 | fabs) < 0.5 and
		(.["16"] - 8.33 | fabs) < 0.5' "iodepth_low=4 ($e)" '.jobs[0].iodepth_level'
	"$A" disk --filename="$dev" --rw=randread --iodepth=16 --iodepth_low=0 $fiob \
		--ioengine=$e --direct=1 --runtime=0.5 --time_based -J > "$T/out.json" || fail "iodepth_low=0 ($e): exit $?"
	J '.jobs[0] | .iodepth_level["16"] > 99 and .iodepth_complete["4"] == 100' \
		"iodepth_low=0 ($e): the queue kept full, one completion a reap" '.jobs[0] | [.iodepth_level, .iodepth_complete]'
	"$A" disk --filename="$dev" --rw=randread --iodepth=16 --iodepth_batch_complete_max=16 \
		--ioengine=$e --direct=1 --runtime=0.5 --time_based -J > "$T/out.json" || fail "reap all ($e): exit $?"
	J '.jobs[0] | ([.iodepth_complete[]] | add | . > 99.9 and . < 100.1) and .read.total_ios > 0' \
		"--iodepth_batch_complete_max=16 ($e)" '.jobs[0].iodepth_complete'
done
J '[.jobs[0].latency_ns[], .jobs[0].latency_us[], .jobs[0].latency_ms[]] | add | . > 99.9 and . < 100.1' \
	"latency buckets add up to 100%" '.jobs[0] | [.latency_ns, .latency_us, .latency_ms]'
J ".disk_util[0].name == \"${dev#/dev/}\" and .disk_util[0].read_ios >= 512 and .disk_util[0].write_ios == 0" \
	"disk_util" '.disk_util'

# fio's terse format (v3): YABS's line as it is (--minimal), with --mode=rewrite for its writes;
# a size-based job's figures are exact, the shares add up
"$A" disk --name=rand_rw_4k --ioengine=libaio --rw=randrw --rwmixread=50 --bs=4k --iodepth=64 --numjobs=2 \
	--size=2M --runtime=1 --gtod_reduce=1 --direct=1 --filename="$dev" --group_reporting --minimal \
	--mode=rewrite > "$T/terse" || fail "YABS's line: exit $?"
awk -F';' 'NR == 1 && NF == 130 && $1 == 3 && $3 == "rand_rw_4k" && $8 > 0 && $49 > 0 && $122 != "" { ok = 1 }
	END { exit !(ok && NR == 1) }' "$T/terse" || fail "YABS's line: terse: $(head -c 300 "$T/terse")"
"$A" disk --name=t --filename="$dev" --rw=randread --bs=4k --size=2m --iodepth=4 --direct=1 --output-format=terse \
	> "$T/terse" || fail "terse: exit $?"
awk -F';' -v d="${dev#/dev/}" '{ ok = NF == 130 && $6 == 2048 && $47 == 0 && $122 == d && $123 >= 512
	for (i = 18; i <= 37; i++) ok = ok && $i ~ /^[0-9.]+%=[0-9]+$/
	for (i = 93; i <= 99; i++) dep += $i
	for (i = 100; i <= 121; i++) lat += $i
	ok = ok && dep > 99.8 && dep < 100.2 && lat > 99.8 && lat < 100.2 }
	END { exit !(ok && NR == 1) }' "$T/terse" || fail "terse fields: $(head -c 400 "$T/terse")"
# a skipped job prints no line, and says why
"$A" disk --filename="$dev" --rw=write --size=1m --minimal > "$T/terse" 2> "$T/err"
[ $? = 77 ] && [ ! -s "$T/terse" ] && grep -q 'skipped: writes' "$T/err" || fail "terse of a skipped job"
expect 2 'output-format=terse: unknown value' "$A" cpu --output-format=terse
# several formats at once, in fio's order whatever the list's: terse, json, normal
"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 --output-format=normal,json,terse \
	> "$T/multi" || fail "normal,json,terse: exit $?"
head -1 "$T/multi" | awk -F';' '{ exit !(NF == 130 && $1 == 3 && $6 == 1024) }' &&
	sed -n '/^{$/,/^}$/p' "$T/multi" | jq -e '.jobs[0].read.total_ios == 256' >/dev/null &&
	sed '1,/^}$/d' "$T/multi" | grep -q '^Run status group 0 (all jobs):$' ||
	fail "normal,json,terse: $(cut -c1-60 "$T/multi" | head -5)"
"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 --output-format=json+,json > "$T/out.json" &&
	J '.jobs[0].read.clat_ns.bins | length > 0' "json+,json: one JSON with the bins" ||
	fail "json+,json: exit $?"
expect 1 'output-format=json,: an empty item' "$A" disk --filename="$dev" --output-format=json,
expect 2 'output-format=normal,json: unknown value' "$A" cpu --output-format=normal,json

# fio's --output: the report in the file, nothing on stdout; a bad path is bad input
"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 -J --output="$T/o.json" > "$T/stdout" ||
	fail "--output: exit $?"
[ ! -s "$T/stdout" ] && jq -e '.jobs[0].read.total_ios == 256' "$T/o.json" >/dev/null || fail "--output: file or stdout wrong"
expect 1 "output=$T/no/such/dir/o.json: No such file or directory" "$A" disk --filename="$dev" --output="$T/no/such/dir/o.json"

# fio's percentile options: lat = slat + clat for every I/O, so each of lat's percentiles is
# at least slat's and clat's; --percentile_list sorted, in JSON, text and terse (padded to
# 20); lat's percentiles take the terse fields, as fio; none with --clat_percentiles=0,
# while the summary's p50/p99 stay
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --iodepth=4 --lat_percentiles=1 --slat_percentiles=1 \
	-J > "$T/out.json" || fail "lat_percentiles: exit $?"
J '.jobs[0].read | [.slat_ns, .clat_ns, .lat_ns] | all(.percentile | keys | length == 17)' "slat/clat/lat percentiles" '.jobs[0].read.lat_ns'
J '.jobs[0].read | .lat_ns.percentile as $l | [.slat_ns.percentile, .clat_ns.percentile] |
	all(to_entries | all(.value <= $l[.key]))' "lat percentiles >= slat's and clat's" '.jobs[0].read'
J '.jobs[0].read.lat_ns.N == 512 and .jobs[0]."job options".lat_percentiles == "1"' "lat N"
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --percentile_list=99.9:50 -J > "$T/out.json" ||
	fail "percentile_list: exit $?"
J '.jobs[0].read.clat_ns.percentile | keys_unsorted == ["50.000000", "99.900000"]' "percentile_list keys" '.jobs[0].read.clat_ns'
J '.jobs[0].read.clat_ns.percentile["50.000000"] == .jobs[0].assay.clat_p50_ns.read' "p50 = assay.clat_p50_ns"
J '.jobs[0]."job options".percentile_list == "50:99.9" and (.jobs[0].read.lat_ns | has("percentile") | not)' "list in job options"
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --percentile_list=99.9:50 --minimal > "$T/terse" ||
	fail "percentile_list terse: exit $?"
awk -F';' '{ ok = NF == 130 && $18 ~ /^50.000000%=[0-9]+$/ && $19 ~ /^99.900000%=[0-9]+$/
	for (i = 20; i <= 37; i++) ok = ok && $i == "0%=0" } END { exit !(ok && NR == 1) }' "$T/terse" ||
	fail "percentile_list terse: $(cut -d';' -f16-40 "$T/terse")"
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --percentile_list=50:99.99999 > "$T/out.txt" ||
	fail "percentile_list text: exit $?"
grep -qE '^     \| 50\.00000th=\[ *[0-9]+\], 99\.99999th=\[ *[0-9]+\]$' "$T/out.txt" ||
	fail "percentile_list text: $(grep -A1 'clat percentiles' "$T/out.txt")"
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --lat_percentiles=1 --minimal > "$T/terse" || fail "lat terse: exit $?"
# (of 512 I/Os, the 99.99th is the slowest: lat's max, field 39, within a bucket's error,
# where clat's would be clat's max, field 15)
awk -F';' '{ split($34, a, "="); e = $39 / 64 + 1
	ok = NF == 130 && $34 ~ /^99.990000%=/ && a[2] >= $39 - e && a[2] <= $39 + e }
	END { exit !(ok && NR == 1) }' "$T/terse" || fail "lat terse: $(cut -d';' -f14-41 "$T/terse")"
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --clat_percentiles=0 -J > "$T/out.json" || fail "clat_percentiles=0: exit $?"
J '(.jobs[0].read.clat_ns | has("percentile") | not) and .jobs[0].assay.clat_p50_ns.read > 0 and .jobs[0].assay.clat_p99_ns.read > 0' \
	"clat_percentiles=0" '.jobs[0].assay'
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --clat_percentiles=0 --minimal > "$T/terse" || fail "terse no pcts: exit $?"
awk -F';' '{ ok = NF == 130; for (i = 18; i <= 37; i++) ok = ok && $i == "0%=0" } END { exit !(ok && NR == 1) }' "$T/terse" ||
	fail "clat_percentiles=0 terse: $(cut -d';' -f16-40 "$T/terse")"

# fio's json+: the buckets of every latency with percentiles, keyed by the value reported;
# they add up to N and every percentile is one of them
"$A" disk --filename="$dev" --rw=randread --size=2m --direct=1 --iodepth=4 --lat_percentiles=1 --output-format=json+ \
	> "$T/out.json" || fail "json+: exit $?"
J '.jobs[0].read | [.clat_ns, .lat_ns] | all(([.bins[]] | add) == .N and (.bins | keys_unsorted | map(tonumber)) as $k
	| ($k == ($k | sort)) and ([.percentile[] | tostring] - (.bins | keys) == []))' "json+ bins" '.jobs[0].read.clat_ns'
J '.jobs[0].read.slat_ns | has("bins") | not' "json+: no slat bins without slat percentiles"

# fio's --rate_iops/--rate: a size-based job of 256 I/Os at 1000 IOPS takes at least
# 255 ms (on schedule from the first), with every engine; capped time-based jobs run at
# the cap (the lower bound is far under this device's speed); in a mixed job each
# direction keeps its own cap (fio's: the mix follows the caps)
for e in io_uring libaio psync sync; do
	"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 --iodepth=4 --ioengine=$e --rate_iops=1000 \
		-J > "$T/out.json" || fail "rate_iops $e: exit $?"
	J '.jobs[0].read | .total_ios == 256 and .runtime >= 255' "rate_iops=1000 with $e: 256 I/Os in >= 255 ms"
done
"$A" disk --filename="$dev" --rw=randrw --direct=1 --iodepth=8 --rate_iops=2000,200 --mode=rewrite --runtime=1.5 \
	--time_based -J > "$T/out.json" || fail "rate_iops r,w: exit $?"
J '.jobs[0] | (.read.iops > 1800 and .read.iops < 2040) and (.write.iops > 180 and .write.iops < 204)' \
	"rate_iops=2000,200" '.jobs[0] | {r: .read.iops, w: .write.iops}'
"$A" disk --filename="$dev" --rw=read --bs=64k --direct=1 --rate=4m --runtime=1.5 --time_based -J > "$T/out.json" ||
	fail "rate: exit $?"
J '.jobs[0].read.bw_bytes > 3774873 and .jobs[0].read.bw_bytes < 4278190' "rate=4m" '.jobs[0].read.bw_bytes'
"$A" disk --filename="$dev" --rw=randread --direct=1 --rate_iops=1000 --rate_process=poisson --runtime=2 --time_based \
	-J > "$T/out.json" || fail "poisson: exit $?"
J '.jobs[0].read.iops > 850 and .jobs[0].read.iops < 1150 and .jobs[0]."job options".rate_process == "poisson"' \
	"rate_process=poisson" '.jobs[0].read.iops'

# fio's --thinktime (bare numbers are microseconds): a pause once --thinktime_blocks I/Os
# have completed, after the rest in flight complete: 256 I/Os with a 1 ms pause after
# each take >= 255 ms with any engine; with blocks of 4 at depth 8 each pause covers at
# most 11 (8 in flight, 3 more issued as the first 3 complete), so >= 22 pauses of 1 ms
# (lower bounds: slowness can't fail them)
for e in io_uring psync libaio; do
	"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 --ioengine=$e --thinktime=1000 -J > "$T/out.json" ||
		fail "thinktime $e: exit $?"
	J '.jobs[0].read.total_ios == 256 and .jobs[0].read.runtime >= 255 and .jobs[0]."job options".thinktime == "1000"' \
		"thinktime=1000 with $e"
done
"$A" disk --filename="$dev" --rw=randread --size=1m --direct=1 --iodepth=8 --thinktime=1ms --thinktime_blocks=4 \
	--thinktime_spin=200us -J > "$T/out.json" || fail "thinktime_blocks: exit $?"
J '.jobs[0] | .read.total_ios == 256 and .read.runtime >= 22 and ."job options".thinktime_spin == "200"' "thinktime_blocks=4"
# --thinktime_blocks_type=issue: the blocks counted as issued, so at depth 8 a pause after
# every 4 I/Os (at most 4 between pauses of >= 20 ms, as fio's); counted as completed (the
# default), 8 go before the first completes
burst() { awk -F, '{ if (NR > 1 && $1 - p >= 15) { if (n > m) m = n; n = 0 } n++; p = $1 } END { if (n > m) m = n; print m }' "$1"; }
for ty in issue complete; do
	(cd "$T" && rm -f tb_clat.1.log fb_clat.1.log && "$A" disk --filename="$dev" --rw=randread --direct=1 --iodepth=8 \
		--thinktime=20ms --thinktime_blocks=4 --thinktime_blocks_type=$ty --runtime=0.5 --time_based --write_lat_log=tb \
		-J > out.json) || fail "thinktime_blocks_type=$ty: exit $?"
	J ".jobs[0][\"job options\"].thinktime_blocks_type == \"$ty\" or \"$ty\" == \"complete\"" "thinktime_blocks_type reported"
	(cd "$T" && fio --name=x --filename="$dev" --ioengine=io_uring --rw=randread --direct=1 --iodepth=8 --thinktime=20ms \
		--thinktime_blocks=4 --thinktime_blocks_type=$ty --runtime=500ms --time_based --write_lat_log=fb \
		--output=/dev/null) || fail "fio thinktime_blocks_type=$ty"
	case "$ty $(burst "$T/tb_clat.1.log") $(burst "$T/fb_clat.1.log")" in
	"issue 4 4"|"complete "[89]" "*|"complete 1"[0-9]" "*) ;;
	*) fail "thinktime_blocks_type=$ty: most I/Os between pauses (assay, fio): $(burst "$T/tb_clat.1.log") $(burst "$T/fb_clat.1.log")" ;;
	esac
done
# --rate_ignore_thinktime: after each pause (50 ms every 20 I/Os) the rate's schedule
# (500/s) goes on, no catch-up: 20 I/Os take >= 88 ms, so at most 20 * 1.5 s / 88 ms + 20
# in 1.5 s; without it the pause's I/Os are caught up, well over that
for ig in 0 1; do
	"$A" disk --filename="$dev" --rw=randread --direct=1 --rate_iops=500 --thinktime=50ms --thinktime_blocks=20 \
		--rate_ignore_thinktime=$ig --runtime=1.5 --time_based -J > "$T/ri$ig.json" || fail "rate_ignore_thinktime=$ig: exit $?"
done
[ "$(jq -n --slurpfile a "$T/ri0.json" --slurpfile b "$T/ri1.json" '$a[0].jobs[0].read.total_ios as $x |
	$b[0].jobs[0].read.total_ios as $y | $y <= 361 and $y > 100 and $y < 0.75 * $x and
	$b[0].jobs[0]["job options"].rate_ignore_thinktime == "1"')" = true ] ||
	fail "rate_ignore_thinktime: I/Os without, with: $(jq .jobs[0].read.total_ios "$T/ri0.json") $(jq .jobs[0].read.total_ios "$T/ri1.json")"
# fio's --thinktime_iotime (bare: seconds): a pause once that long has gone by since the
# last pause began (fio's: from the start, then each pause's start; the pause counted in
# it); in the I/O log, pauses of >= 300 ms starting >= 600 ms apart (lower bounds), as fio
(cd "$T" && "$A" disk --filename="$dev" --rw=randread --bs=4k --direct=1 --runtime=2 --time_based --thinktime=300ms \
	--thinktime_iotime=0.3s --write_lat_log=tio > out.json) || fail "thinktime_iotime: exit $?"
awk -F, '$1 - p >= 295 { n++; if (s && p - s < 590) bad = 1; s = p; if (s < 590) bad = 1 } { p = $1 }
	END { exit !(n >= 2 && !bad) }' "$T/tio_clat.1.log" ||
	fail "thinktime_iotime: pauses $(awk -F, '$1 - p >= 100 { printf "%d-%d ", p, $1 } { p = $1 }' "$T/tio_clat.1.log")"
# fio's --cmdprio_percentage (io_uring, libaio): that share of each direction's I/Os at the
# --cmdprio_class/--cmdprio priority, the rest at the job's (--prioclass/--prio); each
# priority's latency apart (lat with --lat_percentiles), in fio's keys, order and lines, and
# each I/O's priority in the I/O log's last column (--log_prio), as fio's
cp="--rw=randrw --bs=4k --direct=1 --iodepth=8 --size=8m --cmdprio_percentage=30,60 --cmdprio_class=2,3 --cmdprio=3
	--prioclass=2 --prio=6 --lat_percentiles=1 --log_prio=1"
for e in io_uring libaio; do
	(cd "$T" && rm -f cp_lat.1.log && "$A" disk --name=cp --filename="$dev" $cp --ioengine=$e --mode=rewrite \
		--write_lat_log=cp -J > out.json 2>/dev/null) || fail "cmdprio $e: exit $?"
	J '.jobs[0] | [.read, .write] | all(.total_ios as $n | .prios | (map(.lat_ns.N) | add) == $n and
		all(.[]; .lat_ns.percentile and (has("clat_ns") | not)))' \
		"cmdprio $e: each I/O under one priority, total latency"
	J '.jobs[0] | [.read.prios, .write.prios] | map(map([.prioclass, .prio])) == [[[2, 6], [2, 3]], [[2, 6], [3, 3]]]' \
		"cmdprio $e: the job's priority first, then each direction's cmdprio"
	J '.jobs[0] | (.read.prios[1].lat_ns.N / .read.total_ios) as $r | (.write.prios[1].lat_ns.N / .write.total_ios) as $w |
		$r > 0.22 and $r < 0.38 and $w > 0.52 and $w < 0.68' "cmdprio $e: 30% of the reads, 60% of the writes"
	[ "$(awk -F', ' '{ print $3, $NF }' "$T/cp_lat.1.log" | sort -u | tr '\n' ' ')" = "0 0x4003 0 0x4006 1 0x4006 1 0x6003 " ] ||
		fail "cmdprio $e: log priorities $(awk -F', ' '{ print $3, $NF }' "$T/cp_lat.1.log" | sort | uniq -c | tr '\n' ' ')"
done
# fio_prios WHAT OURS OPTS...: fio 3.33's prios (keys, class and level of each) equal ours
fio_prios() {
	local what=$1 ours=$2 p='.jobs[0] | [.read, .write] | map(.prios | map(keys, [.prioclass, .prio]))'
	shift 2
	command -v fio >/dev/null || return 0
	fio --ioengine=libaio --filename="$dev" "$@" --output-format=json --output="$T/fio.json" >/dev/null 2>&1 ||
		fail "fio $what"
	[ "$(jq -c "$p" "$T/fio.json")" = "$(jq -c "$p" "$ours")" ] || fail "$what: fio's prios $(jq -c "$p" "$T/fio.json")"
}
fio_prios cmdprio "$T/out.json" --name=cp $cp
# a --verify read-back's reads are reads: at the cmdprio priority as often (fio's)
"$A" disk --filename="$dev" --rw=write --bs=4k --direct=1 --size=4m --iodepth=8 --verify=crc32c --mode=destroy \
	--cmdprio_percentage=50 -J > "$T/out.json" 2>/dev/null || fail "cmdprio verify: exit $?"
J '.jobs[0].read | .total_ios == 1024 and (.prios | length == 2 and (map(.clat_ns.N) | add) == 1024 and
	.[1].clat_ns.N > 400 and .[1].clat_ns.N < 624)' "cmdprio: the read-back's reads"
"$A" disk --filename="$dev" --rw=randread --bs=4k --direct=1 --size=4m --iodepth=4 --cmdprio_percentage=40 > "$T/out.txt" ||
	fail "cmdprio text: exit $?"
grep -qE '^    clat prio 1/0 \((n|u|m)sec\): min=[0-9]+, max=[0-9]+, avg=' "$T/out.txt" &&
	grep -qE '^    clat prio 0/0 \([0-9]+\.[0-9]{2}% of IOs\) percentiles \((n|u|m)sec\):$' "$T/out.txt" ||
	fail "cmdprio text: $(grep prio "$T/out.txt")"
"$A" disk --filename="$dev" --rw=randread --bs=4k --direct=1 --size=4m --cmdprio_percentage=100 -J > "$T/out.json" ||
	fail "cmdprio 100: exit $?"
J '.jobs[0].read | .prios == null and .total_ios == 1024' "cmdprio 100%: one priority, none apart (fio's)"
# a --log_avg_msec window's line has no priority (fio's 0), an I/O's line its own
(cd "$T" && rm -f pw_lat.1.log && "$A" disk --name=pw --filename="$dev" --rw=randread --bs=4k --direct=1 --size=4m \
	--prioclass=1 --write_lat_log=pw --log_avg_msec=5 > /dev/null) || fail "windowed prio log: exit $?"
[ "$(awk -F', ' '{ print $NF }' "$T/pw_lat.1.log" | sort -u)" = 0 ] || fail "a window's line with a priority"
expect 1 "^assay: error: disk: --cmdprio_percentage: an io_uring and libaio option \\(--ioengine=psync\\)$" \
	"$A" disk --filename="$dev" --ioengine=psync --cmdprio_percentage=10
expect 1 "cmdprio_class=4: a number 1 to 3, or reads,writes" "$A" disk --filename="$dev" --cmdprio_percentage=10 --cmdprio_class=4
expect 1 "cmdprio_percentage=1,2,3: a number 0 to 100, or reads,writes" "$A" disk --filename="$dev" --cmdprio_percentage=1,2,3
# fio's --cmdprio_bssplit: shares by I/O size, each at its own class/level or at
# --cmdprio_class/--cmdprio; the priorities in fio's order (the job's, then by size, each
# first named), each size's share drawn apart, every I/O's priority in the log
cb="--rw=randrw --bssplit=4k/50:16k/30:64k/20 --norandommap --direct=1 --iodepth=8 --size=32m
	--cmdprio_bssplit=4k/30/2/3:64k/50:4k/20/3/1,16k/40 --cmdprio_class=1 --cmdprio=5 --lat_percentiles=1"
for e in io_uring libaio; do
	(cd "$T" && rm -f cb_lat.1.log && "$A" disk --name=cb --filename="$dev" --ioengine=$e $cb --mode=rewrite \
		--write_lat_log=cb --log_prio=1 -J > cb.json 2>/dev/null) || fail "cmdprio_bssplit $e: exit $?"
	jq -e '.jobs[0] | [.read, .write] | map(.prios | map([.prioclass, .prio])) ==
		[[[0, 0], [2, 3], [3, 1], [1, 5]], [[0, 0], [1, 5]]]' "$T/cb.json" >/dev/null ||
		fail "cmdprio_bssplit $e: priorities $(jq -c '.jobs[0] | [.read, .write] | map(.prios | map([.prioclass, .prio]))' "$T/cb.json")"
	jq -e '.jobs[0] | [.read, .write] | all(.total_ios as $n | .prios | (map(.lat_ns.N) | add) == $n)' "$T/cb.json" >/dev/null ||
		fail "cmdprio_bssplit $e: an I/O not under one priority"
	# by size in the log (column 4): 4k reads 30% at 2/3 and 20% at 3/1, 64k reads 50% at
	# 1/5, 16k writes 40% at 1/5, nothing else at another priority than 0/0
	awk -F', ' '{ n[$3 " " $4]++; p[$3 " " $4 " " $NF]++ }
		function sh(k, v) { return p[k " " v] / n[k] }
		END { ok = sh("0 4096", "0x4003") > 0.22 && sh("0 4096", "0x4003") < 0.38 &&
			sh("0 4096", "0x6001") > 0.13 && sh("0 4096", "0x6001") < 0.27 &&
			sh("0 65536", "0x2005") > 0.38 && sh("0 65536", "0x2005") < 0.62 &&
			sh("1 16384", "0x2005") > 0.30 && sh("1 16384", "0x2005") < 0.50 &&
			p["0 16384 0x0000"] == n["0 16384"] && p["1 4096 0x0000"] == n["1 4096"] &&
			p["1 65536 0x0000"] == n["1 65536"]; exit !ok }' "$T/cb_lat.1.log" ||
		fail "cmdprio_bssplit $e: shares $(awk -F', ' '{ print $3, $4, $NF }' "$T/cb_lat.1.log" | sort | uniq -c | tr '\n' ' ')"
done
fio_prios cmdprio_bssplit "$T/cb.json" --name=cb $cb
"$A" disk --filename="$dev" --rw=randread --bs=4k --direct=1 --size=4m --cmdprio_bssplit=8k/50 -J > "$T/out.json" ||
	fail "cmdprio_bssplit of another size: exit $?"
J '.jobs[0].read | .prios == null and .total_ios == 1024' "cmdprio_bssplit of another size: one priority"
expect 1 "cmdprio_bssplit and --cmdprio_percentage: give one or the other" \
	"$A" disk --filename="$dev" --cmdprio_bssplit=4k/50 --cmdprio_percentage=10
expect 1 "^assay: error: disk: --cmdprio_bssplit=4k/60:4k/50/2/1: the percents of 4096-byte I/Os add up to over 100$" \
	"$A" disk --filename="$dev" --cmdprio_bssplit=4k/60:4k/50/2/1
expect 1 "cmdprio_bssplit=4k/50/2: '4k/50/2' is not size/percent or size/percent/class/level" \
	"$A" disk --filename="$dev" --cmdprio_bssplit=4k/50/2
expect 1 "cmdprio_bssplit=4k/50/4/0: '4' in '4k/50/4/0' is not a class \\(0-3\\)" \
	"$A" disk --filename="$dev" --cmdprio_bssplit=4k/50/4/0
expect 1 "cmdprio_bssplit=4k/101: '101' in '4k/101' is not a percent" "$A" disk --filename="$dev" --cmdprio_bssplit=4k/101
expect 1 "more than 8 priorities in a direction" "$A" disk --filename="$dev" \
	--cmdprio_bssplit=1k/1/1/1:2k/1/1/2:3k/1/1/3:4k/1/1/4:5k/1/1/5:6k/1/1/6:7k/1/1/7:8k/1/2/1:9k/1/2/2
expect 1 "^assay: error: disk: --cmdprio_bssplit: an io_uring and libaio option \\(--ioengine=psync\\)$" \
	"$A" disk --filename="$dev" --ioengine=psync --cmdprio_bssplit=4k/10

# fio's pvsync2 --hipri (RWF_HIPRI, polled where the device has poll queues; a loop device
# completes them as any): --hipri_percentage of the I/Os (fio's draw), all by default
for p in 100 30; do
	"$A" disk --filename="$dev" --rw=randread --bs=4k --size=4m --direct=1 --ioengine=pvsync2 --hipri \
		--hipri_percentage=$p -J > "$T/out.json" || fail "pvsync2 hipri $p: exit $?"
	J ".jobs[0] | .read.total_ios == 1024 and .assay.hipri_ios >= 1024 * $p / 100 - 80 and .assay.hipri_ios <= 1024 * $p / 100 + 80" \
		"pvsync2 hipri_percentage=$p"
done
expect 1 "^assay: error: disk: --hipri: an io_uring and pvsync2 option \\(--ioengine=psync\\)$" \
	"$A" disk --filename="$dev" --ioengine=psync --hipri --direct=1

# fio's --nowait (RWF_NOWAIT): direct reads go as always; buffered reads of uncached blocks
# fail with EAGAIN (the job stops, or counts them with --ignore_error=EAGAIN), as fio's
for e in io_uring libaio pvsync2; do
	"$A" disk --filename="$dev" --rw=randread --bs=4k --size=4m --direct=1 --ioengine=$e --nowait -J > "$T/out.json" ||
		fail "nowait $e direct: exit $?"
	J '.jobs[0] | .read.total_ios == 1024 and .error == 0' "nowait $e, direct"
	"$A" disk --filename="$dev" --rw=randread --bs=4k --size=4m --direct=0 --ioengine=$e --nowait \
		--continue_on_error=io --ignore_error=EAGAIN -J > "$T/out.json" || fail "nowait $e buffered: exit $?"
	J '.jobs[0] | .error == 0 and .total_err >= 1 and .first_error == 11' "nowait $e, buffered: EAGAIN counted"
done
expect 1 "^assay: error: disk: --nowait: an io_uring, libaio and pvsync2 option \\(--ioengine=psync\\)$" \
	"$A" disk --filename="$dev" --ioengine=psync --nowait

# fio's libaio --userspace_reap: with --iodepth_batch_complete_min=0 every completion is read
# from the ring in memory (no io_getevents); without that minimum, none is
"$A" disk --filename="$dev" --rw=randread --bs=4k --size=8m --direct=1 --ioengine=libaio --iodepth=16 \
	--iodepth_batch_complete_min=0 --userspace_reap=1 -J > "$T/out.json" || fail "userspace_reap: exit $?"
J '.jobs[0] | .read.total_ios == 2048 and .assay.userspace_reaps == 2048' "userspace_reap"
"$A" disk --filename="$dev" --rw=randread --bs=4k --size=8m --direct=1 --ioengine=libaio --iodepth=16 \
	--userspace_reap=1 -J > "$T/out.json" || fail "userspace_reap, min 1: exit $?"
J '.jobs[0] | .read.total_ios == 2048 and .assay.userspace_reaps == 0' "userspace_reap without complete_min=0"
expect 1 "^assay: error: disk: --userspace_reap: a libaio option \\(--ioengine=io_uring\\)$" \
	"$A" disk --filename="$dev" --userspace_reap=1
expect 1 "thinktime_iotime=1: give --thinktime too" "$A" disk --filename="$dev" --thinktime_iotime=1
expect 1 "thinktime_iotime=soon: not a time" "$A" disk --filename="$dev" --thinktime=1 --thinktime_iotime=soon

# fio's --unified_rw_reporting: reads and writes as one "mixed" (its clat the merged
# histogram), or both ways; terse then has one block (89 fields with disk stats)
"$A" disk --filename="$dev" --rw=randrw --size=2m --direct=1 --mode=rewrite --unified_rw_reporting=both -J \
	> "$T/out.json" || fail "unified both: exit $?"
J '.jobs[0] | .mixed.total_ios == 512 and .read.total_ios + .write.total_ios == 512
	and .mixed.io_bytes == .read.io_bytes + .write.io_bytes and .mixed.clat_ns.N == 512
	and .mixed.clat_ns.min == ([.read.clat_ns.min, .write.clat_ns.min] | min)' "unified both" '.jobs[0].mixed'
"$A" disk --filename="$dev" --rw=randrw --size=2m --direct=1 --mode=rewrite --unified_rw_reporting=mixed --minimal \
	> "$T/terse" || fail "unified terse: exit $?"
awk -F';' '{ ok = NF == 89 && $6 == 2048 } END { exit !(ok && NR == 1) }' "$T/terse" || fail "unified terse: $(head -c 200 "$T/terse")"
"$A" disk --filename="$dev" --rw=randrw --size=2m --direct=1 --mode=rewrite --unified_rw_reporting=1 > "$T/out.txt" ||
	fail "unified text: exit $?"
grep -q '^  mixed: IOPS=' "$T/out.txt" && grep -q '^  MIXED: bw=' "$T/out.txt" && ! grep -q '^  read: IOPS' "$T/out.txt" ||
	fail "unified text: $(grep -E 'IOPS|bw=' "$T/out.txt")"

# text output, fio's layout
"$A" disk --filename="$dev" --rw=randread --direct=1 --iodepth=4 --runtime=2.2 --time_based > "$T/out.txt" || fail "text: exit $?"
for p in '^job: \(groupid=0, jobs=1\)' '^  read: IOPS=' '^    clat percentiles \(' '^     \| 99.00th=' \
	'^   iops        : min=' '^  read  within: 100us=' '^  cpu          : usr=.*, majf=[0-9]+, minf=[0-9]+$' \
	'^  lat \(usec\)   : [0-9]+=[0-9.]+%' '^  IO depths    : 1=[0-9.]+%, 2=.*, >=64=[0-9.]+%$' \
	'^Disk stats \(read/write\):$' "^  ${dev#/dev/}: ios=[0-9]+/0, merge="; do
	grep -qE "$p" "$T/out.txt" || fail "text lacks /$p/"
done

# --list finds the loop device only with --include-virtual
"$A" disk --list --include-virtual -J > "$T/out.json" || fail "list: exit $?"
J ".disks | map(.path) | index(\"$dev\") != null" "--list --include-virtual"
"$A" disk --list --include-virtual > "$T/list.txt" || fail "list text: exit $?"
grep -qE "^${dev#/dev/} +[0-9.]+GB +512 +[0-9]+ +no +(wb|wt) +yes " "$T/list.txt" ||
	fail "list text: $(grep -E "^(disk|${dev#/dev/}) " "$T/list.txt")"
"$A" disk --list -J > "$T/out.json" || fail "list: exit $?"
J ".disks | map(.path) | index(\"$dev\") == null" "--list skips loop devices"
# fio's samples and runtimes: a direction without I/O has neither (runtime 0, no samples);
# an interval without I/O (here a thinktime pause) is no sample, while assay.samples keeps
# it as a zero
"$A" disk --filename="$dev" --rw=write --bs=4k --size=4m --runtime=1.2 --time_based --iops_avg_time=100 \
	--thinktime=250000 --thinktime_blocks=64 --mode=destroy -J > "$T/out.json" || fail "thinktime run: exit $?"
J '.jobs[0] | .read.runtime == 0 and .read.iops_samples == 0 and .read.bw_samples == 0 and
	.assay.samples.read == null and .write.runtime > 1000' "no read: no runtime, no samples" '.jobs[0].read'
J '.jobs[0] | (.assay.samples.write.iops | map(select(. == 0)) | length) >= 3 and
	.write.iops_samples == (.assay.samples.write.iops | map(select(. > 0)) | length) and .write.iops_min > 0 and
	.write.iops_min == (.assay.samples.write.iops | map(select(. > 0)) | min)' "pauses: no samples" \
	'.jobs[0] | {s: .assay.samples.write.iops, n: .write.iops_samples, m: .write.iops_min}'
finish
