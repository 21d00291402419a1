# SUMMARY: a fleet boots from one PXE folder: two guests on a bridge of their own (network namespaces), addresses from the site's DHCP, the boot from dnsmasq as proxy DHCP + TFTP per fleet/dnsmasq-pxe.conf, both push to a real Pushgateway and arrive as two machines
# KERNELS: debian
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
command -v prometheus-pushgateway >/dev/null || skip "prometheus-pushgateway missing"
command -v dnsmasq >/dev/null || skip "dnsmasq missing"
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, tap devices)"
hub=assay-hub-$$ site=assay-site-$$
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del "$hub" 2>/dev/null
	ip netns del "$site" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
in_hub() { ip netns exec "$hub" "$@"; }
ip netns add "$hub" && ip netns add "$site" || skip "cannot create network namespaces"
# the machines' network: a bridge with two taps (the guests), the boot server on 10.77.0.1
# and a veth to the site's DHCP server (10.77.0.2) in its own namespace
in_hub ip link add br0 type bridge && in_hub ip addr add 10.77.0.1/24 dev br0 && in_hub ip link set br0 up &&
	in_hub ip link set lo up || fail "bridge"
for i in 0 1; do
	in_hub ip tuntap add "tap$i" mode tap && in_hub ip link set "tap$i" master br0 && in_hub ip link set "tap$i" up ||
		fail "tap$i"
done
in_hub ip link add vsite type veth peer name eth0 netns "$site" && in_hub ip link set vsite master br0 &&
	in_hub ip link set vsite up && ip netns exec "$site" ip addr add 10.77.0.2/24 dev eth0 &&
	ip netns exec "$site" ip link set eth0 up || fail "veth to the site"
ip netns exec "$site" dnsmasq --no-daemon --conf-file=/dev/null --port=0 --interface=eth0 --bind-interfaces \
	--dhcp-range=10.77.0.100,10.77.0.150,1h --dhcp-leasefile="$T/site.leases" --pid-file= > "$T/site.log" 2>&1 &
pids+=($!)

# the boot folder with the collector on the command line, served as the recipe says
set -- $(image_files)
PXE_APPEND="assay.tests=cpu assay.cpu-time=0.5 assay.push=http://10.77.0.1:9091/metrics/job/fleet" \
	"$top/mk/pxe.sh" "$T/pxe" "$1" "$2" >/dev/null || fail "mk/pxe.sh"
sed -e 's/^interface=.*/interface=br0/' -e 's/^dhcp-range=.*/dhcp-range=10.77.0.0,proxy/' \
	-e "s|^tftp-root=.*|tftp-root=$T/pxe|" "$top/fleet/dnsmasq-pxe.conf" > "$T/dnsmasq.conf"
# (ip netns exec, not in_hub: a function would put a subshell's PID in pids, not the server's)
ip netns exec "$hub" dnsmasq --no-daemon --conf-file="$T/dnsmasq.conf" --pid-file= --dhcp-leasefile="$T/proxy.leases" \
	> "$T/proxy.log" 2>&1 &
pids+=($!)
ip netns exec "$hub" prometheus-pushgateway --web.listen-address=10.77.0.1:9091 --persistence.file="$T/gw.data" > "$T/gw.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do in_hub curl -s -o /dev/null http://10.77.0.1:9091/-/ready && break; sleep 0.2; done

# two machines at once
for i in 0 1; do
	in_hub "$top/qemu/run" --quiet --pxe net --net "tap:tap$i" --mac "52:54:00:77:00:1$i" --no-disk \
		--log "$T/raw$i.log" --timeout 400 &
	qpids[$i]=$!
done
for i in 0 1; do
	wait "${qpids[$i]}"
	r[$i]=$?
	tr -d '\r' < "$T/raw$i.log" > "$T/console$i.log"
	echo "--- guest $i: qemu/run exit ${r[$i]} ---"
	cat "$T/console$i.log"
done
echo "--- site DHCP ---"; cat "$T/site.log"
echo "--- proxy DHCP + TFTP ---"; cat "$T/proxy.log"
ids=()
for i in 0 1; do
	console=$T/console$i.log
	[ "${r[$i]}" = 0 ] || fail "guest $i: qemu/run exited ${r[$i]}, want 0"
	has '^init: assay .* image, booted by pxe, '
	has '^init: eth0: DHCP lease in .* s: 10\.77\.0\.1[0-5][0-9]/24$'
	has "^assay: push: http://10.77.0.1:9091/metrics/job/fleet: HTTP 200"
	result_json "$T/r$i.json"
	ids[$i]=$(jq -r .machine.id "$T/r$i.json")
done
[ "${ids[0]}" != "${ids[1]}" ] || fail "both guests have the machine id ${ids[0]}"
grep -q 'sent .*assay.ipxe' "$T/proxy.log" || fail "the proxy's TFTP did not send assay.ipxe"
grep -q 'DHCPACK.*52:54:00:77:00:10' "$T/site.log" && grep -q 'DHCPACK.*52:54:00:77:00:11' "$T/site.log" ||
	fail "the site's DHCP did not give both guests an address"
in_hub curl -s http://10.77.0.1:9091/metrics > "$T/gw.txt"
for i in 0 1; do
	v=$(jq '[.summary[] | select(.name == "cpu.events_per_sec.all")][0].value' "$T/r$i.json")
	got=$(grep "^assay_cpu_events_per_second{.*instance=\"${ids[$i]}\".*job=\"fleet\".*threads=\"all\"}" "$T/gw.txt" | sed 's/.* //')
	awk -v a="$got" -v b="$v" 'BEGIN { exit !(a != "" && (a - b) ^ 2 < 1e-6 * b * b) }' ||
		fail "machine ${ids[$i]}: the gateway has '$got', the run $v"
done
echo ok
