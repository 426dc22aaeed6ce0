#!/bin/sh
# pid1-checks.sh -- the checks pid1.sh runs inside a container with systemd as PID 1.
#
#   pid1-checks.sh DIR      (run by sudokud-pid1-test.service; DIR holds the inputs)
#
# Inputs in DIR: pid1_sizes.txt (one unique puzzle a line, sizes 4 to 25).
# Output: DIR/results, one line a check, "PASS name" or "FAIL name: why",
# then "DONE" (the host reads the persistent journal itself).  Minbase has no python: everything is sh, awk, the installed
# `sudoku` client and systemd's own tools.  It does what docs/systemd.md tells
# an admin to do (systemd-sysusers, enable --now sudokud.socket), then checks
# socket activation, notify, restart, watchdog, access and the sandbox.
# The host installed one test drop-in, WatchdogSec=3s (the unit has 10s), so
# that the watchdog check takes seconds.
set -u
dir=$1
out="$dir/results"
sock=/run/sudokud/sudokud.sock
unit=sudokud.service
: >"$out"

pass() { echo "PASS $1" >>"$out"; }
fail() {
    n=$1
    shift
    echo "FAIL $n: $*" >>"$out"
}
prop() { systemctl show -p "$1" --value "$unit"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# The client, bounded: a daemon that never answers must fail a check, not hang.
client() { timeout 20 sudoku -s "$sock" "$@"; }

# wait_for SECONDS CMD...: poll CMD every 50 ms until it succeeds.
wait_for() {
    limit=$(($(now_ms) + $1 * 1000))
    shift
    while ! "$@" >/dev/null 2>&1; do
        [ "$(now_ms)" -lt "$limit" ] || return 1
        sleep 0.05
    done
}

# check_answer PUZZLE ANSWER: ANSWER keeps PUZZLE's givens and every row,
# column and box holds each of 1..n once (symbols 1-9 then A-P).
check_answer() {
    awk -v p="$1" -v s="$2" 'function val(c) {
        c = toupper(c); i = index("123456789ABCDEFGHIJKLMNOP", c); return i }
    BEGIN {
        len = length(p); n = int(sqrt(len) + 0.5); b = int(sqrt(n) + 0.5)
        if (length(s) != len || n * n != len || b * b != n) exit 1
        for (k = 0; k < len; k++) {
            g = substr(p, k + 1, 1); c = substr(s, k + 1, 1); v = val(c)
            if (v < 1 || v > n) exit 1
            if (g != "." && g != "0" && val(g) != v) exit 1
            r = int(k / n); col = k % n; box = int(r / b) * b + int(col / b)
            if (seen["r" r "." v]++ || seen["c" col "." v]++ || seen["b" box "." v]++) exit 1
        }
        exit 0 }'
}

# ---- setup, as docs/systemd.md tells an admin
systemd-sysusers
systemctl daemon-reload
systemctl enable --now sudokud.socket
getent group sudokud >/dev/null && ! getent passwd sudokud-daemon >/dev/null &&
    pass sysusers_group || fail sysusers_group "no group sudokud, or a static sudokud-daemon"
useradd --no-create-home --groups sudokud alice
useradd --no-create-home bob

# ---- the socket: systemd's, mode 0660, group sudokud, daemon not started
got=$(stat -c '%F %a %U %G' "$sock" 2>&1)
[ "$got" = "socket 660 root sudokud" ] && pass socket_mode || fail socket_mode "stat says: $got"

