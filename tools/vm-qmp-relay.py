#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The QMP relay of one guest (tools/vm runs one per node).

A guest asks for a QMP command by writing its JSON text to SHARE/qmp-request
(host_qmp in tests/vm/lib/guest-lib.sh); the relay sends it to the QEMU of
that guest and writes QEMU's reply (or an {"error": ...} object of its own)
to SHARE/qmp-reply, whole, then renamed, and removes the request. Each
exchange is also logged to LOG.

One process per guest with one QMP connection, polling the share every
10 ms: a guest's counter snapshot (rdma_loss, interop_rxe take hundreds)
costs a few milliseconds of QEMU instead of a Python start and the runner's
0.2 s wait loop, which made each one take about 1.5 s under TCG.

Usage: vm-qmp-relay.py SOCKET SHARE LOG
Ends when QEMU closes the connection (the guest powered off) or, if the
socket never comes up, after 120 s.
"""
import json
import os
import socket
import sys
import time


def connect(path, deadline):
    """A connected QMP session (greeting read, capabilities negotiated)."""
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            break
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
    f = s.makefile("rw")
    reply(f)
    f.write('{"execute": "qmp_capabilities"}\n')
    f.flush()
    reply(f)
    return f


def reply(f):
    """The next message that is not an event."""
    while True:
        line = f.readline()
        if not line:
            raise EOFError("QMP connection closed")
        msg = json.loads(line)
        if "event" not in msg:
            return msg


def serve(f, share, log):
    req_path = os.path.join(share, "qmp-request")
    out_path = os.path.join(share, "qmp-reply")
    while True:
        if not os.path.exists(req_path):
            time.sleep(0.01)
            continue
        with open(req_path) as r:
            req = r.read().strip()
        os.unlink(req_path)
        try:
            f.write(json.dumps(json.loads(req)) + "\n")
            f.flush()
            text = json.dumps(reply(f))
        except (EOFError, OSError):
            raise  # QEMU is gone
        except Exception as e:  # a bad request: the guest hears why
            text = json.dumps({"error": {"class": "RunnerError",
                                         "desc": str(e)}})
        with open(out_path + ".tmp", "w") as o:
            o.write(text + "\n")
        os.rename(out_path + ".tmp", out_path)
        with open(log, "a") as lg:
            lg.write("%s -> %s\n" % (req, text))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, share, log = sys.argv[1:]
    f = connect(path, time.monotonic() + 120)
    if f is None:
        sys.exit("vm-qmp-relay: no QMP socket at %s" % path)
    try:
        serve(f, share, log)
    except (EOFError, OSError, ValueError):
        pass  # QEMU is gone: so is the guest that could ask


if __name__ == "__main__":
    main()
