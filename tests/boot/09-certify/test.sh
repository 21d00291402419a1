# SUMMARY: qemu/run --certify: a built-in profile by name, a rules file read from the results
# disk under its own name (assay.certify=file:ours.rules); the verdict is the exit status, a bad rules file is 2
# (the run's bad input), distinct from qemu/run's own 64
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
head -c $((16 << 20)) /dev/urandom > "$T/disk0.img"
quick="assay.tests=cpu,disk assay.disk-profile=seq,qd1 assay.cpu-time=1 assay.disk-time=1"

# a rules file of the user's, inventory included: PASS, exit 0
printf '# ours\ncpu.events_per_sec.1t > 0\ndisk.seq.read.bw > 0 MB/s\nmachine.cpus >= 2\nmachine.disks >= 1\n' > "$T/ours.rules"
boot --disk "$T/disk0.img" --certify "$T/ours.rules" --append "$quick"
[ "$rc" = 0 ] || fail "--certify FILE: qemu/run exited $rc, want 0"
has '^PASS  cpu.events_per_sec.1t > 0 +measured'
has '^PASS  machine.cpus >= 2 +measured 2 count$'
has '^######## CERTIFY file:ours.rules: PASS ########$'
result_json "$T/r1.json"
jq -e '.certify.verdict == "PASS" and .certify.rules_total == 4' "$T/r1.json" >/dev/null || fail "document: certify"

# vps-tasting by name: the write rules cannot be measured read-only, said in the image's
# words; the randrw64 profile its rules need is run though the suite's list lacks it
boot --disk "$T/disk0.img" --certify vps-tasting --append "$quick"
[ "$rc" = 1 ] || fail "--certify vps-tasting: qemu/run exited $rc, want 1"
has '^FAIL  disk.seq.write.bw >= 600 MB/s +not measured \(seq.write: a write job, and the run was read-only\); give assay.mode=rewrite'
has 'disk: adding the profile randrw64: the certify rules need its figures'
has '^######## CERTIFY vps-tasting: FAIL ########$'
has '^init: suite status 1$'
# qemu/run --quiet ends with the verdict and the failed rules
grep -q '^qemu/run: certify vps-tasting: verdict: FAIL ([0-9]* of [0-9]* rules failed)$' "$T/qemu.err" &&
	grep -q '^qemu/run:   FAIL  disk.seq.write.bw >= 600 MB/s' "$T/qemu.err" ||
	fail "qemu/run's verdict lines: $(grep -v 'powered off' "$T/qemu.err")"

# a typo in the rules: said before the tests with the file's line, nothing run, exit 2
printf 'cpu.events_per_sec.1t > 0\ncpu.events_per_sec.1tt > 0\n' > "$T/typo.rules"
boot --no-disk --certify "$T/typo.rules" --append "assay.tests=cpu assay.cpu-time=0.5"
[ "$rc" = 2 ] || fail "a bad rules file: qemu/run exited $rc, want 2"
has 'certify: file:typo.rules:2: unknown figure .cpu.events_per_sec.1tt.; nearest: cpu.events_per_sec.1t'
has '^init: suite status 2$'
hasnt '^\[ *1/[0-9]+\] cpu'
echo ok
