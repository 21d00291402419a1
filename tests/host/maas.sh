# The MAAS testing script (make maas): its metadata header is the YAML MAAS reads, it runs
# the assay inside it and writes $RESULT_PATH with passed, degraded (only performance
# rules failed) or failed (a test failed, or a rule not measured or about soundness); a
# clear line for bad arguments or a template with no binary.
# TIMEOUT: 180
. "$(dirname "$0")/lib.sh"
[ -z "${ASSAY_BIN:-}" ] || skip "the MAAS script packs the static image binary, not the sanitizer build"
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing (apt-get install python3-yaml)"
S=$T/maas-assay.sh
"$top/mk/maas.sh" "$S" "$A" >/dev/null || fail "mk/maas.sh"

# the metadata header as MAAS takes it: the lines between its markers, '# ' removed, YAML
python3 - "$S" > "$T/meta" <<'PY' || fail "metadata: $(cat "$T/meta")"
import sys, yaml
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
a = lines.index("# --- Start MAAS 1.0 script metadata ---")
b = lines.index("# --- End MAAS 1.0 script metadata ---")
m = yaml.safe_load("\n".join(l[2:] for l in lines[a + 1:b]))
for k in ("name", "title", "description", "script_type", "hardware_type", "timeout", "parameters", "results"):
    assert k in m, "no " + k
assert m["script_type"] == "testing" and m["hardware_type"] == "node"
assert m["parameters"]["runtime"]["type"] == "runtime"
print("ok")
PY

# run NAME PROFILE-TEXT ARGS...: the script as MAAS runs it, result in $T/NAME.yaml
run() {
	local name=$1 rules=$2
	shift 2
	printf '%s\n' "$rules" > "$T/$name.rules"
	(cd "$T" && RESULT_PATH=$T/$name.yaml DOWNLOAD_PATH=$T/none ASSAY_PROFILE=$T/$name.rules \
		ASSAY_ARGS="--tests=cpu --cpu-time=0.3 $*" bash "$S" > "$T/$name.out" 2> "$T/$name.err")
	echo $? > "$T/$name.rc"
}
field() {  # NAME KEY: a top-level key, or results.KEY
	python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
k = sys.argv[2]
print(d[k] if k in d else d["results"].get(k, ""))' "$T/$1.yaml" "$2"
}
run pass 'cpu.events_per_sec.1t > 0
cpu.wrong_results.1t == 0'
run slow 'cpu.events_per_sec.1t >= 1e12
cpu.wrong_results.1t == 0'
run unmeasured 'cpu.events_per_sec.1t > 0
disk.qd1.read.iops >= 1'
run broken 'cpu.events_per_sec.1t > 0
cpu.wrong_results.1t == 1'
run hung 'cpu.events_per_sec.1t > 0' --cpu-time=30 --test-timeout=1
for c in "pass passed 0" "slow degraded 0" "unmeasured failed 1" "broken failed 1" "hung failed 1"; do
	set -- $c
	[ "$(field "$1" status)" = "$2" ] || fail "$1: status $(field "$1" status), want $2 ($(cat "$T/$1.err" | tail -n 2))"
	[ "$(cat "$T/$1.rc")" = "$3" ] || fail "$1: exit $(cat "$T/$1.rc"), want $3"
done
# the figures are the run's: the same number as the JSON the script printed
ev=$(field pass cpu_events_per_sec_1t)
awk -v e="$ev" 'BEGIN { exit !(e + 0 > 0) }' || fail "no cpu figure in the YAML: $ev"
grep -q "cpu.events_per_sec.1t" "$T/pass.out" || fail "the run's output is not on stdout"
case $(field slow assay_why) in *cpu.events_per_sec.1t*) ;; *) fail "slow: why: $(field slow assay_why)" ;; esac
case $(field hung assay_why) in *cpu*) ;; *) fail "hung: why: $(field hung assay_why)" ;; esac
[ "$(field broken assay_verdict)" = FAIL ] || fail "broken: verdict $(field broken assay_verdict)"

# by hand (no RESULT_PATH): the YAML on stdout
(cd "$T" && ASSAY_PROFILE=$T/pass.rules ASSAY_ARGS="--tests=cpu --cpu-time=0.2" bash "$S" 2>/dev/null | grep -q '^status: passed$') ||
	fail "no YAML on stdout without RESULT_PATH"
# bad input: one line each
out=$(bash "$S" --runtime=soon 2>&1); rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && case $out in *--runtime=soon*) true ;; *) false ;; esac ||
	fail "--runtime=soon: exit $rc: $out"
out=$(bash "$top/fleet/maas-assay.sh" 2>&1); rc=$?
[ $rc = 1 ] && case $out in *"make maas"*) true ;; *) false ;; esac || fail "template: exit $rc: $out"
finish
