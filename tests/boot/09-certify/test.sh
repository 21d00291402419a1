# SUMMARY: assay.certify=PROFILE prints a PASS/FAIL banner and qemu/run exits with the verdict
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
head -c $((16 << 20)) /dev/urandom > "$T/disk0.img"
boot --disk "$T/disk0.img" --append "assay.certify=ci assay.tests=cpu,disk assay.disk-profile=seq,qd1 assay.cpu-time=1 assay.disk-time=1"
[ "$rc" = 0 ] || fail "certify=ci: qemu/run exited $rc, want 0"
has '^PASS  cpu.events_per_sec.1t > 0 +measured'
has '^######## CERTIFY ci: PASS ########$'
result_json "$T/r1.json"
jq -e '.certify.verdict == "PASS"' "$T/r1.json" >/dev/null || fail "document: certify.verdict"
# vps-tasting needs seq.write, which read-only mode never measures: FAIL, exit 1
boot --disk "$T/disk0.img" --append "assay.certify=vps-tasting assay.tests=cpu,disk assay.disk-profile=seq,qd1 assay.cpu-time=1 assay.disk-time=1"
[ "$rc" = 1 ] || fail "certify=vps-tasting: qemu/run exited $rc, want 1"
has '^FAIL  disk.seq.write.bw >= 600 MB/s +not measured \(disk: ok\)$'
has '^######## CERTIFY vps-tasting: FAIL ########$'
has '^init: suite status 1$'
echo ok
