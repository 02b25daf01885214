/*
 * The option engine: parsing, --help, the man page and the bash completion, all from the
 * commands' option tables (src/cmd/options.h), and the setters any table may use.
 */
#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "util/parse.h"
#include "util/suggest.h"

#define PROG(cmd) ((cmd)->prog ? (cmd)->prog : "iorate")

static const struct opt help_opts[] = {
	{.name = "help", .letter = 'h', .help = "this help", .example = "--help",
	 .set = opt_set_help},
	{0},
};
static const struct opt_group help_group = {.title = "", .opts = help_opts};

/* The field an option sets. */
static void *field(struct opt_ctx *c, const struct opt *o)
{
	char *base = o->in == OPT_IN_JOB   ? (char *)c->job
		     : o->in == OPT_IN_OUT ? (char *)c->out
		     : o->in == OPT_IN_CMD ? (char *)c->state
					   : NULL;
	return base ? base + o->off : NULL;
}

/* Calls fn for each option of cmd, the built-in --help last; stops when fn returns true. */
static const struct opt *each_opt(const struct command *cmd,
				  bool (*fn)(const struct opt *o, const void *arg), const void *arg)
{
	for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++)
		for (const struct opt *o = cmd->groups[g]->opts; o->name; o++)
			if (fn(o, arg))
				return o;
	for (const struct opt *o = help_opts; o->name; o++)
		if (fn(o, arg))
			return o;
	return NULL;
}

static bool named(const struct opt *o, const void *name)
{
	return !strcmp(o->name, name);
}

static bool lettered(const struct opt *o, const void *letter)
{
	return o->letter && o->letter == *(const char *)letter;
}

const struct opt *options_find(const struct command *cmd, const char *name)
{
	return each_opt(cmd, named, name);
}

int opt_refuse(struct opt_ctx *c, const char *val, const char *why)
{
	snprintf(c->why, sizeof(c->why), "'%s' %s", val ? val : "", why);
	return -EINVAL;
}

/* A refused number: say so when it is hexadecimal, signed or spaced, else what it should be. */
static int refuse_number(struct opt_ctx *c, const char *val, const char *what)
{
	const char *why = parse_number_why(val);

	return opt_refuse(c, val, why ? why : what);
}

int opt_set_true(struct opt_ctx *c, const struct opt *o, const char *val)
{
	*(bool *)field(c, o) = true;
	return 0;
}

int opt_set_false(struct opt_ctx *c, const struct opt *o, const char *val)
{
	*(bool *)field(c, o) = false;
	return 0;
}

int opt_set_string(struct opt_ctx *c, const struct opt *o, const char *val)
{
	*(const char **)field(c, o) = val;
	return 0;
}

int opt_set_strings(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct opt_strs *s = field(c, o);
	unsigned max = o->max && o->max < OPT_MAX_STRS ? (unsigned)o->max : OPT_MAX_STRS;

	if (s->n >= max) {
		snprintf(c->why, sizeof(c->why), "given more than %u times", max);
		return -E2BIG;
	}
	s->v[s->n++] = val;
	return 0;
}

int opt_set_size(struct opt_ctx *c, const struct opt *o, const char *val)
{
	uint64_t v;
	int r = parse_size(val, &v);

	if (r == -ERANGE)
		return opt_refuse(c, val, "does not fit in 64 bits");
	if (r)
		return refuse_number(c, val, "is not a size (examples: " PARSE_SIZE_EXAMPLES ")");
	if (v < o->min) {
		char b[32], why[64];
		snprintf(why, sizeof(why), "is below %s", fmt_size(o->min, b, sizeof(b)));
		return opt_refuse(c, val, why);
	}
	if (o->max && v > o->max) {
		char b[32], why[64];
		snprintf(why, sizeof(why), "is larger than the %s limit", fmt_size(o->max, b, sizeof(b)));
		return opt_refuse(c, val, why);
	}
	*(uint64_t *)field(c, o) = v;
	return 0;
}

