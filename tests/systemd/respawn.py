#!/usr/bin/env python3
"""respawn.py -- stand in for systemd's Restart= under systemd-socket-activate.

systemd-socket-activate (without --accept) binds the socket, waits for the
first connection and then execs its command in place: it never restarts
anything.  Under systemd the socket unit keeps the listener open while the
service restarts.  This script plays that part: it is exec'd with the
listener on fd 3, keeps it open, and runs the daemon again and again with
LISTEN_FDS=1 and LISTEN_PID set to each new child.

  respawn.py PIDFILE STOPFILE DAEMON [ARGS...]

PIDFILE receives the current daemon's pid (written atomically); the daemon is
started again whenever it exits, until STOPFILE exists.  SIGTERM stops the
current daemon and this script.  Prints one "respawn: started N" per start.
"""
import os
import signal
import sys

LISTEN_FD = 3


def write_pid(path, pid):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % pid)
    os.replace(tmp, path)


def start(argv):
    pid = os.fork()
    if pid == 0:
        os.environ["LISTEN_FDS"] = "1"
        os.environ["LISTEN_PID"] = str(os.getpid())
        os.environ.pop("LISTEN_FDNAMES", None)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    return pid


def main():
    if len(sys.argv) < 4 or os.environ.get("LISTEN_PID") != str(os.getpid()):
        sys.exit("usage: run under systemd-socket-activate: respawn.py PIDFILE STOPFILE DAEMON...")
    pidfile, stopfile, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.set_inheritable(LISTEN_FD, True)
    child = 0

    def on_term(signum, frame):
        if child:
            os.kill(child, signal.SIGTERM)
            os.waitpid(child, 0)
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_term)
    starts = 0
    while not os.path.exists(stopfile):
        child = start(argv)
        starts += 1
        write_pid(pidfile, child)
        print("respawn: started %d (pid %d)" % (starts, child), flush=True)
        _, status = os.waitpid(child, 0)
        print("respawn: pid %d exited with status %d" % (child, status), flush=True)
        child = 0


if __name__ == "__main__":
    main()
