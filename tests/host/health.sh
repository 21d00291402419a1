# assay health and the run's health watch, on a fixture sysfs tree (ASSAY_SYSROOT): EDAC
# counts per DIMM with labels, thermal throttling once per package, hwmon temperatures,
# machine-check counters, kernel log lines attributed to the test that was running; the
# deltas become figures hw-certify fails on, naming the DIMM and the line.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
R=$T/root
mk() { mkdir -p "$(dirname "$R/$1")" && printf '%s\n' "$2" > "$R/$1"; }
mc=sys/devices/system/edac/mc/mc0
mk $mc/mc_name "Skylake Socket#0 IMC#0"
mk $mc/ce_count 3; mk $mc/ue_count 0; mk $mc/ce_noinfo_count 0; mk $mc/ue_noinfo_count 0
mk $mc/dimm0/dimm_label "CPU_SrcID#0_MC#0_Chan#0_DIMM#0"; mk $mc/dimm0/dimm_ce_count 3; mk $mc/dimm0/dimm_ue_count 0
mk $mc/dimm1/dimm_label "CPU_SrcID#0_MC#0_Chan#1_DIMM#0"; mk $mc/dimm1/dimm_ce_count 0; mk $mc/dimm1/dimm_ue_count 0
for c in 0 1 2 3; do
	mk sys/devices/system/cpu/cpu$c/thermal_throttle/core_throttle_count $c
	mk sys/devices/system/cpu/cpu$c/thermal_throttle/package_throttle_count $((c < 2 ? 5 : 7))
	mk sys/devices/system/cpu/cpu$c/topology/physical_package_id $((c < 2 ? 0 : 1))
done
mk sys/class/hwmon/hwmon0/name coretemp
mk sys/class/hwmon/hwmon0/temp1_input 45000; mk sys/class/hwmon/hwmon0/temp1_label "Package id 0"
mk sys/class/hwmon/hwmon0/temp1_crit 100000
mk sys/class/hwmon/hwmon1/name nvme; mk sys/class/hwmon/hwmon1/temp1_input 38850
mk sys/class/hwmon/hwmon2/name broken; mk sys/class/hwmon/hwmon2/temp1_input -128000
mkdir -p "$R/sys/class/nvme" "$R/sys/block" "$R/dev" "$R/proc"
cat > "$R/proc/interrupts" <<'IRQ'
           CPU0       CPU1
  0:         40          0   IO-APIC    2-edge      timer
TRM:          0          0   Thermal event interrupts
MCE:          0          0   Machine check exceptions
MCP:         12         12   Machine check polls
IRQ
# the log before the run: an I/O error at boot, not the run's
printf '3,1,1000000,-;blk_update_request: I/O error, dev sdz, sector 0\n' > "$R/dev/kmsg"
export ASSAY_SYSROOT=$R

# --- one snapshot ---
"$A" health -J > "$T/snap.json" || fail "health -J: exit $?"
jq -e '.edac.available and .edac.ce == 3 and .edac.ue == 0 and
	.edac.controllers.mc0.driver == "Skylake Socket#0 IMC#0" and
	(.edac.controllers.mc0.dimms | length == 2) and
	.edac.controllers.mc0.dimms[1].label == "CPU_SrcID#0_MC#0_Chan#1_DIMM#0"' "$T/snap.json" >/dev/null ||
	fail "EDAC: $(jq -c .edac "$T/snap.json")"
# core counts add up per CPU (0+1+2+3); package counts once per package (5 + 7)
jq -e '.cpu.throttle_available and .cpu.core_throttle_events == 6 and .cpu.package_throttle_events == 12 and
	.cpu.throttle_events == 18' "$T/snap.json" >/dev/null || fail "throttle: $(jq -c .cpu "$T/snap.json")"
jq -e '.mce.exceptions == 0 and .mce.polls == 24' "$T/snap.json" >/dev/null || fail "mce: $(jq -c .mce "$T/snap.json")"
jq -e '[.hwmon[] | select(.chip == "coretemp" and .label == "Package id 0" and .temp_c == 45 and .crit_c == 100)] | length == 1' \
	"$T/snap.json" >/dev/null || fail "hwmon: $(jq -c .hwmon "$T/snap.json")"
