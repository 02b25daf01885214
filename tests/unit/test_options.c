#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

/* Parses a command line of `iorate run` options (no targets needed); returns options_parse's. */
static int parse(struct job *j, struct output_opts *out, const char *line)
{
	char copy[512], *argv[32], *save = NULL;
	struct opt_ctx c = {.cmd = &cmd_run, .job = j, .out = out};
	int argc = 0, first;

	snprintf(copy, sizeof(copy), "run %s", line);
	for (char *p = strtok_r(copy, " ", &save); p; p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	job_release(j);
	job_init(j);
	output_opts_init(out);
	return options_parse(&c, argc, argv, &first);
}

static void exclusive_pairs(void **state)
{
	static const char *refused[] = {
		"--json --csv",
		"-r -s",
		"-s --random",
		"--format csv --json",
		"--csv --format json",
		"--cap-mbps 60 --cap-mibps 60",
		"--vm-cap-mibps 1 --vm-cap-mbps 2",
	};
	struct output_opts out;
	struct job j;

	job_init(&j);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (parse(&j, &out, refused[i]) != EXIT_USAGE)
			fail_msg("'%s' was accepted", refused[i]);
	/* The same option twice: the last one wins, as before. */
	assert_int_equal(parse(&j, &out, "-t 2 -t 4 -s -s --format csv --format json"), 0);
	assert_int_equal(j.threads, 4);
	assert_int_equal(j.pattern, PATTERN_SEQUENTIAL);
	assert_string_equal(out.fmt->name, "json");
	assert_int_equal(parse(&j, &out, "--json --json -r"), 0);
	assert_string_equal(out.fmt->name, "json");
	assert_int_equal(j.pattern, PATTERN_RANDOM);
	job_release(&j);
}

/* Every option a command takes, in its groups' order. */
static unsigned options_of(const struct command *cmd, const struct opt **out, unsigned max)
{
	unsigned n = 0;

	for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++)
		for (const struct opt *o = cmd->groups[g]->opts; o->name; o++)
			if (n < max)
				out[n++] = o;
	return n;
}

/* Two options of one command that write one field contradict each other unless grouped. */
static void shared_fields_are_grouped(void **state)
{
	unsigned members[EXCL_N] = {0};

	for (unsigned i = 0; iorate_commands[i]; i++) {
		const struct command *cmd = iorate_commands[i];
		const struct opt *o[200];
		unsigned n = options_of(cmd, o, 200);

		for (unsigned a = 0; a < n; a++) {
			members[o[a]->excl] += cmd == &cmd_run;
			for (unsigned b = a + 1; b < n; b++) {
				if (!strcmp(o[a]->name, o[b]->name))
					fail_msg("%s: --%s is listed twice", cmd->name, o[a]->name);
				if (o[a]->letter && o[a]->letter == o[b]->letter)
					fail_msg("%s: -%c is both --%s and --%s", cmd->name,
						 o[a]->letter, o[a]->name, o[b]->name);
				if (o[a]->in != OPT_IN_NONE && o[a]->in == o[b]->in &&
				    o[a]->off == o[b]->off && (o[a]->excl != o[b]->excl || !o[a]->excl))
					fail_msg("%s: --%s and --%s write one field but are not one "
						 "exclusive group", cmd->name, o[a]->name, o[b]->name);
			}
		}
	}
	/* Every group has at least two members in run, or it excludes nothing. */
	for (unsigned g = EXCL_NONE + 1; g < EXCL_N; g++)
		assert_true(members[g] >= 2);
}

/* A letter or a long name means one thing in every command that has it. */
static void one_meaning_everywhere(void **state)
{
	for (unsigned i = 0; iorate_commands[i]; i++) {
		const struct opt *a[200];
		unsigned na = options_of(iorate_commands[i], a, 200);
		for (unsigned k = i + 1; iorate_commands[k]; k++) {
			const struct opt *b[200];
			unsigned nb = options_of(iorate_commands[k], b, 200);
			for (unsigned x = 0; x < na; x++)
				for (unsigned y = 0; y < nb; y++) {
					if (a[x]->letter && a[x]->letter == b[y]->letter &&
					    strcmp(a[x]->name, b[y]->name))
						fail_msg("-%c is --%s in %s but --%s in %s",
							 a[x]->letter, a[x]->name,
							 iorate_commands[i]->name, b[y]->name,
							 iorate_commands[k]->name);
					if (!strcmp(a[x]->name, b[y]->name) &&
					    (!a[x]->arg) != (!b[y]->arg))
						fail_msg("--%s takes a value in one command and not in "
							 "another (%s, %s)", a[x]->name,
							 iorate_commands[i]->name,
							 iorate_commands[k]->name);
				}
		}
	}
}

