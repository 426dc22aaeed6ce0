#!/bin/sh
# rootfs.sh -- a cached minimal Debian 12 root file system for the PID-1 test.
#
#   rootfs.sh [CACHE_DIR]     prints the path of the cached rootfs on stdout
#
# The rootfs is `debootstrap --variant=minbase` of bookworm with systemd as
# PID 1, the daemon's run-time libraries and procps (the unit's ExecReload=
# runs /bin/kill, which minbase lacks), from the Debian mirror this
# machine's apt already uses (the only network the project may reach).  It
# is cached outside the clone, in CACHE_DIR/rootfs-<key> (default CACHE_DIR:
# $SUDOKU_ROOTFS_CACHE, else /var/cache/sudokud-test), where <key> hashes the
# suite, the package list and the mirror: change any of them and a new one is
# built.  A build goes to a temporary directory beside it and is renamed into
# place only when complete, under a lock, so a crash never leaves a half
# rootfs that looks finished.  Callers must never modify the cache: copy it.
#
# Exit 0 with the path; 77 when it cannot be built here (not root, no
# debootstrap, no mirror, no network), with the reason on stderr; 1 on error.
set -eu

suite=bookworm
variant=minbase
include=systemd,systemd-sysv,dbus,libuv1,libmsgpackc2,procps
cache=${1:-${SUDOKU_ROOTFS_CACHE:-/var/cache/sudokud-test}}

skip() {
    echo "SKIP: $*" >&2
    exit 77
}

# The first non-security Debian URI of apt's configuration, deb822 or one-line.
mirror_of_apt() {
    {
        cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs: *//p'
        cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\) .*/\2/p'
    } | tr ' ' '\n' | grep -E '/debian/?$' | grep -v security | head -1
}

mirror=${SUDOKU_DEBIAN_MIRROR:-$(mirror_of_apt)}
key=$(printf '%s\n' "$suite" "$variant" "$include" "$mirror" | sha256sum | cut -c1-16)
dest="$cache/rootfs-$key"
if [ -x "$dest/usr/lib/systemd/systemd" ]; then
    echo "$dest"
    exit 0
fi

[ "$(id -u)" -eq 0 ] || skip "not root: debootstrap needs root"
[ -n "$mirror" ] || skip "no Debian mirror in /etc/apt/sources.list(.d)"
command -v debootstrap >/dev/null 2>&1 || skip "no debootstrap (sh scripts/deps.sh installs it)"
mkdir -p "$cache"

# One builder at a time; a second caller waits, then finds the result.
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then
    flock 9
fi
if [ -x "$dest/usr/lib/systemd/systemd" ]; then
    echo "$dest"
    exit 0
fi

tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "rootfs: debootstrap $suite ($variant, +$include) from $mirror into $dest" >&2
if ! debootstrap --variant="$variant" --include="$include" "$suite" "$tmp/root" "$mirror" \
    >"$tmp/debootstrap.log" 2>&1; then
    tail -20 "$tmp/debootstrap.log" >&2
    if grep -qiE 'resolve|connect|network|download' "$tmp/debootstrap.log"; then
        skip "debootstrap could not reach $mirror"
    fi
    echo "FAIL: debootstrap failed (log above)" >&2
    exit 1
fi
# Nothing at run time needs the package lists or the downloaded debs.
rm -rf "$tmp/root/var/cache/apt/archives/"*.deb "$tmp/root/var/lib/apt/lists/"*
printf '%s\n' "suite=$suite" "variant=$variant" "include=$include" "mirror=$mirror" \
    >"$tmp/root/.sudokud-rootfs"
mv -T "$tmp/root" "$dest"
echo "$dest"
