/* A small JSON tree: engines fill one with their results, report code prints it, and
 * compare/certify/extract read documents back with json_parse. */
#ifndef ASSAY_JSON_H
#define ASSAY_JSON_H

#include <stddef.h>
#include <stdio.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct json {
	enum jtype type;
	int is_int;             /* J_NUM: print without a fraction */
	int b;                  /* J_BOOL */
	double num;             /* J_NUM */
	char *str;              /* J_STR */
	char *key;              /* set when a member of an object */
	struct json *child, *last, *next;
	size_t n;               /* number of children */
};

struct json *json_obj(void);
struct json *json_arr(void);
struct json *json_str(const char *s);
struct json *json_num(double v);          /* NaN/inf print as null */
struct json *json_int(long long v);
struct json *json_bool(int b);
struct json *json_null(void);
void json_free(struct json *j);

/* Object members (replace nothing: keys are the caller's to keep unique). All return
 * the added child, so nested building reads top-down. */
struct json *json_add(struct json *obj, const char *key, struct json *child);
struct json *json_add_obj(struct json *obj, const char *key);
struct json *json_add_arr(struct json *obj, const char *key);
void json_add_str(struct json *obj, const char *key, const char *s);
void json_add_num(struct json *obj, const char *key, double v);
void json_add_int(struct json *obj, const char *key, long long v);
void json_add_bool(struct json *obj, const char *key, int b);
/* Array element */
struct json *json_push(struct json *arr, struct json *child);
/* a deep copy */
struct json *json_copy(const struct json *j);

/* Lookup: member of an object, or a dotted path "jobs.0.read.iops" (numbers index arrays) */
const struct json *json_get(const struct json *obj, const char *key);
/* the member KEY taken out of obj (the caller frees it), or NULL */
struct json *json_detach(struct json *obj, const char *key);
const struct json *json_path(const struct json *root, const char *path);
double json_get_num(const struct json *obj, const char *key, double dflt);
const char *json_get_str(const struct json *obj, const char *key, const char *dflt);

/* Output: indent < 0 compact; else pretty with that many spaces per level. */
void json_print(FILE *f, const struct json *j, int indent);
/* Output into a malloc'd string (NUL-terminated); length in *len if non-NULL. */
char *json_to_string(const struct json *j, int indent, size_t *len);

/* Parse a complete document.  On error returns NULL and writes "line L, column C: what"
 * into err.  Depth is bounded; input need not be NUL-terminated. */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);

#endif
