/* The JSON tree: build, print, parse back; malformed input gives a located error. */
#include "json.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static int parses(const char *s)
{
	char err[256];
	struct json *j = json_parse(s, strlen(s), err, sizeof err);
	json_free(j);
	return j != NULL;
}

int main(void)
{
	struct json *o = json_obj(), *a, *p;
	char *s, err[256];
	size_t len;
	char deep[300];

	json_add_str(o, "name", "a \"quoted\"\n\ttab\\ \x01");
	json_add_int(o, "big", 9007199254740991LL);
	json_add_num(o, "half", 0.5);
	json_add_num(o, "huge", 2.2e61);
	json_add_num(o, "tiny", 7.42e-4);
	json_add_num(o, "nan", 0.0 / 0.0);
	json_add_bool(o, "yes", 1);
	a = json_add_arr(o, "list");
	json_push(a, json_int(1));
	json_push(a, json_null());
	p = json_add_obj(json_add_obj(o, "clat_ns"), "percentile");
	json_add_num(p, "99.000000", 1234);
	json_add_num(p, "99.900000", 5678);

	s = json_to_string(o, 2, &len);
	CHECK(len == strlen(s), "length");
	{
		struct json *b = json_parse(s, len, err, sizeof err);
		char *s2;
		CHECK(b != NULL, "reparse: %s", err);
		if (b) {
			CHECK(!strcmp(json_get_str(b, "name", ""), "a \"quoted\"\n\ttab\\ \x01"), "string");
			CHECK(json_get_num(b, "big", 0) == 9007199254740991.0, "big int");
			CHECK(json_get_num(b, "half", 0) == 0.5, "half");
			CHECK(json_get_num(b, "huge", 0) == 2.2e61, "huge number round trip");
			CHECK(fabs(json_get_num(b, "tiny", 0) - 7.42e-4) < 1e-12, "tiny number");
			CHECK(json_get(b, "nan")->type == J_NULL, "NaN prints as null");
			CHECK(json_get_num(b, "clat_ns.percentile.99.000000", 0) == 1234, "dotted key");
			CHECK(json_get_num(b, "clat_ns.percentile.99.900000", 0) == 5678, "dotted key 2");
			CHECK(json_path(b, "list.1") && json_path(b, "list.1")->type == J_NULL, "array index");
			CHECK(!json_path(b, "list.2"), "index past the end");
			CHECK(!json_path(b, "nope.x"), "missing path");
			s2 = json_to_string(b, 2, NULL);
			CHECK(!strcmp(s, s2) || strstr(s, "null"), "stable print");
			free(s2);
			json_free(b);
		}
	}
	free(s);
	json_free(o);

	/* accepted */
	CHECK(parses("{}"), "{}");
	CHECK(parses(" [1, -2.5e3, true, false, null, \"\\u00e9\\ud83d\\ude00\"] "), "array");
	/* rejected, with a position */
	CHECK(!parses(""), "empty");
	CHECK(!parses("{"), "unterminated object");
	CHECK(!parses("{\"a\" 1}"), "missing colon");
	CHECK(!parses("[1,]"), "trailing comma");
	CHECK(!parses("[01]"), "leading zero");
	CHECK(!parses("\"abc"), "unterminated string");
	CHECK(!parses("\"\\ud800\""), "lone surrogate");
	CHECK(!parses("\"a\x01\""), "control char");
	CHECK(!parses("{} x"), "trailing garbage");
	CHECK(!parses("[1.]"), "bad number");
	CHECK(!parses("nul"), "truncated literal");
	memset(deep, '[', sizeof deep);
	deep[sizeof deep - 1] = 0;
	CHECK(!parses(deep), "nesting bounded");
	{
		struct json *j = json_parse("{\n  \"a\": tru }", 14, err, sizeof err);
		CHECK(!j && strstr(err, "line 2"), "error names the line: %s", err);
	}
	{
		/* a member taken out: first, middle, last; the object stays whole */
		struct json *ob = json_obj(), *m;
		char *t;
		json_add_int(ob, "a", 1);
		json_add_int(ob, "b", 2);
		json_add_int(ob, "c", 3);
		m = json_detach(ob, "b");
		CHECK(m && m->num == 2 && !m->next && ob->n == 2, "detach the middle");
		json_free(m);
		json_free(json_detach(ob, "c"));
		json_add_int(ob, "d", 4);
		t = json_to_string(ob, -1, NULL);
		CHECK(!strncmp(t, "{\"a\":1,\"d\":4}", 13), "detach the last, then add: %s", t);
		free(t);
		CHECK(!json_detach(ob, "zz"), "detach what is not there");
		json_free(ob);
	}
	return unit_done();
}