# ---- the first connection starts the service; running only after READY=1
before="$(prop ActiveState)/$(prop SubState)"
[ "$(prop Type)" = notify ] || fail activation "Type is $(prop Type), not notify"
(
    end=$(($(now_ms) + 5000))
    while [ "$(now_ms)" -lt "$end" ]; do
        line="$(prop SubState) $(prop StatusText)"
        echo "$line"
        case $line in "running serving on"*) break ;; esac
    done
) >"$dir/states" &
sampler=$!
sleep 0.2
ping1=$(client ping 2>&1)
rc=$?
wait "$sampler"
after="$(prop ActiveState)/$(prop SubState)"
# Every sample saying running must also show the STATUS= line sent right
# after READY=1, except those taken between the two datagrams; what matters is
# that no sample says running before any notify arrived: the first running
# sample may lack STATUS only if a later one has it.
order=$(awk '{ s = $1 } s == "running" && !r { r = 1 } r && s != "running" { bad = 1 }
    END { print (r && !bad) ? "ok" : "bad" }' "$dir/states")
if [ "$before" = inactive/dead ] && [ $rc -eq 0 ] && [ "$after" = active/running ] &&
    [ "$order" = ok ] && grep -q '^running serving on' "$dir/states"; then
    pass activation
else
    fail activation "before=$before ping=$rc($ping1) after=$after order=$order" \
        "states: $(uniq "$dir/states" | tr '\n' '|')"
fi
start_us=$(prop ExecMainStartTimestampMonotonic)
active_us=$(prop ActiveEnterTimestampMonotonic)
[ "$active_us" -gt "$start_us" ] && pass notify_ready_after_exec ||
    fail notify_ready_after_exec "active at $active_us, exec at $start_us"

# ---- STATUS= in systemctl status
text=$(prop StatusText)
case $text in
"serving on an inherited socket: "*) st=ok ;;
*) st="StatusText='$text'" ;;
esac
systemctl status --no-pager "$unit" >"$dir/status.txt" 2>&1
if [ "$st" = ok ] && grep -q "Status: \"serving on an inherited socket" "$dir/status.txt"; then
    pass status_text
else
    fail status_text "$st; systemctl status: $(grep Status: "$dir/status.txt")"
fi

# ---- a solve of every size with every plugin, answers checked by the rules;
# the sandbox must not kill the daemon (status=31/SYS) on any of them
pid0=$(prop MainPID)
client solvers >"$dir/solvers" 2>&1 || fail solvers "sudoku solvers: $(cat "$dir/solvers")"
nsolves=0 bad=""
while read -r name _ sizes _; do
    while read -r puzzle; do
        case $puzzle in '#'* | '') continue ;; esac
        n=$(awk -v l=${#puzzle} 'BEGIN { print int(sqrt(l) + 0.5) }')
        case ",$sizes," in *",$n,"*) ;; *) continue ;; esac
        ans=$(echo "$puzzle" | client --solver "$name" --format line 2>&1)
        if check_answer "$puzzle" "$ans"; then
            nsolves=$((nsolves + 1))
        else
            bad="$bad $name/${n}x$n($ans)"
        fi
    done <"$dir/pid1_sizes.txt"
done <"$dir/solvers"
[ -z "$bad" ] && [ "$nsolves" -gt 0 ] && pass "solve_every_size($nsolves)" ||
    fail solve_every_size "wrong or no answer:$bad"
sys=$(journalctl -u "$unit" --no-pager | grep -c 'status=31/SYS')
[ "$sys" -eq 0 ] && [ "$(prop MainPID)" = "$pid0" ] && [ "$(prop NRestarts)" = 0 ] &&
    pass no_seccomp_kill || fail no_seccomp_kill "status=31/SYS x$sys, pid $pid0 -> $(prop MainPID)"

# ---- SIGSEGV: a client connecting during the restart is answered
# (kill with PID 0 would signal this script's own process group: guard it)
segv_restart() {
    pid1=$(prop MainPID)
    [ "$pid1" -gt 0 ] || {
        fail segv_restart "no main PID to kill"
        return
    }
    kill -SEGV "$pid1"
    wait_for 5 sh -c "[ \"\$(systemctl show -p MainPID --value $unit)\" != $pid1 ]"
    during="$(prop SubState)/$(prop MainPID)"
    ping2=$(client ping 2>&1)
    rc=$?
    pid2=$(prop MainPID)
    nr=$(prop NRestarts)
    if [ $rc -eq 0 ] && [ "$nr" = 1 ] && [ "$pid2" != "$pid1" ] && [ "$pid2" != 0 ]; then
        pass "segv_restart(during=$during)"
    else
        fail segv_restart "ping=$rc($ping2) NRestarts=$nr pid $pid1 -> $pid2 during=$during"
    fi
}

