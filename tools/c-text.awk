# C text for the source checks (tools/check-*.sh): blank(line) returns the line with its comments,
# strings and character constants turned into spaces, so that what they hold does not count;
# st carries a comment from one line to the next (reset it to 0 at each file).
# usage: awk -f tools/c-text.awk -f PROGRAM FILE...
function blank(s,   out, i, n, c, d) {
	n = length(s); out = ""
	if (st == 2 || st == 3 || st == 4) st = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1); d = substr(s, i + 1, 1)
		if (st == 0) {
			if (c == "/" && d == "*") { st = 1; out = out "  "; i++; continue }
			if (c == "/" && d == "/") { st = 2; out = out "  "; i++; continue }
			if (c == "\"") st = 3
			else if (c == "\047") st = 4
			out = out c
		} else if (st == 1) {
			if (c == "*" && d == "/") { st = 0; out = out "  "; i++; continue }
			out = out " "
		} else if (st == 2) {
			out = out " "
		} else {
			if (c == "\\") { out = out "  "; i++; continue }
			if ((st == 3 && c == "\"") || (st == 4 && c == "\047")) st = 0
			out = out (st ? " " : c)
		}
	}
	return out
}
