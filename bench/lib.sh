# Shared by bench/run.sh and bench/device.sh (sourced): printing, medians and ratios of the
# runs' numbers, and the JSON of the results. awk is fine here: these are rates and ratios of
# IOPS, never byte counts.

say() { printf '%s\n' "$*"; }
note() { printf 'bench: %s\n' "$*" >&2; }

median() {
	printf '%s\n' "$@" | grep -E '^[0-9.]+$' | sort -g | awk '
		{ a[NR] = $1 }
		END { if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2];
		      else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# ratio A B: A / B to 3 decimals, empty when either is missing.
ratio() {
	[ -n "$1" ] && [ -n "$2" ] || { echo ""; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "" }'
}

# paired "A runs" "B runs": the median over rounds of A_i / B_i (a failed run is "-" and drops
# its round). Each round runs the contenders back to back, so this cancels the machine's drift
# between rounds, which the ratio of the two medians does not.
paired() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, x, " "); split(b, y, " "); n = 0
		for (i = 1; i <= na; i++)
			if (x[i] ~ /^[0-9.]+$/ && y[i] ~ /^[0-9.]+$/ && y[i] > 0) r[++n] = x[i] / y[i]
		if (n == 0) { print ""; exit }
		for (i = 2; i <= n; i++) { v = r[i]; for (j = i - 1; j >= 1 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
		printf "%.3f\n", (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2 }'
}

# ge A B: "yes" when A >= B, "no" when not, "n/a" when either is missing.
ge() {
	[ -n "$1" ] && [ -n "$2" ] || { echo "n/a"; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { print (a >= b) ? "yes" : "no" }'
}

fmt() { [ -n "$1" ] && printf '%.0f' "$1" || printf 'n/a'; }
jnum() { [ -n "$1" ] && printf '%s' "$1" || printf 'null'; }
jlist() {
	s="" sep=""
	for x in "$@"; do [ -n "$x" ] && [ "$x" != - ] && { s="$s$sep$x"; sep=", "; }; done
	printf '[%s]' "$s"
}
jstr() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
