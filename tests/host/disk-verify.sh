# fio's --verify (crc32c, md5, sha*, xxhash, crc*, meta, pattern): every block a job writes
# carries a header checked when the job ends (read back from the device, the cache dropped): clean runs find 0 bad blocks with
# every engine, block-size mix and thread layout; --verify_only finds what changed since
# (a flipped byte, a block copied over another, another run's --randseed) and names the
# first; each method's digest is the one md5sum, sha*sum, gzip, xz, xxhsum compute over the
# block; --buffer_pattern writes what fio's writes; only --mode=destroy writes; bad
# combinations are refused with one line.
# TIMEOUT: 300
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

# the read-back is the job's reads, as fio counts them: a write job's read figures are the
# read-back's (every block once, its own runtime), job_runtime both phases; threads each
# read back what they wrote (two on one region: every block twice, as fio's threads)
ab() { echo "(($1) | if . < 0 then -. else . end)"; }
"$A" disk --filename="$dev" --rw=randwrite --size=8m --iodepth=8 --direct=1 --mode=destroy --verify=crc32c \
	-J > out.json 2>/dev/null || fail "figures: exit $?"
J ".jobs[0] | .read.total_ios == 2048 and .read.io_bytes == 8388608 and .read.clat_ns.N == 2048 and
	.write.total_ios == 2048 and .read.runtime > 0 and $(ab '.read.runtime - .assay.verify.seconds * 1000') <= 1 and
	.job_runtime >= .write.runtime + .read.runtime - 1 and .read.iops > 0 and .read.bw_samples == 0" "read-back as reads"
"$A" disk --filename="$dev" --rw=write --size=8m --direct=1 --mode=destroy --verify=crc32c --eta=never > out.txt \
	2>/dev/null || fail "text: exit $?"
grep -qE '^  read: IOPS=.*\(8\.00MiB/[0-9]+msec\)$' out.txt && grep -qE '^   READ: bw=.*, io=8\.00MiB' out.txt ||
	fail "text: no read line for the read-back: $(grep -i read out.txt | head -3)"
"$A" disk --filename="$dev" --rw=randwrite --size=4m --iodepth=4 --mode=destroy --verify=crc32c --numjobs=2 \
	--group_reporting -J > out.json 2>/dev/null || fail "two threads, one region: exit $?"
J '.jobs[0] | .read.total_ios == 2048 and .write.total_ios == 2048 and .assay.verify.blocks == 2048' \
	"two threads on one region: each reads back its own"
"$A" disk --filename="$dev" --rw=write --size=4m --mode=destroy --verify=crc32c --numjobs=2 --offset_increment=4m \
	--ioengine=psync --direct=1 --iops_avg_time=20 --group_reporting -J > out.json 2>/dev/null || fail "two regions: exit $?"
J '.jobs[0] | .read.total_ios == 2048 and .assay.verify.blocks == 2048 and .read.runtime > 0' "two regions, psync"
# the read-back is not sampled (fio's: its reads are no interval's), its 20 ms intervals
# notwithstanding
J '.jobs[0] | .read.iops_samples == 0 and .read.bw_samples == 0 and (.assay.samples.read.iops | add) == 0 and
	.write.iops_samples > 0' "read-back: no samples"
# --verify_backlog: checked as it goes, each block once (a batch smaller than the backlog:
# the rest when the job ends); time-based, a block written again is checked again
"$A" disk --filename="$dev" --rw=randwrite --size=4m --iodepth=4 --mode=destroy --verify=crc32c --verify_backlog=100 \
	--verify_backlog_batch=30 -J > out.json 2>/dev/null || fail "backlog: exit $?"
J '.jobs[0] | .read.total_ios == 1024 and .assay.verify.blocks == 1024 and .assay.verify.bad == 0 and
	.read.runtime >= .write.runtime' "backlog, batch 30"
"$A" disk --filename="$dev" --rw=randwrite --size=1m --iodepth=4 --mode=destroy --verify=crc32c --verify_backlog=64 \
	--runtime=0.3 --time_based -J > out.json 2>/dev/null || fail "backlog, time-based: exit $?"
J '.jobs[0] | .write.total_ios > 256 and .read.total_ios == .write.total_ios and .assay.verify.bad == 0' \
	"backlog, time-based: every write checked"