/* Where a command, and the front ends' table, take their rows. */
static const struct command *const *all_commands(void)
{
	static const struct command *cmds[64];
	unsigned n = 0;

	for (unsigned i = 0; iorate_commands[i] && n < 62; i++)
		cmds[n++] = iorate_commands[i];
	cmds[n++] = &cmd_run_options;
	cmds[n] = NULL;
	return cmds;
}

/*
 * Names whose rows state one help text but hold their values to bounds of their own: verify's
 * --seed starts at 1 (0 is its scan's "any run"); plan's --iops goes to 1e9 (a target), cost's
 * to 1e8.
 */
static bool bounds_apart(const char *name)
{
	return !strcmp(name, "seed") || !strcmp(name, "iops");
}

/* The differences of two rows of one long name said, into why; true when any. */
static bool rows_differ(const struct opt *a, const struct opt *b, char *why, size_t len)
{
	const char *arg_a = a->arg ? a->arg : "", *arg_b = b->arg ? b->arg : "";

	if (strcmp(a->help, b->help))
		snprintf(why, len, "help '%s' and '%s'", a->help, b->help);
	else if (strcmp(arg_a, arg_b))
		snprintf(why, len, "argument %s and %s", arg_a, arg_b);
	else if ((a->min != b->min || a->max != b->max) && !bounds_apart(a->name))
		snprintf(why, len, "bounds %llu..%llu and %llu..%llu", (unsigned long long)a->min,
			 (unsigned long long)a->max, (unsigned long long)b->min,
			 (unsigned long long)b->max);
	else
		return false;
	return true;
}

/*
 * A long name means one thing with one default everywhere: every row that has it, in whichever
 * command, has one help text (which states the default), argument name, bounds and letter.
 */
static void one_row_per_name(void **state)
{
	const struct command *const *cmds = all_commands();
	const struct opt *rows[600];
	unsigned n = 0, bad = 0;

	for (unsigned i = 0; cmds[i]; i++) {
		const struct opt *o[200];
		unsigned no = options_of(cmds[i], o, 200);

		for (unsigned k = 0; k < no; k++) {
			bool known = false;
			for (unsigned r = 0; r < n && !known; r++)
				known = rows[r] == o[k];
			if (!known && n < 600)
				rows[n++] = o[k];
		}
	}
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = a + 1; b < n; b++) {
			char why[1024];

			if (strcmp(rows[a]->name, rows[b]->name) ||
			    !rows_differ(rows[a], rows[b], why, sizeof(why)))
				continue;
			print_message("--%s: two rows differ: %s\n", rows[a]->name, why);
			bad++;
		}
	if (bad)
		fail_msg("%u pairs of rows give one long name two meanings", bad);
}

/* A command takes each row once: a group listed twice, or a row in two of its groups, fails. */
static void each_row_taken_once(void **state)
{
	const struct command *const *cmds = all_commands();

	for (unsigned i = 0; cmds[i]; i++) {
		const struct opt *o[200];
		unsigned no = options_of(cmds[i], o, 200);

		for (unsigned a = 0; a < no; a++)
			for (unsigned b = a + 1; b < no; b++)
				if (o[a] == o[b])
					fail_msg("%s takes the row of --%s twice", cmds[i]->name,
						 o[a]->name);
	}
}

/* --help of every command lists every option it takes, and the man page does too. */
static void help_and_man_list_every_option(void **state)
{
	char *man = NULL;
	size_t manlen = 0;
	FILE *mf = open_memstream(&man, &manlen);

	options_man(mf, iorate_commands);
	fclose(mf);
	for (unsigned i = 0; iorate_commands[i]; i++) {
		const struct command *cmd = iorate_commands[i];
		const struct opt *o[200];
		unsigned n = options_of(cmd, o, 200);
		char *text = NULL, want[96];
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		options_help(f, cmd);
		fclose(f);
		for (unsigned k = 0; k < n; k++) {
			snprintf(want, sizeof(want), "--%s", o[k]->name);
			if (!strstr(text, want))
				fail_msg("'iorate %s --help' lacks %s", cmd->name, want);
		}
		snprintf(want, sizeof(want), ".SS iorate %s\n", cmd->name);
		if (!strstr(man, want))
			fail_msg("the man page lacks a section for %s", cmd->name);
		free(text);
	}
	free(man);
}

/*
 * A command's subcommands: the entry lists the word each synopsis line starts with, and no
 * other; the dispatch finds each, and the completion offers them as the second word.
 */
