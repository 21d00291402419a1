# Bad input to assay disk: one clear line naming the cause, exit code != 0, no hang.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev b 16) || skip "losetup failed"

expect 1 "--bs=1000: not a multiple of $dev's logical block size \(512\)" "$A" disk --filename="$dev" --bs=1000 --direct=1
expect 1 'iodepth=0: out of range' "$A" disk --filename="$dev" --iodepth=0
expect 1 'iodepth=100000: out of range' "$A" disk --filename="$dev" --iodepth=100000
expect 1 'numjobs=0: out of range' "$A" disk --filename="$dev" --numjobs=0
expect 1 "size=1g: beyond the end of $dev" "$A" disk --filename="$dev" --size=1g
expect 1 "offset=.*beyond the end of $dev" "$A" disk --filename="$dev" --offset=1g
expect 1 'size=150%: a percentage' "$A" disk --filename="$dev" --size=150%
expect 1 '/dev/nonexistent: No such file or directory' "$A" disk --filename=/dev/nonexistent
expect 1 "^assay: error: disk: /dev/nonexistent: No such file or directory" "$A" disk --filename="$dev:/dev/nonexistent"
expect 1 'no --filename' "$A" disk --rw=read
expect 1 "unknown profile 'fast'" "$A" disk --filename="$dev" --profile=qd1,fast
expect 1 'time_based needs a --runtime' "$A" disk --filename="$dev" --time_based
expect 1 'rw=sideways: unknown value' "$A" disk --filename="$dev" --rw=sideways
expect 1 'ioengine=spdk: unknown value; accepted: one of io_uring\|psync\|libaio\|sync' "$A" disk --filename="$dev" --ioengine=spdk
for l in 50,99 abc 50::99 99.9: ""; do
	expect 1 "percentile_list=$l: not a list of percents separated by ':'" "$A" disk --filename="$dev" --percentile_list="$l"
done
expect 1 'percentile_list=0:50: 0 is not a percent in \(0,100\]' "$A" disk --filename="$dev" --percentile_list=0:50
expect 1 'percentile_list=101: 101 is not a percent' "$A" disk --filename="$dev" --percentile_list=101
expect 1 'percentile_list=.*: more than 20 percents' "$A" disk --filename="$dev" --percentile_list=$(seq -s: 1 21)
expect 1 "rate_iops=0: '0' is not a number of I/Os per second" "$A" disk --filename="$dev" --rate_iops=0
expect 1 "rate_iops=1,2,3,4: give one value, or reads,writes\[,trims\]" "$A" disk --filename="$dev" --rate_iops=1,2,3,4
expect 1 "rate=fast: 'fast' is not a rate in bytes/s" "$A" disk --filename="$dev" --rate=fast
expect 1 "rate and --rate_iops: give one or the other" "$A" disk --filename="$dev" --rate=1m --rate_iops=10
expect 1 "bssplit=4k/50:8k/40: the percents add up to 90, not 100" "$A" disk --filename="$dev" --bssplit=4k/50:8k/40
expect 1 "bssplit=1000/100: '1000' is not a block size" "$A" disk --filename="$dev" --bssplit=1000/100
expect 1 "bssplit=4k/x: 'x' is not a percent" "$A" disk --filename="$dev" --bssplit=4k/x
expect 1 "bsrange=64k-4k: the minimum is above the maximum" "$A" disk --filename="$dev" --bsrange=64k-4k
expect 1 "bsrange=4k: give min-max" "$A" disk --filename="$dev" --bsrange=4k
expect 1 "bssplit and --bsrange: give one or the other" "$A" disk --filename="$dev" --bssplit=4k/100 --bsrange=4k-8k
expect 1 "thinktime=soon: not a time" "$A" disk --filename="$dev" --thinktime=soon
expect 1 "thinktime_blocks=0: out of range" "$A" disk --filename="$dev" --thinktime=10 --thinktime_blocks=0
expect 1 'bs=4q: not a size' "$A" disk --filename="$dev" --bs=4q
expect 1 'bs=4k,8k,16k,32k: more than reads,writes,trims' "$A" disk --filename="$dev" --bs=4k,8k,16k,32k
expect 1 'bs=,: not a size' "$A" disk --filename="$dev" --bs=,
expect 1 'bs=4k,128m: out of range' "$A" disk --filename="$dev" --bs=4k,128m
expect 1 'bs=4096,8192 and --bssplit: give one or the other' "$A" disk --filename="$dev" --bs=4k,8k --bssplit=4k/100
expect 1 'bs=4096,1000: 1000 is not a multiple of .* logical block size' "$A" disk --filename="$dev" --bs=4k,1000 --direct=1
expect 1 'neither a block device nor a regular file' "$A" disk --filename=/dev/urandom --size=1m
# permission denied: an unprivileged user
if command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$A" disk --filename="$dev" --rw=read --size=1m 2>&1 >/dev/null)
	rc=$?
	[ $rc != 0 ] || fail "unprivileged open: exit 0"
	echo "$out" | grep -q 'Permission denied' || fail "unprivileged open: '$out' does not say Permission denied"
