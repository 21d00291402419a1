# A disk with bad sectors, on the host: a loop device over a FUSE file (tests/helpers/
# faultfs) whose reads at 16 MiB and writes at 20 MiB fail with EIO.  Without
# --continue_on_error a job stops at the first error, names it and fails; with it, every
# engine goes on, counts exactly the errors the device returned (faultfs counts them too),
# leaves the failed I/Os out of the figures (fio's total_err, first_error; the failed I/O
# counted as issued), in rewrite mode leaves the device's bytes as they were, and in
# verify's read-back counts unreadable and bad blocks; --ignore_error picks the errnos.
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
need_root
FF=$BUILD/helpers/faultfs
if [ -n "${ASSAY_BIN:-}" ]; then
	# the sanitizer build (make check-asan) says glibc's strerror: put as the image's (musl's)
	A0=$A
	musl_words() {
		local f='s#Input/output error#I/O error#g; s#Operation not supported#Not supported#g' rc
		"$A0" "$@" > "$T/.o" 2> "$T/.e"
		rc=$?
		sed "$f" "$T/.e" >&2
		sed "$f" "$T/.o"
		return $rc
	}
	A=musl_words
fi
[ -x "$FF" ] || skip "no $FF (make unit builds it)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
back=/dev/shm/assay-test.$$.back
head -c $((32 << 20)) /dev/urandom > "$back"
mkdir -p "$T/fuse"
MiB=1048576
# mount ARGS: faultfs over $back with ARGS, $dev a loop device over its disk
mount_ff() {
	"$FF" "$T/fuse" "$back" "$@" 2> "$T/faultfs.log" &
	for _ in $(seq 50); do [ -e "$T/fuse/disk" ] && break; sleep 0.1; done
	[ -e "$T/fuse/disk" ] || skip "faultfs did not mount: $(cat "$T/faultfs.log")"
	dev=$(losetup -f --show "$T/fuse/disk") || { umount "$T/fuse"; skip "losetup over FUSE failed"; }
}
# the loop device lets go of the file a moment after it is detached
unmount() {
	losetup -d "$dev"
	for _ in $(seq 30); do umount "$T/fuse" 2>/dev/null && return; sleep 0.1; done
	umount -l "$T/fuse"
}
mount_ff --fail-read $((16 * MiB))+4096 --fail-write $((20 * MiB))+4096
trap 'unmount; cleanup' EXIT
cd "$T" || exit 1
failed() { sed -n "s/^$1s_failed //p" "$T/fuse/stats"; }
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.jobs[] | {error, total_err, first_error,
	r: .read.total_ios, w: .write.total_ios, rb: .read.io_bytes, wb: .write.io_bytes, v: .assay.verify,
	a: .assay.first_error}]' out.json 2>&1 | head -c 600)"; }
# RUN NAME ARGS...: assay disk on the device, JSON in out.json, stderr in err.txt; $rc
RUN() {
	local name=$1
	shift
	"$A" disk --filename="$dev" --direct=1 --name="$name" -J "$@" > out.json 2> err.txt
	rc=$?
}
# eng E: the options for engine E (E+offload: E with --io_submit_mode=offload)
eng() { case $1 in *+offload) echo "--ioengine=${1%+offload} --io_submit_mode=offload" ;; *) echo "--ioengine=$1" ;; esac; }

# no --continue_on_error: the first error ends the job, named; exit 1
RUN plain --rw=read
[ $rc = 1 ] || fail "plain: exit $rc, want 1"
grep -qx 'assay: error: disk: plain: read at offset 16777216: I/O error' err.txt || fail "plain: $(cat err.txt)"
J '.jobs[0] | .error == 5 and .total_err == null and .assay.status == "failed" and
	.read.total_ios == 4096' "plain: partial figures up to the bad sector"

# every engine goes on: one error, every other block read and counted
for eng in io_uring libaio posixaio psync vsync pvsync+offload; do
	before=$(failed read)
	RUN "$eng" --rw=read $(eng $eng) --continue_on_error=read
	[ $rc = 0 ] || fail "$eng: exit $rc: $(cat err.txt)"
	[ $(($(failed read) - before)) = 1 ] || fail "$eng: faultfs failed $(($(failed read) - before)) reads, want 1"
	J '.jobs[0] | .error == 0 and .total_err == 1 and .first_error == 5 and .read.total_ios == 8192 and
		.read.io_bytes == 8191 * 4096 and .read.clat_ns.N == 8191 and .assay.status == "ok" and
		.assay.first_error == "read at offset 16777216: I/O error" and
		.["job options"].continue_on_error == "read"' "$eng"
	[ "$(cat err.txt)" = "assay: warning: disk: $eng: 1 I/O error gone on after (--continue_on_error); the first: read at offset 16777216: I/O error" ] ||
		fail "$eng: stderr: $(cat err.txt)"
