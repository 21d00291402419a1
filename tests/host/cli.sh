# The CLI: --version/--help, and bad input gets one clear line and exit code 2.
. "$(dirname "$0")/lib.sh"

"$A" --version | grep -qE '^assay [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
"$A" --help | grep -q 'cpu' || fail "--help lists cpu"
"$A" cpu --help | grep -q -- '--cpu-max-prime' || fail "cpu --help"
# fio's --cmdhelp: one option (hidden ones too) and what it accepts; alone: all of them
"$A" disk --cmdhelp=bs | grep -q -- '--bs .*block size' || fail "disk --cmdhelp=bs"
"$A" disk -cmdhelp=gtod_reduce | grep -q 'accepted (fio.s), no effect' || fail "disk -cmdhelp=gtod_reduce"
"$A" disk --cmdhelp | grep -q -- '--iodepth' || fail "disk --cmdhelp"
expect 1 "^assay: error: --cmdhelp=nope: no such option of 'assay disk'" "$A" disk --cmdhelp=nope
[ -n "${ASSAY_BIN:-}" ] || file "$A" | grep -q 'statically linked' || fail "assay is not static"

expect 2 'unknown command' "$A" frobnicate
expect 2 '^assay: error: --threads=0x: not an integer' "$A" cpu --threads=0x
expect 2 'out of range' "$A" cpu --threads=-1
expect 2 'out of range' "$A" cpu --cpu-max-prime=1
expect 2 'not a duration' "$A" cpu --time=soon
expect 2 'never end' "$A" cpu --time=0 --events=0
expect 2 'unknown option' "$A" cpu --bogus
expect 2 "^assay: error: --bogus: unknown option; accepted: output-format json .*cpu-max-prime" "$A" cpu --bogus
# a table too long for one line is not cut short: the nearest names, or how many there are
expect 1 "^assay: error: --iodpeth: unknown option; did you mean iodepth\? \([0-9]+ options: see --help\)$" \
	"$A" disk --iodpeth=4 --filename=/dev/null
expect 1 "^assay: error: --no_such_thing: unknown option; [0-9]+ options: see --help$" "$A" disk --no_such_thing
expect 1 "^assay: error: --zzz: unknown option; [0-9]+ options: see --help$" "$A" disk --zzz   # (3 edits from bs: none near)
expect 2 'unknown value' "$A" cpu --output-format=xml
expect 2 'unknown value' "$A" run --suite=huge
expect 2 'unknown engine' "$A" run --tests=cpu,gpu
expect 2 'unexpected argument' "$A" cpu extra

# an events limit is exact, across threads; JSON parses; text has sysbench's lines
out=$("$A" cpu --threads=2 --events=300 --time=0 -J) || fail "cpu --events"
echo "$out" | jq -e '.events == 300 and (.per_thread_events | add) == 300 and .threads == 2' >/dev/null ||
	fail "events limit not exact: $(echo "$out" | jq -c '{events, per_thread_events}')"
"$A" cpu --time=0.2 | grep -qE '^    events per second: +[0-9]+\.[0-9]{2}$' || fail "sysbench text shape"
# a run whose --cmdline file is missing still runs
"$A" run --tests=cpu --cpu-time=0.1 --cmdline=/nonexistent >/dev/null 2>"$T/err" ||
	fail "run with a missing --cmdline file"
grep -q "cmdline=/nonexistent: cannot read" "$T/err" || fail "missing --cmdline file not reported"

# the watchdog: a test running past --test-timeout is killed, marked failed, and the run goes on
t0=$(date +%s)
"$A" run --tests=cpu --cpu-time=30 --test-timeout=1 -J > "$T/wd.json" 2> "$T/err"
rc=$?
[ $rc = 1 ] && [ $(($(date +%s) - t0)) -lt 20 ] || fail "watchdog: exit $rc after $(($(date +%s) - t0)) s"
jq -e '[.tests[] | select(.engine == "cpu")] | length == 2 and
	all(.status == "failed" and .why == "timed out after 1 s: killed")' "$T/wd.json" >/dev/null ||
	fail "watchdog: $(jq -c '[.tests[] | {name, status, why}]' "$T/wd.json")"
finish
