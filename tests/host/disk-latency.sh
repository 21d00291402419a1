# fio's --latency_target: the depth search.  A target every I/O meets climbs 1, 2, 4, 8, 16
# to --iodepth, then measures one more window there and ends (fio's latency_depth,
# latency_target in ns, latency_window in us, the text line); one no I/O can meet ends the
# job at depth 1 (percentile 100) or keeps it at depth 1 to its runtime (a lower
# percentile); --latency_run keeps going to the runtime; every engine; bad combinations
# refused.  Timing-free: the targets are far from anything this machine does.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev l 32) || skip "losetup failed"
cd "$T" || exit 1
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.jobs[] | {error, latency_depth, latency_target,
	latency_window, latency_percentile, r: .read.total_ios, rt: .read.runtime, e: .assay.error}]' out.json 2>&1 | head -c 400)"; }
run() { "$A" disk --filename="$dev" --rw=randread --direct=1 --time_based --runtime=20 -J "$@" > out.json 2>err.txt; }

# met by every I/O: the whole depth, then one window of 100 ms at it (not the 20 s runtime)
for eng in io_uring libaio; do
	run --ioengine=$eng --iodepth=16 --latency_target=10s --latency_window=100ms || fail "$eng: exit $?"
	J '.jobs[0] | .latency_depth == 16 and .latency_target == 10000000000 and .latency_window == 100000 and
		.latency_percentile == 100 and .read.runtime >= 100 and .read.runtime < 2000 and .read.total_ios > 0' \
		"$eng: climbs to iodepth"
done
run --ioengine=psync --latency_target=10s --latency_window=50ms || fail "psync: exit $?"
J '.jobs[0] | .latency_depth == 1 and .read.runtime < 2000' "psync: depth 1"
# a bare number is microseconds (fio's); the text line as fio's
"$A" disk --filename="$dev" --rw=randread --direct=1 --iodepth=4 --latency_target=5000000 --latency_window=20000 \
	--latency_percentile=99.5 > out.txt 2>/dev/null || fail "text: exit $?"
grep -qx '     latency   : target=5000000000, window=20000, percentile=99.50%, depth=4' out.txt ||
	fail "text: $(grep latency out.txt)"

# met by none: percentile 100 fails the job at depth 1, saying why
run --iodepth=8 --latency_target=1 --latency_window=10ms
[ $? = 1 ] || fail "unmeetable target: exit not 1"
grep -q 'an I/O took longer than the target at iodepth 1' err.txt || fail "unmeetable: $(cat err.txt)"
J '.jobs[0] | .error == 110 and .latency_depth == 1' "unmeetable target"
# ... a lower percentile stays at depth 1 for the whole runtime
"$A" disk --filename="$dev" --rw=randread --direct=1 --time_based --runtime=0.5 --iodepth=8 --latency_target=1 \
	--latency_window=10ms --latency_percentile=50 -J > out.json 2>/dev/null || fail "pct 50: exit $?"
J '.jobs[0] | .error == 0 and .latency_depth == 1 and .read.runtime >= 450 and .iodepth_level["1"] == 100' \
	"unmeetable at 50%"
# --latency_run: no stop once found
"$A" disk --filename="$dev" --rw=randread --direct=1 --time_based --runtime=0.6 --iodepth=8 --latency_target=10s \
	--latency_window=50ms --latency_run=1 -J > out.json 2>/dev/null || fail "latency_run: exit $?"
J '.jobs[0] | .latency_depth == 8 and .read.runtime >= 550' "latency_run"

expect 1 '^assay: error: disk: --latency_window: no --latency_target given$' \
	"$A" disk --filename="$dev" --latency_window=1s
expect 1 'latency_target=soon: not a time' "$A" disk --filename="$dev" --latency_target=soon
expect 1 'latency_percentile' "$A" disk --filename="$dev" --latency_target=1ms --latency_percentile=101
finish
