/* What machine is this: kernel, CPU, memory, DMI, hypervisor, NICs. */
#include "sysinfo.h"
#include "blkdev.h"
#include "fileio.h"
#include "json.h"

#include <arpa/inet.h>
#include <cpuid.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* "key : value" from /proc/cpuinfo, first CPU */
static int cpuinfo_field(const char *key, char *out, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	size_t kl = strlen(key);
	int found = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon || strncmp(line, key, kl) || (line[kl] != '\t' && line[kl] != ' ' && line[kl] != ':'))
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = 0;
		snprintf(out, n, "%s", colon);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

int sys_hypervisor(char *out, size_t n)
{
	unsigned a, b, c, d;
	char v[13];
	out[0] = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(v, &b, 4);
	memcpy(v + 4, &c, 4);
	memcpy(v + 8, &d, 4);
	v[12] = 0;
	static const struct { const char *sig, *name; } known[] = {
		{ "KVMKVMKVM", "kvm" }, { "TCGTCGTCGTCG", "qemu-tcg" }, { "Microsoft Hv", "hyper-v" },
		{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" }, { "VBoxVBoxVBox", "virtualbox" },
		{ "ACRNACRNACRN", "acrn" }, { " lrpepyh  vr", "parallels" }, { "bhyve bhyve ", "bhyve" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strncmp(v, known[i].sig, strlen(known[i].sig))) {
			snprintf(out, n, "%s", known[i].name);
			return 1;
		}
	for (int i = 0; i < 12; i++)
		if (!isprint((unsigned char)v[i]))
			v[i] = ' ';
	snprintf(out, n, "unknown (%s)", v);
	return 1;
}

/* cores, threads, sockets, NUMA nodes and cache sizes from sysfs */
static void cpu_topology(struct json *cpu)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char seen_core[4096] = "", seen_pkg[512] = "", p[160];
	int cores = 0, pkgs = 0, nodes = 0;
	struct json *caches;
	for (long i = 0; i < n && i < 1024; i++) {
		char key[64];
		long long core, pkg;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%ld/topology/core_id", i);
		if (read_num(p, &core))
			continue;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", i);
		if (read_num(p, &pkg))
			pkg = 0;
		snprintf(key, sizeof key, " %lld:%lld ", pkg, core);
		if (!strstr(seen_core, key) && strlen(seen_core) + strlen(key) < sizeof seen_core) {
			strcat(seen_core, key);
			cores++;
		}
		snprintf(key, sizeof key, " %lld ", pkg);
		if (!strstr(seen_pkg, key) && strlen(seen_pkg) + strlen(key) < sizeof seen_pkg) {
			strcat(seen_pkg, key);
			pkgs++;
		}
	}
	if (cores)
		json_add_int(cpu, "cores", cores);
	json_add_int(cpu, "threads", n);
	if (pkgs)
		json_add_int(cpu, "sockets", pkgs);
	for (int i = 0; i < 1024; i++) {
		snprintf(p, sizeof p, "/sys/devices/system/node/node%d", i);
		if (access(p, F_OK))
			break;
		nodes++;
	}
	json_add_int(cpu, "numa_nodes", nodes ? nodes : 1);
	caches = json_add_obj(cpu, "caches");
	for (int i = 0; i < 16; i++) {
		char lvl[16], type[32], size[32], key[48];
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_line(p, lvl, sizeof lvl))
			break;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		read_line(p, type, sizeof type);
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_line(p, size, sizeof size))
			continue;
		snprintf(key, sizeof key, "L%s%s", lvl, !strcmp(type, "Data") ? "d" : !strcmp(type, "Instruction") ? "i" : "");
		json_add_str(caches, key, size);
	}
}

static void add_file_str(struct json *o, const char *key, const char *path)
{
	char b[256];
	if (!read_line(path, b, sizeof b) && b[0])
		json_add_str(o, key, b);
}

/* How an idle CPU waits: the cpuidle driver and governor, and in a KVM guest with the
 * haltpoll driver how long an idle vCPU polls before it halts (guest_halt_poll_ns, 0:
 * it halts at once, and waking it again goes through the host: I/O at queue depth 1
 * and every other hand-off between CPUs pays for that) */
