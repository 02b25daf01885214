#ifndef IORATE_STATS_WELCH_H
#define IORATE_STATS_WELCH_H
#include <stddef.h>

/*
 * Welch's t-test of samples a and b: *p, two-sided (Student's t with Welch-Satterthwaite's
 * degrees of freedom). Neither sample varying gives 1 for equal means, else 0. 0, or -EDOM
 * when either has fewer than 2 values.
 */
int stats_welch_p(const double *a, size_t na, const double *b, size_t nb, double *p);

#endif
