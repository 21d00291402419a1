# SUMMARY: peers that misbehave, a NIC with no DHCP answer and a damaged results partition, in one boot: an iperf3 port that accepts and never answers, an HTTP server that vanishes mid-body, a DNS server that never answers, a second NIC nobody answers; a results partition whose FAT copies differ; each named in one line, the tests marked failed, the rest run, nothing written to the damaged partition, clean power-off
# KERNELS: debian
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
command -v mcopy >/dev/null || skip "mtools missing"
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
TP=$(free_port) HP=$(free_port) UP=$(free_port)
python3 "$(dirname "$0")/peers.py" $TP $HP $UP &
pids+=($!)
listening $TP && listening $HP && listening $UP udp || fail "the peers did not start"

# a results partition holding an earlier result, its first FAT copy damaged (what a cut
# while the kernel wrote the FAT, or a bad sector, leaves)
"$A" mkresults "$T/res.img" 8m >/dev/null || fail "mkresults"
echo "an earlier result" > "$T/old.txt"
mcopy -i "$T/res.img" "$T/old.txt" ::assay/old.txt || fail "mcopy"
fat1=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(512); print(struct.unpack_from("<H",b,14)[0]*struct.unpack_from("<H",b,11)[0])' "$T/res.img")
head -c 64 /dev/urandom | dd of="$T/res.img" bs=1 seek=$((fat1 + 512)) conv=notrunc status=none
s0=$(sha256sum < "$T/res.img")

# eth0: QEMU's user network (its DHCP answers); eth1: a NIC on a hub with nothing else
boot --no-disk --results "$T/res.img" \
	--qemu-arg -netdev --qemu-arg hubport,id=lonely,hubid=7 \
	--qemu-arg -device --qemu-arg virtio-net-pci,netdev=lonely,mac=52:54:00:12:34:99 \
	--append "assay.tests=cpu,net,dns assay.cpu-time=1 assay.net-time=2 assay.iperf=10.0.2.2:$TP assay.http=http://10.0.2.2:$HP/f.bin assay.dns=10.0.2.2:$UP"
[ "$rc" = 1 ] || fail "qemu/run exited $rc, want 1 (tests failed, clean power-off)"
has '^init: eth0: DHCP lease in [0-9.]+ s: 10\.0\.2\.15/24$'
has '^init: eth1: no DHCP lease within [0-9]+ s'
has "\] net.tcp: failed .*10\.0\.2\.2:$TP: the server accepted the connection but did not answer within 15 s"
has '\] net.http: failed .*download cut short: [0-9]+ of 4000000 bytes'
has "\] dns: failed .*no replies from 10\.0\.2\.2:$UP"
has '\] cpu.all: ok'
has '^assay: warning: results not written: the results partition /dev/vda is damaged: its two FAT copies differ at byte [0-9]+ of the FAT \(repair it with fsck.vfat; nothing written to it\)$'
has '^init: powering off$'
result_json "$T/r.json"
jq -e '[.tests[] | select(.status == "failed") | .name] == ["net.tcp", "net.http", "dns"]' "$T/r.json" >/dev/null ||
	fail "failed tests: $(jq -c '[.tests[] | {name, status, why}]' "$T/r.json")"
jq -e '.network_setup | map(test("eth1")) | any' "$T/r.json" >/dev/null || fail "network_setup lacks eth1"
[ "$(sha256sum < "$T/res.img")" = "$s0" ] || fail "the damaged results partition was written"
echo ok