# ---- the watchdog restarts a daemon whose loop is stopped
watchdog_restart() {
    wd=$(prop WatchdogUSec)
    pid2=$(prop MainPID)
    nr0=$(prop NRestarts)
    [ "$pid2" -gt 0 ] || {
        fail watchdog_restart "no main PID to stop"
        return
    }
    kill -STOP "$pid2"
    t0=$(now_ms)
    wait_for 30 sh -c "[ \"\$(systemctl show -p NRestarts --value $unit)\" = $((nr0 + 1)) ]"
    wait_for 10 sh -c "[ \"\$(systemctl show -p SubState --value $unit)\" = running ]"
    t1=$(now_ms)
    pid3=$(prop MainPID)
    if [ "$(prop NRestarts)" = $((nr0 + 1)) ] && [ "$pid3" != "$pid2" ] &&
        client ping >/dev/null 2>&1 && journalctl -u "$unit" --no-pager | grep -q 'Watchdog timeout'; then
        pass "watchdog_restart(WatchdogUSec=$wd, $((t1 - t0)) ms)"
    else
        fail watchdog_restart "NRestarts=$nr0 -> $(prop NRestarts) pid $pid2 -> $pid3 after $((t1 - t0)) ms"
        kill -CONT "$pid2" 2>/dev/null
    fi
}
segv_restart
watchdog_restart

# ---- systemctl reload: ExecReload= sends SIGHUP; the same daemon applies the
# new limit from /etc/sudokud.conf (RELOADING=1, then READY=1: reload returns
# once it is in force) and keeps serving
reload_settings() {
    pid=$(prop MainPID)
    printf 'timeout-ms = 7000\n' >/etc/sudokud.conf
    msg=$(timeout 20 systemctl reload "$unit" 2>&1)
    rc=$?
    applied() { journalctl -u "$unit" --no-pager | grep -q 'timeout-ms: 30000 -> 7000'; }
    wait_for 5 applied
    if [ $rc -eq 0 ] && [ "$(prop MainPID)" = "$pid" ] && [ "$(prop SubState)" = running ] &&
        applied && client ping >/dev/null 2>&1; then
        pass reload_settings
    else
        fail reload_settings "reload exit $rc ($msg), pid $pid -> $(prop MainPID)," \
            "state $(prop SubState), journal: $(journalctl -u "$unit" --no-pager | tail -5 | tr '\n' '|')"
    fi
    rm -f /etc/sudokud.conf
}
reload_settings

# ---- access: members of sudokud connect, others get EACCES and are told why
as() {
    u=$1
    shift
    timeout 20 setpriv --reuid="$u" --regid="$u" --init-groups sudoku -s "$sock" "$@"
}
m=$(as alice ping 2>&1) && pass group_member_connects || fail group_member_connects "$m"
nm=$(as bob ping 2>&1)
rc=$?
case $nm in
*"permission denied on $sock: you are not in group sudokud"*) [ $rc -eq 3 ] && pass nonmember_eacces || fail nonmember_eacces "exit $rc: $nm" ;;
*) fail nonmember_eacces "exit $rc: $nm" ;;
esac

# ---- a notice from the daemon (a rejected puzzle), then a clean stop
echo "1..1............" | client --format line >/dev/null 2>&1
t0=$(now_ms)
systemctl stop "$unit"
rc=$?
t1=$(now_ms)
tstop=$(($(prop TimeoutStopUSec | sed 's/s$//') * 1000))
res="$(prop Result) $(prop ExecMainCode) $(prop ExecMainStatus)"
if [ $rc -eq 0 ] && [ $((t1 - t0)) -lt "$tstop" ] && [ "$res" = "success 1 0" ]; then
    pass "stop_clean($((t1 - t0)) ms)"
else
    fail stop_clean "exit $rc after $((t1 - t0)) ms (limit $tstop), Result/code/status=$res"
fi
journalctl -u "$unit" -o json --no-pager >"$dir/journal.json"
prio_of() { grep "\"SYSLOG_IDENTIFIER\":\"sudokud\"" "$dir/journal.json" | grep "$1" |
    sed -n 's/.*"PRIORITY":"\([0-7]\)".*/\1/p' | tail -1; }
p_stop=$(prio_of '"MESSAGE":"SIGTERM: shutting down')
p_notice=$(prio_of '"MESSAGE":"conn [0-9]* (pid [0-9]* uid [0-9]*): solve request [0-9]* answered')
leak=$(grep "\"SYSLOG_IDENTIFIER\":\"sudokud\"" "$dir/journal.json" | grep -c '"MESSAGE":"<[0-7]>')
if [ "$p_stop" = 6 ] && [ "$p_notice" = 5 ] && [ "$leak" -eq 0 ]; then
    pass journal_priorities
else
    fail journal_priorities "shutdown line PRIORITY=$p_stop (want 6)," \
        "rejected-puzzle line PRIORITY=$p_notice (want 5), $leak raw <N> prefixes"
fi
echo DONE >>"$out"