static void subcommands_match_synopsis_and_completion(void **state)
{
	char *comp = NULL;
	size_t complen = 0;
	FILE *cf = open_memstream(&comp, &complen);
	unsigned with = 0;

	options_completion(cf, iorate_commands);
	fclose(cf);
	for (unsigned i = 0; iorate_commands[i]; i++) {
		const struct command *cmd = iorate_commands[i];
		char want[160] = "", word[32];
		size_t at = 0;

		if (!cmd->subcommands)
			continue;
		with++;
		for (const char *s = cmd->synopsis; *s; s += strcspn(s, "\n"), s += *s == '\n') {
			snprintf(word, sizeof(word), "%.*s", (int)strcspn(s, " \n"), s);
			if (options_subcommand(cmd, word) < 0)
				fail_msg("'iorate %s %s' is not in the entry's subcommands", cmd->name,
					 word);
		}
		for (int k = 0; cmd->subcommands[k]; k++) {
			assert_int_equal(options_subcommand(cmd, cmd->subcommands[k]), k);
			at += (size_t)snprintf(want + at, sizeof(want) - at, "%s%s", k ? " " : "",
					       cmd->subcommands[k]);
		}
		assert_int_equal(options_subcommand(cmd, "nothing"), -1);
		assert_int_equal(options_subcommand(cmd, NULL), -1);
		char line[256];
		snprintf(line, sizeof(line), "\t\t%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\"))",
			 cmd->name, want);
		if (!strstr(comp, line))
			fail_msg("the completion lacks: %s", line);
	}
	assert_true(with >= 3);        /* history, catalog, cost */
	assert_int_equal(options_subcommand(&cmd_run, "list"), -1);
	free(comp);
}

/* A front end applies values under its own names: the reason comes back, nothing printed. */
static void options_set_for_front_ends(void **state)
{
	struct output_opts out;
	struct job j;
	struct opt_ctx c = {.cmd = &cmd_run, .job = &j, .out = &out};

	job_init(&j);
	output_opts_init(&out);
	assert_int_equal(options_set(&c, "depth", "8"), 0);
	assert_int_equal(j.depth, 8);
	assert_int_equal(options_set(&c, "bs", "64k"), 0);
	assert_int_equal(j.bs, 65536);
	assert_int_equal(options_set(&c, "depth", "0x10"), -EINVAL);
	assert_non_null(strstr(c.why, "'0x10'"));
	assert_int_equal(options_set(&c, "bs", "2G"), -EINVAL);
	assert_string_equal(c.why, "'2G' is larger than the 1GiB limit");
	assert_int_equal(options_set(&c, "nope", "1"), -ENOENT);
	job_release(&j);
}

/*
 * A name a command lists as moved is not one of its options (the entry would never be read),
 * and is refused; mark's --interval is one.
 */
static void moved_names_are_refused(void **state)
{
	unsigned with = 0;

	for (unsigned i = 0; iorate_commands[i]; i++) {
		const struct command *cmd = iorate_commands[i];

		for (const struct opt_moved *m = cmd->moved; m && m->name; m++) {
			char arg[64], *argv[] = {(char *)cmd->name, arg, "1", NULL};
			struct opt_ctx c = {.cmd = cmd};
			int first;

			with++;
			if (options_find(cmd, m->name))
				fail_msg("%s: --%s is listed as moved but is an option", cmd->name,
					 m->name);
			/* Refused with where the name went, on stderr (an unknown name has no "instead"). */
			snprintf(arg, sizeof(arg), "--%s", m->name);
			fflush(stderr);
			FILE *cap = tmpfile();
			int saved = dup(STDERR_FILENO);
			char said[1024] = "";

			assert_non_null(cap);
			assert_true(saved >= 0 && dup2(fileno(cap), STDERR_FILENO) >= 0);
			int rc = options_parse(&c, 3, argv, &first);

			fflush(stderr);
			dup2(saved, STDERR_FILENO);
			close(saved);
			rewind(cap);
			said[fread(said, 1, sizeof(said) - 1, cap)] = '\0';
			fclose(cap);
			assert_int_equal(rc, EXIT_USAGE);
			if (!strstr(said, m->instead))
				fail_msg("%s --%s: said '%s', not where it went", cmd->name, m->name, said);
		}
	}
	assert_true(with >= 1);
	assert_null(options_find(&cmd_mark, "interval"));
	assert_non_null(options_find(&cmd_mark, "pause"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exclusive_pairs),
		cmocka_unit_test(shared_fields_are_grouped),
		cmocka_unit_test(one_meaning_everywhere),
		cmocka_unit_test(one_row_per_name),
		cmocka_unit_test(each_row_taken_once),
		cmocka_unit_test(help_and_man_list_every_option),
		cmocka_unit_test(options_set_for_front_ends),
		cmocka_unit_test(subcommands_match_synopsis_and_completion),
		cmocka_unit_test(moved_names_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
