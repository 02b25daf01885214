#!/bin/sh
# Writes docs/iorate.1 from docs/iorate.1.in and the option table of the built binary, so the
# man page lists exactly the options `iorate run --help` does.
# usage: gen-man.sh IORATE_BINARY > docs/iorate.1
set -eu
bin=$1
dir=$(dirname "$0")/../docs
version=$(cat "$(dirname "$0")/../VERSION")
opts=$(mktemp)
trap 'rm -f "$opts"' EXIT
"$bin" run --man-options >"$opts"
awk -v v="$version" -v f="$opts" '
	/@OPTIONS@/ { while ((getline l < f) > 0) print l; next }
	{ gsub(/@VERSION@/, v); print }
' "$dir/iorate.1.in"
