#!/bin/sh
# Writes a man page from its template, docs/NAME.1.in, and the command and option tables of the
# built binary NAME ('NAME help --man'), so the page lists exactly what each command's --help
# does: iorate for docs/iorate.1, iorate-mpi for docs/iorate-mpi.1.
# usage: gen-man.sh BINARY > docs/$(basename BINARY).1
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
' "$dir/$(basename "$bin").1.in"
