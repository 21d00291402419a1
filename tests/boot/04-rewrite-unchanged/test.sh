# SUMMARY: assay.mode=rewrite writes to both disks and leaves their sha256 unchanged
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
head -c $((48 << 20)) /dev/urandom > "$T/disk0.img"
head -c $((16 << 20)) /dev/urandom > "$T/disk1.img"
before=$(sha256sum "$T/disk0.img" "$T/disk1.img" | awk '{ print $1 }')
boot --disk "$T/disk0.img" --disk "$T/disk1.img" \
	--append "assay.tests=disk assay.mode=rewrite assay.disk-profile=seq,randrw64 assay.disk-time=1"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^randrw64: .*rw=randrw'
has '^  write: IOPS='
hasnt 'skipped: writes'
after=$(sha256sum "$T/disk0.img" "$T/disk1.img" | awk '{ print $1 }')
[ "$before" = "$after" ] || fail "rewrite changed a disk image"
result_json "$T/result.json"
jq -e '[.tests[] | select(.engine == "disk" and .status == "ok")] | length == 2' "$T/result.json" >/dev/null ||
	fail "want two ok disk tests"
jq -e '.summary[] | select(.name == "disk.randrw64.write.iops") | .value > 0' "$T/result.json" >/dev/null ||
	fail "no disk.randrw64.write.iops"
echo "ok: sha256 unchanged after rewrite"
