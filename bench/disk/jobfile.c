/* fio job files: sections, includes, ${VAR} and fio's arithmetic, turned into the
 * words of one command line in the order they apply. */
#include "plan.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fio job file?  A regular text file with a [section] line. */
char *read_jobfile(const char *path)
{
	struct stat st;
	char *text;
	size_t len;
	FILE *f;
	int section = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20))
		return NULL;
	f = fopen(path, "r");
	if (!f)
		return NULL;
	text = malloc((size_t)st.st_size + 1);
	len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!text)
		return NULL;
	text[len] = 0;
	if (strlen(text) != len) {         /* binary: a file to measure */
		free(text);
		return NULL;
	}
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " \t");
		if (*l == '[') {
			section = 1;
			break;
		}
	}
	if (!section) {
		free(text);
		return NULL;
	}
	return text;
}

static int push_tok(struct disk_cfg *c, int *cap, char *t)
{
	if (c->ntok == *cap) {
		char **nt = realloc(c->tok, (size_t)(*cap = *cap ? *cap * 2 : 64) * sizeof *nt);
		if (!nt)
			return -1;
		c->tok = nt;
	}
	c->tok[c->ntok++] = t;
	return 0;
}

/* fio's --section: given once or more, or a comma list (the option's callback joins
 * them); sections of a job file, [global] always applies */
int opt_section(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	char *list = field;
	size_t l;
	(void)ctx;
	if (!val) {
		snprintf(err, n, "a section name, or several: a,b");
		return 0;
	}
	l = strlen(list);
	if (!*val) {          /* the default: none */
		list[0] = 0;
		return 0;
	}
	if (l + 1 + strlen(val) >= 256) {
		snprintf(err, n, "%s=%s: more section names than fit 255 characters", o->name, val);
		return -1;
	}
	snprintf(list + l, 256 - l, "%s%s", l ? "," : "", val);
	return 0;
}

/* the i-th section --section named, or NULL past the last */
static const char *section_at(const struct disk_cfg *c, int want)
{
	static char buf[128];
	int k = 0;
	for (const char *v = c->o.sections; *v; v += strcspn(v, ","), v += *v == ',') {
		size_t l = strcspn(v, ",");
		if (l && k++ == want) {
			snprintf(buf, sizeof buf, "%.*s", (int)l, v);
			return buf;
		}
	}
	return NULL;
}

static int count_sections(const struct disk_cfg *c)
{
	int k = 0;
	while (k < 64 && section_at(c, k))
		k++;
	return k;
}

/* is the job file's section sect one --section named? (seen: which were found) */
static int section_named(const struct disk_cfg *c, const char *sect, unsigned char seen[64])
{
	for (int i = 0; i < 64; i++) {
		const char *s = section_at(c, i);
		if (!s)
			break;
		if (!strcmp(s, sect)) {
			seen[i] = 1;
			return 1;
		}
	}
	return 0;
}

/* a job file's key=value as the word "--key=value" (tl: where the value starts, past
 * "--key="), fio's ${VAR} (the environment's, or nothing) and $pagesize, $mb_memory,
 * $ncpus expanded in the value */
static char *job_value(const char *key, const char *val, size_t tl)
{
	size_t cap = tl + strlen(val) + 64, len;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	len = (size_t)snprintf(t, cap, "--%s=", key);
	while (*val) {
		char num[32];
		const char *add = NULL;
		size_t skip = 1, al;
		if (val[0] == '$' && val[1] == '{' && strchr(val, '}')) {
			char name[128];
			size_t l = (size_t)(strchr(val, '}') - val - 2);
			snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name ? l : sizeof name - 1), val + 2);
			add = *name && getenv(name) ? getenv(name) : "";
			skip = l + 3;
		} else if (!strncmp(val, "$pagesize", 9)) {
			snprintf(num, sizeof num, "%ld", sysconf(_SC_PAGESIZE));
			add = num, skip = 9;
		} else if (!strncmp(val, "$mb_memory", 10)) {
			snprintf(num, sizeof num, "%lld",
				 (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / (1024 * 1024));
			add = num, skip = 10;
		} else if (!strncmp(val, "$ncpus", 6)) {
			snprintf(num, sizeof num, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
			add = num, skip = 6;
		}
		al = add ? strlen(add) : 1;
		if (len + al + 1 > cap) {
			char *nt = realloc(t, cap = (len + al + 1) * 2);
			if (!nt) {
				free(t);
				return NULL;
			}
			t = nt;
		}
		memcpy(t + len, add ? add : val, al);
		len += al;
		val += skip;
	}
	t[len] = 0;
	return t;
}

