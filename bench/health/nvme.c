/* NVMe health through the kernel's admin passthrough (linux/nvme_ioctl.h): Identify
 * Controller, the SMART / Health Information log (02h), the Error Information log (01h)
 * and, where the controller has it, the Device Self-test log (06h).  Offsets and field
 * names follow the NVMe Base Specification; the names are nvme-cli's smart-log JSON keys,
 * so the two can be compared field by field (tests/boot/18-health). */
#include "health.h"

#include "fileio.h"
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* a 128-bit little-endian counter, as a double (exact below 2^53, which every real
 * counter is; nvme-cli prints these as decimal integers) */
static double le128(const uint8_t *b)
{
	double v = 0;
	for (int i = 15; i >= 0; i--)
		v = v * 256 + b[i];
	return v;
}

void nvme_smart_parse(const uint8_t *b, size_t len, struct json *o)
{
	static const struct { const char *name; int off; } c128[] = {
		{ "data_units_read", 32 }, { "data_units_written", 48 }, { "host_read_commands", 64 },
		{ "host_write_commands", 80 }, { "controller_busy_time", 96 }, { "power_cycles", 112 },
		{ "power_on_hours", 128 }, { "unsafe_shutdowns", 144 }, { "media_errors", 160 },
		{ "num_err_log_entries", 176 },
	};
	struct json *sensors;
	if (len < 512) {
		json_add_str(o, "error", "short SMART log");
		return;
	}
	json_add_int(o, "critical_warning", b[0]);
	/* Kelvin, 0: not reported */
	json_add_int(o, "temperature_k", (long long)health_le(b + 1, 2));
	json_add_num(o, "temperature_c", health_le(b + 1, 2) ? (double)health_le(b + 1, 2) - 273 : 0);
	json_add_int(o, "avail_spare", b[3]);
	json_add_int(o, "spare_thresh", b[4]);
	json_add_int(o, "percent_used", b[5]);
	json_add_int(o, "endurance_grp_critical_warning_summary", b[6]);
	for (size_t i = 0; i < sizeof c128 / sizeof c128[0]; i++)
		json_add_num(o, c128[i].name, le128(b + c128[i].off));
	json_add_int(o, "warning_temp_time", (long long)health_le(b + 192, 4));
	json_add_int(o, "critical_comp_time", (long long)health_le(b + 196, 4));
	sensors = json_add_arr(o, "temperature_sensors_k");
	for (int i = 0; i < 8; i++)
		if (health_le(b + 200 + 2 * i, 2))
			json_push(sensors, json_int((long long)health_le(b + 200 + 2 * i, 2)));
	json_add_int(o, "thm_temp1_trans_count", (long long)health_le(b + 216, 4));
	json_add_int(o, "thm_temp2_trans_count", (long long)health_le(b + 220, 4));
	json_add_int(o, "thm_temp1_total_time", (long long)health_le(b + 224, 4));
	json_add_int(o, "thm_temp2_total_time", (long long)health_le(b + 228, 4));
}

void nvme_errlog_parse(const uint8_t *b, size_t len, struct json *arr)
{
	for (size_t off = 0; off + 64 <= len; off += 64) {
		const uint8_t *e = b + off;
		struct json *o;
		if (!health_le(e, 8))      /* error count 0: an unused entry */
			continue;
		o = json_push(arr, json_obj());
		json_add_num(o, "error_count", (double)health_le(e, 8));
		json_add_int(o, "sqid", (long long)health_le(e + 8, 2));
		json_add_int(o, "cmdid", (long long)health_le(e + 10, 2));
		/* bit 0 is the phase tag; the status code field is bits 15:1 */
		json_add_int(o, "status_field", (long long)(health_le(e + 12, 2) >> 1));
		json_add_int(o, "phase_tag", (long long)(health_le(e + 12, 2) & 1));
		json_add_int(o, "parm_error_location", (long long)health_le(e + 14, 2));
		json_add_num(o, "lba", (double)health_le(e + 16, 8));
		json_add_int(o, "nsid", (long long)health_le(e + 24, 4));
	}
}

