#!/bin/sh
# units.sh -- check the systemd units with systemd-analyze.
#
#   units.sh verify   SRC_DIR BIN_DIR   `systemd-analyze verify` prints nothing
#   units.sh security SRC_DIR BIN_DIR   offline security exposure <= 1.5
#
# The service is generated from systemd/sudokud.service.in the way
# cmake/install.cmake does, but with ExecStart= pointing at the build tree's
# sudokud: verify insists that the binary exists.  Man pages are not checked
# here (--man=no): they are not installed system-wide in a build tree; the
# install test verifies the installed units with their man pages.
# Exit 77 (skip) only when systemd-analyze is not installed.
set -eu
mode=$1 src=$2 bin=$3
max_exposure=1.5

command -v systemd-analyze >/dev/null 2>&1 || { echo "SKIP: no systemd-analyze"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
sed "s#@SUDOKUD_PATH@#$bin/sudokud#g" "$src/systemd/sudokud.service.in" >"$tmp/sudokud.service"
cp "$src/systemd/sudokud.socket" "$tmp/"
if grep -q '@[A-Z_]*@' "$tmp/sudokud.service"; then
    echo "FAIL: unsubstituted template variable in sudokud.service" >&2
    exit 1
fi

case $mode in
verify)
    [ -x "$bin/sudokud" ] || { echo "FAIL: $bin/sudokud not built" >&2; exit 1; }
    out=$(cd "$tmp" && systemd-analyze verify --man=no sudokud.socket sudokud.service 2>&1) || {
        echo "FAIL: systemd-analyze verify failed:" >&2
        echo "$out" >&2
        exit 1
    }
    if [ -n "$out" ]; then
        echo "FAIL: systemd-analyze verify printed:" >&2
        echo "$out" >&2
        exit 1
    fi
    echo "systemd-analyze verify: clean"
    ;;
security)
    out=$(cd "$tmp" && systemd-analyze security --offline=true --no-pager sudokud.service 2>&1) || true
    line=$(printf '%s\n' "$out" | grep 'Overall exposure level for sudokud.service' || true)
    if [ -z "$line" ]; then
        echo "FAIL: no exposure level in:" >&2
        echo "$out" >&2
        exit 1
    fi
    echo "$line"
    level=$(printf '%s\n' "$line" | sed 's/.*: *\([0-9][0-9.]*\).*/\1/')
    if ! awk -v l="$level" -v m="$max_exposure" 'BEGIN { exit !(l + 0 <= m + 0) }'; then
        printf '%s\n' "$out" | grep '✗' >&2 || true
        echo "FAIL: exposure $level > $max_exposure" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: units.sh verify|security SRC_DIR BIN_DIR" >&2
    exit 2
    ;;
esac
