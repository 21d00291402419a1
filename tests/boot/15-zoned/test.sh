# SUMMARY: a host-managed zoned disk (QEMU NVMe ZNS): seen as zoned (model, zones); in rewrite mode its write jobs skipped with the reason and its bytes unchanged; named for destroy, its O_DIRECT write jobs measured at the zones' write pointers (--zonemode=zbd: no write the device refuses, full zones reset), the buffered one skipped, scanwrite's blocks all read back good; with the scheduler none (Linux 6.1: writes not kept in order) one write in flight per zone, with mq-deadline as many as issued, none refused
# KERNELS: debian custom
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
truncate -s 16M "$T/zns.img"
head -c $((1 << 20)) /dev/urandom | dd of="$T/zns.img" conv=notrunc status=none
s0=$(sha256sum < "$T/zns.img")
zns() {
	boot --no-disk --append "assay.tests=disk $1 assay.disk-profile=$2 assay.disk-time=$3" \
		--qemu-arg -drive --qemu-arg "file=$T/zns.img,format=raw,if=none,id=zns,cache=none" \
		--qemu-arg -device --qemu-arg "nvme,id=nvme0,serial=zns0" \
		--qemu-arg -device --qemu-arg "nvme-ns,drive=zns,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=1M,logical_block_size=4096,physical_block_size=4096"
}

# rewrite mode: a zone's bytes cannot be written back in place: its writes skipped
zns "assay.mode=rewrite" seq,qd1 1
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0 (a skipped write is no failure)"
has '^/dev/nvme0n1: model QEMU NVMe Ctrl serial zns0 .*, zoned host-managed, 16 zones of 1 MiB, mode rewrite$'
has "^  skipped: writes; /dev/nvme0n1 is a host-managed zoned device \(writes only at each zone's write pointer\): give --zonemode=zbd and --mode=destroy"
has '^init: powering off$'
[ "$(sha256sum < "$T/zns.img")" = "$s0" ] || fail "the zoned disk changed in rewrite mode"
result_json "$T/result.json"
jq -e '.tests[] | select(.name == "disk") | .status == "ok" and
	(.result.assay.device | .zoned == "host-managed" and .zone_size_bytes == 1048576 and .nr_zones == 16) and
	([.result.jobs[] | {(.jobname): .assay.status}] | add == {"seq.write": "skipped", "seq.read": "ok", "qd1": "ok"}) and
	(.result.jobs[] | select(.jobname == "seq.read") | .read.io_bytes == 16777216)' "$T/result.json" >/dev/null ||
	fail "disk: $(jq -c '.tests[] | select(.name == "disk") | [.status, .result.assay.device, [.result.jobs[] | [.jobname, .assay.status]]]' "$T/result.json")"
jq -e '.machine.disks[] | select(.name == "nvme0n1") | .zoned == "host-managed"' "$T/result.json" >/dev/null ||
	fail "the machine's disk list does not say nvme0n1 is zoned"

# named for destroy: the O_DIRECT random writes (4 threads, then 64 I/Os in flight; one
# zone table) go to the write pointers; a misplaced one would fail (the device refuses it)
# and the job with it.  Their ~30 MiB (at TCG's pace) fill the 16 MiB: full zones reset
# (BLKRESETZONE). scanwrite, the surface write test: its zones reset, the whole device
# written in zone order, each 1 MiB block read back and checked
zns "assay.mode=destroy assay.destroy=nvme0n1:serial=zns0" seq,randwrite4,randrw64,scanwrite 2
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has "^  skipped: writes; /dev/nvme0n1 is a host-managed zoned device"
has 'destroying the data on /dev/nvme0n1'
has '^  write: IOPS=.*; [0-9]+ zone resets$'
has '^init: powering off$'
[ "$(sha256sum < "$T/zns.img")" != "$s0" ] || fail "nothing was written to the zoned disk named for destroy"
# Linux 6.1 gives QEMU's ZNS namespace the scheduler "none" (both kernels): nothing keeps
# a zone's writes in order, so one write in flight per zone (before, CI once saw a write at
# QD 64 refused: an I/O error); with mq-deadline (below), its zone write lock does
result_json "$T/result.json"
jq -e '.tests[] | select(.name == "disk") | .status == "ok" and
	([.result.jobs[] | {(.jobname): .assay.status}] | add ==
	 {"seq.write": "skipped", "seq.read": "ok", "randwrite4": "ok", "randrw64": "ok", "scanwrite": "ok"}) and
	(.result.jobs[] | select(.jobname == "scanwrite") | .error == 0 and .write.io_bytes == 16777216 and
	 .assay.verify.blocks == 16 and .assay.verify.bad == 0) and
	all(.result.jobs[] | select(.jobname == "randwrite4" or .jobname == "randrw64");
	    .error == 0 and .write.total_ios > 0 and ."job options".zonemode == "zbd" and
	    (.assay.zbd | .zones_of == "device" and .zone_bytes == 1048576 and .zones == 16)) and
	([.result.jobs[].assay.zbd.zone_resets // 0] | add > 0) and
	(.result.assay.device.scheduler as $s | all(.result.jobs[] | select(.assay.zbd);
		(.assay.zbd.one_write_per_zone | type) == (if $s == "mq-deadline" then "null" else "string" end)))' \
	"$T/result.json" >/dev/null ||
	fail "disk: $(jq -c '.tests[] | select(.name == "disk") | [.status, .result.assay.device.scheduler, [.result.jobs[] | [.jobname, .assay.status, .error, .write.total_ios, .assay.zbd, .assay.error]]]' "$T/result.json")"

# mq-deadline (assay.disk-ioscheduler): its zone write lock keeps a zone's writes in
# order: writes in flight per zone as many as the job issues, none refused; the
# scheduler put back after
zns "assay.mode=destroy assay.destroy=nvme0n1:serial=zns0 assay.disk-ioscheduler=mq-deadline" randrw64 2
[ "$rc" = 0 ] || fail "mq-deadline: qemu/run exited $rc, want 0"
has '^init: powering off$'
result_json "$T/result.json"
jq -e '.tests[] | select(.name == "disk") | .status == "ok" and .result.assay.ioscheduler.used == "mq-deadline" and
	(.result.jobs[] | select(.jobname == "randrw64") | .error == 0 and .write.total_ios > 0 and
	 .assay.zbd.one_write_per_zone == null)' "$T/result.json" >/dev/null ||
	fail "mq-deadline: $(jq -c '.tests[] | select(.name == "disk") | [.status, .result.assay.ioscheduler, [.result.jobs[] | [.jobname, .assay.status, .error, .write.total_ios, .assay.zbd, .assay.error]]]' "$T/result.json")"
echo "ok"