void nvme_selftest_parse(const uint8_t *b, size_t len, struct json *o)
{
	struct json *arr;
	if (len < 564) {
		json_add_str(o, "error", "short self-test log");
		return;
	}
	json_add_int(o, "current_operation", b[0] & 0xf);
	json_add_int(o, "completion_pct", b[1] & 0x7f);
	arr = json_add_arr(o, "results");
	for (int i = 0; i < 20; i++) {
		const uint8_t *r = b + 4 + 28 * i;
		int result = r[0] & 0xf;
		struct json *t;
		if (result == 0xf)      /* an unused entry */
			continue;
		t = json_push(arr, json_obj());
		json_add_int(t, "code", r[0] >> 4);   /* 1 short, 2 extended, 0xe vendor */
		json_add_int(t, "result", result);    /* 0 passed, 1 aborted... 7 failed segment */
		json_add_num(t, "power_on_hours", (double)health_le(r + 4, 8));
		if (r[2] & 2)
			json_add_num(t, "failing_lba", (double)health_le(r + 16, 8));
	}
	{
		int failed = 0;
		for (const struct json *t = arr->child; t; t = t->next) {
			int r = (int)json_get_num(t, "result", 0);
			failed += r >= 3 && r <= 7;   /* 3 fatal ... 7 failed segment; not aborts */
		}
		json_add_int(o, "failed", failed);
	}
}

static int admin(int fd, uint8_t opc, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, void *buf, uint32_t len)
{
	struct nvme_admin_cmd c;
	memset(&c, 0, sizeof c);
	c.opcode = opc;
	c.nsid = nsid;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.cdw10 = cdw10;
	c.cdw11 = cdw11;
	c.timeout_ms = 10000;
	return ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
}

/* Get Log Page: dwords - 1 in NUMDL (31:16 of cdw10), the rest in cdw11 */
static int get_log(int fd, uint8_t lid, void *buf, uint32_t len)
{
	uint32_t numd = len / 4 - 1;
	return admin(fd, 0x02, 0xffffffff, (numd & 0xffff) << 16 | lid, numd >> 16, buf, len);
}

static void trimmed(struct json *o, const char *key, const uint8_t *b, int n)
{
	char s[64];
	int l = n < (int)sizeof s - 1 ? n : (int)sizeof s - 1;
	memcpy(s, b, (size_t)l);
	health_add_devstr(o, key, s, l);
}

static const char *why(int r)
{
	return r > 0 ? "the controller refused the command" : strerror(errno);
}

/* one controller: /dev/NAME */
static void one(const char *name, struct json *o)
{
	char dev[64];
	uint8_t id[4096], smart[512], st[564];
	uint8_t *el;
	int fd, r, elpe;
	snprintf(dev, sizeof dev, "/dev/%s", name);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		json_add_str(o, "error", strerror(errno));
		return;
	}
	if ((r = admin(fd, 0x06, 0, 1, 0, id, sizeof id))) {   /* Identify, CNS 1: the controller */
		json_add_str(o, "error", why(r));
		close(fd);
		return;
	}
	trimmed(o, "model", id + 24, 40);
	trimmed(o, "serial", id + 4, 20);
	trimmed(o, "firmware", id + 64, 8);
	json_add_int(o, "warning_temp_threshold_k", (long long)health_le(id + 266, 2));
	json_add_int(o, "critical_temp_threshold_k", (long long)health_le(id + 268, 2));
	if ((r = get_log(fd, 0x02, smart, sizeof smart)))
		json_add_str(json_add_obj(o, "smart"), "error", why(r));
	else
		nvme_smart_parse(smart, sizeof smart, json_add_obj(o, "smart"));
	/* the error log: ELPE + 1 entries, at most 256 read */
	elpe = id[262] + 1;
	if (elpe > 256)
		elpe = 256;
	el = calloc((size_t)elpe, 64);
	if (el && !get_log(fd, 0x01, el, (uint32_t)elpe * 64))
		nvme_errlog_parse(el, (size_t)elpe * 64, json_add_arr(o, "error_log"));
	free(el);
	/* OACS bit 4: the device self-test command, and its log */
	if (health_le(id + 256, 2) & 0x10) {
		if ((r = get_log(fd, 0x06, st, sizeof st)))
			json_add_str(json_add_obj(o, "self_test"), "error", why(r));
		else
			nvme_selftest_parse(st, sizeof st, json_add_obj(o, "self_test"));
	}
	close(fd);
}

static int nvme_ctrl(const struct dirent *d)
{
	int n = 0;
	return sscanf(d->d_name, "nvme%*u%n", &n) == 0 && n && !d->d_name[n];
}

void health_nvme(struct json *snap)
{
	char path[512];
	struct dirent **ents;
	struct json *nv = NULL;
	int n;
	sys_path(path, sizeof path, "/sys/class/nvme");
	n = scandir(path, &ents, nvme_ctrl, dir_by_version);
	for (int i = 0; i < n; i++) {
		if (!nv)
			nv = json_add_obj(snap, "nvme");
		one(ents[i]->d_name, json_add_obj(nv, ents[i]->d_name));
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}
