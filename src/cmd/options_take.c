/*
 * Options given several times. The option table keeps one value per option (the last); a sweep
 * takes several --bs. options_take() lifts every occurrence of one option out of argv, walking
 * the table to know which options consume the next word, and leaves the rest to options_parse.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

static const struct opt *find_long(unsigned group, const char *name, size_t len)
{
	const struct opt *hit = NULL;
	unsigned n = 0;

	for (const struct opt *o = run_options; o->name; o++) {
		if (!(o->groups & group) || strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		hit = o;
		n++;
	}
	return n == 1 ? hit : NULL; /* getopt_long accepts an unambiguous prefix too */
}

static const struct opt *find_letter(unsigned group, char c)
{
	for (const struct opt *o = run_options; o->name; o++)
		if ((o->groups & group) && o->letter == c)
			return o;
	return NULL;
}

/* Keeps a rewritten argv word alive until options_take_release(). */
static char *own(struct opt_taken *t, char *word)
{
	char **n = word ? realloc(t->owned, (t->nowned + 1) * sizeof(*n)) : NULL;

	if (!n) {
		free(word);
		return NULL;
	}
	(t->owned = n)[t->nowned++] = word;
	return word;
}

int options_take(struct opt_taken *t, unsigned group, const char *name, int *argc, char **argv,
		 int (*add)(void *ctx, const char *val), void *ctx)
{
	const struct opt *want = find_long(group, name, strlen(name));
	int out = 1, r;

	if (!want || !want->arg)
		return run_error("options_take: --%s is not an option with a value", name);
	for (int i = 1; i < *argc; i++) {
		char *a = argv[i];
		const char *val = NULL;
		bool drop = false;

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			const struct opt *o = find_long(group, a + 2, len);
			if (o == want) {
				drop = true;
				val = eq ? eq + 1 : i + 1 < *argc ? argv[++i] : NULL;
				if (!val)
					return usage_error("--%s: needs an argument (see 'iorate "
							   "%s --help')", name, argv[0]);
			} else if (o && o->arg && !eq && i + 1 < *argc) {
				argv[out++] = a; /* and its value, below */
				a = argv[++i];
			}
		} else if (a[0] == '-' && a[1]) {
			/* A cluster of letters: -rb64k, -b 8k, -t8. */
			for (size_t k = 1; a[k]; k++) {
				const struct opt *o = find_letter(group, a[k]);
				if (!o || !o->arg)
					continue;
				if (o == want) {
					if (a[k + 1])
						val = a + k + 1;
					else if (i + 1 < *argc)
						val = argv[++i];
					else
						return usage_error("-%c: needs an argument (see "
								   "'iorate %s --help')", o->letter,
								   argv[0]);
					drop = true;
					/* Keep the letters before it: -rb64k becomes -r. */
					if (k > 1 && !(argv[out++] = own(t, strndup(a, k))))
						return run_error("out of memory");
				} else if (!a[k + 1] && i + 1 < *argc) {
					argv[out++] = a;
					a = argv[++i];
				}
				break;
			}
		}
		if (val && (r = add(ctx, val)))
			return r;
		if (!drop)
			argv[out++] = a;
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

void options_take_release(struct opt_taken *t)
{
	for (size_t i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	t->owned = NULL;
	t->nowned = 0;
}
