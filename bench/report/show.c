/* assay show [DIR|FILE]: the last run's screen, back on the system that started it.  In a
 * directory (default /var/lib/assay, where assay kexec --results-to points) an inbox the
 * image wrote is unpacked first into <date>-<machine>.json and .txt, then the newest
 * .json is shown (exit 2 after it when the inbox was damaged); a file (JSON or console
 * log) is shown as it is. */
#include "cli/command.h"
#include "report.h"
#include "inbox.h"
#include "json.h"
#include "msg.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_DIR "/var/lib/assay"

static int is_json(const struct dirent *e)
{
	size_t l = strlen(e->d_name);
	return e->d_name[0] != '.' && l > 5 && !strcmp(e->d_name + l - 5, ".json");
}

/* the newest result file in dir (names begin with the UTC date), into out */
static int newest(const char *dir, char *out, size_t n)
{
	struct dirent **v;
	int count = scandir(dir, &v, is_json, alphasort);
	if (count < 0)
		return -1;
	if (count)
		snprintf(out, n, "%s/%s", dir, v[count - 1]->d_name);
	for (int i = 0; i < count; i++)
		free(v[i]);
	free(v);
	return count ? 0 : -1;
}

static int show_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const char *path = a->npos ? a->pos[0] : DEFAULT_DIR;
	char file[4200], msg[1200], err[600];
	struct json *doc;
	const struct json *cert;
	struct stat st;
	int r, damaged = 0;
	if (stat(path, &st)) {
		errmsg("show: %s:", path);
		return EXIT_USAGE;
	}
	snprintf(file, sizeof file, "%s", path);
	if (S_ISDIR(st.st_mode)) {
		r = inbox_unpack(path, msg, sizeof msg);
		if (msg[0])
			(r < 0 ? warn : info)("%s", msg);
		damaged = r < 0;
		if (newest(path, file, sizeof file)) {
			errmsg("show: %s: no result (.json) in it", path);
			return EXIT_FAIL;
		}
	}
	doc = doc_load(file, err, sizeof err);
	if (!doc) {
		errmsg("show: %s", err);
		return EXIT_USAGE;
	}
	report_screen(doc, NULL, file, json_get_num(doc, "steal_limit_pct", 5), stdout);
	cert = json_get(doc, "certify");
	r = damaged ? EXIT_USAGE : cert && !strcmp(json_get_str(cert, "verdict", ""), "FAIL") ? EXIT_FAIL : EXIT_OK;
	json_free(doc);
	return r;
}

const struct command show_command = {
	.name = "show",
	.summary = "the last run's screen: unpacks what the image wrote (kexec --results-to)",
	.usage = "[DIR|FILE]",
	.help = "Print the last run's verdict and headline figures.  DIR (default /var/lib/assay): the\n"
		"results the image left in DIR/assay-inbox are unpacked into DIR/<date>-<machine>.json\n"
		"and .txt first, then the newest .json is shown.  FILE: a result or console log.\n"
		"Exit 1 when the run's certify verdict is FAIL.",
	.pos_min = 0,
	.pos_max = 1,
	.main = show_main,
};
