# --push over https to the real Pushgateway serving TLS (its --web.config.file) with a test
# CA made here by openssl: verified against --push-ca and by a pinned fingerprint; a wrong
# CA, a wrong pin, the system bundle (which lacks the test CA), an IP address with a CA and
# a broken bundle are each one clear line and no push (a certificate is not retried);
# --push-insecure works and says so.  A slow collector is waited for; one that never
# answers costs --push-timeout per attempt and the run ends as without --push.
# TIMEOUT: 180
. "$(dirname "$0")/lib.sh"
command -v prometheus-pushgateway >/dev/null || skip "prometheus-pushgateway missing"
command -v openssl >/dev/null || skip "openssl missing"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; cleanup' EXIT
cd "$T" || exit 1
mkcert() {  # NAME CN [ISSUER]: a P-256 key and certificate (a CA when no issuer)
	if [ -z "${3:-}" ]; then
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" -out "$1.pem" \
			-days 30 -subj "/CN=$2" -addext "basicConstraints=critical,CA:TRUE" \
			-addext "keyUsage=critical,keyCertSign" 2>/dev/null
	else
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" -out "$1.csr" \
			-subj "/CN=$2" 2>/dev/null &&
		printf 'subjectAltName=DNS:%s\nextendedKeyUsage=serverAuth\n' "$2" > "$1.ext" &&
		openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -out "$1.pem" -days 30 \
			-extfile "$1.ext" 2>/dev/null
	fi
}
mkcert ca "assay test CA" && mkcert other "another CA" && mkcert srv localhost ca || fail "openssl"
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$T/srv.pem" "$T/srv.key" > web.yml
gw=$(free_port)
prometheus-pushgateway --web.listen-address=127.0.0.1:$gw --web.config.file=web.yml --persistence.file="$T/gw.data" \
	> gw.log 2>&1 &
pids+=($!)
listening $gw
fp=$(openssl x509 -in srv.pem -noout -fingerprint -sha256 | cut -d= -f2)
url=https://localhost:$gw/metrics/job/tls

# push NAME ARGS...: a short run pushing; its stderr in NAME.err, JSON in NAME.json
push() {
	local name=$1
	shift
	"$A" run --tests=cpu --cpu-time=0.1 -J "$@" > "$name.json" 2> "$name.err"
	echo $? > "$name.rc"
}
pushed() {  # NAME: it pushed, HTTP 200, and said how it verified
	jq -e --arg v "$2" '.push[0].status == 200 and .push[0].tls == $v' "$1.json" >/dev/null ||
		fail "$1: not pushed: $(jq -c .push "$1.json") $(grep push "$1.err")"
}
refused() {  # NAME PATTERN: not pushed, one line saying PATTERN, one attempt, the run ok
	[ "$(cat "$1.rc")" = 0 ] || fail "$1: run exit $(cat "$1.rc")"
	jq -e '.push[0].status == null and (.push[0].attempts // 1) == 1' "$1.json" >/dev/null ||
		fail "$1: $(jq -c .push "$1.json")"
	[ "$(grep -c 'push:' "$1.err")" = 1 ] && grep -q "$2" "$1.err" || fail "$1: want one line /$2/: $(grep push "$1.err")"
}
push ca --push=$url --push-ca=ca.pem && pushed ca ca
curl -s --cacert ca.pem "https://localhost:$gw/metrics" | grep -q "^assay_cpu_events_per_second{.*job=\"tls\"" ||
	fail "the gateway has no figure of the https push"
push pin --push=https://127.0.0.1:$gw/metrics/job/tls --push-pin="$fp" && pushed pin pinned
push pin2 --push=$url --push-pin="sha256:$(echo "$fp" | tr -d : | tr A-F a-f)" && pushed pin2 pinned
push insecure --push=$url --push-insecure && pushed insecure unverified
grep -q "not verified" insecure.err || fail "insecure: not said"
push wrongca --push=$url --push-ca=other.pem && refused wrongca "not signed by a CA of other.pem"
push wrongpin --push=$url --push-pin=sha256:$(printf '%064d' 0) &&
	refused wrongpin "not the pinned one (it is sha256:$(echo "$fp" | tr -d : | tr A-F a-f))"
push system --push=$url && refused system "not signed by a CA of /etc/ssl/certs/ca-certificates.crt"
push ip --push=https://127.0.0.1:$gw/metrics/job/tls --push-ca=ca.pem && refused ip "IP address"
push notpem --push=$url --push-ca=web.yml && refused notpem "push-ca=web.yml: no PEM certificate"
push badpin --push=$url --push-pin=abc && refused badpin "push-pin=abc: not a SHA-256 fingerprint"
# plain http to the TLS port: the gateway's TLS answer is not HTTP
push plain --push=http://127.0.0.1:$gw/metrics/job/tls --push-timeout=2
jq -e '.push[0].status == 200' plain.json >/dev/null && fail "plain http to a TLS port pushed"

# --- a slow collector (answers after 2 s) and one that never answers ---
slow=$(free_port) stall=$(free_port)
python3 - "$slow" "$stall" <<'PY' > srv.log 2>&1 &
import socket, sys, threading, time
def serve(port, delay):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port)); s.listen(8)
    while True:
        c, _ = s.accept()
        def one(c=c):
            c.settimeout(30)
            data = b""
            while b"\r\n\r\n" not in data:
                data += c.recv(65536)
            time.sleep(delay)
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            c.close()
        threading.Thread(target=one, daemon=True).start()
threading.Thread(target=serve, args=(int(sys.argv[1]), 2), daemon=True).start()
serve(int(sys.argv[2]), 3600)
PY
pids+=($!)
listening $slow && listening $stall
push slow --push=http://127.0.0.1:$slow/ingest
jq -e '.push[0].status == 200 and .push[0].attempts == 1' slow.json >/dev/null || fail "slow: $(jq -c .push slow.json)"
push stall --push=http://127.0.0.1:$stall/ingest --push-timeout=0.5
[ "$(cat stall.rc)" = 0 ] || fail "stall: run exit $(cat stall.rc)"
jq -e '.push[0].status == null and .push[0].attempts == 5 and .status == "ok"' stall.json >/dev/null ||
	fail "stall: $(jq -c .push stall.json)"
[ "$(grep -c 'no answer in 0.5 s' stall.err)" = 5 ] || fail "stall: $(grep push stall.err)"
finish
