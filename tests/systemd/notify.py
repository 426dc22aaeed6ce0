#!/usr/bin/env python3
"""notify.py -- a fake NOTIFY_SOCKET: record what a daemon tells systemd.

  notify.py SOCKET OUTFILE

Binds a datagram socket at SOCKET and appends every message to OUTFILE, one
datagram a line (newlines inside a datagram become "|"), until SIGTERM.
"""
import os
import signal
import socket
import sys


def main():
    path, out = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(out + ".tmp", "w"):
        pass
    os.replace(out + ".tmp", out)  # the file exists once the socket is bound
    while True:
        data = s.recv(4096).decode(errors="replace")
        with open(out, "a") as f:
            f.write(data.replace("\n", "|") + "\n")


if __name__ == "__main__":
    main()