static void cpu_idle(struct json *cpu)
{
	char drv[64] = "", gov[64] = "";
	long long v;
	int poll = !read_num("/sys/module/haltpoll/parameters/guest_halt_poll_ns", &v);
	struct json *idle;
	read_line("/sys/devices/system/cpu/cpuidle/current_driver", drv, sizeof drv);
	if (read_line("/sys/devices/system/cpu/cpuidle/current_governor_ro", gov, sizeof gov) || !gov[0])
		read_line("/sys/devices/system/cpu/cpuidle/current_governor", gov, sizeof gov);
	if (!drv[0] && !gov[0] && !poll)
		return;   /* no cpuidle in this kernel: the idle loop halts */
	idle = json_add_obj(cpu, "idle");
	if (drv[0])
		json_add_str(idle, "driver", drv);
	if (gov[0])
		json_add_str(idle, "governor", gov);
	if (poll)
		json_add_int(idle, "halt_poll_ns", v);
}

static void kernel_json(struct json *m)
{
	struct utsname u;
	struct json *k;
	if (uname(&u))
		return;
	k = json_add_obj(m, "kernel");
	json_add_str(k, "release", u.release);
	json_add_str(k, "version", u.version);
	json_add_str(k, "machine", u.machine);
	add_file_str(k, "clocksource", "/sys/devices/system/clocksource/clocksource0/current_clocksource");
}

/* the CPU flags that matter to figures, of /proc/cpuinfo's */
static void cpu_flags(struct json *cpu, const char *flags)
{
	static const char *const interest[] = {
		"sse4_2", "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "aes",
		"sha_ni", "vaes", "pclmulqdq", "rdrand", "hypervisor",
	};
	struct json *fl = json_add_arr(cpu, "flags");
	for (size_t i = 0; i < sizeof interest / sizeof interest[0]; i++) {
		size_t l = strlen(interest[i]);
		for (const char *p = flags; (p = strstr(p, interest[i])); p += l)
			if ((p == flags || p[-1] == ' ') && (p[l] == ' ' || !p[l])) {
				json_push(fl, json_str(interest[i]));
				break;
			}
	}
}

static void cpu_json(struct json *m)
{
	static const char *const num_fields[][2] = {
		{ "cpu family", "family" }, { "model", "model_id" }, { "stepping", "stepping" },
	};
	struct json *cpu = json_add_obj(m, "cpu");
	char b[4096];
	if (!cpuinfo_field("model name", b, sizeof b))
		json_add_str(cpu, "model", b);
	if (!cpuinfo_field("vendor_id", b, sizeof b))
		json_add_str(cpu, "vendor", b);
	for (size_t i = 0; i < 3; i++)
		if (!cpuinfo_field(num_fields[i][0], b, sizeof b))
			json_add_int(cpu, num_fields[i][1], strtoll(b, NULL, 10));
	if (!cpuinfo_field("cpu MHz", b, sizeof b))
		json_add_num(cpu, "mhz", strtod(b, NULL));
	json_add_int(cpu, "online", sysconf(_SC_NPROCESSORS_ONLN));
	cpu_topology(cpu);
	cpu_idle(cpu);
	if (!cpuinfo_field("flags", b, sizeof b))
		cpu_flags(cpu, b);
}

static void memory_json(struct json *m)
{
	struct json *mem = json_add_obj(m, "memory");
	unsigned long long total = meminfo_bytes("MemTotal");
	if (total)
		json_add_int(mem, "total_bytes", (long long)total);
}

static void dmi_json(struct json *m)
{
	static const char *const keys[] = { "sys_vendor", "product_name", "product_serial", "board_name",
					    "bios_version" };
	struct json *dmi = json_add_obj(m, "dmi");
	char path[128];
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		snprintf(path, sizeof path, "/sys/class/dmi/id/%s", keys[i]);
		add_file_str(dmi, keys[i], path);
	}
}

/* up to 12 lowercase hex digits of s, into id (13 bytes) */
static void hex12(const char *s, char *id)
{
	size_t k = 0;
	for (size_t i = 0; s[i] && k < 12; i++)
		if (isxdigit((unsigned char)s[i]))
			id[k++] = (char)tolower((unsigned char)s[i]);
	id[k] = 0;
}