done

# mmap: a page the device fails is a SIGBUS in the copy from the mapping, caught: that
# I/O fails (EIO) and the job goes on.  With --fadvise_hint=random each fault reads its
# own page: one error; a sequential job's faults read ahead, and a window with the bad
# page fails whole, each of its I/Os an error (as for any reader of a mapping)
for fa in random sequential; do
	before=$(failed read)
	RUN "mmap-$fa" --rw=read --ioengine=mmap --fadvise_hint=$fa --continue_on_error=read
	[ $rc = 0 ] || fail "mmap $fa: exit $rc: $(cat err.txt)"
	n=$(($(failed read) - before))
	[ "$n" -ge 1 ] || fail "mmap $fa: faultfs failed no read"
	J ".jobs[0] | .error == 0 and .first_error == 5 and .read.total_ios == 8192 and
		.total_err >= 1 and .total_err <= (if \"$fa\" == \"random\" then 1 else 256 end) and
		.read.io_bytes == (8192 - .total_err) * 4096 and
		(.assay.first_error | test(\"^read at offset [0-9]+: I/O error$\"))" "mmap $fa: faultfs failed $n"
done
# a write into a page of the mapping reads it first: at the bad sector that read fails,
# and the write with it
RUN mmap-w --rw=write --ioengine=mmap --offset=12m --size=8m --mode=destroy
[ $rc = 1 ] && grep -qx 'assay: error: disk: mmap-w: write at offset 16777216: I/O error' err.txt ||
	fail "mmap write over the bad sector: exit $rc: $(cat err.txt)"
J '.jobs[0] | .error == 5 and .assay.status == "failed" and .write.total_ios == 1024' "mmap write over the bad sector"
expect 1 "^assay: error: disk: --ioengine=mmap: /dev/null is a character device, nothing to map$" \
	"$A" disk --filename=/dev/null --size=1m --ioengine=mmap
RUN mmap-stop --rw=randread --ioengine=mmap --fadvise_hint=random
[ $rc = 1 ] && grep -qx 'assay: error: disk: mmap-stop: read at offset 16777216: I/O error' err.txt ||
	fail "mmap without continue_on_error: exit $rc: $(cat err.txt)"

# queued random reads: what the device failed is what the job counts (a request the block
# layer merged with the bad one's fails whole: its neighbour's I/O fails too, rarely)
before=$(failed read)
RUN qd8 --rw=randread --iodepth=8 --continue_on_error=all --error_dump=1
n=$(($(failed read) - before))
[ $rc = 0 ] || fail "qd8: exit $rc"
J ".jobs[0] | .total_err as \$e | \$e >= $n and \$e <= 2 * $n and .read.total_ios == 8192 and
	.read.io_bytes == (8192 - \$e) * 4096 and .read.clat_ns.N == 8192 - \$e and
	(.assay.errors | map(.offset) | index(16777216) != null) and (.assay.errors | length == \$e)" \
	"qd8: $n errors from faultfs"
[ "$(grep -c 'read at offset [0-9]* (4096 bytes): I/O error (going on: --continue_on_error)$' err.txt)" = \
	"$(jq .jobs[0].total_err out.json)" ] || fail "qd8: --error_dump printed $(grep -c . err.txt) lines for $n errors"

# the text report: fio's errors line and ours; terse ends with total_err;first_error
"$A" disk --filename="$dev" --direct=1 --rw=read --size=20m --continue_on_error=io > out.txt 2>/dev/null ||
	fail "text: exit $?"
grep -qx '     errors    : total=1, first_error=5/<I/O error>' out.txt || fail "text: no errors line"
grep -qx '     the first : read at offset 16777216: I/O error' out.txt || fail "text: no first error line"
"$A" disk --filename="$dev" --direct=1 --rw=read --size=20m --continue_on_error=io --output-format=terse \
	> out.txt 2>/dev/null || fail "terse: exit $?"
grep -q ';1;5$' out.txt || fail "terse: $(tail -c 80 out.txt)"

# writes: a read-only mask stops at the bad write; io goes on
RUN w1 --rw=write --offset=16m --mode=destroy --continue_on_error=read
[ $rc = 1 ] && grep -q 'w1: write at offset 20971520: I/O error$' err.txt || fail "w1: exit $rc: $(cat err.txt)"
before=$(failed write)
RUN w2 --rw=write --bs=64k --offset=16m --mode=destroy --continue_on_error=io
[ $rc = 0 ] || fail "w2: exit $rc"
[ $(($(failed write) - before)) = 1 ] || fail "w2: faultfs failed $(($(failed write) - before)) writes"
J '.jobs[0] | .total_err == 1 and .write.total_ios == 256 and .write.io_bytes == 255 * 65536' "w2"

# rewrite: the read half fails at 16 MiB, the write half at 20 MiB; every byte stays (at
# depth 4 the block layer may merge a neighbour's request with the bad one: both fail)
sum=$(sha "$back")
for eng in io_uring libaio posixaio psync vsync psync+offload; do
	before=$(($(failed read) + $(failed write)))
	RUN "rw-$eng" --rw=write --mode=rewrite $(eng $eng) --iodepth=4 --continue_on_error=io
	[ $rc = 0 ] || fail "rewrite $eng: exit $rc: $(cat err.txt)"
	n=$(($(failed read) + $(failed write) - before))
	[ "$n" -ge 2 ] || fail "rewrite $eng: faultfs failed $n requests, want a read and a write"
	J ".jobs[0] | .total_err as \$e | \$e >= 2 and \$e <= 4 * $n and .write.total_ios == 8192 and
		.write.io_bytes == (8192 - \$e) * 4096 and (.assay.errors | length == \$e) and
		([.assay.errors[] | [.op, .offset]] | index([[\"read\", 16777216]]) != null and
			index([[\"write\", 20971520]]) != null) and
		(.assay.first_error | capture(\"^rewrite read at offset (?<o>[0-9]+): I/O error$\").o | tonumber |
			. >= 16777216 - 3 * 4096 and . <= 16777216 + 3 * 4096)" "rewrite $eng: faultfs failed $n"
done
RUN rw-stop --rw=randwrite --mode=rewrite --continue_on_error=write
[ $rc = 1 ] && grep -q 'rewrite read at offset 16777216: I/O error$' err.txt || fail "rewrite, reads fatal: $rc $(cat err.txt)"
[ "$(sha "$back")" = "$sum" ] || fail "rewrite changed the device's bytes"

# --ignore_error: the errnos per kind (fio's parser: reads,writes,verify, each a ':' list);
# it turns on its kinds
RUN ig1 --rw=read --ignore_error=ENODATA
[ $rc = 1 ] || fail "ignore_error=ENODATA: EIO went on (exit $rc)"
RUN ig2 --rw=read --size=20m --ignore_error=ENODATA:5,ENOSPC
[ $rc = 0 ] || fail "ignore_error=ENODATA:5: exit $rc"
J '.jobs[0] | .total_err == 1 and .["job options"].continue_on_error == "io"' "ignore_error=ENODATA:5,ENOSPC"
expect 1 '^assay: error: disk: --ignore_error=EIO,EFOO: EFOO is no errno name or number \(EIO, 5\)$' \
	"$A" disk --filename="$dev" --ignore_error=EIO,EFOO
expect 1 '^assay: error: disk: --ignore_error=EIO,,5,1: at most 3 lists \(reads,writes,verify\)$' \
	"$A" disk --filename="$dev" --ignore_error=EIO,,5,1
# fio's enospc-pressure.fio: an empty reads list, ENOSPC for writes
"$A" disk --filename="$dev" --rw=read --size=64k --ignore_error=,ENOSPC -J > /dev/null 2>&1 ||
	fail "ignore_error=,ENOSPC: refused"
expect 1 '--continue_on_error' "$A" disk --filename="$dev" --continue_on_error=most

# verify's read-back: an unreadable block fails the job, or is counted and skipped
RUN v1 --rw=write --bs=4k --offset=12m --size=8m --mode=destroy --verify=crc32c
[ $rc = 1 ] && grep -q 'verify: reading at offset 16777216: I/O error$' err.txt || fail "v1: $rc $(cat err.txt)"
RUN v2 --rw=write --bs=4k --offset=12m --size=8m --mode=destroy --verify=crc32c --continue_on_error=read
[ $rc = 0 ] || fail "v2: exit $rc: $(cat err.txt)"
J '.jobs[0] | .total_err == 1 and .assay.verify.blocks == 2047 and .assay.verify.bad == 0 and
	.assay.first_error == "verify: reading at offset 16777216: I/O error" and
	.read.total_ios == 2048 and .read.io_bytes == 2047 * 4096 and .write.io_bytes == 2048 * 4096' "v2"
# --verify_backlog: the check runs as the job writes, so the unreadable block ends the
# job there (a quarter of the way, not at the end); with continue_on_error=read it goes on
for e in io_uring:8 libaio:8 posixaio:8 psync:1 vsync:8 pvsync2+offload:8; do
	RUN vb --rw=write --bs=4k --offset=12m --size=8m --mode=destroy --verify=crc32c --verify_backlog=64 \
		$(eng "${e%:*}") --iodepth="${e#*:}"
	# (reads in flight side by side may merge into one request: the first failed one may
	# be a neighbour of the bad sector's)
	[ $rc = 1 ] && grep -qE 'verify: reading at offset 167[0-9]{5}: I/O error$' err.txt || fail "vb $e: $rc $(cat err.txt)"
	J '.jobs[0] | .write.total_ios >= 1025 and .write.total_ios <= 1024 + 64 + 8 and .read.total_ios <= .write.total_ios' "vb $e"
	RUN vb2 --rw=write --bs=4k --offset=12m --size=8m --mode=destroy --verify=crc32c --verify_backlog=64 \
		$(eng "${e%:*}") --iodepth="${e#*:}" --continue_on_error=read
	[ $rc = 0 ] || fail "vb2 $e: exit $rc: $(cat err.txt)"
	# (reads in flight side by side may merge into one request, which fails whole)
	J '.jobs[0] | .total_err >= 1 and .total_err <= 8 and .write.total_ios == 2048 and .read.total_ios == 2048 and
		.assay.verify.blocks == 2048 - .total_err and .assay.verify.bad == 0' "vb2 $e"
done
# --loops with --verify: each pass is checked when it ends, so the unreadable block ends
# the job after the first of two passes
RUN vl --rw=write --bs=4k --offset=12m --size=8m --mode=destroy --verify=crc32c --loops=2 --iodepth=4
[ $rc = 1 ] && grep -qE 'verify: reading at offset 167[0-9]{5}: I/O error$' err.txt || fail "vl: $rc $(cat err.txt)"
J '.jobs[0] | .write.total_ios == 2048' "vl: one pass written"
# a changed block: fatal, or with continue_on_error=verify counted (EILSEQ) with the unreadable one
printf '\xff' | dd of="$back" bs=1 seek=$((13 * MiB + 100)) conv=notrunc status=none
RUN v3 --rw=write --bs=4k --offset=12m --size=8m --verify=crc32c --verify_only=1 --continue_on_error=read
[ $rc = 1 ] && grep -q 'verify: 1 of 2047 blocks bad; the block at offset 13631488' err.txt || fail "v3: $rc $(cat err.txt)"
RUN v4 --rw=write --bs=4k --offset=12m --size=8m --verify=crc32c --verify_only=1 --continue_on_error=all
[ $rc = 0 ] || fail "v4: exit $rc: $(cat err.txt)"
J '.jobs[0] | .total_err == 2 and .first_error == 84 and .assay.verify.bad == 1 and .assay.verify.blocks == 2047 and
	(.assay.first_error | startswith("verify: the block at offset 13631488: ")) and
	[.assay.errors[] | [.op, .offset, .length, .errno]] == [["verify", 13631488, 4096, 84], ["read", 16777216, 4096, 5]] and
	.read.total_ios == 2048 and .read.io_bytes == 2047 * 4096' "v4"

# the scan profile (a surface scan): the whole device, going on after read errors, each
# failed I/O listed; the suite's figure disk.scan.errors, a certify rule on it
# (at iodepth 1 here: deeper, the block layer may merge the bad read with its neighbours)
"$A" disk --filename="$dev" --profile=scan --iodepth=1 -J > out.json 2> err.txt || fail "scan: exit $?"
J '.jobs[0] | .jobname == "scan" and .total_err == 1 and .read.total_ios == 32 and .read.io_bytes == 31 * 1048576 and
	.assay.errors == [{"op": "read", "offset": 16777216, "length": 1048576, "errno": 5}]' "scan"
"$A" disk --filename="$dev" --profile=scan --iodepth=1 > out.txt 2>/dev/null || fail "scan text: exit $?"
grep -qx '     failed    : read 16777216+1048576' out.txt || fail "scan text: no failed line"
"$A" disk --filename="$dev" --profile=all --runtime=0.2 -J > out.json 2>/dev/null
jq -e '[.jobs[].jobname] | index("scan") == null' out.json >/dev/null || fail "profile all includes scan"
printf 'disk.scan.errors == 0\n' > rules
"$A" run --tests=disk --disks="${dev#/dev/}" --disk-profile=scan --certify rules > out.txt 2>&1
rc=$?
[ $rc = 1 ] && grep -qE '^FAIL  disk.scan.errors == 0 *measured [1-9][0-9]* errors$' out.txt ||
	fail "certify disk.scan.errors == 0: exit $rc: $(grep -E 'FAIL|PASS|error' out.txt | head -5)"

# scanwrite: badblocks -w (destroy: written with checked blocks, read back) or -n (rewrite:
# the same bytes written back); readonly skips it
sum=$(sha "$back")
"$A" disk --filename="$dev" --profile=scanwrite -J > out.json 2>/dev/null
[ $? = 77 ] || fail "scanwrite in readonly mode: not skipped"
"$A" disk --filename="$dev" --profile=scanwrite --iodepth=1 --mode=rewrite -J > out.json 2>/dev/null ||
	fail "scanwrite -n: exit $?"
J '.jobs[0] | .total_err == 2 and .write.total_ios == 32 and .assay.verify == null and
	[.assay.errors[] | [.op, .offset]] == [["read", 16777216], ["write", 20971520]]' "scanwrite, rewrite"
[ "$(sha "$back")" = "$sum" ] || fail "scanwrite in rewrite mode changed the device"
"$A" disk --filename="$dev" --profile=scanwrite --iodepth=1 --mode=destroy -J > out.json 2>/dev/null ||
	fail "scanwrite -w: exit $?"
J '.jobs[0] | .total_err == 2 and .write.io_bytes == 31 * 1048576 and .assay.verify.blocks == 30 and
	.assay.verify.bad == 0 and [.assay.errors[] | [.op, .offset, .length]] ==
	[["read", 16777216, 1048576], ["write", 20971520, 1048576]]' "scanwrite, destroy"

# --exitall_on_error: a job's failure stops the others of its group and the groups after it
"$A" disk --filename="$dev" --direct=1 --exitall_on_error --name=a --rw=read --name=b --rw=randread --offset=24m \
	--size=4m --time_based --runtime=20 --name=c --stonewall --rw=read --size=1m -J > out.json 2> err.txt
[ $? = 1 ] || fail "exitall_on_error: exit not 1"
J '[.jobs[] | .jobname] == ["a", "b"] and .jobs[0].error == 5 and .jobs[1].error == 0 and
	.jobs[1].read.runtime < 10000' "exitall_on_error: b stopped with a, c not run"
grep -q 'exitall_on_error: a job failed; the jobs after it were not run' err.txt || fail "exitall_on_error: $(cat err.txt)"

# a device that refuses discards (faultfs has no fallocate): the trim job fails at once, saying so
RUN trim --rw=randtrim --mode=destroy --size=1m
[ $rc = 1 ] && grep -qx 'assay: error: disk: trim: trim: the device cannot discard: Not supported' err.txt ||
	fail "trim on a device without discard: $rc $(cat err.txt)"

# the helper really stands between: reads outside the bad range pass, inside fail
dd if="$dev" of=/dev/null bs=4k skip=4096 count=1 iflag=direct status=none 2>/dev/null && fail "faultfs let the bad read pass"

# --trim_percentage with --verify on a disk whose discards succeed but keep the data: the
# discarded blocks (as many as faultfs saw discarded, counted in 4k blocks) are the bad
# ones, named; with --trim_verify_zero=0 they are not checked. (tests/host/disk-verify.sh:
# a disk that zeroes them.)
unmount
mount_ff --discard=keep
"$A" disk --filename="$dev" --mode=destroy --force --rw=randwrite --size=1m --verify=crc32c --trim_percentage=50 \
	-J > out.json 2> err.txt
[ $? = 1 ] || fail "trim_percentage, discards kept: exit not 1"
J '.jobs[0] | .error == 84 and .assay.verify.blocks == 256 and .assay.verify.trimmed > 60 and
	.assay.verify.bad == .assay.verify.trimmed and (.assay.verify.first_bad |
	test("^the block at offset [0-9]+: discarded \\(--trim_percentage\\), yet byte 0 reads back 0x[0-9a-f]{2}, not zero$"))' \
	"trim_percentage, discards kept"
grep -q "^discards [1-9]" "$T/fuse/stats" || fail "faultfs saw no discard: $(cat "$T/fuse/stats")"
"$A" disk --filename="$dev" --mode=destroy --force --rw=randwrite --size=1m --verify=crc32c --trim_percentage=50 \
	--trim_verify_zero=0 -J > out.json 2> err.txt || fail "trim_verify_zero=0: exit $?"
J '.jobs[0] | .error == 0 and .assay.verify.bad == 0 and .assay.verify.trimmed > 60 and
	.["job options"].trim_verify_zero == "0"' "trim_verify_zero=0"
finish
