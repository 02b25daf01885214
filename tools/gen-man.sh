#!/bin/sh
# Writes docs/iorate.1 from docs/iorate.1.in and the command and option tables of the built
# binary ('iorate help --man'), so the man page lists exactly what each command's --help does.
# usage: gen-man.sh IORATE_BINARY > docs/iorate.1
set -eu
bin=$1
dir=$(dirname "$0")/../docs
version=$(cat "$(dirname "$0")/../VERSION")
gen=$(mktemp)
trap 'rm -f "$gen"' EXIT
"$bin" help --man >"$gen"
awk -v v="$version" -v f="$gen" '
	/@SYNOPSIS_AND_COMMANDS@/ { while ((getline l < f) > 0) print l; next }
	{ gsub(/@VERSION@/, v); print }
' "$dir/iorate.1.in"
