#!/bin/sh
# activate.sh -- socket activation of the real sudokud without systemd as PID 1.
#
#   activate.sh SRC_DIR BIN_DIR
#
# 1. `systemd-socket-activate -l PATH sudokud` serves a ping (the raw request
#    94 00 01 a4 70 69 6e 67 90, [0,1,"ping",[]]), and when sudokud exits on
#    SIGTERM the socket file it was handed is still there: the daemon never
#    unlinks a socket it did not create.
# 2. Under a fake NOTIFY_SOCKET with WATCHDOG_USEC set, sudokud sends READY=1
#    and STATUS=, WATCHDOG=1 pings, and STOPPING=1 on SIGTERM.
# 3. Restart story: the activator hands the listener to respawn.py, which keeps
#    it open and restarts sudokud the way systemd's Restart= does.  While a
#    client opens connection after connection, sudokud is stopped with SIGTERM
#    three times; every connection attempt must still get its "pong" (they
#    wait in the listen backlog while no daemon runs).
# Exit 77 (skip) only when systemd-socket-activate or python3 is missing.
set -eu
src=$1 bin=$2
rpc="$src/tests/systemd/mprpc.py"
restarts=3

command -v systemd-socket-activate >/dev/null 2>&1 || { echo "SKIP: no systemd-socket-activate"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -x "$bin/sudokud" ] || { echo "FAIL: $bin/sudokud not built" >&2; exit 1; }

tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for p in $pids; do wait "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }; done
    exit 1
}

# ---- 1. one activation, one ping, the socket survives the daemon
sock="$tmp/one.sock"
systemd-socket-activate -l "$sock" "$bin/sudokud" >"$tmp/one.log" 2>&1 &
act=$!
pids="$act"
i=0
while [ ! -S "$sock" ]; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "activator did not create $sock"
    sleep 0.05
done
reply=$(python3 - "$sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall(bytes.fromhex("940001a470696e6790"))
buf = b""
while b"pong" not in buf:
    chunk = s.recv(4096)
    if not chunk:
        break
    buf += chunk
print(buf.hex())
PY
) || fail "no reply to the raw ping"
case $reply in
*706f6e67*) echo "activation: raw ping answered ($reply)" ;;
*) fail "reply without pong: $reply" ;;
esac
python3 "$rpc" ping "$sock" >/dev/null || fail "second connection not served"
# The activator exec'd sudokud in place: $act is the daemon now.
kill -TERM "$act"
status=0
wait "$act" || status=$?
pids=""
[ "$status" -eq 0 ] || fail "sudokud exited with status $status on SIGTERM"
[ -S "$sock" ] || fail "sudokud removed the socket file it was handed"
echo "activation: clean exit on SIGTERM, socket file left in place"

# ---- 2. what sudokud tells the service manager: READY=1 with STATUS=,
#         WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1 on SIGTERM
notes="$tmp/notes.txt"
python3 "$src/tests/systemd/notify.py" "$tmp/notify.sock" "$notes" &
listener=$!
pids="$listener"
i=0
while [ ! -f "$notes" ]; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "fake NOTIFY_SOCKET did not start"
    sleep 0.05
done
sock="$tmp/three.sock"
# The activator passes on only a few variables of its own environment: -E.
systemd-socket-activate -l "$sock" -E NOTIFY_SOCKET="$tmp/notify.sock" -E WATCHDOG_USEC=200000 \
    "$bin/sudokud" >"$tmp/three.log" 2>&1 &
act=$!
pids="$act $listener"
i=0
while [ ! -S "$sock" ]; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "activator did not create $sock"
    sleep 0.05
done
python3 "$rpc" ping "$sock" >/dev/null || fail "ping with NOTIFY_SOCKET set"
sleep 1
kill -TERM "$act"
status=0
wait "$act" || status=$?
sleep 0.2
kill "$listener" 2>/dev/null || true
wait "$listener" 2>/dev/null || true
pids=""
[ "$status" -eq 0 ] || fail "sudokud exited with status $status on SIGTERM"
grep -q 'READY=1' "$notes" || fail "no READY=1 (notes: $(cat "$notes"))"
grep -q 'STATUS=' "$notes" || fail "no STATUS= line"
pings=$(grep -c 'WATCHDOG=1' "$notes" || true)
# 1 s at a 100 ms ping interval: expect about 10; demand a few.
[ "$pings" -ge 4 ] || fail "only $pings WATCHDOG=1 pings in 1 s with WATCHDOG_USEC=200000"
grep -q 'STOPPING=1' "$notes" || fail "no STOPPING=1 on SIGTERM"
ready=$(grep -n 'READY=1' "$notes" | head -1 | cut -d: -f1)
stopping=$(grep -n 'STOPPING=1' "$notes" | head -1 | cut -d: -f1)
[ "$ready" -lt "$stopping" ] || fail "STOPPING=1 came before READY=1"
echo "notify: READY=1, STATUS=, $pings watchdog pings, STOPPING=1"

# ---- 3. restarts under a holder of the listener lose no connection attempt
sock="$tmp/two.sock"
stop="$tmp/stop"
pidfile="$tmp/daemon.pid"
systemd-socket-activate -l "$sock" python3 "$src/tests/systemd/respawn.py" \
    "$pidfile" "$stop" "$bin/sudokud" >"$tmp/two.log" 2>&1 &
holder=$!
pids="$holder"
i=0
while [ ! -S "$sock" ]; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "activator did not create $sock"
    sleep 0.05
done
python3 "$rpc" wait "$sock" 20 || fail "no daemon behind $sock"
python3 "$rpc" loop "$sock" 60 "$stop" >"$tmp/loop.out" 2>"$tmp/loop.log" &
loop=$!
pids="$loop $holder"
# A loaded machine may take seconds to start python: restart only once the
# loop's first ping came back, or the restarts would happen before it looks.
i=0
while [ ! -e "$stop.started" ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || fail "the ping loop never got its first answer"
    kill -0 "$loop" 2>/dev/null || fail "the ping loop died before its first answer"
    sleep 0.05
done
n=0
while [ $n -lt $restarts ]; do
    sleep 0.5
    old=$(cat "$pidfile")
    kill -TERM "$old"
    i=0
    while [ "$(cat "$pidfile")" = "$old" ]; do
        i=$((i + 1))
        [ $i -lt 200 ] || fail "daemon $old was not restarted"
        sleep 0.05
    done
    n=$((n + 1))
done
sleep 0.5
touch "$stop"
status=0
wait "$loop" || status=$?
cat "$tmp/loop.out"
[ "$status" -eq 0 ] || fail "connection attempts were lost across $restarts restarts"
starts=$(grep -c 'respawn: started' "$tmp/two.log" || true)
[ "$starts" -eq $((restarts + 1)) ] || fail "expected $((restarts + 1)) daemon starts, saw $starts"
grep 'exited with status' "$tmp/two.log" | grep -v 'status 0$' && fail "a daemon did not exit 0"
echo "restart: $restarts restarts, $starts starts, no connection attempt lost"
