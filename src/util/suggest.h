#ifndef IORATE_UTIL_SUGGEST_H
#define IORATE_UTIL_SUGGEST_H
#include <stddef.h>

/*
 * "Did you mean": the closest of a set of words to one the user mistyped, without case, by
 * edit distance (a swap of two neighbours counts one) or as a prefix. Feed every candidate
 * with suggest_add(), then print suggest_list(). One helper for every unknown word: options,
 * fio's options and values, engines, VM sizes, disk types, regions and currencies.
 */
struct suggest {
	const char *word;
	char best[3][64];        /* copies: candidates may be built on the stack */
	unsigned dist[3];
};

void suggest_init(struct suggest *s, const char *word);
/* key is compared with the word; shown (key when NULL) is what the suggestion prints. */
void suggest_add(struct suggest *s, const char *key, const char *shown);
/* Each word of a space-separated list ("read write randread"). */
void suggest_add_words(struct suggest *s, const char *words);
/* The closest, best first, each after prefix ("--"): "--bs, --batch"; "" when none is close. */
const char *suggest_list(const struct suggest *s, const char *prefix, char *out, size_t len);
/* "; did you mean --bs?" or "": for the end of a refusal. */
const char *suggest_tail(const struct suggest *s, const char *prefix, char *out, size_t len);
/* Optimal string alignment distance without case; 99 past 64 characters. */
unsigned suggest_distance(const char *a, const char *b);

#endif
