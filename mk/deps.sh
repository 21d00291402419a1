#!/bin/sh
# usage: mk/deps.sh SET...   (SET: build, test, kernel, iso, fuzz)
# Checks the Debian packages each SET needs; as root installs only the missing ones
# (apt-get update first), otherwise prints the exact command and fails.
# Also makes sure a deb-src entry exists: the build fetches Debian's kmod source.
set -eu

build="make gcc libc6-dev musl-tools liburing-dev busybox-static qemu-system-x86
       xz-utils kmod dpkg-dev autoconf automake libtool pkg-config ca-certificates
       mtools dosfstools"
test="fio jq xxhash xz-utils cpio iproute2 util-linux coreutils gzip file sysbench e2fsprogs iperf3 dnsmasq-base dnsperf python3 busybox-static
      libfuse3-dev fuse3 strace xfsprogs btrfs-progs grub-pc-bin grub2-common fdisk
      nvme-cli smartmontools memtester prometheus prometheus-pushgateway curl python3-yaml
      chromium tidy python3-html5lib python3-pil"
kernel="linux-source-6.1 bc bison flex libelf-dev libssl-dev ccache"
fuzz="clang-14 libfuzzer-14-dev libclang-rt-14-dev"
iso="grub-pc-bin grub-efi-amd64-bin grub-common xorriso mtools ovmf ipxe-qemu"

want=
for set in "$@"; do
	eval "want=\"\$want \$$set\""
done

# dpkg-query lists installed packages; whatever is not listed is missing.
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $want 2>/dev/null |
	awk '$1 == "ii" { print $2 }')
missing=
for p in $want; do
	case " $(echo $installed) " in
	*" $p "*) ;;
	*) case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac ;;
	esac
done

has_debsrc() {
	grep -rqsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}

# Derive deb-src entries from the deb ones already configured.
add_debsrc() {
	out=/etc/apt/sources.list.d/assay-deb-src
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		sed -n '/^Types:.*deb/,/^$/p' "$f" | sed 's/^Types:.*/Types: deb-src/'
		echo
	done > "$out.sources"
	[ -s "$out.sources" ] || rm -f "$out.sources"
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list > "$out.list"
		[ -s "$out.list" ] || rm -f "$out.list"
	fi
}

need_src=0
case " $* " in *" build "*) has_debsrc || need_src=1 ;; esac

[ -z "$missing" ] && [ $need_src = 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	[ -n "$missing" ] && echo "deps: missing Debian packages:$missing" >&2 &&
		echo "deps: run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
	[ $need_src = 1 ] &&
		echo "deps: no deb-src entry in /etc/apt: add one (the build runs 'apt-get source kmod')" >&2
	exit 1
fi

[ $need_src = 1 ] && echo "deps: adding deb-src entries (/etc/apt/sources.list.d/assay-deb-src.*)" && add_debsrc
[ -n "$missing" ] && echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
[ -n "$missing" ] && apt-get install -y -qq --no-install-recommends $missing >/dev/null
exit 0