# fio's --verify=null pretends: no header written, the read-back reads every block and
# checks nothing (the verify pipeline's own cost)
"$A" disk --filename="$dev" --rw=randwrite --size=4m --iodepth=4 --mode=destroy --verify=null -J > out.json 2>/dev/null ||
	fail "verify=null: exit $?"
J '.jobs[0] | .read.total_ios == 1024 and .assay.verify.algorithm == "null" and .assay.verify.bad == 0' "verify=null"
[ "$(dd if="$dev" bs=4 count=1 status=none)" != asvf ] || fail "verify=null wrote a header"
expect 1 "^assay: error: disk: --verify_interval: --verify=null writes no header$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify=null --verify_interval=512
# fio in the same run: the same counts for the same job (its runtimes as ours: a direction
# without I/O has none; the read-back unsampled; psync's I/Os without a submission latency)
if command -v fio >/dev/null; then
	for e in io_uring:4 psync:1 io_uring:4:--verify_backlog=100 psync:1:--verify_backlog=100:--verify_backlog_batch=30 \
		io_uring:4:--verify_backlog=100:--verify_backlog_batch=300 io_uring:4:--loops=3 psync:1:--loops=2 io_uring:4:--loops=2:--io_size=6m; do
		qd=${e#*:} e=${e%%:*} more=
		case $qd in *:*) more=$(echo "${qd#*:}" | tr : ' ') qd=${qd%%:*} ;; esac
		# shellcheck disable=SC2086
		fio --name=x --filename="$dev" --rw=randwrite --size=4m --iodepth="$qd" --ioengine=$e --direct=1 \
			--verify=crc32c $more --output-format=json > fio.json 2>/dev/null || fail "fio $e $more failed"
		# shellcheck disable=SC2086
		"$A" disk --filename="$dev" --rw=randwrite --size=4m --iodepth="$qd" --ioengine=$e --direct=1 --mode=destroy \
			--verify=crc32c $more -J > out.json 2>/dev/null || fail "$e $more vs fio: exit $?"
		q='.jobs[0] | [.read.total_ios, .read.io_bytes, .read.clat_ns.N, .write.total_ios, .read.runtime > 0,
			.trim.runtime, .read.iops_samples, .read.slat_ns.N, .write.slat_ns.N]'
		[ "$(jq -c "$q" fio.json)" = "$(jq -c "$q" out.json)" ] ||
			fail "$e $more: fio's $(jq -c "$q" fio.json), ours $(jq -c "$q" out.json)"
		[ -n "$more" ] || jq -e '.jobs[0] | .job_runtime + 2 >= .write.runtime + .read.runtime' fio.json out.json \
			>/dev/null || fail "$e: job_runtime is not both phases'"
	done
fi

# a write's data and header are made after its start (fio's): in psync's lat, not its clat;
# in a queued engine's slat
"$A" disk --filename="$dev" --rw=write --bs=1m --size=8m --ioengine=psync --direct=1 --mode=destroy --verify=sha512 \
	--do_verify=0 -J > out.json 2>/dev/null || fail "psync digest: exit $?"
J '.jobs[0].write | .slat_ns.N == 0 and .lat_ns.mean > .clat_ns.mean' "psync: the digest in lat, not clat"
"$A" disk --filename="$dev" --rw=write --bs=1m --size=8m --ioengine=io_uring --direct=1 --mode=destroy --verify=sha512 \
	--do_verify=0 -J > out.json 2>/dev/null || fail "io_uring digest: exit $?"
J '.jobs[0].write | .slat_ns.N == 8 and .lat_ns.mean >= .slat_ns.mean + .clat_ns.mean - 1' "io_uring: slat counted"

# written now, checked by a later run: as it was, then a byte flipped, then a block moved
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --mode=destroy --verify=crc32c --do_verify=0 \
	--randseed=42 -J > out.json 2>/dev/null || fail "write for later: exit $?"
J '.jobs[0].assay.verify == null' "do_verify=0: no read-back"
sum=$(sha "$dev")
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 \
	--randseed=42 -J > out.json || fail "verify_only: exit $?"
J '.jobs[0] | .assay.verify.blocks == 256 and .assay.verify.bad == 0 and .read.total_ios == 256 and
	.read.io_bytes == 16777216 and .write.total_ios == 0 and .write.runtime == 0 and .read.runtime > 0' "verify_only, intact"