int opt_set_count(struct opt_ctx *c, const struct opt *o, const char *val)
{
	unsigned max = o->max ? (unsigned)o->max : 1u << 30;
	uint64_t v = 0;
	int r = parse_count(val, (unsigned)o->min, max, &v);
	char why[64];

	if (r == -ERANGE) {
		snprintf(why, sizeof(why), "is out of range (%u to %u)", (unsigned)o->min, max);
		return opt_refuse(c, val, why);
	}
	if (r)
		return refuse_number(c, val, "is not a whole number (examples: "
				     PARSE_COUNT_EXAMPLES ")");
	*(unsigned *)field(c, o) = (unsigned)v;
	return 0;
}

int opt_set_u64(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_count(val, o->min, o->max ? o->max : UINT64_MAX, field(c, o));

	if (r == -ERANGE)
		return opt_refuse(c, val, "does not fit in 64 bits");
	if (r)
		return refuse_number(c, val, "is not a whole number (examples: "
				     PARSE_COUNT_EXAMPLES ")");
	return 0;
}

int opt_set_percent(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (parse_percent(val, field(c, o)))
		return refuse_number(c, val, "is not a percentage from 0 to 100");
	return 0;
}

int opt_set_rate(struct opt_ctx *c, const struct opt *o, const char *val)
{
	double *d = field(c, o);
	int r = parse_amount(val, 0, 1e12, d);

	if (r || *d <= 0)
		return refuse_number(c, val, "is not a rate above 0 (examples: 500, 2.5, 20k)");
	return 0;
}

int opt_set_duration(struct opt_ctx *c, const struct opt *o, const char *val)
{
	uint64_t ns;

	if (parse_duration(val, &ns))
		return refuse_number(c, val,
				     "is not a duration (examples: " PARSE_DURATION_EXAMPLES ")");
	if (ns < o->min)
		return opt_refuse(c, val,
				  "is not a duration above 0 (examples: " PARSE_DURATION_EXAMPLES ")");
	*(uint64_t *)field(c, o) = ns;
	return 0;
}

int opt_set_help(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->help = true;
	return 0;
}

/* An option as the user gave it: "-r", "--json", "--format csv". */
static void given(char *buf, size_t len, const struct opt *o, bool letter, const char *val)
{
	if (letter)
		snprintf(buf, len, "-%c%s%s", o->letter, val ? " " : "", val ? val : "");
	else
		snprintf(buf, len, "--%s%s%s", o->name, val ? " " : "", val ? val : "");
}

/* Sets one option the user typed; prints why and returns EXIT_USAGE when it is refused. */
static int apply(struct opt_ctx *c, const struct opt *o, bool letter, const char *val)
{
	char as[128];
	int r;

	given(as, sizeof(as), o, letter, val);
	if (o->excl) {
		if (c->seen[o->excl] && c->seen[o->excl] != o)
			return usage_error("%s and %s cannot be used together", c->given[o->excl],
					   as);
		c->seen[o->excl] = o;
		snprintf(c->given[o->excl], sizeof(c->given[0]), "%s", as);
	}
	c->why[0] = '\0';
	if ((r = o->set(c, o, val))) {
		if (r == -ENOMEM)
			return run_error("out of memory");
		return r > 0 ? r : usage_error("--%s: %s", o->name, c->why);
	}
	if (c->on_set && (r = c->on_set(c, o)))
		return r;
	return 0;
}

int options_set(struct opt_ctx *c, const char *name, const char *val)
{
	const struct opt *o = options_find(c->cmd, name);

	if (!o) {
		snprintf(c->why, sizeof(c->why), "no option '%s'", name);
		return -ENOENT;
	}
	c->why[0] = '\0';
	return o->set(c, o, val);
}

int options_take(struct opt_ctx *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *eq, *val = NULL;
	char name[64];
	size_t n;

	if (strncmp(a, "--", 2) || !a[2])
		return -ENOENT;
	eq = strchr(a + 2, '=');
	n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	if (n >= sizeof(name))
		return -ENOENT;
	memcpy(name, a + 2, n);
	name[n] = '\0';
	const struct opt *o = options_find(c->cmd, name);
	if (!o)
		return -ENOENT;
	if (o->arg) {
		if (eq)
			val = eq + 1;
		else if (*i + 1 < argc)
			val = argv[++*i];
		else
			return usage_error("--%s: needs an argument (see '%s %s --help')", o->name,
					   PROG(c->cmd), c->cmd->name);
	} else if (eq) {
		return usage_error("--%s: takes no value", o->name);
	}
	return apply(c, o, false, val);
}

