#!/bin/sh
# deps.sh -- install what sudokud needs to build and test, from Debian's archive.
#
# Idempotent: asks apt-get only for packages that are missing, so a machine
# that has them all never touches the network.  Needs root (or sudo) for the
# install itself.  Set SUDOKU_DEPS_EXTRA to add packages.
set -eu

pkgs="gcc g++ make cmake pkg-config libuv1-dev libmsgpack-dev libcmocka-dev libsystemd-dev \
systemd python3 clang libclang-rt-14-dev valgrind clang-format cppcheck git libcadical-dev \
debootstrap systemd-container python3-msgpack python3-pytest nodejs npm mandoc ${SUDOKU_DEPS_EXTRA:-}"

missing=""
for p in $pkgs; do
    # node and npm count as present whatever package brought them: a
    # NodeSource nodejs carries npm and conflicts with Debian's npm package.
    case $p in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    esac
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