[ "$(sha "$dev")" = "$sum" ] || fail "verify_only wrote to the device"
printf '\xff' | dd of="$img" bs=1 seek=$((5 * 65536 + 1000)) conv=notrunc status=none
expect 1 "verify: 1 of 256 blocks bad; the block at offset 327680: crc32c [0-9a-f]{8} stored, [0-9a-f]{8} read back: the data changed" \
	"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42
# --verify_dump: the bad block as read, in --aux-path (fio's FILE.OFFSET.received)
mkdir -p dumps
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42 \
	--verify_dump=1 --aux-path="$T/dumps" > out.txt 2>&1
d="$T/dumps/${dev#/dev/}.327680.received"
grep -q "received data of the block at offset 327680 dumped as $d" out.txt && [ "$(ls dumps | wc -l)" = 1 ] &&
	cmp -s "$d" <(dd if="$img" bs=64k skip=5 count=1 status=none) || fail "verify_dump: $(ls dumps) $(grep dump out.txt)"
dd if="$img" of="$img" bs=64k skip=7 seek=9 count=1 conv=notrunc status=none
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42 \
	-J > out.json 2>/dev/null
[ $? = 1 ] || fail "two bad blocks: exit code"
J '.jobs[0].assay.verify.bad == 2 and .jobs[0].assay.status == "failed"' "two bad blocks"
"$A" disk --filename="$dev" --rw=write --bs=64k --size=16m --direct=1 --verify=crc32c --verify_only=1 --randseed=42 \
	--verify_fatal=1 -J > out.json 2>/dev/null
[ $? = 1 ] || fail "verify_fatal: exit code"
J '.jobs[0].assay.verify | .bad == 1 and .blocks == 6' "verify_fatal: stops at the first bad block"
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

# fio's --verify on a job that only reads: each block read is checked as it completes (what
# an earlier job wrote): fio's surface-scan.fio's shape, a write phase without read-back and
# a read phase that checks; a changed byte found by a read job, --verify_fatal stops there
printf '[global]\nfilename=%s\nbs=64k\ndirect=1\nverify=meta\nverify_pattern=0xaa555aa5\nverify_interval=512\nsize=4m\n[write-phase]\nrw=write\ndo_verify=0\n[verify-phase]\nstonewall\nrw=randread\niodepth=4\n' "$dev" > sv.fio
"$A" disk sv.fio --mode=destroy -J > out.json 2>/dev/null || fail "write then read-verify phases: exit $?"
J '.jobs[0].assay.verify == null and (.jobs[1] | .jobname == "verify-phase" and .read.total_ios == 64 and
	.assay.verify.blocks == 64 and .assay.verify.bad == 0 and (.assay.verify | has("seconds") | not))' "read phase checks"
"$A" disk --filename="$dev" --rw=write --bs=8k --size=1m --mode=destroy --verify=crc32c --do_verify=0 --randseed=3 \
	> /dev/null 2>&1 || fail "crc32c write: exit $?"
sum=$(sha "$dev")
for e in io_uring:8 psync:1; do
	"$A" disk --filename="$dev" --rw=randread --bs=8k --size=1m --ioengine="${e%:*}" --iodepth="${e#*:}" --verify=crc32c \
		--randseed=3 -J > out.json 2>/dev/null || fail "read-verify $e: exit $?"
	J '.jobs[0] | .read.total_ios == 128 and .assay.verify.blocks == 128 and .assay.verify.bad == 0' "read-verify $e"
done
[ "$(sha "$dev")" = "$sum" ] || fail "a read job with --verify changed the device"
printf '\x01' | dd of="$img" bs=1 seek=$((17 * 8192 + 4000)) conv=notrunc status=none
"$A" disk --filename="$dev" --rw=read --bs=8k --size=1m --verify=crc32c --randseed=3 > out.txt 2>&1
[ $? = 1 ] && grep -q "verify: 1 of 128 blocks bad; the block at offset 139264: crc32c" out.txt &&
	grep -qE "^  verify       : crc32c, 128 blocks of 8192 B checked as read, 1 bad; the first: the block at offset 139264" out.txt ||
	fail "read job finds the changed block: $(grep -i verify out.txt | head -3)"