/* An unknown "--name[=VAL]" the command lists as moved: EXIT_USAGE after saying where; else 0. */
static int moved(const struct command *cmd, const char *arg)
{
	size_t n;

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	n = strcspn(arg, "=");
	for (const struct opt_moved *m = cmd->moved; m && m->name; m++)
		if (strlen(m->name) == n && !strncmp(m->name, arg, n))
			return usage_error("--%s: %s (see '%s %s --help')", m->name, m->instead,
					   PROG(cmd), cmd->name);
	return 0;
}

/* The names other tools give iorate's options, so "--blocksize" suggests "--bs". */
static const struct {
	const char *theirs, *ours;
} synonyms[] = {
	{.theirs = "blocksize", .ours = "bs"}, {.theirs = "block-size", .ours = "bs"},
	{.theirs = "iodepth", .ours = "depth"}, {.theirs = "queue-depth", .ours = "depth"},
	{.theirs = "qd", .ours = "depth"}, {.theirs = "numjobs", .ours = "threads"},
	{.theirs = "runtime", .ours = "time"}, {.theirs = "duration", .ours = "time"},
	{.theirs = "ramp-time", .ours = "warmup"}, {.theirs = "ioengine", .ours = "engine"},
	{.theirs = "filesize", .ours = "size"}, {.theirs = "rate-limit", .ours = "cap-mbps"},
};

static bool near_opt(const struct opt *o, const void *arg)
{
	suggest_add((struct suggest *)arg, o->name, NULL);
	return false;
}

const char *options_near(const struct command *cmd, const char *arg, char *out, size_t len)
{
	char name[64], alt[64];
	struct suggest s;
	size_t n;

	n = strcspn(arg + strspn(arg, "-"), "=");
	snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), arg + strspn(arg, "-"));
	suggest_init(&s, name);
	each_opt(cmd, near_opt, &s);
	/* fio writes them with underscores: "ramp_time" is "ramp-time". */
	snprintf(alt, sizeof(alt), "%s", name);
	for (char *p = alt; *p; p++)
		*p = *p == '_' ? '-' : *p;
	if (strcmp(alt, name) && options_find(cmd, alt))
		suggest_add(&s, name, alt);
	for (size_t i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++) {
		if (!options_find(cmd, synonyms[i].ours))
			continue;
		if (!strcasecmp(alt, synonyms[i].theirs))
			suggest_add(&s, name, synonyms[i].ours);
		else
			suggest_add(&s, synonyms[i].theirs, synonyms[i].ours);
	}
	return suggest_tail(&s, "--", out, len);
}

/* "--blocksize: unknown option; did you mean --bs? (see 'iorate run --help')". */
int options_unknown(const struct command *cmd, const char *arg)
{
	char tail[240];
	int r;

	if ((r = moved(cmd, arg)))
		return r;
	return usage_error("%.*s: unknown option%s (see '%s %s --help')",
			   (int)strcspn(arg, "="), arg, options_near(cmd, arg, tail, sizeof(tail)),
			   PROG(cmd), cmd->name);
}

