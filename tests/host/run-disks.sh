# assay run --disks on a live host: a file measured like a disk (a taster who cannot kexec
# still gets write figures with --mode=rewrite, the file unchanged), typos are errors, and
# on the kernel command line a warning (the run goes on with the disks found).
. "$(dirname "$0")/lib.sh"
head -c $((64 << 20)) /dev/urandom > "$T/vm.img"
before=$(sha "$T/vm.img")
"$A" run --tests=disk --disks="$T/vm.img" --disk-time=0.3 -J > "$T/ro.json" 2>/dev/null || fail "read-only: exit $?"
jq -e '(.summary | any(.name == "disk.seq.read.bw" and .value > 0)) and (.summary | any(.name == "disk.seq.write.bw") | not)' \
	"$T/ro.json" >/dev/null || fail "read-only: want read figures and no write ones: $(jq -c '[.summary[].name]' "$T/ro.json")"
"$A" run --tests=disk --disks="$T/vm.img" --disk-time=0.3 --mode=rewrite -J > "$T/rw.json" 2>/dev/null || fail "rewrite: exit $?"
jq -e '.summary | any(.name == "disk.seq.write.bw" and .value > 0)' "$T/rw.json" >/dev/null ||
	fail "rewrite: no write figures: $(jq -c '[.summary[].name]' "$T/rw.json")"
[ "$(sha "$T/vm.img")" = "$before" ] || fail "the file changed"
# two paths: each a test of its own
cp "$T/vm.img" "$T/second.img"
"$A" run --tests=disk --disks="$T/vm.img,$T/second.img" --disk-profile=qd1 --disk-time=0.2 -J 2>/dev/null |
	jq -e '[.tests[].name] == ["disk", "disk.second_img"]' >/dev/null || fail "two paths: two tests"
expect 2 "disks=vdz: no disk named 'vdz'" "$A" run --tests=disk --disks=vdz
expect 2 'disks=/nonexistent: /nonexistent: No such file or directory' "$A" run --tests=disk --disks=/nonexistent
expect 2 'not a file or a block device' "$A" run --tests=disk --disks="$T"
echo "assay.disks=vdz assay.tests=cpu assay.cpu-time=0.1" > "$T/cmdline"
"$A" run --cmdline="$T/cmdline" > /dev/null 2> "$T/err" || fail "cmdline: exit $?"
grep -q "warning: kernel command line: assay.disks=vdz: no disk named 'vdz'.*; measuring the disks found" "$T/err" ||
	fail "cmdline: $(cat "$T/err")"
finish