"$A" disk --filename="$dev" --rw=read --bs=8k --size=1m --verify=crc32c --randseed=3 --verify_fatal=1 -J > out.json 2>/dev/null
J '.jobs[0] | .error == 84 and .read.total_ios < 128 and .assay.verify.bad == 1' "read job, verify_fatal"
expect 1 "^assay: error: disk: --verify_backlog: a job that only reads checks each block as it reads it$" \
	"$A" disk --filename="$dev" --rw=read --size=1m --verify=crc32c --verify_backlog=8

# refused: writing outside destroy mode, verify_only alone, a method
sum=$(sha "$dev")
expect 1 "--verify writes its own data to every block: it needs --mode=destroy" \
	"$A" disk --filename="$dev" --rw=randwrite --size=1m --verify=crc32c --mode=rewrite
expect 1 "--verify writes its own data" "$A" disk --filename="$dev" --rw=write --size=1m --verify=md5
expect 1 "verify_only: give the --verify \(and --verify_pattern\) the data was written with" \
	"$A" disk --filename="$dev" --rw=read --verify_only=1
expect 1 "verify=sha3-999: unknown value" "$A" disk --filename="$dev" --rw=write --verify=sha3-999 --mode=destroy
expect 1 "^assay: error: disk: --verify=pattern: give the pattern with --verify_pattern$" \
	"$A" disk --filename="$dev" --rw=write --verify=pattern --mode=destroy --size=1m
for bad in "0x:0x without hex digits" "0xZZ:0x without hex digits" "4294967296:4294967296: beyond 32 bits" \
	"zz:'zz': not 0xHEX, \"text\", a number or 'a file'" "\"ab:\" without its closing \"" \
	"'$T/none':'$T/none': No such file or directory" "12zz:'zz': not 0xHEX" \
	"0x$(printf 'ab%.0s' $(seq 513)):longer than 512 bytes"; do
	expect 1 "^assay: error: disk: --buffer_pattern: ${bad#*:}" \
		"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy "--buffer_pattern=${bad%%:*}"
done
expect 1 "^assay: error: disk: --buffer_pattern=: an empty pattern$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --buffer_pattern=
expect 1 "^assay: error: disk: --buffer_pattern: with --zero_buffers the data would be two things at once$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --buffer_pattern=0xaa --zero_buffers
expect 1 "^assay: error: disk: --verify_backlog: give --verify \(how the blocks written are checked\)$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify_backlog=64
expect 1 "^assay: error: disk: --verify_backlog_batch: with --verify_backlog" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify=crc32c --verify_backlog_batch=8
expect 1 "^assay: error: disk: --verify_backlog: --verify_only writes nothing to check as it goes$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --verify=crc32c --verify_only=1 --verify_backlog=8
expect 1 "^assay: error: disk: --verify_backlog with --numjobs=2 on one region: a block another thread is writing would read torn \(give each its own, --offset_increment=1048576\)$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify=crc32c --verify_backlog=8 --numjobs=2
[ "$(sha "$dev")" = "$sum" ] || fail "a refused run changed the device"