int options_parse(struct opt_ctx *c, int argc, char **argv, int *first)
{
	struct option lo[160];
	const struct opt *byidx[160];
	char so[256];
	size_t n = 0, sn = 0;
	int r;

	so[sn++] = ':'; /* report a missing argument as ':' */
	for (unsigned g = 0;; g++) {
		const struct opt_group *grp = c->cmd->groups && c->cmd->groups[g] ? c->cmd->groups[g]
										  : NULL;
		const struct opt *o = grp ? grp->opts : help_opts;
		for (; o->name; o++) {
			if (n + 1 >= sizeof(lo) / sizeof(lo[0]) || sn + 3 >= sizeof(so))
				return usage_error("internal: the option tables outgrew "
						   "options_parse()");
			lo[n] = (struct option){
				.name = o->name,
				.has_arg = o->arg ? required_argument : no_argument,
				.flag = NULL,
				.val = 256 + (int)n,
			};
			byidx[n++] = o;
			if (o->letter) {
				so[sn++] = o->letter;
				if (o->arg)
					so[sn++] = ':';
			}
		}
		if (!grp)
			break;
	}
	lo[n] = (struct option){0};
	so[sn] = '\0';
	optind = 0; /* 0, not 1: glibc forgets a half-parsed "-abc" of an earlier parse */
	opterr = 0;
	for (;;) {
		int ch = getopt_long(argc, argv, so, lo, NULL);
		const struct opt *o = NULL;
		if (ch == -1)
			break;
		if (ch == '?') {
			if (optopt >= 256)
				return usage_error("%s: takes no value (see '%s %s --help')",
						   argv[optind - 1], PROG(c->cmd), c->cmd->name);
			if (optopt)
				return usage_error("-%c: unknown option (see '%s %s --help')",
						   optopt, PROG(c->cmd), c->cmd->name);
			return options_unknown(c->cmd, argv[optind - 1]);
		}
		if (ch == ':')
			return usage_error("%s: needs an argument (see '%s %s --help')",
					   argv[optind - 1], PROG(c->cmd), c->cmd->name);
		if (ch >= 256) {
			o = byidx[ch - 256];
			/* getopt takes a prefix for the whole name: model's moved --time is no
			 * --timeline. */
			const char *typed = o->arg && optarg == argv[optind - 1] ? argv[optind - 2]
										: argv[optind - 1];
			if (strncmp(typed + 2, o->name, strlen(o->name)) && (r = moved(c->cmd, typed)))
				return r;
		} else {
			char l = (char)ch;
			o = each_opt(c->cmd, lettered, &l);
		}
		if ((r = apply(c, o, ch < 256, o->arg ? optarg : NULL)))
			return r;
	}
	*first = optind;
	return 0;
}

