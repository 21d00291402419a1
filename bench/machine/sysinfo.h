/* Facts about the machine (the "machine" section of a result). */
#ifndef ASSAY_SYSINFO_H
#define ASSAY_SYSINFO_H

#include <stddef.h>

struct json;

/* a /proc/meminfo line's value in bytes, by its key ("MemTotal"); 0: unknown */
unsigned long long meminfo_bytes(const char *key);
/* /proc/meminfo's MemAvailable in bytes (0: unknown) */
unsigned long long mem_available(void);
/* Hypervisor from CPUID (kvm, qemu-tcg, xen, hyper-v, vmware, ...); 0 on bare metal. */
int sys_hypervisor(char *out, size_t n);
/* The "machine" section of the result document. */
struct json *sysinfo_json(void);

#endif