# every method: clean runs, and the digest in each block's header (bytes 32.., after magic,
# length, offset, randseed, method, digest length) is the one the usual tool computes over
# the block with those bytes zeroed (a CRC's value little-endian)
le() { fold -w2 | tac | tr -d '\n'; }   # a big-endian hex value as little-endian bytes
id=0
for m in crc32c:4 crc32:4 crc64:8 crc16:2 crc7:1 md5:16 sha1:20 sha256:32 sha512:64 xxhash:4 meta:0 \
	sha3-224:28:13 sha3-256:32 sha3-384:48 sha3-512:64; do
	name=${m%%:*} dl=${m#*:} id=$((id + 1))
	case $dl in *:*) id=${dl#*:} dl=${dl%:*} ;; esac
	"$A" disk --filename="$dev" --rw=randwrite --size=2m --iodepth=4 --direct=1 --mode=destroy --verify="$name" \
		-J > out.json 2>/dev/null || fail "$name: exit $?"
	J ".jobs[0].assay.verify | .blocks == 512 and .bad == 0 and .algorithm == \"$name\"" "$name"
	dd if="$dev" bs=4096 skip=3 count=1 iflag=direct status=none > blk
	[ "$(head -c 4 blk)" = asvf ] || fail "$name: no magic"
	[ "$(dd if=blk bs=1 skip=8 count=8 status=none | xxd -p)" = 0030000000000000 ] || fail "$name: offset field"
	[ "$(dd if=blk bs=1 skip=24 count=4 status=none | xxd -p)" = "$(printf '%02x00%02x00' $id "$dl")" ] ||
		fail "$name: method $id and digest length $dl: $(dd if=blk bs=1 skip=24 count=4 status=none | xxd -p)"
	[ "$dl" = 0 ] && continue
	stored=$(dd if=blk bs=1 skip=32 count="$dl" status=none | xxd -p | tr -d '\n')
	{ head -c 32 blk; head -c "$dl" /dev/zero; tail -c +$((33 + dl)) blk; } > zeroed
	case $name in
	md5 | sha1 | sha256 | sha512) want=$("${name}sum" < zeroed | cut -d' ' -f1) ;;
	crc32) want=$(gzip -c < zeroed | tail -c 8 | head -c 4 | xxd -p) ;;
	crc64) want=$(xz --check=crc64 -c < zeroed > z.xz && xz --robot -lvv z.xz | awk -F'\t' '$1 == "block" { print $11 }' | le) ;;
	xxhash) want=$(xxhsum -H0 zeroed | cut -d' ' -f1 | le) ;;
	sha3-*) want=$(python3 -c "import hashlib, sys; print(hashlib.new('sha3_${name#sha3-}', sys.stdin.buffer.read()).hexdigest())" < zeroed) ;;
	*) want=$stored ;;   # crc32c, crc16, crc7: tests/unit/digest checks them
	esac
	[ -n "$want" ] && [ "$stored" = "$want" ] || fail "$name: stored $stored, the tool's $want"
done
# a changed byte under sha256; a block checked with another method than it was written with
"$A" disk --filename="$dev" --rw=write --size=1m --direct=1 --mode=destroy --verify=sha256 --do_verify=0 -J > out.json 2>/dev/null ||
	fail "sha256 write: exit $?"
printf '\x00\x01' | dd of="$img" bs=1 seek=$((9 * 4096 + 2000)) conv=notrunc status=none
expect 1 "verify: 1 of 256 blocks bad; the block at offset 36864: sha256 [0-9a-f]{16}\\.\\.\\. stored, [0-9a-f]{16}\\.\\.\\. read back: the data changed" \
	"$A" disk --filename="$dev" --rw=write --size=1m --direct=1 --verify=sha256 --verify_only=1
expect 1 "the block at offset 0: written with --verify=sha256, checked with --verify=md5" \
	"$A" disk --filename="$dev" --rw=write --size=1m --direct=1 --verify=md5 --verify_only=1

# --verify_interval: a header per chunk (its own offset in it); --verify_offset: the header
# that far into each chunk; a changed byte names its chunk; read back with other settings,
# the headers are not where they are looked for
"$A" disk --filename="$dev" --rw=randwrite --size=1m --iodepth=4 --direct=1 --mode=destroy --verify=crc32c \
	--verify_interval=512 --randseed=5 -J > out.json 2>/dev/null || fail "verify_interval: exit $?"
J '.jobs[0].assay.verify | .blocks == 256 and .bad == 0' "verify_interval"
dd if="$dev" bs=512 skip=$((3 * 8 + 1)) count=1 iflag=direct status=none > blk
[ "$(head -c 4 blk)" = asvf ] && [ "$(dd if=blk bs=1 skip=4 count=12 status=none | xxd -p)" = 000200000032000000000000 ] ||
	fail "verify_interval: chunk header $(head -c 16 blk | xxd -p)"
printf '\x00\x01' | dd of="$img" bs=1 seek=$((5 * 4096 + 2 * 512 + 300)) conv=notrunc status=none
expect 1 "the block at offset 20480: its chunk at offset 21504: crc32c [0-9a-f]{8} stored, [0-9a-f]{8} read back: the data changed" \
	"$A" disk --filename="$dev" --rw=write --size=1m --direct=1 --verify=crc32c --verify_interval=512 --randseed=5 \
	--verify_only=1
expect 1 "the block at offset 0: its chunk at offset 0: its header says a chunk of 512 bytes, not --verify_interval=1024" \
	"$A" disk --filename="$dev" --rw=write --size=1m --direct=1 --verify=crc32c --verify_interval=1024 --randseed=5 \
	--verify_only=1
