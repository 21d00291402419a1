# Several devices in one run, fio's one job per disk: each job on its own --filename (a
# job's own wins over the global one), the jobs of a group at once; each device in the
# report (assay.devices, disk_util per disk, each job's filename) and I/O only where its
# jobs went; the safety rules per device, proven by checksums: readonly and rewrite leave
# every device as it was, destroy checks each written device (a filesystem on one refuses
# the run before anything is written anywhere), a device only read is not claimed.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
d1=$(loopdev a 32) || skip "losetup failed"
d2=$(loopdev b 32) || skip "losetup failed"
d3=$(loopdev c 32) || skip "losetup failed"
i1=/dev/shm/assay-test.$$.a i2=/dev/shm/assay-test.$$.b i3=/dev/shm/assay-test.$$.c
s1=$(sha "$i1") s2=$(sha "$i2") s3=$(sha "$i3")
unchanged() {
	[ "$(sha "$i1")" = "$s1" ] && [ "$(sha "$i2")" = "$s2" ] && [ "$(sha "$i3")" = "$s3" ] || fail "$1: a device changed"
}
J() { jq -e "$1" "$T/out.json" >/dev/null || fail "$2: $(jq -c "${3:-.jobs}" "$T/out.json" 2>&1 | head -c 600)"; }
n1=${d1#/dev/} n2=${d2#/dev/} n3=${d3#/dev/}

# a job file, one job per disk, the global options for all; d3 named by its bare name
cat > "$T/disks.fio" <<EOF
[global]
direct=1
bs=4k
rw=randread
iodepth=4
runtime=0.6
time_based
[a]
filename=$d1
[b]
filename=$d2
rw=read
bs=64k
[c]
filename=$n3
EOF
"$A" disk "$T/disks.fio" -J > "$T/out.json" || fail "three disks: exit $?"
J "[.jobs[].\"job options\".filename] == [\"$d1\", \"$d2\", \"/dev/$n3\"]" "each job's filename"
J "[.assay.devices[].path] == [\"$d1\", \"$d2\", \"/dev/$n3\"] and .assay.device.path == \"$d1\"" \
	"assay.devices" '.assay | {device: .device.path, devices: [.devices[]?.path]}'
J '[.jobs[].groupid] == [0, 0, 0] and all(.jobs[]; .read.total_ios > 0)' "all at once, each measured"
J '.jobs[0].assay as $a | .jobs[1].assay as $b | ($a.start_ms < $b.end_ms) and ($b.start_ms < $a.end_ms)' "a and b overlap"
J '.jobs[1]."job options".bs == "65536" and .jobs[0]."job options".bs == "4096"' "b's own bs"
# the kernel's counters: each disk did its job's reads (O_DIRECT: one bio each, a request
# or merged into one submitted with it, give or take what other readers of the disk did)
J "[.disk_util[].name] == [\"$n1\", \"$n2\", \"$n3\"]" "disk_util per disk" '.disk_util'
for k in 0 1 2; do
	J ".jobs[$k].read.total_ios as \$n | .disk_util[$k] | .read_ios + .read_merges | . >= \$n and . <= \$n + 64" \
		"disk $k's reads are job $k's" "[.jobs[$k].read.total_ios, .disk_util[$k]]"
done
"$A" disk "$T/disks.fio" > "$T/out.txt" || fail "text: exit $?"
for d in "$d1" "$d2" "/dev/$n3"; do
	grep -q "^$d: 0.03 GB" "$T/out.txt" || fail "text: no line for $d"
done
[ "$(grep -c '^Disk stats' "$T/out.txt")" = 1 ] && grep -q "^  $n3: ios=" "$T/out.txt" || fail "text: disk stats"
# terse: every disk on every line (fio's), 121 fields and 9 per disk
"$A" disk "$T/disks.fio" --minimal > "$T/out.terse" || fail "terse: exit $?"
awk -F';' -v a="$n1" -v b="$n2" -v c="$n3" 'NF != 148 || $122 != a || $131 != b || $140 != c { bad = 1 }
	END { exit bad || NR != 3 }' "$T/out.terse" || fail "terse: $(cut -d';' -f1-3,122,131,140 "$T/out.terse" | tr '\n' ' ')"

# one device named twice (by two names) is one target; a job's own filename wins over
# the global one, which no job then uses
"$A" disk --filename="$d1" --rw=randread --runtime=0.3 --time_based --name=a --filename="$n2" \
	--name=b --filename="$d2" -J > "$T/out.json" || fail "one device twice: exit $?"
J "(.assay.devices | not) and .assay.device.path == \"$d2\" and [.disk_util[].name] == [\"$n2\"]" \
	"the same device by two names" '{d: .assay.device.path, u: .disk_util}'

# --group_reporting adds the disks up; --stonewall runs them one after the other
"$A" disk --rw=randread --runtime=0.4 --time_based --group_reporting --name=a --filename="$d1" \
	--name=b --filename="$d2" -J > "$T/out.json" || fail "group_reporting: exit $?"
J '(.jobs | length) == 1 and .jobs[0].read.total_ios > 0' "group_reporting: one report"
"$A" disk --rw=randread --runtime=0.3 --time_based --name=a --filename="$d1" --name=b --stonewall \
	--filename="$d2" -J > "$T/out.json" || fail "stonewall: exit $?"
J '.jobs[1].assay.start_ms >= .jobs[0].assay.end_ms' "stonewall: one after the other"
unchanged "reading"

# writes: readonly skips them on every device; rewrite writes every one back
cat > "$T/w.fio" <<EOF
[global]
direct=1
rw=randrw
iodepth=8
runtime=0.5
time_based
[a]
filename=$d1
[b]
filename=$d2
EOF
"$A" disk "$T/w.fio" > "$T/out.txt" 2>&1
[ "$(grep -c 'skipped: writes; --mode=readonly' "$T/out.txt")" = 2 ] || fail "readonly: both skipped"
"$A" disk "$T/w.fio" --mode=rewrite -J > "$T/out.json" || fail "rewrite: exit $?"
J 'all(.jobs[]; .write.total_ios > 0)' "rewrite: both written"
unchanged "readonly and rewrite"
# rewrite killed mid-run, on both at once
"$A" disk "$T/w.fio" --mode=rewrite --runtime=60 >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -9 $pid
wait $pid 2>/dev/null
unchanged "rewrite killed mid-run"

# destroy: a filesystem on either refuses the run before any write; each job's own
# --expect-size and --force apply to its device
if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$d2" 2>/dev/null; then
	s2=$(sha "$i2")
	expect 1 "refusing --mode=destroy: $d2 holds ext2/3/4; add --force" "$A" disk "$T/w.fio" --mode=destroy
	unchanged "destroy refused"
	printf '[global]\nrw=write\nsize=1m\n[a]\nfilename=%s\nexpect-size=32m\n[b]\nfilename=%s\nforce=1\nexpect-size=1m\n' \
		"$d1" "$d2" > "$T/x.fio"
	expect 1 "refusing --mode=destroy: $d2 has 33554432 bytes, not 1048576" "$A" disk "$T/x.fio" --mode=destroy
	unchanged "expect-size refused"
	# a device only read is neither checked nor claimed: a mounted one can be read while
	# another is destroyed
	if mkdir -p "$T/mnt" && mount -o ro "$d2" "$T/mnt" 2>/dev/null; then
		printf '[global]\nsize=1m\ndirect=1\n[a]\nfilename=%s\nrw=write\n[b]\nfilename=%s\nrw=read\n' "$d1" "$d2" > "$T/y.fio"
		"$A" disk "$T/y.fio" --mode=destroy -J > "$T/out.json" 2>/dev/null || fail "destroy one, read the other: exit $?"
		J '.jobs[0].write.io_bytes == 1048576 and .jobs[1].read.io_bytes == 1048576' "destroy one, read the other"
		[ "$(sha "$i1")" != "$s1" ] || fail "destroy did not write $d1"
		s1=$(sha "$i1")
		expect 1 "refusing --mode=destroy: $d2 is mounted" "$A" disk "$T/w.fio" --mode=destroy --force
		umount "$T/mnt"
		unchanged "mounted: refused"
	else
		echo "note: cannot mount an ext4 loop device here: the mounted-device checks not run"
	fi
else
	echo "note: no mkfs.ext4: the filesystem checks not run"
fi

# bad input: one line naming the cause
expect 1 "job 'b' has no --filename, and there is none for every job" "$A" disk --rw=read --name=a --filename="$d1" --name=b
expect 1 "job 'a': --filename is empty" "$A" disk --rw=read --name=a --filename=
# fio's a:b beside a job of one device: the list's job reads both (tests/host/disk-files.sh)
"$A" disk --rw=read --size=1m --name=a --filename="$d1:$d2" --name=b --filename="$d2" -J > "$T/out.json" ||
	fail "a:b and b: exit $?"
jq -e '[.jobs[].read.total_ios] == [256, 256] and (.jobs[0]["job options"].filename | split(":") | length) == 2' \
	"$T/out.json" > /dev/null || fail "a:b and b: $(jq -c '[.jobs[].read.total_ios]' "$T/out.json")"
args=()
for k in $(seq 65); do args+=(--name=j$k --filename="$T/f$k"); head -c 4096 /dev/urandom > "$T/f$k"; done
"$A" disk --rw=read "${args[@]:0:128}" -J > "$T/out.json" 2>/dev/null || fail "64 jobs on 64 files: exit $?"
jq -e '(.jobs | length) == 64 and all(.jobs[]; .read.io_bytes == 4096)' "$T/out.json" > /dev/null || fail "64 files"
expect 1 "^assay: error: disk: job 'j65': more than 64 jobs in one run$" "$A" disk --rw=read "${args[@]}"
# files laid out per job (fio's --directory with each job's --filename); --unlink per job
"$A" disk --rw=read --size=1m --directory="$T" --name=a --filename=new1 --name=b --filename=new2 --unlink=1 \
	-J > "$T/out.json" 2>/dev/null || fail "two files laid out: exit $?"
J "[.jobs[].\"job options\".filename] == [\"$T/new1\", \"$T/new2\"]" "files laid out per job"
[ -f "$T/new1" ] && [ ! -e "$T/new2" ] || fail "--unlink: only job b's file goes"
# fio's --flow: jobs of one --flow_id keep their I/O counts in proportion to their weights
# (fio 3.33 gives 1:3 here too), whatever the engine and --flow_sleep; another id is apart.
# Each thread ends at its own start + runtime, as fio's: the one a loaded machine woke last
# runs alone at full speed for that lag, so the runs are long and the bands wide enough
# for a lag of tens of milliseconds (without --flow the counts are about 1:1)
"$A" disk --filename="$d1" --rw=randread --bs=4k --direct=1 --runtime=2 --time_based --name=a --flow=1 \
	--name=b --flow=3 -J > "$T/out.json" 2>/dev/null || fail "flow: exit $?"
J '[.jobs[].read.total_ios] | .[0] > 100 and .[1] / .[0] > 2.6 and .[1] / .[0] < 3.4' "flow 1:3"
"$A" disk --filename="$d1" --rw=randread --bs=4k --direct=1 --runtime=2 --time_based --ioengine=psync \
	--flow_sleep=100 --name=a --flow=2 --name=b --flow=1 --name=c --flow_id=7 --flow=1 -J > "$T/out.json" 2>/dev/null ||
	fail "flow psync: exit $?"
J '[.jobs[].read.total_ios] | .[1] > 100 and .[0] / .[1] > 1.7 and .[0] / .[1] < 2.3 and .[2] > 100' "flow 2:1, psync, flow_sleep"
"$A" disk --filename="$d1" --rw=randread --bs=4k --direct=1 --size=4m --iodepth=8 --name=a --flow=1 --name=b --flow=3 \
	-J > "$T/out.json" 2>/dev/null || fail "flow, size-based: exit $?"
J '[.jobs[].read.total_ios] == [1024, 1024]' "flow: a job alone once the other ended"
unchanged "bad input"
finish
