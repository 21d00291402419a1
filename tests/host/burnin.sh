# The burn-in suite: rounds until --burnin is spent (the round at the deadline finishes),
# a progress line a round, the results so far written after the first round (a power cut
# keeps them: the run killed here), burnin.* figures, every round's failures counted.
# TIMEOUT: 180
. "$(dirname "$0")/lib.sh"
"$A" run --suite=burnin --burnin=3 --tests=cpu --cpu-time=1 -J > "$T/b.json" 2> "$T/b.err" || fail "burn-in: exit $?"
jq -e '.options.suite == "burnin" and .burnin.rounds_done >= 2 and .burnin.failed_tests == 0 and
	(.burnin.rounds | length) == .burnin.rounds_done and ([.tests[].name] == ["cpu.1t", "cpu.all"])' "$T/b.json" \
	>/dev/null || fail "burn-in document: $(jq -c '.burnin | del(.rounds)' "$T/b.json")"
grep -q '^burn-in: round 1, 0 s done, 3 s left$' "$T/b.err" && grep -q '^burn-in: round 2, ' "$T/b.err" ||
	fail "progress lines: $(grep burn-in "$T/b.err")"
jq -e '[.summary[] | select(.name == "burnin.rounds")][0].value >= 2 and
	[.summary[] | select(.name == "cpu.wrong_results.all")][0].value == 0' "$T/b.json" >/dev/null || fail "figures"
# killed during the second round: the first round's results are on disk, marked running
mkdir -p "$T/res"
"$A" run --suite=burnin --burnin=60 --tests=cpu --cpu-time=2 --results="$T/res" > /dev/null 2>&1 &
pid=$!
for i in $(seq 100); do ls "$T"/res/*.json >/dev/null 2>&1 && break; sleep 0.2; done
kill -9 $pid
wait $pid 2>/dev/null
f=$(ls "$T"/res/*.json 2>/dev/null | head -1)
[ -n "$f" ] || fail "no interim results written"
[ -z "$f" ] || jq -e '.status == "running" and (.burnin.rounds | length) >= 1 and
	([.summary[] | select(.name == "cpu.events_per_sec.all")] | length == 1)' "$f" >/dev/null ||
	fail "interim results: $(jq -c '{status, b: .burnin.rounds}' "$f")"
# the length is a budget: a 4 s burn-in of 60 s CPU tests cuts them to fit (planned 4 s), no
# test starts after it (the bound loose: a loaded machine), a whole round counted
t0=$(date +%s%N)
"$A" run --suite=burnin --burnin=4 --tests=cpu -J > "$T/s.json" 2> "$T/s.err" || fail "short burn-in: exit $?"
el=$(( ($(date +%s%N) - t0) / 1000000 ))
jq -e '.planned_s == 4 and .burnin.rounds_complete >= 1 and ([.tests[].args[] | select(startswith("--time="))
	| ltrimstr("--time=") | tonumber] | max) <= 2' "$T/s.json" >/dev/null ||
	fail "short burn-in: $(jq -c '{planned_s, b: (.burnin | del(.rounds)), a: [.tests[].args]}' "$T/s.json")"
[ "$el" -lt 9000 ] || fail "a 4 s burn-in took $el ms"
expect 2 "--burnin=soon: " "$A" run --suite=burnin --burnin=soon
finish
