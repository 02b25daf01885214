#ifndef IORATE_MODEL_MODEL_JSON_H
#define IORATE_MODEL_MODEL_JSON_H
#include <jansson.h>

#include "model/cost.h"
#include "model/predict.h"

/* The JSON of a prediction (schema in docs/model.md): predicted, binding, limits, burst,
 * timeline. A new reference, or NULL when out of memory. */
json_t *model_result_json(const struct model_config *m, const struct model_workload *w,
			  const struct model_result *r);

/* The monthly cost of a configuration, as 'cost config' and 'plan' print it: total_month,
 * currency and lines of {what, month, source}. A new reference, or NULL when out of memory. */
json_t *model_cost_json(const struct cost_breakdown *b);

/* "DS2 + 2 x P30 (azure-2015)" */
void model_config_name(const struct model_config *m, char *out, size_t len);

#endif
