# Sourced by the host and boot test libraries: ports for servers the tests start on loopback.
# free_port: a TCP and UDP port on 127.0.0.1 nobody is bound to now
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		ss -Hltun "sport = :$p" | grep -q . || { echo $p; return; }
	done
	echo $p
}
# wait_until CMD...: run CMD every 50 ms until it succeeds, at most 30 s (a loaded machine
# starts python slowly); its status
wait_until() {
	for _ in $(seq 600); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}
bound() { ss -H "$1" "sport = :$2" | grep -q .; }
# listening PORT [tcp|udp]: wait (at most 30 s) until something on this host is bound to PORT,
# instead of a fixed sleep after starting a server (a loaded CI machine starts python slowly)
listening() {
	local f=-ltn
	[ "${2:-tcp}" = udp ] && f=-lun
	wait_until bound $f "$1" && return 0
	fail "nothing listens on port $1 (${2:-tcp}) after 30 s"
	return 1
}
# iperf3_server: a stock `iperf3 -s` on 127.0.0.1 at a free port, which goes to P; its pid
# joins pids (the test's trap stops them); 1 when it does not listen
iperf3_server() {
	P=$(free_port)
	iperf3 -s -B 127.0.0.1 -p "$P" >/dev/null 2>&1 &
	pids+=($!)
	listening "$P"
}