/* "-b, --bs SIZE" or "    --json". */
static void head_of(const struct opt *o, char *buf, size_t len)
{
	if (o->letter)
		snprintf(buf, len, "-%c, --%s%s%s", o->letter, o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	else
		snprintf(buf, len, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* text from column col, wrapped at word boundaries before column 80. */
static void wrap(FILE *f, const char *text, int col)
{
	int at = col;

	while (*text) {
		size_t n = strcspn(text, " ");
		if (at > col && at + 1 + (int)n > 79) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)n, text);
		at += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* The group's title, unless the group before it (prev, or NULL) had the same: one heading. */
static const char *heading(const struct opt_group *g, const struct opt_group *prev)
{
	if (!g->title[0] || !g->opts->name || (prev && !strcmp(prev->title, g->title)))
		return NULL;
	return g->title;
}

/*
 * A row's help. --format's is one text for every command, so its row's own values follow it:
 * without them model's would list csv and fio-json, which it refuses.
 */
static const char *help_of(const struct opt *o, char *buf, size_t len)
{
	size_t n;

	if (o->excl != EXCL_FORMAT || !o->arg || !o->values)
		return o->help;
	n = (size_t)snprintf(buf, len, "%s; here: ", o->help);
	for (const char *v = o->values; *v && n + 3 < len; v++) {
		if (*v == ' ')
			buf[n++] = ',';
		buf[n++] = *v;
	}
	buf[n < len ? n : len - 1] = '\0';
	return buf;
}

static void help_group_print(FILE *f, const struct opt_group *g, const struct opt_group *prev)
{
	const char *title = heading(g, prev);

	if (title)
		fprintf(f, "\n%s:\n", title);
	for (const struct opt *o = g->opts; o->name; o++) {
		char head[64], text[512];
		head_of(o, head, sizeof(head));
		fprintf(f, "  %-30s ", head);
		if (strlen(head) > 30)
			fprintf(f, "\n%33s", "");
		wrap(f, help_of(o, text, sizeof(text)), 33);
		if (o->example && strcmp(o->example, "--help"))
			fprintf(f, "  %-30s   e.g. %s\n", "", o->example);
	}
}

int options_subcommand(const struct command *cmd, const char *word)
{
	for (int i = 0; word && cmd->subcommands && cmd->subcommands[i]; i++)
		if (!strcmp(word, cmd->subcommands[i]))
			return i;
	return -1;
}

const char *options_near_word(const struct command *const *cmds, const struct command *cmd,
			      const char *word, char *out, size_t len)
{
	struct suggest s;

	suggest_init(&s, word);
	for (size_t i = 0; cmds && cmds[i]; i++)
		suggest_add(&s, cmds[i]->name, NULL);
	for (size_t i = 0; cmd && cmd->subcommands && cmd->subcommands[i]; i++)
		suggest_add(&s, cmd->subcommands[i], NULL);
	return suggest_tail(&s, NULL, out, len);
}

/* "list show import" from the command's subcommands, with sep between them. */
static void subcommand_words(FILE *f, const struct command *cmd, const char *sep)
{
	for (unsigned i = 0; cmd->subcommands[i]; i++)
		fprintf(f, "%s%s", i ? sep : "", cmd->subcommands[i]);
}

void options_help(FILE *f, const struct command *cmd)
{
	const char *s = cmd->synopsis ? cmd->synopsis : "";

	bool firstline = true;
	do {
		size_t n = strcspn(s, "\n");
		fprintf(f, "%s %s %s %.*s\n", firstline ? "usage:" : "      ",
			cmd->prog ? cmd->prog : "iorate", cmd->name, (int)n, s);
		s += n;
		s += *s == '\n';
		firstline = false;
	} while (*s);
	if (cmd->subcommands) {
		fputs("\nSubcommands: ", f);
		subcommand_words(f, cmd, ", ");
		fputc('\n', f);
	}
	if (cmd->about)
		fprintf(f, "\n%s\n", cmd->about);
	for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++)
		help_group_print(f, cmd->groups[g], g ? cmd->groups[g - 1] : NULL);
	help_group_print(f, &help_group, NULL);
	if (cmd->more_help)
		cmd->more_help(f);
	if (cmd->examples)
		fprintf(f, "\nExamples:\n%s", cmd->examples);
	if (cmd->exit_status)
		fprintf(f, "\nExit status: %s\n", cmd->exit_status);
}

/* Text for troff: backslashes doubled, dashes escaped, a leading dot or quote guarded. */
static void man_text(FILE *f, const char *s, size_t n)
{
	bool bol = true;

	for (size_t i = 0; i < n && s[i]; i++) {
		char ch = s[i];
		if (bol && (ch == '.' || ch == '\''))
			fputs("\\&", f);
		if (ch == '\\')
			fputs("\\e", f);
		else if (ch == '-')
			fputs("\\-", f);
		else
			fputc(ch, f);
		bol = ch == '\n';
	}
}

static void man_para(FILE *f, const char *s)
{
	while (s && *s) {
		const char *end = strstr(s, "\n\n");
		size_t n = end ? (size_t)(end - s) : strlen(s);
		fputs(".PP\n", f);
		man_text(f, s, n);
		fputc('\n', f);
		s = end ? end + 2 : s + n;
	}
}

static void man_group(FILE *f, const struct opt_group *g)
{
	for (const struct opt *o = g->opts; o->name; o++) {
		char text[512];
		const char *help = help_of(o, text, sizeof(text));

		fputs(".TP\n", f);
		if (o->letter)
			fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
		fputs("\\fB\\-\\-", f);
		man_text(f, o->name, strlen(o->name));
		fputs("\\fR", f);
		if (o->arg)
			fprintf(f, " \\fI%s\\fR", o->arg);
		fputc('\n', f);
		man_text(f, help, strlen(help));
		if (o->example && strcmp(o->example, "--help")) {
			fputs(". Example: \\fB", f);
			man_text(f, o->example, strlen(o->example));
			fputs("\\fR", f);
		}
		fputc('\n', f);
	}
}

void options_man_page(FILE *f, const struct command *const *cmds, const struct man_line *more)
{
	fputs(".SH SYNOPSIS\n", f);
	for (unsigned i = 0; cmds[i]; i++) {
		const char *s = cmds[i]->synopsis ? cmds[i]->synopsis : "";
		do {
			size_t n = strcspn(s, "\n");
			fprintf(f, ".B %s %s\n", PROG(cmds[i]), cmds[i]->name);
			man_text(f, s, n);
			fputs("\n.br\n", f);
			s += n;
			s += *s == '\n';
		} while (*s);
	}
	for (unsigned i = 0; more && more[i].words; i++) {
		fprintf(f, ".B %s ", PROG(cmds[0]));
		man_text(f, more[i].words, strlen(more[i].words));
		fputc('\n', f);
		if (more[i].args) {
			man_text(f, more[i].args, strlen(more[i].args));
			fputc('\n', f);
		}
		fputs(".br\n", f);
	}
	fputs(".SH COMMANDS\n", f);
	for (unsigned i = 0; cmds[i]; i++) {
		const struct command *cmd = cmds[i];
		fprintf(f, ".SS %s %s\n", PROG(cmd), cmd->name);
		man_text(f, cmd->summary, strlen(cmd->summary));
		fputc('\n', f);
		if (cmd->subcommands) {
			fputs(".PP\nSubcommands: ", f);
			subcommand_words(f, cmd, ", ");
			fputc('\n', f);
		}
		man_para(f, cmd->about);
		for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++) {
			const char *title = heading(cmd->groups[g], g ? cmd->groups[g - 1] : NULL);
			if (title)
				fprintf(f, ".PP\n\\fI%s:\\fR\n", title);
			man_group(f, cmd->groups[g]);
		}
		if (cmd->examples) {
			fputs(".PP\nExamples:\n.nf\n", f);
			man_text(f, cmd->examples, strlen(cmd->examples));
			fputs(".fi\n", f);
		}
	}
}

void options_man(FILE *f, const struct command *const *cmds)
{
	static const struct man_line more[] = {
		{.words = "help", .args = "[COMMAND | --man | --completion]"},
		{.words = "--version"},
		{0},
	};

	options_man_page(f, cmds, more);
}

static void completion_words(FILE *f, const struct command *cmd)
{
	for (unsigned g = 0;; g++) {
		const struct opt_group *grp = cmd->groups && cmd->groups[g] ? cmd->groups[g] : NULL;
		for (const struct opt *o = grp ? grp->opts : help_opts; o->name; o++) {
			fprintf(f, " --%s", o->name);
			if (o->letter)
				fprintf(f, " -%c", o->letter);
		}
		if (!grp)
			break;
	}
}

static void completion_values(FILE *f, const struct command *cmd)
{
	for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++)
		for (const struct opt *o = cmd->groups[g]->opts; o->name; o++) {
			if (!o->arg)
				continue;
			fprintf(f, "\t\t%s/--%s", cmd->name, o->name);
			if (o->letter)
				fprintf(f, "|%s/-%c", cmd->name, o->letter);
			if (o->values)
				fprintf(f, ") COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return;;\n",
					o->values);
			else if (!strcmp(o->arg, "FILE") || !strcmp(o->arg, "DIR"))
				fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n", f);
			else
				fputs(") return;;\n", f);
		}
}

