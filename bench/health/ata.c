/* SATA/SAS disk health through SG_IO: ATA disks (behind libata's SCSI translation) with
 * ATA PASS-THROUGH(16): IDENTIFY, SMART READ DATA / THRESHOLDS / RETURN STATUS and the
 * SMART error and self-test logs (ACS-3, SAT-4); other SCSI disks with LOG SENSE's
 * Informational Exceptions page (2Fh, SPC-4).  The attribute fields have smartctl's JSON
 * names (ata_smart_attributes.table[]) so the two can be compared. */
#include "health.h"

#include "fileio.h"
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* the usual names of the attributes certifiers look at (smartctl's default names) */
static const char *attr_name(int id)
{
	switch (id) {
	case 1: return "Raw_Read_Error_Rate";
	case 3: return "Spin_Up_Time";
	case 4: return "Start_Stop_Count";
	case 5: return "Reallocated_Sector_Ct";
	case 7: return "Seek_Error_Rate";
	case 9: return "Power_On_Hours";
	case 10: return "Spin_Retry_Count";
	case 12: return "Power_Cycle_Count";
	case 177: return "Wear_Leveling_Count";
	case 187: return "Reported_Uncorrect";
	case 188: return "Command_Timeout";
	case 190: return "Airflow_Temperature_Cel";
	case 194: return "Temperature_Celsius";
	case 196: return "Reallocated_Event_Count";
	case 197: return "Current_Pending_Sector";
	case 198: return "Offline_Uncorrectable";
	case 199: return "UDMA_CRC_Error_Count";
	case 231: return "SSD_Life_Left";
	case 241: return "Total_LBAs_Written";
	case 242: return "Total_LBAs_Read";
	default: return "Unknown_Attribute";
	}
}

void ata_smart_parse(const uint8_t *data, const uint8_t *thr, struct json *o)
{
	struct json *table = json_add_arr(o, "table");
	int failing = 0, failed_past = 0;
	for (int i = 0; i < 30; i++) {
		const uint8_t *a = data + 2 + 12 * i, *t = NULL;
		int id = a[0], th = -1;
		struct json *e;
		if (!id)
			continue;
		if (thr)
			for (int k = 0; k < 30; k++)
				if (thr[2 + 12 * k] == id) {
					t = thr + 2 + 12 * k;
					th = t[1];
					break;
				}
		e = json_push(table, json_obj());
		json_add_int(e, "id", id);
		json_add_str(e, "name", attr_name(id));
		json_add_int(e, "value", a[3]);
		json_add_int(e, "worst", a[4]);
		if (th >= 0)
			json_add_int(e, "thresh", th);
		json_add_int(e, "flags", (long long)health_le(a + 1, 2));
		json_add_num(e, "raw", (double)health_le(a + 5, 6));
		/* a threshold of 0 never fails; 1..253 fail at or under it (ACS) */
		if (th > 0 && th < 254 && a[3] && a[3] <= th) {
			json_add_str(e, "when_failed", "now");
			failing++;
		} else if (th > 0 && th < 254 && a[4] && a[4] <= th) {
			json_add_str(e, "when_failed", "past");
			failed_past++;
		}
	}
	json_add_int(o, "failing_now", failing);
	json_add_int(o, "failed_in_past", failed_past);
}

void ata_errlog_parse(const uint8_t *b, struct json *o)
{
	json_add_int(o, "revision", b[0]);
	json_add_int(o, "count", (long long)health_le(b + 452, 2));
}

void ata_selftest_parse(const uint8_t *b, struct json *o)
{
	struct json *arr = json_add_arr(o, "table");
	int failed = 0;
	json_add_int(o, "revision", (long long)health_le(b, 2));
	for (int i = 0; i < 21; i++) {
		const uint8_t *d = b + 2 + 24 * i;
		int used = 0, st = d[1] >> 4;
		struct json *e;
		for (int k = 0; k < 24; k++)
			used |= d[k];
		if (!used)
			continue;
		e = json_push(arr, json_obj());
		json_add_int(e, "type", d[0]);
		json_add_int(e, "status", st);    /* 0 ok, 1 aborted, 2 interrupted, 3-8 failed, 15 running */
		json_add_int(e, "lifetime_hours", (long long)health_le(d + 2, 2));
		if (st >= 3 && st <= 8) {
			json_add_num(e, "lba", (double)health_le(d + 5, 4));
			failed++;
		}
	}
	{
		int n = 0;
		for (const struct json *e = arr->child; e; e = e->next)
			n++;
		json_add_int(o, "count", n);
	}
	json_add_int(o, "failed", failed);
}

/* one SG_IO command; 0, or -1 with the reason in err.  sense (32 bytes) gets what came back */
static int sg(int fd, const uint8_t *cdb, int cdblen, void *buf, unsigned len, uint8_t *sense, char *err, size_t n)
{
	struct sg_io_hdr h;
	memset(&h, 0, sizeof h);
	memset(sense, 0, 32);
	h.interface_id = 'S';
	h.dxfer_direction = len ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
	h.cmd_len = (unsigned char)cdblen;
	h.cmdp = (unsigned char *)cdb;
	h.dxferp = buf;
	h.dxfer_len = len;
	h.sbp = sense;
	h.mx_sb_len = 32;
	h.timeout = 10000;
	if (ioctl(fd, SG_IO, &h) < 0) {
		snprintf(err, n, "SG_IO: %s", strerror(errno));
		return -1;
	}
	/* CHECK CONDITION with the ATA registers asked for (CK_COND) is not a failure */
	if ((h.info & SG_INFO_OK_MASK) != SG_INFO_OK &&
	    !((h.status & 0x7e) == 0x02 && cdb[0] == 0x85 && (cdb[2] & 0x20))) {
		snprintf(err, n, "refused (status 0x%x, host 0x%x, driver 0x%x, sense key %d)", h.status, h.host_status,
			 h.driver_status, (sense[0] & 0x7f) >= 0x72 ? sense[1] & 0xf : sense[2] & 0xf);
		return -1;
	}
	return 0;
}

/* ATA PASS-THROUGH(16) of a SMART or IDENTIFY command: PIO data-in of one sector, or
 * non-data with the registers returned (CK_COND) */
static int ata(int fd, uint8_t cmd, uint8_t feature, uint8_t lba_low, uint8_t *buf, uint8_t *sense, char *err,
	       size_t n)
{
	uint8_t cdb[16] = { 0x85 };
	cdb[1] = buf ? 4 << 1 : 3 << 1;        /* protocol: PIO data-in, or non-data */
	cdb[2] = buf ? 0x0e : 0x20;            /* in, blocks, length in count; or CK_COND */
	cdb[4] = feature;
	cdb[6] = buf ? 1 : 0;
	cdb[8] = lba_low;
	if (cmd == 0xb0) {
		cdb[10] = 0x4f;
		cdb[12] = 0xc2;
	}
	cdb[14] = cmd;
	return sg(fd, cdb, 16, buf, buf ? 512 : 0, sense, err, n);
}

static void ata_string(struct json *o, const char *key, const uint8_t *id, int word, int words)
{
	char s[64];
	int l = 0;
	for (int i = 0; i < words && l < 62; i++) {   /* each word's bytes are swapped */
		s[l++] = (char)id[2 * (word + i) + 1];
		s[l++] = (char)id[2 * (word + i)];
	}
	health_add_devstr(o, key, s, l);
}

/* SMART RETURN STATUS: LBA mid/high 4Fh/C2h healthy, F4h/2Ch threshold exceeded; -1 unknown */
static int smart_status(const uint8_t *sense)
{
	uint8_t mid, high;
	if ((sense[0] & 0x7f) >= 0x72 && sense[8] == 0x09) {   /* descriptor: ATA status return */
		mid = sense[8 + 9];
		high = sense[8 + 11];
	} else if ((sense[0] & 0x7f) == 0x70 || (sense[0] & 0x7f) == 0x71) {
		mid = sense[10];
		high = sense[11];
	} else {
		return -1;
	}
	return mid == 0x4f && high == 0xc2 ? 1 : mid == 0xf4 && high == 0x2c ? 0 : -1;
}

static void ata_disk(int fd, struct json *o)
{
	uint8_t id[512], data[512], thr[512], log[512], sense[32];
	char err[200];
	int st;
	if (ata(fd, 0xec, 0, 0, id, sense, err, sizeof err)) {
		json_add_str(o, "error", err);
		return;
	}
	ata_string(o, "model", id, 27, 20);
	ata_string(o, "serial", id, 10, 10);
	ata_string(o, "firmware", id, 23, 4);
	json_add_bool(o, "smart_supported", health_le(id + 164, 2) & 1);
	json_add_bool(o, "smart_enabled", health_le(id + 170, 2) & 1);
	if (!(health_le(id + 164, 2) & 1))
		return;
	if (ata(fd, 0xb0, 0xda, 0, NULL, sense, err, sizeof err) == 0 && (st = smart_status(sense)) >= 0)
		json_add_bool(o, "smart_passed", st);
	else
		json_add_str(o, "smart_status_error", err[0] ? err : "no status in the reply");
	if (ata(fd, 0xb0, 0xd0, 0, data, sense, err, sizeof err)) {
		json_add_str(json_add_obj(o, "attributes"), "error", err);
		return;
	}
	ata_smart_parse(data, ata(fd, 0xb0, 0xd1, 0, thr, sense, err, sizeof err) ? NULL : thr,
			json_add_obj(o, "attributes"));
	if (!ata(fd, 0xb0, 0xd5, 0x01, log, sense, err, sizeof err))
		ata_errlog_parse(log, json_add_obj(o, "error_log"));
	if (!ata(fd, 0xb0, 0xd5, 0x06, log, sense, err, sizeof err))
		ata_selftest_parse(log, json_add_obj(o, "self_test"));
}

/* a SCSI disk's own verdict: LOG SENSE, Informational Exceptions (2Fh) */
static void scsi_disk(int fd, struct json *o)
{
	uint8_t cdb[10] = { 0x4d, 0, 0x40 | 0x2f, 0, 0, 0, 0, 0, 64, 0 }, buf[64], sense[32];
	char err[200];
	if (sg(fd, cdb, 10, buf, sizeof buf, sense, err, sizeof err)) {
		json_add_str(o, "error", "no health status: LOG SENSE (Informational Exceptions) refused");
		return;
	}
	json_add_int(o, "ie_asc", buf[8]);
	json_add_int(o, "ie_ascq", buf[9]);
	json_add_bool(o, "smart_passed", buf[8] == 0);
	if (buf[10] && buf[10] != 0xff)
		json_add_int(o, "temperature_c", buf[10]);
}

static int sd_disk(const struct dirent *d)
{
	return !strncmp(d->d_name, "sd", 2);
}

void health_ata(struct json *snap)
{
	char path[512], vendor[64], dev[64];
	struct dirent **ents;
	struct json *ad = NULL;
	int n;
	sys_path(path, sizeof path, "/sys/block");
	n = scandir(path, &ents, sd_disk, dir_by_version);
	for (int i = 0; i < n; i++) {
		struct json *o;
		int fd;
		if (!ad)
			ad = json_add_obj(snap, "ata");
		o = json_add_obj(ad, ents[i]->d_name);
		snprintf(path + strlen(path), sizeof path - strlen(path), "/%s/device/vendor", ents[i]->d_name);
		if (read_line(path, vendor, sizeof vendor))
			vendor[0] = 0;
		sys_path(path, sizeof path, "/sys/block");
		snprintf(dev, sizeof dev, "/dev/%s", ents[i]->d_name);
		fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			json_add_str(o, "error", strerror(errno));
		} else if (!strncmp(vendor, "ATA", 3)) {
			json_add_str(o, "transport", "ata");
			ata_disk(fd, o);
		} else {
			json_add_str(o, "transport", "scsi");
			scsi_disk(fd, o);
		}
		if (fd >= 0)
			close(fd);
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}