fi
# a regular file works with the same options
head -c 8M /dev/urandom > "$T/file"
"$A" disk --filename="$T/file" --rw=randread --bs=4k --runtime=0.2 --time_based -J > "$T/out.json" || fail "file: exit $?"
jq -e '.jobs[0].read.total_ios > 0' "$T/out.json" >/dev/null || fail "file: no I/O"
# fio's --filename=testfile: a bare name that is no device but a file here is that file
(cd "$T" && "$A" disk --filename=file --rw=read --size=1m -J) > "$T/out.json" || fail "bare file name: exit $?"
jq -e '.jobs[0].read.total_ios == 256' "$T/out.json" >/dev/null || fail "bare file name: $(head -c 200 "$T/out.json")"
# a test file that does not exist is laid out (random data, --offset + --size bytes), as
# fio does: YABS's setup line runs as it is; never a file under /dev, nor from a bare name
"$A" disk --name=setup --ioengine=libaio --rw=read --bs=64k --iodepth=64 --numjobs=2 --size=2m --runtime=1 \
	--gtod_reduce=1 --filename="$T/test.fio" --direct=1 --minimal > "$T/terse" 2> "$T/err" || fail "lay out: exit $?"
[ "$(stat -c %s "$T/test.fio" 2>/dev/null)" = 2097152 ] || fail "lay out: size $(stat -c %s "$T/test.fio" 2>&1)"
# (quiet as fio: nothing on stderr, no note in terse or JSON output; in normal output, on stdout)
[ ! -s "$T/err" ] || fail "lay out: stderr is not empty: $(cat "$T/err")"
grep -q "laid out" "$T/terse" && fail "lay out: a note in the terse output"
"$A" disk --rw=read --size=1m --filename="$T/note.fio" > "$T/out.txt" 2> "$T/err" || fail "lay out, normal output: exit $?"
grep -q "laid out $T/note.fio: 1048576 bytes" "$T/out.txt" && [ ! -s "$T/err" ] ||
	fail "lay out: the note is not on stdout alone ($(cat "$T/err"))"
[ "$(gzip -c "$T/test.fio" | wc -c)" -gt 2000000 ] || fail "lay out: the data compresses"
awk -F';' 'NR == 1 && $3 == "setup" && $6 == 4096 { ok = 1 } END { exit !ok }' "$T/terse" ||
	fail "lay out: terse $(cut -d';' -f1-8 "$T/terse")"
"$A" disk --filename="$T/off.fio" --offset=1m --size=1m --rw=randread -J > "$T/out.json" 2>/dev/null || fail "lay out with offset: exit $?"
[ "$(stat -c %s "$T/off.fio")" = 2097152 ] && jq -e '.jobs[0].read.total_ios == 256' "$T/out.json" >/dev/null ||
	fail "lay out with offset"
expect 1 '/dev/assay-no-such-disk: No such file or directory' "$A" disk --filename=/dev/assay-no-such-disk --size=1m
[ ! -e /dev/assay-no-such-disk ] || { rm -f /dev/assay-no-such-disk; fail "a file was made under /dev"; }
# fio's bare name: a file here (--filename=test --size=4g), laid out; a device's own name
# (no such file here) stays the device, read-only as every device
env -C "$T" "$A" disk --filename=nosuchname --size=1m -J > "$T/out.json" 2> "$T/err" || fail "bare name: exit $?"
[ "$(stat -c %s "$T/nosuchname" 2>/dev/null)" = 1048576 ] && [ ! -s "$T/err" ] ||
	fail "bare name: not fio's file ./nosuchname ($(cat "$T/err"))"
