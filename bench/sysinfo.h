/* Facts about the machine, and small readers of sysfs/procfs files. */
#ifndef ASSAY_SYSINFO_H
#define ASSAY_SYSINFO_H

#include <stddef.h>

struct json;

/* First line of a file, trailing space removed; 0 on success. */
int read_line(const char *path, char *buf, size_t n);
int read_num(const char *path, long long *out);
/* /proc/meminfo's MemAvailable in bytes (0: unknown) */
unsigned long long mem_available(void);
/* Hypervisor from CPUID (kvm, qemu-tcg, xen, hyper-v, vmware, ...); 0 on bare metal. */
int sys_hypervisor(char *out, size_t n);
/* The "machine" section of the result document. */
struct json *sysinfo_json(void);

#endif
