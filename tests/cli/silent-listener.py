#!/usr/bin/env python3
"""silent-listener MODE PORTFILE [LIFETIME]: a TCP server on 127.0.0.1 (a
free port, written to PORTFILE once it listens) that accepts connections
and never answers (MODE silent), or speaks SMTP until DATA and then stalls
(MODE smtp-data). It exits after LIFETIME seconds (default 120), whatever
happens, so that a test that fails cannot leave it behind for long."""
import os
import socket
import sys
import threading
import time


def smtp_until_data(conn):
    f = conn.makefile("rb")
    conn.sendall(b"220 stall.test ESMTP\r\n")
    for line in f:
        verb = line[:4].upper()
        if verb in (b"EHLO", b"HELO"):
            conn.sendall(b"250 stall.test\r\n")
        elif verb == b"DATA":
            conn.sendall(b"354 go on\r\n")
            break
        elif verb == b"QUIT":
            conn.sendall(b"221 bye\r\n")
            return
        else:
            conn.sendall(b"250 ok\r\n")
    # Read the message and its end, and say nothing more.
    for line in f:
        pass


def serve(conn, mode):
    try:
        if mode == "smtp-data":
            smtp_until_data(conn)
        else:
            while conn.recv(65536):
                pass
    except OSError:
        pass


def main():
    mode, portfile = sys.argv[1], sys.argv[2]
    lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 120.0
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    tmp = portfile + ".tmp"
    with open(tmp, "w") as out:
        out.write("%d\n" % s.getsockname()[1])
    os.rename(tmp, portfile)
    end = time.monotonic() + lifetime
    while time.monotonic() < end:
        s.settimeout(max(0.1, end - time.monotonic()))
        try:
            conn, _ = s.accept()
        except socket.timeout:
            break
        threading.Thread(target=serve, args=(conn, mode), daemon=True).start()
    os._exit(0)


main()