"$A" health > "$T/snap.txt" || fail "health: exit $?"
grep -q 'CPU_SrcID#0_MC#0_Chan#0_DIMM#0 *3 CE, 0 UE' "$T/snap.txt" || fail "text lacks the DIMM line: $(cat "$T/snap.txt")"
grep -q 'thermal throttling: 6 core, 12 package events' "$T/snap.txt" || fail "text lacks throttling"

# --- a run: during its CPU test, a DIMM counts 2 corrected errors, a core throttles, the
# kernel logs a reset and a hung task; the run attributes them ---
(
	sleep 1.2
	echo 2 > "$R/$mc/dimm1/dimm_ce_count"; echo 5 > "$R/$mc/ce_count"
	echo 4 > "$R/sys/devices/system/cpu/cpu3/thermal_throttle/core_throttle_count"
	echo 50000 > "$R/sys/class/hwmon/hwmon0/temp1_input"
	printf '4,2,9000000,-;nvme nvme0: resetting controller\n SUBSYSTEM=nvme\n' >> "$R/dev/kmsg"
	printf '3,3,9100000,-;INFO: task kworker/0:1:42 blocked for more than 120 seconds.\n' >> "$R/dev/kmsg"
	printf '6,4,9200000,-;random: crng init done\n' >> "$R/dev/kmsg"
) &
bg=$!
"$A" run --tests=cpu --cpu-time=1.5 -J > "$T/run.json" 2> "$T/run.err"
wait $bg
jq -e '.health.schema == 1 and .health.kernel_log_read and .health.delta.edac_ce == 2 and
	.health.delta.throttle_events == 1 and .health.temp_max_c == 50' "$T/run.json" >/dev/null ||
	fail "run health: $(jq -c '.health | {delta, temp_max_c}' "$T/run.json")"
# the boot-time line is not the run's; the info line is not an error; the two others are,
# each with the test that was running
jq -e '[.health.kernel_events[] | .class] == ["reset", "hung"]' "$T/run.json" >/dev/null ||
	fail "kernel events: $(jq -c .health.kernel_events "$T/run.json")"
jq -e '[.health.kernel_events[] | .test | startswith("cpu")] | all' "$T/run.json" >/dev/null ||
	fail "events not attributed to the CPU test: $(jq -c '[.health.kernel_events[].test]' "$T/run.json")"
jq -e '[.tests[] | .health.kernel_events | length] | add == 2' "$T/run.json" >/dev/null ||
	fail "the tests' own health entries lack the events"
jq -e '[.summary[] | select(.name == "health.edac.ce.delta")][0] | .value == 2 and
	(.detail | contains("CPU_SrcID#0_MC#0_Chan#1_DIMM#0"))' "$T/run.json" >/dev/null ||
	fail "edac figure: $(jq -c '[.summary[] | select(.name | startswith("health"))]' "$T/run.json")"

# --- the verdict names the DIMM and the kernel line ---
"$A" certify --profile hw-certify "$T/run.json" > "$T/cert.txt"
rc=$?
[ $rc = 1 ] || fail "hw-certify: exit $rc, want 1 (FAIL)"
grep -q '^FAIL  health.edac.ce.delta == 0 .*CPU_SrcID#0_MC#0_Chan#1_DIMM#0' "$T/cert.txt" ||
	fail "verdict does not name the DIMM: $(cat "$T/cert.txt")"
grep -q '^FAIL  health.kernel_errors == 0 .*reset during cpu' "$T/cert.txt" || fail "verdict does not name the kernel line"
grep -q '^FAIL  health.cpu.throttle_events.delta == 0' "$T/cert.txt" || fail "throttling not failed"
grep -q '^PASS  health.edac.ue == 0' "$T/cert.txt" || fail "edac.ue should pass"
# optional rules on a machine without the counters: N/A, not FAIL
rm -rf "$R/sys/devices/system/edac"
"$A" run --tests=cpu --cpu-time=0.3 -J > "$T/run2.json" 2>/dev/null
"$A" certify --profile hw-certify "$T/run2.json" > "$T/cert2.txt"
grep -q '^N/A   health.edac.ue == 0' "$T/cert2.txt" || fail "no EDAC: not N/A: $(grep edac "$T/cert2.txt")"
finish
