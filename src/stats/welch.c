/*
 * Welch's t-test (docs/history.md, "Beyond noise"): whether two samples' means differ, without
 * assuming the two are equally noisy; the p-value from the regularized incomplete beta function.
 */
#include <errno.h>
#include <math.h>

#include "stats/welch.h"

/*
 * The continued fraction of the regularized incomplete beta function I_x(a, b) (DLMF 8.17.22),
 * evaluated by the modified Lentz method; it converges quickly for x < (a + 1) / (a + b + 2).
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, step;
		double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));

		d = 1 + even * d;
		c = 1 + even / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		d = 1 + odd * d;
		c = 1 + odd / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b) for a, b > 0 and 0 <= x <= 1. */
static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* The mean and the sample variance (n - 1), in two passes for accuracy. */
static void moments(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = q / (double)(n - 1);
}

int stats_welch_p(const double *a, size_t na, const double *b, size_t nb, double *p)
{
	double ma, va, mb, vb, sa, sb, se2, t, df;

	if (na < 2 || nb < 2)
		return -EDOM;
	moments(a, na, &ma, &va);
	moments(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	/* Neither run varied at all: any difference of the means is beyond their (zero) noise. */
	if (!(se2 > 0)) {
		*p = ma == mb ? 1 : 0;
		return 0;
	}
	t = (mb - ma) / sqrt(se2);
	df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	/* Two-sided: P(|T| >= |t|) for Student's t with df degrees of freedom. */
	*p = incomplete_beta(df / 2, 0.5, df / (df + t * t));
	return 0;
}