/* an identifier for file names: the DMI UUID when set, else the first NIC's MAC */
static void machine_id(struct json *m)
{
	char id[64] = "", b[512];
	struct dirent **nv;
	int n;
	if (!read_line("/sys/class/dmi/id/product_uuid", b, sizeof b) && strspn(b, "0-") != strlen(b))
		hex12(b, id);
	n = id[0] ? 0 : scandir("/sys/class/net", &nv, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char p[300], mac[64];
		snprintf(p, sizeof p, "/sys/class/net/%s/address", nv[i]->d_name);
		if (!id[0] && nv[i]->d_name[0] != '.' && strcmp(nv[i]->d_name, "lo") &&
		    !read_line(p, mac, sizeof mac) && strcmp(mac, "00:00:00:00:00:00"))
			hex12(mac, id);
		free(nv[i]);
	}
	if (n > 0)
		free(nv);
	json_add_str(m, "id", id[0] ? id : "unknown");
}

static void disks_json(struct json *m)
{
	struct blkdev *list;
	int n = blkdev_list(&list, 0);
	struct json *disks = json_add_arr(m, "disks");
	for (int i = 0; i < n; i++)
		json_push(disks, blkdev_json(&list[i]));
	free(list);
}

/* the addresses a NIC has: DHCP's or static IPv4, SLAAC IPv6 */
static void nic_addresses(struct json *n, const char *name)
{
	struct ifaddrs *ifa, *a;
	struct json *addrs = json_add_arr(n, "addresses");
	if (getifaddrs(&ifa))
		return;
	for (a = ifa; a; a = a->ifa_next) {
		char host[INET6_ADDRSTRLEN] = "";
		if (!a->ifa_addr || strcmp(a->ifa_name, name))
			continue;
		if (a->ifa_addr->sa_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)a->ifa_addr)->sin_addr, host, sizeof host);
		else if (a->ifa_addr->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr, host, sizeof host);
		if (host[0])
			json_push(addrs, json_str(host));
	}
	freeifaddrs(ifa);
}

static void nic_json(struct json *nics, const char *name)
{
	struct json *n = json_push(nics, json_obj());
	char path[512], b[512];
	long long v;
	ssize_t l;
#define NIC_PATH(file) (snprintf(path, sizeof path, "/sys/class/net/%s/" file, name), path)
	json_add_str(n, "name", name);
	add_file_str(n, "mac", NIC_PATH("address"));
	add_file_str(n, "operstate", NIC_PATH("operstate"));
	if (!read_num(NIC_PATH("speed"), &v) && v > 0)
		json_add_int(n, "speed_mbps", v);
	add_file_str(n, "duplex", NIC_PATH("duplex"));
	if (!read_num(NIC_PATH("carrier"), &v))
		json_add_bool(n, "link", v == 1);
	if (!read_num(NIC_PATH("mtu"), &v))
		json_add_int(n, "mtu", v);
	nic_addresses(n, name);
	l = readlink(NIC_PATH("device/driver"), b, sizeof b - 1);
	if (l > 0) {
		b[l] = 0;
		json_add_str(n, "driver", strrchr(b, '/') ? strrchr(b, '/') + 1 : b);
	}
#undef NIC_PATH
}

struct json *sysinfo_json(void)
{
	struct json *m = json_obj(), *nics;
	char b[512];
	DIR *d;
	kernel_json(m);
	cpu_json(m);
	if (sys_hypervisor(b, sizeof b))
		json_add_str(m, "hypervisor", b);
	else
		json_add(m, "hypervisor", json_null());
	memory_json(m);
	dmi_json(m);
	machine_id(m);
	disks_json(m);
	nics = json_add_arr(m, "nics");
	d = opendir("/sys/class/net");
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.')
			nic_json(nics, e->d_name);
	if (d)
		closedir(d);
	return m;
}

unsigned long long meminfo_bytes(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;
	size_t kl = strlen(key);
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, kl) && line[kl] == ':' && sscanf(line + kl + 1, "%llu", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

unsigned long long mem_available(void)
{
	return meminfo_bytes("MemAvailable");
}
