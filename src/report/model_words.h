#ifndef IORATE_REPORT_MODEL_WORDS_H
#define IORATE_REPORT_MODEL_WORDS_H
#include <stddef.h>

#include "model/cost.h"
#include "model/hostcache.h"
#include "model/predict.h"

/*
 * The model's codes and figures in words: a note, a limit's detail, what gave the host cache's
 * hits, a cost line. Each writes buf (cut to len, as the outputs always cut them) and returns
 * it; text and JSON print the same sentence.
 */

/* Room the outputs give each sentence. */
#define MODEL_WORDS_NOTE 200
#define MODEL_WORDS_DETAIL 160
#define MODEL_WORDS_HIT 200
#define MODEL_WORDS_COST 96

/* "D8s_v5 publishes no cached limit: host-cache hits are counted at its uncached limit" */
const char *model_words_note(const struct model_note *n, char *buf, size_t len);
/* "2 x P10 set the pace of 4 members: 500 IOPS each" */
const char *model_words_detail(const struct model_detail *d, char *buf, size_t len);
/* "working set 1 GiB fits the 86 GiB host cache: reads hit after the first pass" */
const char *model_words_hit(const struct model_hit *h, char *buf, size_t len);
/* "2 x P10 at 19.71 per month" */
const char *model_words_cost(const struct cost_line *l, char *buf, size_t len);

#endif
