# SUMMARY: assay health against the peers on QEMU's NVMe and AHCI disks: every field it
# reports equals nvme-cli's `nvme smart-log -o json` and smartctl's `smartctl -x --json`,
# read in the same guest (our kernel, an initramfs of the test's own with the two tools);
# then the image with -m 512 in a short burn-in: memtest locks and tests at least 90% of
# MemTotal, and a corrected machine check injected through QEMU's monitor during it makes
# the verdict FAIL naming it
# KERNELS: custom
# NEEDS: custom (the tools' guest runs our kernel: NVMe, AHCI and MCE built in)
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
[ -f "$BUILD/custom/vmlinuz" ] || skip "our kernel is not built"
command -v nvme >/dev/null && command -v smartctl >/dev/null || skip "nvme-cli or smartmontools missing"
[ -x /bin/busybox ] || skip "busybox-static missing"

# --- the peers' guest: busybox, assay, nvme and smartctl with their libraries ---
R=$T/root
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp"
cp /bin/busybox "$R/bin/" && cp "$A" "$R/bin/assay" || fail "setup: copies"
for tool in $(command -v nvme) $(command -v smartctl); do
	cp "$tool" "$R/bin/"
	for lib in $(ldd "$tool" | grep -o '/[^ ]*'); do
		mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib"
	done
done
cat > "$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for i in $(seq 40); do [ -c /dev/nvme0 ] && [ -b /dev/sda ] && break; sleep 0.25; done
out() { echo "==BEGIN $1=="; shift; "$@" | base64 -w 76; echo "==END=="; }
out assay /bin/assay health -J
out nvme /bin/nvme smart-log /dev/nvme0 -o json
out smartctl /bin/smartctl -x --json=c /dev/sda
out assay2 /bin/assay health -J
poweroff -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip) > "$T/peers.cpio.gz" || fail "setup: cpio"
truncate -s 64M "$T/nvme.img" "$T/sata.img"
boot_only --kernel "$BUILD/custom/vmlinuz" --initrd "$T/peers.cpio.gz" --no-disk --net none --timeout 300 \
	--append "loglevel=1" \
	--qemu-arg -drive --qemu-arg "file=$T/nvme.img,format=raw,if=none,id=nv" \
	--qemu-arg -device --qemu-arg "nvme,drive=nv,serial=ASSAYNV1" \
	--qemu-arg -drive --qemu-arg "file=$T/sata.img,format=raw,if=none,id=sa" \
	--qemu-arg -device --qemu-arg "ide-hd,drive=sa,bus=ide.0,serial=ASSAYSATA1,model=ASSAY SATA DISK"
part() { awk -v n="==BEGIN $1==" '$0 == n { on = 1; next } /^==END==$/ { on = 0 } on' "$console" | base64 -d > "$T/$1.json" &&
	jq -e . "$T/$1.json" >/dev/null || fail "$1: no JSON on the console"; }
part assay; part nvme; part smartctl; part assay2


# --- the image, -m 512: memtest's share of MemTotal; a corrected machine check ---
set -- $(image_files)
printf 'health.mce == 0\nmemtest.errors == 0\nmemtest.tested_pct >= 90 %%\nburnin.rounds >= 1\nburnin.failed_tests == 0\n' > "$T/rules"
mon=$T/monitor
(
	# once the CPU test runs, a corrected error in bank 9 (VAL|EN|MISCV|ADDRV, no UC); the
	# burn-in's 45 s leave the CPU tests ~9 s each beside memtest's 20 (a quarter of it to
	# lock 90% of the memory under TCG), past the image's
	# 2 s machine-check poll
	console_wait 'cpu.1t: start' && monitor_send "$mon" "mce 0 9 0x9c000000000000c0 0 0x12345000 0x86"
) &
inj=$!
boot --mem 512 --no-disk --net none --certify "$T/rules" --timeout 600 \
	--append "assay.suite=burnin assay.burnin=45 assay.tests=cpu,memtest assay.cpu-time=15 assay.memtest-time=20" \
	--qemu-arg -monitor --qemu-arg "unix:$mon,server=on,wait=off"
