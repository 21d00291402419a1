# fio's trim workloads (--rw=trim, randtrim, trimwrite, randtrimwrite) on a loop device
# and on a file: only in --mode=destroy (readonly and rewrite skip them, the device's
# checksum unchanged); with every engine the region is discarded (reads back as zeros, the
# backing file's blocks freed) and nothing outside it changes; fio's "trim" figures, text
# lines, log direction 2 and trimwrite's trim-then-write of each block.
# TIMEOUT: 180
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev t 32) || skip "losetup failed"
img=$(losetup -nO BACK-FILE "$dev")
cd "$T" || exit 1
MiB=1048576
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.jobs[] | {error, r: .read.total_ios, w: .write.total_ios,
	t: .trim.total_ios, tb: .trim.io_bytes, s: .assay.status}]' out.json 2>&1 | head -c 400)"; }
part() { dd if="$dev" bs=1M skip="$1" count="$2" status=none | sha256sum | cut -d' ' -f1; }
blocks() { stat -c %b "$1"; }

# readonly (the default) and rewrite: skipped, nothing changed
sum=$(sha "$dev")
"$A" disk --filename="$dev" --rw=trim -J > out.json 2>/dev/null
[ $? = 77 ] || fail "readonly trim: exit not 77"
J '.jobs[0].assay.status == "skipped" and (.jobs[0].assay.skipped | test("--mode=destroy"))' "readonly"
"$A" disk --filename="$dev" --rw=randtrimwrite --mode=rewrite -J > out.json 2>/dev/null
[ $? = 77 ] || fail "rewrite trimwrite: exit not 77"
J '.jobs[0].assay.skipped | test("rewrite keeps every byte")' "rewrite"
[ "$(sha "$dev")" = "$sum" ] || fail "a skipped trim changed the device"

# destroy: the region discarded, the rest as it was, with each engine
for eng in io_uring libaio psync; do
	head -c $((32 * MiB)) /dev/urandom > "$img"
	before=$(part 0 4)$(part 12 20)
	b0=$(blocks "$img")
	"$A" disk --filename="$dev" --rw=randtrim --bs=64k --offset=4m --size=8m --ioengine="$eng" --iodepth=4 \
		--mode=destroy -J > out.json 2>/dev/null || fail "$eng randtrim: exit $?"
	J '.jobs[0] | .error == 0 and .trim.total_ios == 128 and .trim.io_bytes == 8 * 1048576 and
		.trim.clat_ns.N == 128 and .trim.iops > 0 and .read.total_ios == 0 and .write.total_ios == 0 and
		.["job options"].rw == "randtrim"' "$eng randtrim"
	cmp -s -n $((8 * MiB)) <(dd if="$dev" bs=1M skip=4 count=8 status=none) /dev/zero ||
		fail "$eng: the trimmed region does not read back as zeros"
	[ "$(part 0 4)$(part 12 20)" = "$before" ] || fail "$eng: a trim changed bytes outside its region"
	[ $((b0 - $(blocks "$img"))) -ge $((8 * MiB / 512)) ] ||
		fail "$eng: the backing file kept its blocks ($b0 -> $(blocks "$img") sectors)"
done

# sequential trims: the text report, fio's trim lines
"$A" disk --filename="$dev" --rw=trim --bs=1m --size=16m --mode=destroy > out.txt 2>/dev/null || fail "trim: exit $?"
grep -qE '^  trim: IOPS=[0-9.k]+, BW=' out.txt || fail "text: no trim line"
grep -qE '^   TRIM: bw=.*io=16.0MiB' out.txt || fail "text: no TRIM group line"
grep -qE '^/dev/loop[0-9]+: .*, cache write (back|through), discard yes, mode destroy$' out.txt ||
	fail "text: the device line lacks cache/discard: $(head -n 3 out.txt)"
J '.assay.device.discard_max_bytes > 0 and (.assay.device.write_cache | test("^write (back|through)$"))' \
	"device info: discard, write cache"

