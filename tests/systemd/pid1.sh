#!/bin/sh
# pid1.sh -- the shipped units under a real systemd PID 1, in a container.
#
#   pid1.sh SRC_DIR BUILD_DIR
#
# Boots Debian 12 with systemd-nspawn and checks what only a real PID 1 can
# show: that sysusers, the socket and the service's sandbox fit together, and
# that activation, notify, restart, watchdog, access and stop behave.
#  1. rootfs.sh gives the cached minimal rootfs (built once, then seconds).
#  2. An overlay on it (a copy when overlayfs is refused) takes this run's
#     writes, so the cache is never modified.
#  3. `DESTDIR=ROOT cmake --install BUILD --prefix /usr` installs sudokud,
#     its plugins, the `sudoku` client, the units and sysusers.d/sudokud.conf.
#     Added for the test only: the checks, a oneshot unit that runs them and
#     powers off, and the drop-in WatchdogSec=3s (the unit has 10s).
#  4. `systemd-nspawn --register=no --keep-unit -b` boots it under timeout(1);
#     pid1-checks.sh writes one PASS/FAIL line a check; this script fails if
#     any check failed or is missing, and shows the container's journal.
# Exit 77 (skip) when this machine cannot run it: not root, no
# systemd-nspawn or debootstrap and scripts/deps.sh cannot install them, or
# no cached rootfs and the Debian archive cannot be reached.
set -eu
src=$1 build=$2
here="$src/tests/systemd"
limit=${SUDOKU_PID1_TIMEOUT:-240}
checks="sysusers_group socket_mode activation notify_ready_after_exec status_text \
solve_every_size no_seccomp_kill segv_restart watchdog_restart reload_settings group_member_connects \
nonmember_eacces stop_clean journal_priorities"

skip() {
    echo "SKIP: $*"
    exit 77
}
[ "$(id -u)" -eq 0 ] || skip "not root: systemd-nspawn -b needs root"
if ! command -v systemd-nspawn >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    sh "$src/scripts/deps.sh" >/dev/null 2>&1 || true
    command -v systemd-nspawn >/dev/null 2>&1 || skip "no systemd-nspawn (package systemd-container)"
fi
[ -x "$build/bin/sudokud" ] && [ -x "$build/bin/sudoku" ] || {
    echo "FAIL: sudokud or sudoku not built in $build" >&2
    exit 1
}
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
[ -n "$cmake" ] || cmake=cmake

t_start=$(date +%s)
rc=0
base=$(sh "$here/rootfs.sh") || rc=$?
[ $rc -eq 77 ] && skip "no rootfs (see the line above)"
[ $rc -eq 0 ] || exit 1
t_rootfs=$(date +%s)

tmp=$(mktemp -d /var/tmp/sudokud-pid1.XXXXXX)
root="$tmp/root"
mounted=""
cleanup() {
    if [ -n "${SUDOKU_PID1_KEEP:-}" ]; then
        echo "pid1: kept $tmp (umount $root when done)"
        return
    fi
    [ -n "$mounted" ] && umount "$root" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
mkdir -p "$tmp/upper" "$tmp/work" "$root"
if mount -t overlay overlay -o "lowerdir=$base,upperdir=$tmp/upper,workdir=$tmp/work" "$root" \
    2>/dev/null; then
    mounted=yes
    how=overlay
else
    rmdir "$root"
    cp -a --reflink=auto "$base" "$root"
    how=copy
fi

# ---- install sudokud, then the test's own pieces
DESTDIR="$root" "$cmake" --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log" >&2
    echo "FAIL: cmake --install into the rootfs" >&2
    exit 1
}
etc="$root/etc/systemd/system"
# A persistent journal, so that the host can read it after the container exits.
mkdir -p "$root/sudokud-pid1" "$etc/sudokud.service.d" "$etc/multi-user.target.wants" \
    "$root/var/log/journal"
cp "$here/pid1-checks.sh" "$src/tests/data/pid1_sizes.txt" "$root/sudokud-pid1/"
printf '[Service]\nWatchdogSec=3s\n' >"$etc/sudokud.service.d/50-pid1-test.conf"
cat >"$etc/sudokud-pid1-test.service" <<EOF
[Unit]
Description=sudokud PID-1 checks
After=multi-user.target
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/bin/sh /sudokud-pid1/pid1-checks.sh /sudokud-pid1
TimeoutStartSec=$((limit - 30))s
StandardOutput=journal+console
EOF
ln -s ../sudokud-pid1-test.service "$etc/multi-user.target.wants/"
ln -sf /dev/null "$etc/console-getty.service"

# ---- boot
t_boot=$(date +%s)
status=0
timeout -k 10 "$limit" systemd-nspawn --quiet --register=no --keep-unit --private-network \
    --console=pipe -D "$root" -b </dev/null >"$tmp/console.log" 2>&1 || status=$?
t_end=$(date +%s)
results="$root/sudokud-pid1/results"
echo "pid1: rootfs $((t_rootfs - t_start)) s, setup ($how) $((t_boot - t_rootfs)) s," \
    "boot and checks $((t_end - t_boot)) s, nspawn exit $status"

[ -f "$results" ] && cat "$results"
# One name a line: the checks missing or failed, and why the run is incomplete.
failed=$(
    for c in $checks; do
        grep -Eq "^PASS $c([( ]|\$)" "$results" 2>/dev/null || echo "$c"
    done
    sed -n 's/^FAIL \([^:]*\):.*/\1/p' "$results" 2>/dev/null
    grep -qx DONE "$results" 2>/dev/null || echo "(the checks did not finish)"
    [ "$status" -ne 124 ] || echo "(timed out after $limit s)"
)
if [ -n "$failed" ]; then
    echo "--- console (last 30 lines)"
    tail -30 "$tmp/console.log"
    echo "--- the container's journal (last 150 lines)"
    journalctl -D "$root/var/log/journal" --no-pager 2>&1 | tail -150
    echo "FAIL: PID-1 checks failed or missing: $(echo "$failed" | sort -u | tr '\n' ' ')" >&2
    exit 1
fi
echo "pid1: all $(echo $checks | wc -w) checks passed"
