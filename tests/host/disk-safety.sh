# Safe by default, proven by checksums of the device: readonly and rewrite leave it
# byte-identical (rewrite even when killed mid-run); destroy needs the device to hold no
# partition table or filesystem (or --force), refuses a mounted one, checks identity.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev a 96) || skip "losetup failed"
img=/dev/shm/assay-test.$$.a
before=$(sha "$img")

# readonly (the default): every profile; write jobs are skipped and say so
"$A" disk --filename="$dev" --profile=all --runtime=0.3 > "$T/ro.txt" 2>&1 || fail "readonly run: exit $?"
grep -q 'skipped: writes; --mode=readonly' "$T/ro.txt" || fail "readonly: no skip line for write jobs"
[ "$(sha "$img")" = "$before" ] || fail "readonly changed the device"

# rewrite: every profile (io_uring), and every other engine
"$A" disk --filename="$dev" --profile=all --runtime=0.3 --mode=rewrite > "$T/rw.txt" 2>&1 || fail "rewrite run: exit $?"
grep -q 'write: IOPS=' "$T/rw.txt" || fail "rewrite: no write figures"
for eng in psync sync libaio posixaio mmap vsync "pvsync2 --io_submit_mode=offload"; do
	"$A" disk --filename="$dev" --rw=randrw --ioengine=$eng --iodepth=8 --numjobs=3 --direct=1 --runtime=0.5 --time_based \
		--mode=rewrite --output-format=json > "$T/rw.json" 2>&1 || fail "$eng rewrite: exit $?"
	jq -e '.jobs[0].write.total_ios > 0' "$T/rw.json" >/dev/null || fail "$eng rewrite: no writes done"
done
[ "$(sha "$img")" = "$before" ] || fail "rewrite changed the device"

# rewrite killed mid-run (SIGKILL), every engine (the queued ones at depth 32; io_uring
# also with its kernel submission thread, and with mixed block sizes)
for eng in io_uring libaio posixaio psync sync mmap vsync "psync --io_submit_mode=offload" "io_uring --sqthread_poll" "io_uring --bssplit=4k/50:64k/50"; do
	"$A" disk --filename="$dev" --rw=randwrite --iodepth=32 --direct=1 --ioengine=$eng --mode=rewrite \
		--time_based --runtime=60 >/dev/null 2>&1 &
	pid=$!
	sleep 1.5
	kill -9 $pid
	wait $pid 2>/dev/null
	[ "$(sha "$img")" = "$before" ] || fail "rewrite ($eng) killed mid-run changed the device"
done

# identity checks before any write
expect 1 "has serial '', not 'XYZ'" "$A" disk --filename="$dev" --rw=write --mode=destroy --expect-serial=XYZ
expect 1 'has 100663296 bytes, not 1234' "$A" disk --filename="$dev" --rw=write --mode=destroy --expect-size=1234
[ "$(sha "$img")" = "$before" ] || fail "a refused destroy changed the device"

# destroy refuses a filesystem or partition table without --force
for sig in gpt ext; do
	d=$(loopdev "$sig" 16 zero)
	f=/dev/shm/assay-test.$$.$sig
	if [ $sig = gpt ]; then printf 'EFI PART' | dd of="$f" bs=1 seek=512 conv=notrunc status=none
	else printf '\x53\xef' | dd of="$f" bs=1 seek=1080 conv=notrunc status=none; fi
	s0=$(sha "$f")
	want=$([ $sig = gpt ] && echo gpt || echo ext2/3/4)
	expect 1 "holds $want; add --force" "$A" disk --filename="$d" --rw=write --mode=destroy
	[ "$(sha "$f")" = "$s0" ] || fail "refused destroy changed the $sig device"
	"$A" disk --filename="$d" --rw=write --bs=1m --direct=1 --mode=destroy --force >/dev/null 2>&1 || fail "destroy --force: exit $?"
	[ "$(sha "$f")" != "$s0" ] || fail "destroy --force did not write"
done

# destroy on a blank device writes incompressible data
d=$(loopdev blank 16 zero)
"$A" disk --filename="$d" --rw=write --bs=1m --direct=1 --mode=destroy >/dev/null 2>&1 || fail "destroy: exit $?"
ratio=$(head -c 4M "/dev/shm/assay-test.$$.blank" | gzip -1 | wc -c)
[ "$ratio" -gt $((4 * 1024 * 1024 * 98 / 100)) ] || fail "destroy wrote compressible data (4 MiB -> $ratio bytes)"
"$A" disk --filename="$d" --rw=write --bs=1m --direct=1 --mode=destroy --force --buffer_compress_percentage=50 \
	>/dev/null 2>&1 || fail "destroy with compression: exit $?"
ratio=$(head -c 4M "/dev/shm/assay-test.$$.blank" | gzip -1 | wc -c)
[ "$ratio" -lt $((4 * 1024 * 1024 * 70 / 100)) ] || fail "--buffer_compress_percentage=50 gave $ratio bytes of 4 MiB"
# fio's --buffer_compress_chunk: each 4 KiB chunk 2 KiB of random data, then 2 KiB of zeros
# (fio's layout), whatever the block size and the fresh words each write gets
"$A" disk --filename="$d" --rw=write --bs=64k --direct=1 --mode=destroy --force --buffer_compress_percentage=50 \
	--buffer_compress_chunk=4k >/dev/null 2>&1 || fail "destroy with a compress chunk: exit $?"
python3 - "/dev/shm/assay-test.$$.blank" <<'PY' || fail "--buffer_compress_chunk=4k: not fio's layout"
import sys, zlib
data = open(sys.argv[1], 'rb').read(4 << 20)
chunks = [data[c:c + 4096] for c in range(0, len(data), 4096)]
tails = sum(ch[2048:].count(0) == 2048 for ch in chunks)
heads = sum(ch[:2048].count(0) < 64 for ch in chunks)
ratio = len(zlib.compress(data, 1)) / len(data)
print(len(chunks), tails, heads, ratio)
sys.exit(0 if tails == heads == len(chunks) and 0.45 < ratio < 0.56 else 1)
PY

# a mounted device is refused for rewrite and destroy, even with --force
if command -v mkfs.ext4 >/dev/null && d=$(loopdev mnt 32 zero) && mkfs.ext4 -q -F "$d" 2>/dev/null &&
	mkdir -p "$T/mnt" && mount "$d" "$T/mnt" 2>/dev/null; then
	f=/dev/shm/assay-test.$$.mnt
	expect 1 "is mounted on $T/mnt" "$A" disk --filename="$d" --rw=write --mode=destroy --force
	expect 1 "is mounted on $T/mnt" "$A" disk --filename="$d" --rw=randwrite --mode=rewrite
	"$A" disk --filename="$d" --rw=randread --runtime=0.2 --time_based >/dev/null 2>&1 || fail "readonly on a mounted device"
	umount "$T/mnt"
else
	echo "note: mounting an ext4 loop device is not possible here: mounted-device checks not run"
fi
finish