# trimwrite: each block trimmed, then written (random data again), counted by its writes
head -c $((32 * MiB)) /dev/zero > "$img"
for rw in trimwrite randtrimwrite; do
	"$A" disk --filename="$dev" --rw=$rw --bs=64k --size=8m --iodepth=8 --mode=destroy --write_iops_log=tw \
		--log_offset=1 -J > out.json 2>/dev/null || fail "$rw: exit $?"
	J '.jobs[0] | .trim.total_ios == 128 and .write.total_ios == 128 and .write.io_bytes == 8 * 1048576' "$rw"
	cmp -s -n $((8 * MiB)) "$dev" /dev/zero && fail "$rw: the region was not written after its trims"
	# the log: directions 2 (trim) and 1 (write), each offset trimmed before it is written
	awk -F', ' '$3 == 2 { t[$5] = NR } $3 == 1 { if (!($5 in t)) bad++ } END { exit bad > 0 || length(t) != 128 }' \
		tw_iops.1.log || fail "$rw: the iops log does not show each block trimmed before its write"
done

# a file: the blocks are freed (a hole punched), the size kept
f=/dev/shm/assay-test.$$.file
head -c $((8 * MiB)) /dev/urandom > "$f"
b0=$(blocks "$f")
"$A" disk --filename="$f" --rw=trim --bs=1m --size=4m --mode=destroy -J > out.json 2>/dev/null || fail "file: exit $?"
J '.jobs[0].trim.total_ios == 4' "file trim"
[ "$(stat -c %s "$f")" = $((8 * MiB)) ] && [ $((b0 - $(blocks "$f"))) -ge $((4 * MiB / 512)) ] ||
	fail "file: size $(stat -c %s "$f"), blocks $b0 -> $(blocks "$f")"

# trimwrite with --verify: every block written after its trim reads back intact
"$A" disk --filename="$dev" --rw=randtrimwrite --verify=crc32c --size=8m --iodepth=8 --mode=destroy -J > out.json \
	2>/dev/null || fail "randtrimwrite --verify: exit $?"
J '.jobs[0] | .trim.total_ios == 2048 and .assay.verify.blocks == 2048 and .assay.verify.bad == 0' "trimwrite verify"
# two threads trimming and writing one region through the page cache (a trim meeting the
# other thread's dirty pages: the kernel drops them for the claim's holder, as for fio)
for e in psync io_uring; do
	"$A" disk --filename="$dev" --rw=trimwrite --size=8m --numjobs=2 --ioengine=$e --mode=destroy --group_reporting \
		-J > out.json 2>err.txt || fail "buffered trimwrite x2 ($e): exit $?: $(grep error err.txt)"
	J '.jobs[0] | .error == 0 and .trim.total_ios == 4096 and .write.total_ios == 4096' "buffered trimwrite x2 ($e)"
done

# per-direction options take a third value for trims (or the writes')
"$A" disk --filename="$dev" --rw=randtrim --size=8m --rate_iops=,,200 --runtime=1 --time_based --mode=destroy \
	-J > out.json 2>/dev/null || fail "rate_iops=,,200: exit $?"
J '.jobs[0] | .["job options"].rate_iops_trim == "200" and .trim.total_ios <= 260 and .trim.total_ios >= 100' \
	"rate_iops=,,200"
"$A" disk --filename="$dev" --rw=trim --bs=4k,16k --size=1m --mode=destroy -J > out.json 2>/dev/null ||
	fail "bs=4k,16k: exit $?"
J '.jobs[0].trim.total_ios == 64' "bs=4k,16k: trims of the writes' 16k"
"$A" disk --filename="$dev" --rw=trim --bs=4k,4k,256k --size=1m --mode=destroy -J > out.json 2>/dev/null ||
	fail "bs=4k,4k,256k: exit $?"
J '.jobs[0] | .trim.total_ios == 4 and .["job options"].bs == "4096,4096,262144"' "bs=4k,4k,256k: trims of 256k"
expect 1 '^assay: error: disk: --verify on a trim job: nothing is written to check \(trimwrite is\)$' \
	"$A" disk --filename="$dev" --rw=randtrim --verify=crc32c --mode=destroy
expect 1 'give one value, or reads,writes\[,trims\]' "$A" disk --filename="$dev" --rate=1m,1m,1m,1m
# a device holding a filesystem: trims are refused as writes are (and the bytes stay)
mkfs.ext4 -q -F "$dev" 2>/dev/null || fail "mkfs.ext4"
sum=$(sha "$dev")
expect 1 'refusing --mode=destroy: .* holds ext2/3/4; add --force' "$A" disk --filename="$dev" --rw=randtrim --mode=destroy
[ "$(sha "$dev")" = "$sum" ] || fail "a refused trim changed the device"

finish