"$A" disk --filename="$dev" --rw=randwrite --bs=8k --size=1m --iodepth=4 --direct=1 --mode=destroy --verify=md5 \
	--verify_offset=1000 --randseed=5 -J > out.json 2>/dev/null || fail "verify_offset: exit $?"
J '.jobs[0].assay.verify | .blocks == 128 and .bad == 0' "verify_offset"
[ "$(dd if="$dev" bs=1 skip=$((7 * 8192 + 1000)) count=4 status=none)" = asvf ] || fail "verify_offset: no header at 1000"
expect 1 "the block at offset 0: no verify header" \
	"$A" disk --filename="$dev" --rw=write --bs=8k --size=1m --direct=1 --verify=md5 --randseed=5 --verify_only=1
for bad in "--verify_interval=3000:--verify_interval=3000: it divides --bs=4096" \
	"--verify_interval=8k:--verify_interval=8192: it divides --bs=4096" \
	"--verify_offset=4090:--verify_offset=4090: the header \(36 bytes with its digest\) would end past the 4096-byte block" \
	"--verify_interval=1k --verify_offset=1000:--verify_offset=1000: the header .* would end past the 1024-byte chunk \(--verify_interval\)" \
	"--verify_offset=20:--verify_offset=20: inside the header's own 36 bytes \(0, or at least 36\)"; do
	# shellcheck disable=SC2086
	expect 1 "^assay: error: disk: ${bad#*:}" "$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy \
		--verify=crc32c ${bad%%:*}
done
expect 1 "^assay: error: disk: --verify_interval: give --verify" "$A" disk --filename="$dev" --rw=write --size=1m \
	--mode=destroy --verify_interval=512
expect 1 "^assay: error: disk: --verify_offset: --verify=pattern writes no header$" "$A" disk --filename="$dev" \
	--rw=write --size=1m --mode=destroy --verify_pattern=0xaa --verify_offset=64

# --buffer_pattern: the bytes fio writes for each of its pattern forms; the text report
printf 'HELLO' > pf
for pat in 0xdeadface '"abcd"' -12 300 0 0x123 '0xdeadface"ab"12' "'$T/pf'" 0x01e0473; do
	"$A" disk --filename="$dev" --rw=write --bs=4k --size=64k --mode=destroy --buffer_pattern="$pat" \
		-J > out.json 2>/dev/null || fail "buffer_pattern=$pat: exit $?"
	fio --name=x --filename="$T/fio.dat" --rw=write --bs=4k --size=64k --buffer_pattern="$pat" > /dev/null 2>&1 ||
		fail "fio --buffer_pattern=$pat failed"
	cmp -s "$T/fio.dat" <(dd if="$dev" bs=64k count=1 iflag=direct status=none) ||
		fail "buffer_pattern=$pat: not fio's bytes: $(dd if="$dev" bs=16 count=1 status=none | xxd -p) vs $(head -c 16 fio.dat | xxd -p)"
	rm -f "$T/fio.dat"
done
J '.jobs[0]["job options"].buffer_pattern == "0x001e0473"' "pattern as hex"
# --verify_pattern (alone: --verify=pattern): the whole block; a changed byte is named
"$A" disk --filename="$dev" --rw=randwrite --bs=8k --size=1m --iodepth=4 --direct=1 --mode=destroy --verify_pattern='"ab"0xff' \
	-J > out.json 2>/dev/null || fail "verify_pattern: exit $?"
J '.jobs[0].assay.verify | .blocks == 128 and .bad == 0 and .algorithm == "pattern"' "verify_pattern"
J '.jobs[0]["job options"] | .verify == "pattern" and .verify_pattern == "0x6162ff"' "verify_pattern options"
printf 'x' | dd of="$img" bs=1 seek=$((3 * 8192 + 5)) conv=notrunc status=none
expect 1 "the block at offset 24576: byte 5 is 0x78, the pattern's 0xff: the data changed" \
	"$A" disk --filename="$dev" --rw=write --bs=8k --size=1m --direct=1 --verify_pattern='"ab"0xff' --verify_only=1
"$A" disk --filename="$dev" --rw=write --bs=8k --size=1m --direct=1 --verify_pattern='"ab"0xff' --verify_only=1 \
	--verify_dump=1 > out.txt 2>&1
