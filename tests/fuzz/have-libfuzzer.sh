#!/bin/sh
# Exits 0 when CC (default clang) links a libFuzzer target with ASan+UBSan; otherwise says why
# on stdout (for a "skipped" line) and on stderr, and exits 1.
cc=${1:-clang}
why() { echo "$*"; echo "fuzz: $*" >&2; exit 1; }
command -v "$cc" >/dev/null 2>&1 ||
	why "$cc not found ('make deps' installs clang and libclang-rt-14-dev)"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' \
	>"$dir/t.c"
"$cc" -fsanitize=fuzzer,address,undefined -o "$dir/t" "$dir/t.c" >"$dir/log" 2>&1 ||
	why "$cc cannot link a libFuzzer target ($(head -1 "$dir/log");" \
		"'make deps' installs libclang-rt-14-dev)"
exit 0
