# --push to the collectors teams run: the real Pushgateway (Debian's prometheus-pushgateway)
# on loopback gets the figures grouped by job and machine, a second run replaces the group,
# and a real Prometheus scraping the gateway answers a query with the run's figure; a
# gateway that comes up late is reached on a retry; one that never does costs a line per
# attempt and nothing else (the run's status and result files as without it); a JSON
# endpoint's refusal is said; https to an IP address with no pin is refused with the reason
# (push-tls.sh: https itself).
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
command -v prometheus-pushgateway >/dev/null && command -v prometheus >/dev/null ||
	skip "prometheus-pushgateway or prometheus missing (apt-get install prometheus prometheus-pushgateway)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; cleanup' EXIT
gw=$(free_port)
# (its own persistence file: Debian's default is one shared by every gateway started)
gateway() { prometheus-pushgateway --web.listen-address=127.0.0.1:$gw --persistence.file="$T/gw.data" > "$T/gw.log" 2>&1 &
	pids+=($!); }

# --- late: the gateway starts while the run is retrying ---
"$A" run --tests=cpu --cpu-time=0.2 --push=http://127.0.0.1:$gw/metrics/job/assay -J > "$T/r1.json" 2> "$T/r1.err" &
run=$!
sleep 2.5
gateway
wait $run || fail "run with a late gateway: exit $?"
grep -q "push: http://127.0.0.1:$gw/metrics/job/assay: attempt 1 of 5: connect to 127.0.0.1:$gw: Connection refused; again in 1 s" "$T/r1.err" ||
	fail "no retry line: $(grep push "$T/r1.err")"
jq -e '.push[0] | .kind == "pushgateway" and .status == 200 and .attempts >= 2' "$T/r1.json" >/dev/null ||
	fail "push entry: $(jq -c .push "$T/r1.json")"
id=$(jq -r .machine.id "$T/r1.json")
curl -s "http://127.0.0.1:$gw/metrics" > "$T/gw1.txt"
grep -q "^assay_cpu_events_per_second{.*instance=\"$id\".*job=\"assay\".*threads=\"all\"} " "$T/gw1.txt" ||
	fail "the gateway lacks the figure: $(grep -m3 assay_ "$T/gw1.txt")"
# a second run of the same machine replaces its group (its start time the new run's; no
# label new every run, so the same series)
sleep 1.1
"$A" run --tests=cpu --cpu-time=0.2 --push=http://127.0.0.1:$gw/metrics/job/assay -J > "$T/r2.json" 2>/dev/null
curl -s "http://127.0.0.1:$gw/metrics" > "$T/gw2.txt"
start2=$(jq -r '.started_utc | fromdateiso8601' "$T/r2.json")
[ "$(grep '^assay_run_start_timestamp_seconds{' "$T/gw2.txt" | sed 's/.* //' | awk '{ printf "%d", $1 }')" = "$start2" ] &&
	[ "$(grep -c '^assay_cpu_events_per_second{' "$T/gw2.txt")" = 2 ] ||
	fail "the group was not replaced: $(grep -E '^assay_(cpu_events_per_second|run_start)' "$T/gw2.txt")"

# --- Prometheus scrapes the gateway; its API answers with the figure ---
pp=$(free_port)
cat > "$T/prom.yml" <<YML
global: { scrape_interval: 1s }
scrape_configs:
  - job_name: gateway
    honor_labels: true
    static_configs: [ { targets: ["127.0.0.1:$gw"] } ]
YML
prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/tsdb" --web.listen-address=127.0.0.1:$pp > "$T/prom.log" 2>&1 &
pids+=($!)
q() { curl -s "http://127.0.0.1:$pp/api/v1/query?query=assay_cpu_events_per_second" > "$T/q.json" 2>/dev/null &&
	jq -e --arg id "$id" '[.data.result[] | select(.metric.instance == $id and .metric.job == "assay")] | length == 2' \
	"$T/q.json" >/dev/null; }
for i in $(seq 60); do q && break; sleep 0.5; done
q || fail "Prometheus's query: $(cat "$T/q.json" 2>/dev/null | head -c 400)"
# by quantile and by machine: a percentile is a label, the machine too
qq() { curl -s "http://127.0.0.1:$pp/api/v1/query" --data-urlencode \
	"query=assay_cpu_latency_seconds{quantile=\"0.95\",machine=\"$id\"}" > "$T/qq.json" 2>/dev/null &&
	jq -e '[.data.result[] | select(.metric.threads == "1" or .metric.threads == "all")] | length == 2' \
	"$T/qq.json" >/dev/null; }
for i in $(seq 20); do qq && break; sleep 0.5; done
qq || fail "Prometheus's query by quantile and machine: $(head -c 400 "$T/qq.json")"

# --- never up: a line per attempt, the run as without --push ---
dead=$(free_port)
mkdir -p "$T/res"
"$A" run --tests=cpu --cpu-time=0.2 --results="$T/res" --push=http://127.0.0.1:$dead/metrics/job/x -J > "$T/r3.json" 2> "$T/r3.err"
rc=$?
[ $rc = 0 ] || fail "a dead collector changed the exit status: $rc"
[ "$(grep -c "push: http://127.0.0.1:$dead/metrics/job/x: attempt [1-4] of 5: connect to 127.0.0.1:$dead: Connection refused" "$T/r3.err")" = 4 ] &&
	grep -q "giving up after 5 attempts" "$T/r3.err" || fail "dead collector lines: $(grep push "$T/r3.err")"
ls "$T"/res/*.json >/dev/null 2>&1 || fail "the result files were not written"
# --- a JSON endpoint that refuses (the gateway answers a POST outside /metrics/job/ with
# 404/405): said once, not retried; https to an IP address without a pin: refused, not tried ---
"$A" run --tests=cpu --cpu-time=0.2 --push=http://127.0.0.1:$gw/api/nope,https://127.0.0.1:$gw/metrics/job/x -J \
	> "$T/r4.json" 2> "$T/r4.err"
grep -q "push: http://127.0.0.1:$gw/api/nope: refused: HTTP 4[0-9][0-9]" "$T/r4.err" || fail "refusal: $(grep push "$T/r4.err")"
jq -e '.push[0].attempts == 1 and .push[0].kind == "json"' "$T/r4.json" >/dev/null || fail "refusal retried"
grep -q "push: https://127.0.0.1:$gw/metrics/job/x: https to an IP address" "$T/r4.err" || fail "https to an IP not refused"
# a push URL that is not one is refused before the first test, not after the run
t0=$(date +%s)
expect 2 '^assay: error: --push=htp://127.0.0.1:1/metrics/job/x: htp://127.0.0.1:1/metrics/job/x: only http:// and https:// URLs \(nothing run\)$' \
	"$A" run --tests=cpu --cpu-time=30 --push=htp://127.0.0.1:1/metrics/job/x
[ $(($(date +%s) - t0)) -lt 20 ] || fail "the bad URL was said after the tests"
finish