wait $inj
result_json "$T/run.json"
[ "$rc" = 1 ] || fail "the run: exit $rc, want 1 (the verdict FAIL)"
# memtest: at least 90% of MemTotal, no error
jq -e '.tests[] | select(.name == "memtest") | .status == "ok" and .result.memtest.tested_pct >= 90 and
	.result.memtest.errors == 0' "$T/run.json" >/dev/null ||
	fail "memtest: $(jq -c '.tests[] | select(.name == "memtest") | .result.memtest | del(.patterns)' "$T/run.json")"
jq -e '.burnin.rounds_done >= 1 and .burnin.failed_tests == 0 and .options.suite == "burnin"' "$T/run.json" >/dev/null ||
	fail "burn-in: $(jq -c '.burnin | del(.rounds)' "$T/run.json")"
grep -q '^burn-in: round 1, 0 s done, 45 s left$' "$console" || fail "no burn-in progress line"
# the machine check: one event, during the CPU test, bank 9's status; the verdict names it
jq -e '[.summary[] | select(.name == "health.mce")][0] | .value == 1 and
	(.detail | test("during cpu\\.(1t|all): CPU 0: Machine Check: 0 Bank 9: 9c000000000000c0"))' "$T/run.json" \
	>/dev/null || fail "health.mce: $(jq -c '[.summary[] | select(.name == "health.mce")]' "$T/run.json")"
jq -e '[.certify.rules[] | select(.result == "FAIL") | .rule] == ["health.mce == 0"]' "$T/run.json" >/dev/null ||
	fail "certify: $(jq -c .certify.rules "$T/run.json")"
tail -n 25 "$console" > "$T/screen"
grep -q '^verdict   FAIL' "$T/screen" && grep -q 'FAIL health.mce == 0: during cpu' "$T/screen" ||
	fail "the last screen does not name the machine check: $(cat "$T/screen")"

# --- nvme-cli: every field both report, equal (nvme-cli prints its 128-bit counters as
# strings, the temperature in kelvins) ---
jq -e --slurpfile a "$T/assay.json" '. as $n | $a[0].nvme.nvme0.smart as $s |
	[keys[] | . as $k | ($n[$k] | tonumber) == (if $k == "temperature" then $s.temperature_k else $s[$k] end)] |
	all and length >= 20' "$T/nvme.json" >/dev/null ||
	fail "nvme smart-log differs: nvme-cli $(jq -c . "$T/nvme.json"), assay $(jq -c .nvme.nvme0.smart "$T/assay.json")"
jq -e '.nvme.nvme0 | .serial == "ASSAYNV1" and .model == "QEMU NVMe Ctrl" and .error_log == []' "$T/assay.json" >/dev/null ||
	fail "nvme identity: $(jq -c '.nvme.nvme0 | del(.smart)' "$T/assay.json")"
# --- smartctl: status, identity, every attribute, the logs' counts ---
jq -e --slurpfile a "$T/assay.json" '. as $m | $a[0].ata.sda as $d |
	$m.smart_status.passed == $d.smart_passed and $m.model_name == $d.model and
	$m.serial_number == $d.serial and $m.firmware_version == $d.firmware and
	($m.ata_smart_error_log.summary.count // $m.ata_smart_error_log.extended.count) == $d.error_log.count and
	($m.ata_smart_self_test_log.standard.count // 0) == $d.self_test.count and
	([$m.ata_smart_attributes.table[] | {id, value, worst, thresh, flags: .flags.value, raw: .raw.value}] ==
	 [$d.attributes.table[] | {id, value, worst, thresh, flags, raw}])' "$T/smartctl.json" >/dev/null ||
	fail "smartctl differs: smartctl $(jq -c '{smart_status, a: [.ata_smart_attributes.table[] | {id, value, worst, thresh, f: .flags.value, raw: .raw.value}]}' "$T/smartctl.json"), assay $(jq -c .ata.sda "$T/assay.json")"
# nothing changed between the two reads: the deltas a run takes are of real changes
jq -e --slurpfile b "$T/assay2.json" '.nvme.nvme0.smart.media_errors == $b[0].nvme.nvme0.smart.media_errors' \
	"$T/assay.json" >/dev/null || fail "a second read differs"
echo ok