/* reading a job file (and those it includes): the words so far, the section under way */
struct jf {
	struct disk_cfg *c, *scratch;
	char **ftok, *sect;
	int nf, fcap, nfglobal, skipping, nsect;
	int name_at;            /* the section's --name word (fio's name= in it replaces it) */
	unsigned char seen[64];
};

/* a file fio's include names: beside the file naming it, unless absolute */
static char *read_include(const char *from, const char *name, char *path, size_t pn)
{
	const char *slash = strrchr(from, '/');
	struct stat st;
	char *text;
	FILE *f;
	size_t len;
	if (name[0] == '/' || !slash)
		snprintf(path, pn, "%s", name);
	else
		snprintf(path, pn, "%.*s/%s", (int)(slash - from), from, name);
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20) || !(f = fopen(path, "re")))
		return NULL;
	text = malloc((size_t)st.st_size + 1);
	len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (text)
		text[len] = 0;
	return text;
}

/* the lines of one job file: each option checked (FILE:LINE: naming a bad one) and kept as
 * a word; fio's include reads another file in its place (the texts stay: words point
 * into them) */
static int jf_lines(struct jf *s, char *text, const char *file, int depth, char *err, size_t n)
{
	struct disk_cfg *c = s->c;
	int line = 0;
	for (char *l = text, *next; l && *l; l = next) {
		char *e, *key, *val, *t, e2[300];
		size_t tl;
		line++;
		next = strchr(l, '\n');
		if (next)
			*next++ = 0;
		l += strspn(l, " \t\r");
		l[strcspn(l, "#;")] = 0;     /* fio's: a comment runs from ; or # to the line's end */
		for (e = l + strlen(l); e > l && strchr(" \t\r", e[-1]); e--)
			;
		*e = 0;
		if (!*l)
			continue;
		if (*l != '[' && s->skipping)
			continue;     /* a section --section did not name */
		if (!strncmp(l, "include", 7) && (l[7] == ' ' || l[7] == '\t')) {
			char path[4096], *inc;
			const char *name = l + 8 + strspn(l + 8, " \t");
			if (depth >= 8) {
				snprintf(err, n, "%s:%d: include: nested more than 8 deep", file, line);
				return -1;
			}
			errno = 0;
			if (!(inc = read_include(file, name, path, sizeof path))) {
				snprintf(err, n, "%s:%d: include %s: %s", file, line, name,
					 errno ? strerror(errno) : "not a readable text file");
				return -1;
			}
			if (jf_lines(s, inc, path, depth + 1, err, n))
				return -1;
			continue;
		}
		if (*l == '[') {
			if (e[-1] != ']' || e - l < 3) {
				snprintf(err, n, "%s:%d: '%s': a section is [name]", file, line, l);
				return -1;
			}
			e[-1] = 0;
			s->sect = l + 1;
			s->skipping = strcmp(s->sect, "global") && s->nsect && !section_named(c, s->sect, s->seen);
			if (s->skipping)
				continue;
			if (!strcmp(s->sect, "global")) {
				if (s->nf > s->nfglobal) {
					snprintf(err, n, "%s:%d: [global] after a job: put it first", file, line);
					return -1;
				}
				continue;
			}
			tl = strlen(s->sect) + 8;
			if (!(t = malloc(tl)))
				return -1;
			snprintf(t, tl, "--name=%s", s->sect);
			s->name_at = s->nf;
		} else {
			if (!s->sect) {
				snprintf(err, n, "%s:%d: '%s' comes before any [section]", file, line, l);
				return -1;
			}
			key = l;
			val = strchr(l, '=');
			if (val) {
				char *ke = val;
				while (ke > key && strchr(" \t", ke[-1]))
					ke--;
				*ke = 0;
				val++;
				val += strspn(val, " \t");
			}
			if (!strcmp(key, "profile") || (!strcmp(key, "name") && (!val || !*val))) {
				snprintf(err, n, "%s:%d: %s: %s", file, line, key, !strcmp(key, "name") ? "give the job's name: "
					 "name=NAME" : "not in a job file (a [section] is a job)");
				return -1;
			}
			if (!strcmp(key, "name") && !strcmp(s->sect, "global"))
				continue;     /* fio's: each section names its job anyway */
			if (!strcmp(key, "name")) {
				/* fio's: the job's name, in place of its section's */
				tl = strlen(val) + 8;
				if (!(t = malloc(tl)))
					return -1;
				snprintf(t, tl, "--name=%s", val);
				s->ftok[s->name_at] = t;     /* the section's word stays allocated: words point in */
				continue;
			}
			if (!val) {     /* a key alone: a flag set, or an optional value left out */
				const struct opt *o = opt_find(disk_opts, key);
				val = o && (o->flags & OPT_OPTARG) ? "" : "1";
			}
			tl = strlen(key) + 4;
			if (!(t = job_value(key, val, tl)))
				return -1;
			if (opt_set(disk_opts, s->scratch, key, t + tl - 1, e2, sizeof e2)) {
				snprintf(err, n, "%s:%d: %s", file, line, e2);
				free(t);
				return -1;
			}
		}
		if (s->nf == s->fcap) {
			char **nt = realloc(s->ftok, (size_t)(s->fcap = s->fcap ? s->fcap * 2 : 64) * sizeof *nt);
			if (!nt)
				return -1;
			s->ftok = nt;
		}
		s->ftok[s->nf++] = t;
		if (!strcmp(s->sect, "global"))
			s->nfglobal = s->nf;
	}
	return 0;
}

