# SUMMARY: a host-managed zoned disk (QEMU NVMe ZNS), named for destroy: seen as zoned (model, zones), its write jobs skipped with the reason, its reads measured, its bytes unchanged
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
truncate -s 64M "$T/zns.img"
head -c $((1 << 20)) /dev/urandom | dd of="$T/zns.img" conv=notrunc status=none
s0=$(sha256sum < "$T/zns.img")
boot --no-disk --append "assay.tests=disk assay.mode=destroy assay.destroy=nvme0n1:serial=zns0 assay.disk-profile=seq,qd1 assay.disk-time=1" \
	--qemu-arg -drive --qemu-arg "file=$T/zns.img,format=raw,if=none,id=zns,cache=none" \
	--qemu-arg -device --qemu-arg "nvme,id=nvme0,serial=zns0" \
	--qemu-arg -device --qemu-arg "nvme-ns,drive=zns,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=4M,logical_block_size=4096,physical_block_size=4096"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0 (a skipped write is no failure)"
has '^/dev/nvme0n1: model QEMU NVMe Ctrl serial zns0 .*, zoned host-managed, 16 zones of 4 MiB, mode destroy$'
has "^  skipped: writes; /dev/nvme0n1 is a host-managed zoned device: it takes writes only at each zone's write pointer"
hasnt 'destroying the data on /dev/nvme0n1'
has '^init: powering off$'
[ "$(sha256sum < "$T/zns.img")" = "$s0" ] || fail "the zoned disk changed"
result_json "$T/result.json"
jq -e '.tests[] | select(.name == "disk") | .status == "ok" and
	(.result.assay.device | .zoned == "host-managed" and .zone_size_bytes == 4194304 and .nr_zones == 16) and
	([.result.jobs[] | {(.jobname): .assay.status}] | add == {"seq.write": "skipped", "seq.read": "ok", "qd1": "ok"}) and
	(.result.jobs[] | select(.jobname == "seq.read") | .read.io_bytes == 67108864)' "$T/result.json" >/dev/null ||
	fail "disk: $(jq -c '.tests[] | select(.name == "disk") | [.status, .result.assay.device, [.result.jobs[] | [.jobname, .assay.status]]]' "$T/result.json")"
jq -e '.machine.disks[] | select(.name == "nvme0n1") | .zoned == "host-managed"' "$T/result.json" >/dev/null ||
	fail "the machine's disk list does not say nvme0n1 is zoned"
echo "ok"
