#!/bin/sh
# run-tests.sh -- the Node client's tests against the real daemon (ctest node_client).
#
# Usage: sh node/run-tests.sh [BUILD_DIR]   (default: $SUDOKUD_BUILD_DIR, else build/)
# Installs the one dependency first when node_modules lacks it (npm ci from
# package-lock.json, so the install is the recorded one), then runs every
# test/*.test.js with node's own runner.  Fails unless at least one test ran
# and passed, none failed and every file ran a test: a run (or a file) that
# tests nothing is not a pass.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
    SUDOKUD_BUILD_DIR=$(cd "$1" && pwd)
    export SUDOKUD_BUILD_DIR
fi
cd "$here"

if [ ! -f node_modules/@msgpack/msgpack/package.json ]; then
    if [ -f package-lock.json ]; then
        npm ci --no-audit --no-fund
    else
        npm install --no-audit --no-fund
    fi
fi

tap=$(mktemp)
trap 'rm -f "$tap"' EXIT INT TERM
rc=0
node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" test/*.test.js || rc=$?

count() { sed -n "s/^# $1 \([0-9][0-9]*\)\$/\1/p" "$tap" | tail -n 1; }
pass=$(count pass)
fail=$(count fail)
echo "node: ${pass:-0} passed, ${fail:-0} failed, $(count skipped) skipped"
if [ "$rc" -ne 0 ]; then
    exit "$rc"
fi
if [ "${pass:-0}" -lt 1 ] || [ "${fail:-1}" -ne 0 ]; then
    echo "node: no test ran, or a count is missing: failing the run" >&2
    exit 1
fi
# node counts a file that declares no test as one passing test named by
# its path: such a file tested nothing.
if grep -q '^ok [0-9][0-9]* - .*\.test\.js$' "$tap"; then
    echo "node: a test file ran no test: failing the run" >&2
    grep '^ok [0-9][0-9]* - .*\.test\.js$' "$tap" >&2
    exit 1
fi