void options_completion(FILE *f, const struct command *const *cmds)
{
	fputs("# bash completion for iorate, written by 'iorate help --completion'\n"
	      "_iorate() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '",
	      f);
	for (unsigned i = 0; cmds[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
	fputs("' -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tlocal cmd=${COMP_WORDS[1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 2 ] && [[ $cur != -* ]]; then\n"
	      "\t\tcase $cmd in\n",
	      f);
	for (unsigned i = 0; cmds[i]; i++) {
		if (!cmds[i]->subcommands)
			continue;
		fprintf(f, "\t\t%s) COMPREPLY=($(compgen -W '", cmds[i]->name);
		subcommand_words(f, cmds[i], " ");
		fputs("' -- \"$cur\")); return;;\n", f);
	}
	fputs("\t\tesac\n\tfi\n"
	      "\tcase \"$cmd/$prev\" in\n",
	      f);
	for (unsigned i = 0; cmds[i]; i++)
		completion_values(f, cmds[i]);
	fputs("\tesac\n\tlocal words\n\tcase $cmd in\n", f);
	for (unsigned i = 0; cmds[i]; i++) {
		fprintf(f, "\t%s) words='", cmds[i]->name);
		completion_words(f, cmds[i]);
		fputs("';;\n", f);
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -o filenames -F _iorate iorate\n",
	      f);
}
