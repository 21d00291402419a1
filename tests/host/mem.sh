# assay mem: sysbench-compatible figures, STREAM, latency sweep; bad input refused.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"

"$A" mem --tests=sysbench --time=0.3 -J > "$T/sb.json" || fail "sysbench mode: exit $?"
jq -e '.sysbench | .mib_per_sec > 0 and .total_operations > 0 and .scope == "global" and .oper == "write"
	and .block_size == 1024 and (.latency_ms | has("p95"))' "$T/sb.json" >/dev/null || fail "sysbench keys: $(jq -c .sysbench "$T/sb.json")"
jq -e '(.sysbench.mib_per_sec - .sysbench.total_operations * 1024 / 1048576 / .sysbench.total_time_s | fabs) < 0.01 * .sysbench.mib_per_sec' \
	"$T/sb.json" >/dev/null || fail "MiB/sec is not operations x block / total time"
# a total size limit is exact, split across threads as sysbench does
"$A" mem --tests=sysbench --memory-total-size=10m --time=100 --threads=2 -J > "$T/t.json" || fail "total size: exit $?"
jq -e '.sysbench.total_operations == 10240' "$T/t.json" >/dev/null || fail "10m of 1k blocks: $(jq .sysbench.total_operations "$T/t.json") ops"
for m in "read seq" "write rnd" "read rnd" "none seq"; do
	set -- $m
	"$A" mem --tests=sysbench --memory-oper=$1 --memory-access-mode=$2 --memory-scope=local --time=0.2 -J \
		> "$T/m.json" || fail "$m: exit $?"
	jq -e '.sysbench.total_operations > 0' "$T/m.json" >/dev/null || fail "$m: no operations"
done
"$A" mem --tests=sysbench --time=0.2 | grep -qE '^[0-9.]+ MiB transferred \([0-9.]+ MiB/sec\)$' || fail "sysbench text shape"

"$A" mem --tests=stream --stream-array-size=8m --stream-ntimes=3 --threads=all -J > "$T/st.json" || fail "stream: exit $?"
jq -e '.stream.mb_per_sec | .copy > 0 and .scale > 0 and .add > 0 and .triad > 0 and .memcpy > 0' "$T/st.json" >/dev/null ||
	fail "stream keys: $(jq -c .stream "$T/st.json")"
jq -e '.stream.array_bytes == 8388608 and .stream.triad_vs_memcpy > 0' "$T/st.json" >/dev/null || fail "stream sizes"

"$A" mem --tests=latency --latency-max=1m --latency-repeats=1 -J > "$T/l.json" || fail "latency: exit $?"
jq -e '.latency.ns_per_load | keys_unsorted == ["16k","32k","64k","128k","256k","512k","1m"] and ([.[]] | all(. > 0))' \
	"$T/l.json" >/dev/null || fail "latency sizes: $(jq -c .latency "$T/l.json")"

expect 2 'memory-block-size=1000: must be a power of two' "$A" mem --memory-block-size=1000
expect 2 'threads=-2: out of range' "$A" mem --threads=-2
expect 2 'time=0: out of range' "$A" mem --time=0
expect 2 'STREAM needs 3 x [0-9]+ MiB but [0-9]+ MiB are available' "$A" mem --tests=stream --stream-array-size=64t
expect 2 'does not fit in the .* MiB available' "$A" mem --tests=latency --latency-max=64t
expect 2 "unknown test 'cache'" "$A" mem --tests=stream,cache
expect 2 'memory-scope=shared: unknown value' "$A" mem --memory-scope=shared
finish