expect 1 '^assay: error: disk: \./nosize: No such file or directory \(a new file is laid out with --size, as fio.s\)$' \
	env -C "$T" "$A" disk --filename=nosize
bdev=$(basename "$dev")
env -C "$T" "$A" disk --filename="$bdev" --size=64k --rw=read -J > "$T/out.json" 2>/dev/null &&
	jq -e ".assay.device.path == \"/dev/$bdev\"" "$T/out.json" >/dev/null ||
	fail "a device's bare name: $(jq -c '.assay.device.path' "$T/out.json")"
[ ! -e "$T/$bdev" ] || fail "a file was made for a device's bare name"
expect 1 "cannot create $T/no/dir/x: No such file or directory" "$A" disk --filename="$T/no/dir/x" --size=1m
# fio's --directory: the file inside it (laid out when new); without a --filename, refused
mkdir "$T/dir"
"$A" disk --directory="$T/dir" --filename=t.fio --size=1m --name=a --rw=read --name=b --rw=randread -J \
	> "$T/out.json" 2>/dev/null || fail "directory: exit $?"
[ -f "$T/dir/t.fio" ] && jq -e '[.jobs[].read.total_ios] == [256, 256]' "$T/out.json" >/dev/null || fail "directory"
expect 1 "directory=$T/dir: give --filename too" "$A" disk --directory="$T/dir" --size=1m
# a named job with --size and no --filename gets fio's own file name, JOBNAME.0.0 (in
# --directory, or here); an absolute --filename ignores --directory (as fio); several
# threads each their own (fio's JOBNAME.N.0: tests/host/disk-files.sh), too many refused
"$A" disk --directory="$T/dir" --size=64k --rw=read --name=f1 --name=f2 -J > "$T/out.json" 2>/dev/null ||
	fail "fio's default names: exit $?"
[ -f "$T/dir/f1.0.0" ] && [ -f "$T/dir/f2.0.0" ] &&
	jq -e "[.jobs[] | .[\"job options\"].filename] == [\"$T/dir/f1.0.0\", \"$T/dir/f2.0.0\"]" "$T/out.json" >/dev/null ||
	fail "fio's default names: $(ls "$T/dir")"
(cd "$T/dir" && "$A" disk --size=64k --rw=read --name=here >/dev/null 2>&1) && [ -f "$T/dir/here.0.0" ] ||
	fail "fio's default name in the current directory"
"$A" disk --directory="$T/nowhere" --filename="$T/dir/t.fio" --rw=read -J > "$T/out.json" 2>/dev/null &&
	jq -e ".jobs[0][\"job options\"].filename == \"$T/dir/t.fio\"" "$T/out.json" >/dev/null || fail "absolute --filename with --directory"
expect 1 "nrfiles=2 with --numjobs=40: more than 64 files in one job \\(16 for each thread\\)" \
	"$A" disk --size=64k --rw=read --name=t --numjobs=40 --nrfiles=2
expect 1 "job 't' has no --filename, and there is none for every job" "$A" disk --rw=read --name=t
# bench/compare-fio --bare's probe: its inputs, and one short run that reads (one I/O
# always in flight: IOPS x mean lat, compare-fio's "in flight", is 1)
P=$BUILD/qd1-bare
expect 2 'usage: qd1-bare DEVICE SECONDS' "$P"
expect 2 'SECONDS: a number of seconds' "$P" "$dev" soon
expect 2 'SECONDS: a number of seconds' "$P" "$dev" 0
expect 2 "$T/dir/t.fio: not a block device" "$P" "$T/dir/t.fio" 1
expect 111 '/dev/assay-no-such-disk: No such file or directory' "$P" /dev/assay-no-such-disk 1
"$P" "$dev" 0.2 > "$T/bare.json" || fail "qd1-bare: exit $?"
jq -e '.jobs[0].read | .total_ios > 0 and .iops > 0 and .lat_ns.percentile["50.000000"] > 0 and
	.lat_ns.percentile["99.000000"] >= .lat_ns.percentile["50.000000"] and
	.clat_ns.percentile["50.000000"] <= .lat_ns.percentile["50.000000"] and
	(.iops * .lat_ns.mean / 1e9) > 0.9 and (.iops * .lat_ns.mean / 1e9) <= 1.01' "$T/bare.json" >/dev/null ||
	fail "qd1-bare: $(cat "$T/bare.json")"
