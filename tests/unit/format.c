/* What people read: a figure's value never in exponent notation, whole numbers with
 * thousands apart; the last screen's lines within 79 columns, broken between words. */
#include "json.h"
#include "report/report.h"
#include "result/result.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *num(double v)
{
	static char b[64];
	figure_num(b, sizeof b, v);
	return b;
}

int main(void)
{
	CHECK(!strcmp(num(11720), "11,720") && !strcmp(num(1234567), "1,234,567") && !strcmp(num(-4500), "-4,500"),
	      "thousands: %s", num(11720));
	CHECK(!strcmp(num(0), "0") && !strcmp(num(2), "2") && !strcmp(num(999), "999"), "integers: %s", num(2));
	CHECK(!strcmp(num(812.5), "812") && !strcmp(num(12.34), "12.3") && !strcmp(num(1.234), "1.23"),
	      "three digits: %s %s", num(12.34), num(1.234));
	CHECK(!strcmp(num(0.00123), "0.00123") && !strcmp(num(1.15e-9), "0.00000000115"), "small: %s %s",
	      num(0.00123), num(1.15e-9));
	CHECK(!strchr(num(1.2e7), 'e') && !strchr(num(3.3e-7), 'e'), "no exponent");
	CHECK(!strcmp(num(NAN), "-") && !strcmp(num(INFINITY), "-"), "none");
	{
		/* a test's long reason on the last screen: wrapped under its heading, whole words */
		struct json *doc = json_obj(), *t = json_push(json_add_arr(doc, "tests"), json_obj());
		char *buf = NULL, *line, *save = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int lines = 0, long_ok = 1, words_ok = 1;
		json_add_str(t, "name", "net");
		json_add_str(t, "status", "skipped");
		json_add_str(t, "why", "no network peer given (assay.iperf=HOST, assay.ping=HOST, assay.http=URL, "
				       "assay.dns=SERVER) and a few more words to go over two lines of the screen");
		json_add_arr(doc, "summary");
		report_screen(doc, NULL, NULL, 5, f);
		fclose(f);
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lines++) {
			long_ok &= strlen(line) <= 79;
			/* no word cut: a line of the reason ends at a word's end */
			if (strstr(line, "assay.pin") && !strstr(line, "assay.ping"))
				words_ok = 0;
		}
		CHECK(long_ok && words_ok && lines >= 4, "wrapped: %d lines", lines);
		free(buf);
		json_free(doc);
	}
	return unit_done();
}