[ "$(head -c 6 "${dev#/dev/}.24576.expected" | xxd -p)" = 6162ff6162ff ] && [ "$(stat -c %s "${dev#/dev/}.24576.received")" = 8192 ] &&
	[ "$(dd if="${dev#/dev/}.24576.received" bs=1 skip=5 count=1 status=none)" = x ] || fail "verify_dump, pattern: $(ls)"

# fio's %o in --verify_pattern: each block's own offset (8 bytes, little-endian) where it
# stands; the device holds the bytes fio writes for the same job; a block copied over
# another is found (its offset is not this one's)
"$A" disk --filename="$dev" --rw=randwrite --bs=4k --size=1m --iodepth=4 --direct=1 --mode=destroy \
	--verify_pattern='"ab"%o0xff' -J > out.json 2>/dev/null || fail "%o: exit $?"
J '.jobs[0].assay.verify | .blocks == 256 and .bad == 0 and .algorithm == "pattern"' "%o"
dd if="$dev" bs=1M count=1 iflag=direct status=none > ours.bin
fio --name=x --filename="$dev" --rw=randwrite --bs=4k --size=1m --iodepth=4 --ioengine=io_uring --direct=1 \
	--verify_pattern='"ab"%o0xff' --verify=pattern > /dev/null 2>&1 || fail "fio %o failed"
cmp -s ours.bin <(dd if="$dev" bs=1M count=1 iflag=direct status=none) || fail "%o: not fio's bytes"
dd if="$img" of="$img" bs=4k skip=3 seek=7 count=1 conv=notrunc status=none
expect 1 "the block at offset 28672: byte 3 is 0x30, the pattern's 0x70: the data changed, or was never written with this pattern \(its %o: this block's offset\)" \
	"$A" disk --filename="$dev" --rw=write --bs=4k --size=1m --direct=1 --verify_pattern='"ab"%o0xff' --verify_only=1
expect 1 "^assay: error: disk: --buffer_pattern: %o \(the block's offset\) is --verify_pattern's$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --buffer_pattern=%o
expect 1 "^assay: error: disk: --verify_pattern's %o: with one block size \(each block its offset\)$" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify_pattern=%o --bsrange=4k-16k
expect 1 "^assay: error: disk: --verify_pattern's %o: with --verify=pattern" \
	"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify_pattern=%o --verify=crc32c
# a checksum over pattern data: the header, then the pattern
"$A" disk --filename="$dev" --rw=write --size=64k --mode=destroy --verify=md5 --buffer_pattern=0x5a -J > out.json \
	2>/dev/null || fail "md5 + buffer_pattern: exit $?"
J '.jobs[0].assay.verify.bad == 0' "md5 over a pattern"
[ "$(dd if="$dev" bs=1 skip=48 count=4048 status=none | tr -d '\132' | wc -c)" = 0 ] || fail "md5 + pattern: data not the pattern"
# --serialize_overlap (fio's): an I/O overlapping one in flight waits for it. Over one
# block at --iodepth=8 every I/O then goes alone (fio's IO depths: all at 1, as fio's own),
# over four never more than four at once; without it they go 8 deep. Verify with
# --norandommap at depth 16 then never has two writes to a block in flight.
lv() { jq -c '.jobs[0].iodepth_level | [.["1"], .["8"] + .["16"] + .["32"] + .[">=64"]]' "$1"; }
for e in io_uring libaio; do
	for sz in 4k 16k; do
		for so in 0 1; do
			"$A" disk --filename="$dev" --ioengine=$e --rw=randwrite --norandommap --size=$sz --iodepth=8 --time_based \
				--runtime=0.3 --serialize_overlap=$so --mode=destroy -J > "a$so.json" 2>/dev/null ||
				fail "serialize_overlap=$so $e $sz: exit $?"
		done
		fio --name=x --filename="$dev" --ioengine=$e --rw=randwrite --norandommap --size=$sz --iodepth=8 --time_based \
			--runtime=300ms --serialize_overlap=1 --output-format=json --output=f1.json > /dev/null 2>&1 || fail "fio $e $sz"
		jq -e '.jobs[0]["job options"].serialize_overlap == "1"' a1.json > /dev/null || fail "serialize_overlap: job option"
		ok=$(jq -n --argjson a0 "$(lv a0.json)" --argjson a1 "$(lv a1.json)" --argjson f1 "$(lv f1.json)" --arg sz $sz \
			'$a0[1] > 0 and $a1[1] == 0 and $f1[1] == 0 and ($sz == "16k" or ($a1[0] == 100 and $f1[0] == 100))')
		[ "$ok" = true ] || fail "serialize_overlap $e $sz: IO depths [at 1, at 8 or more] without, with, fio's with: $(lv a0.json) $(lv a1.json) $(lv f1.json)"
	done
done
"$A" disk --filename="$dev" --rw=randwrite --norandommap --size=64k --iodepth=16 --time_based --runtime=0.3 \
	--serialize_overlap=1 --verify=crc32c --mode=destroy -J > out.json 2>/dev/null || fail "serialize_overlap verify: exit $?"
J '.jobs[0].assay.verify | .blocks == 16 and .bad == 0' "serialize_overlap with verify"
expect 1 "^assay: error: disk: --serialize_overlap with --zonemode=zbd: not here" "$A" disk --filename="$dev" \
	--rw=randwrite --iodepth=4 --zonemode=zbd --zonesize=1m --direct=1 --serialize_overlap=1 --mode=destroy

# --trim_percentage (fio's, with --verify): that share of the blocks written discarded
# before the read-back, which expects zeros from them -- a loop device punches them out of
# its file: exactly the blocks counted read zero (every other block holds a header); each
# --loops pass its own; 100: every block (tests/host/disk-eio.sh: a disk that keeps them)
zeros() { python3 -c "import sys; d=open(sys.argv[1],'rb').read($1)
print(sum(1 for i in range(0, len(d), 4096) if d[i:i+4096].count(0) == 4096))" "$img"; }
"$A" disk --filename="$dev" --rw=randwrite --size=4m --iodepth=8 --mode=destroy --verify=crc32c --trim_percentage=30 \
	-J > out.json 2>/dev/null || fail "trim_percentage=30: exit $?"
J '.jobs[0] | .assay.verify.blocks == 1024 and .assay.verify.bad == 0 and .assay.verify.trimmed > 230 and
	.assay.verify.trimmed < 390 and .["job options"].trim_percentage == "30"' "trim_percentage=30"
[ "$(zeros $((4 << 20)))" = "$(jq .jobs[0].assay.verify.trimmed out.json)" ] ||
	fail "trim_percentage=30: $(zeros $((4 << 20))) zero blocks, $(jq .jobs[0].assay.verify.trimmed out.json) discarded"
"$A" disk --filename="$dev" --rw=write --size=1m --mode=destroy --verify=md5 --trim_percentage=100 --loops=3 \
	--eta=never > out.txt 2>&1 || fail "trim_percentage=100 loops: exit $?"
grep -q "verify       : md5, 768 blocks of 4096 B (768 of them discarded first) read back in .*, 0 bad$" out.txt ||
	fail "trim_percentage=100 loops: $(grep verify out.txt)"
[ "$(zeros $((1 << 20)))" = 256 ] || fail "trim_percentage=100: $(zeros $((1 << 20))) of 256 blocks zero"
"$A" disk --filename="$dev" --rw=randwrite --size=1m --numjobs=2 --offset_increment=1m --mode=destroy --verify=crc32c \
	--trim_percentage=50 -J > out.json 2>/dev/null || fail "trim_percentage, 2 threads: exit $?"
J '.jobs[0].assay.verify | .blocks == 512 and .bad == 0 and .trimmed > 180 and .trimmed < 330' "trim_percentage, 2 threads"
for bad in "--verify=crc32c --rw=randread:needs a job that writes" "--rw=randwrite:needs --verify" \
	"--verify=crc32c --rw=randwrite --verify_backlog=8:with --verify_backlog" \
	"--verify=crc32c --rw=randwrite --numjobs=2:with threads sharing one region"; do
	# shellcheck disable=SC2086
	expect 1 "^assay: error: disk: --trim_percentage=20: ${bad#*:}" "$A" disk --filename="$dev" --mode=destroy \
		--trim_percentage=20 ${bad%%:*}
done

"$A" disk --filename="$dev" --rw=write --size=64k --mode=destroy --verify=xxhash --eta=never > out.txt 2>&1 ||
	fail "text: exit $?"
grep -q "verify       : xxhash, 16 blocks of 4096 B read back in" out.txt || fail "text verify line: $(grep verify out.txt)"
finish