# fio's --offset as a percentage of the target (aligned down to --bs)
"$A" disk --filename="$dev" --rw=read --offset=25% --size=1m --write_iops_log="$T/o" --log_offset=1 -J > "$T/off.json" \
	2>/dev/null || fail "offset=25%: exit $?"
jq -e '.jobs[0]["job options"].offset == "4194304" and .jobs[0].read.io_bytes == 1048576' "$T/off.json" >/dev/null ||
	fail "offset=25%: $(jq -c '.jobs[0] | [.["job options"].offset, .read.io_bytes]' "$T/off.json")"
awk -F', ' '$5 < 4194304 || $5 >= 5242880 { bad = 1 } END { exit bad }' "$T/o_iops.1.log" ||
	fail "offset=25%: I/Os outside [4m, 5m)"
expect 1 '^assay: error: disk: --offset=100%: a percentage must be in \[0,100\)%$' "$A" disk --filename="$dev" --offset=100%
expect 1 'offset=12x: not a size' "$A" disk --filename="$dev" --offset=12x
# of a file this run lays out: of the empty file, 0 (fio's), the whole --size read
"$A" disk --filename="$T/newfile" --size=1m --offset=50% --rw=read -J > "$T/nf.json" 2>/dev/null ||
	fail "offset=50% of a new file: exit $?"
[ "$(jq '.jobs[0].read.io_bytes' "$T/nf.json")" = 1048576 ] && [ "$(stat -c %s "$T/newfile")" = 1048576 ] ||
	fail "offset=50% of a new file: $(jq -c '.jobs[0].read.io_bytes' "$T/nf.json") bytes read, $(ls -l "$T/newfile")"

# fio options a pasted line carries: accepted (no effect, or aliases), or refused with a line
"$A" disk --filename="$dev" --rw=randread --size=1m --disable_lat=1 --disable_clat=1 --disable_slat=1 \
	--disable_bw_measurement=1 --random_generator=tausworthe64 --file_service_type=roundrobin --nrfiles=1 \
	--terse-version=3 --kb_base=1024 --allrandrepeat=1 --bwavgtime=500 --iopsavgtime=500 --readonly \
	--blocksize_range=4k-16k --filesize=2m --ioengine=pvsync2 -J > "$T/acc.json" 2>/dev/null ||
	fail "accepted fio options: exit $?"
jq -e '.jobs[0].read.io_bytes == 2097152 and .jobs[0]["job options"].bsrange == "4k-16k" and
	.jobs[0]["job options"].ioengine == "pvsync2"' "$T/acc.json" >/dev/null ||
	fail "filesize/blocksize_range: $(jq -c '.jobs[0] | [.read.io_bytes, .["job options"]]' "$T/acc.json")"
expect 1 "^assay: error: disk: --nrfiles=2: the job's files are those --filename names \\(1 here" "$A" disk --filename="$dev" --nrfiles=2
expect 1 '^assay: error: --kb_base=1001: unknown value; accepted: one of 1024\|1000$' "$A" disk --filename="$dev" --kb_base=1001
expect 1 '^assay: error: disk: --readonly and --mode=destroy contradict each other$' \
	"$A" disk --filename="$dev" --readonly --mode=destroy
# fio's arithmetic past 64 bits is refused, never wrapped (found by make fuzz)
expect 1 'size=\(9223372036854775807\+1\): not a size' "$A" disk --filename=/dev/null --size='(9223372036854775807+1)'
expect 1 'size=\(2\^70\): not a size' "$A" disk --filename=/dev/null --size='(2^70)'
expect 1 'size=\(432000000000\*3600000000\): not a size' "$A" disk --filename=/dev/null --size='(432000000000*3600000000)'
finish
