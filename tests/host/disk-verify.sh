# fio's --verify=crc32c: every block a job writes carries a header checked when the job
# ends (read back from the device, the cache dropped): clean runs find 0 bad blocks with
# every engine, block-size mix and thread layout; --verify_only finds what changed since
# (a flipped byte, a block copied over another, another run's --randseed) and names the
# first; only --mode=destroy writes; bad combinations are refused with one line.
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev v 16) || skip "losetup failed"
img=$(losetup -nO BACK-FILE "$dev")
cd "$T" || exit 1
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.error, (.jobs[] | {w: .write.total_ios, v: .assay.verify})]' out.json 2>&1 | head -c 400)"; }

# every block of the region written once, all checked
"$A" disk --filename="$dev" --rw=randwrite --size=8m --direct=1 --iodepth=8 --mode=destroy --verify=crc32c \
	-J > out.json 2>/dev/null || fail "randwrite: exit $?"
J '.jobs[0].assay.verify | .blocks == 2048 and .bad == 0 and .block_size == 4096 and .algorithm == "crc32c"' "randwrite verify"
J '.jobs[0]["job options"].verify == "crc32c"' "job options"
# engines, a block-size mix, time-based passes, threads on their own regions or one
for opts in "--ioengine=psync --rw=write" "--ioengine=libaio --iodepth=4 --bsrange=4k-64k" \
	"--rw=randrw --iodepth=16 --runtime=0.5 --time_based" "--numjobs=2 --offset_increment=8m --size=8m" \
	"--numjobs=2 --iodepth=4 --size=4m" "--rw=randwrite --bs=4k,16k --sync=dsync --direct=0"; do
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --rw=randwrite --size=4m --direct=1 --mode=destroy --verify=crc32c $opts \
		--group_reporting -J > out.json 2>/dev/null || fail "$opts: exit $?"
	J '.jobs[0].assay.verify.bad == 0 and .jobs[0].assay.verify.blocks > 0 and
		.jobs[0].assay.verify.blocks <= .jobs[0].write.total_ios * 16' "$opts"
done
J '.jobs[0].assay.verify.blocks <= 1024' "two threads on one region: each block once"

# written now, checked by a later run: as it was, then a byte flipped, then a block moved
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --mode=destroy --verify=crc32c --do_verify=0 \
	--randseed=42 -J > out.json 2>/dev/null || fail "write for later: exit $?"
J '.jobs[0].assay.verify == null' "do_verify=0: no read-back"
sum=$(sha "$dev")
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 \
	--randseed=42 -J > out.json || fail "verify_only: exit $?"
J '.jobs[0].assay.verify | .blocks == 256 and .bad == 0' "verify_only, intact"
[ "$(sha "$dev")" = "$sum" ] || fail "verify_only wrote to the device"
printf '\xff' | dd of="$img" bs=1 seek=$((5 * 65536 + 1000)) conv=notrunc status=none
expect 1 "verify: 1 of 256 blocks bad; the block at offset 327680: CRC-32C 0x[0-9a-f]+ stored, 0x[0-9a-f]+ read back" \
	"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42
dd if="$img" of="$img" bs=64k skip=7 seek=9 count=1 conv=notrunc status=none
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42 \
	-J > out.json 2>/dev/null
[ $? = 1 ] || fail "two bad blocks: exit code"
J '.jobs[0].assay.verify.bad == 2 and .jobs[0].assay.status == "failed"' "two bad blocks"
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --offset=576k \
	--size=64k --randseed=42 > out.txt 2>&1
grep -q "the block at offset 589824: its header is the block at offset 458752's (a misdirected write)" out.txt ||
	fail "misdirected: $(grep -i verify out.txt | head -2)"
expect 1 "written by another run \(--randseed=42, this one 7\)" \
	"$A" disk --filename="$dev" --rw=write --bs=64k --size=64k --direct=1 --verify=crc32c --verify_only=1 --randseed=7
expect 1 "the block at offset 15728640: its header says a block of 65536 bytes, not --bs=4096" \
	"$A" disk --filename="$dev" --rw=write --offset=15m --size=1m --bs=4k --direct=1 --verify=crc32c \
	--verify_only=1 --randseed=42
dd if=/dev/zero of="$img" bs=64k seek=12 count=1 conv=notrunc status=none
expect 1 "the block at offset 786432: no verify header" "$A" disk --filename="$dev" --rw=write --bs=64k \
	--offset=768k --size=64k --direct=1 --verify=crc32c --verify_only=1 --randseed=42

# refused: writing outside destroy mode, verifying a read job, verify_only alone, a method
sum=$(sha "$dev")
expect 2 "verify=crc32c writes its own data to every block: it needs --mode=destroy" \
	"$A" disk --filename="$dev" --rw=randwrite --size=1m --verify=crc32c --mode=rewrite
expect 2 "verify=crc32c writes its own data" "$A" disk --filename="$dev" --rw=write --size=1m --verify=crc32c
expect 2 "verify=crc32c on a job that only reads: --verify_only=1" \
	"$A" disk --filename="$dev" --rw=randread --size=1m --verify=crc32c
expect 2 "verify_only: give the --verify=crc32c" "$A" disk --filename="$dev" --rw=read --verify_only=1
expect 2 "verify=md5: unknown value" "$A" disk --filename="$dev" --rw=write --verify=md5 --mode=destroy
[ "$(sha "$dev")" = "$sum" ] || fail "a refused run changed the device"
finish