/* The words in the order they apply: the job file's [global], the command line's global
 * options, the job file's jobs, the command line's jobs (fio's: a job's own options win;
 * here the command line's global options also win over the file's).  Each line of the
 * file is checked; an error names the file and line. */
int order_words(struct disk_cfg *c, char *text, char *err, size_t n)
{
	struct jf s = { .c = c, .nsect = count_sections(c) };
	int first_name = c->common.argc, cap = 0;
	int r = -1;
	if (!(s.scratch = calloc(1, sizeof *s.scratch)))
		goto out;
	opt_defaults(disk_opts, s.scratch);
	for (int i = 0; i < c->common.argc; i++)
		if (is_name(c->common.argv[i])) {
			first_name = i;
			break;
		}
	if (jf_lines(&s, text, c->jobfile, 0, err, n))
		goto out;
	for (int i = 0; i < s.nsect; i++)
		if (!s.seen[i]) {
			snprintf(err, n, "--section=%s: %s has no such section", section_at(c, i), c->jobfile);
			goto out;
		}
	for (int i = 0; i < s.nfglobal; i++)
		if (push_tok(c, &cap, s.ftok[i]))
			goto out;
	for (int i = 0; i < first_name; i++)
		if (push_tok(c, &cap, c->common.argv[i]))
			goto out;
	c->nglobal = c->ntok;
	for (int i = s.nfglobal; i < s.nf; i++)
		if (push_tok(c, &cap, s.ftok[i]))
			goto out;
	for (int i = first_name; i < c->common.argc; i++)
		if (push_tok(c, &cap, c->common.argv[i]))
			goto out;
	r = 0;
out:
	if (r && !*err)
		snprintf(err, n, "out of memory");
	for (int i = 0; r && i < s.nf; i++)
		free(s.ftok[i]);   /* refused: the file's words go */
	free(s.ftok);      /* else the words stay: options point into them */
	free(s.scratch);
	return r;
}
