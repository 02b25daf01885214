#!/bin/sh
# No circle of files inside a directory of src/ (tools/check-circles.py reads the built objects'
# symbols): the build to read is $CHECK_BUILD (tests/run-all.sh sets it), else build.
# usage: check-circles.sh [BUILD]
exec python3 "$(dirname "$0")/check-circles.py" "${1:-${CHECK_BUILD:-build}}"
