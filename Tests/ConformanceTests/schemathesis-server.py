"""schemathesis' command line, imported once and forked for every run of the conformance suites.

    python3 schemathesis-server.py SOCKET

Importing schemathesis (and what a run loads: its OpenAPI loaders, hypothesis, requests) costs
about a second of CPU, which each of the suites' thirty-odd runs paid again when each was a
process of its own. This process imports it once, then listens on the Unix socket SOCKET. Each
connection sends one JSON line, {"args": [...], "cwd": "...", "output": "..."}; a child forked
for it answers its pid on a line, runs `schemathesis ARGS` in `cwd` with standard output and error
written to the file `output`, answers its exit status on a line and ends. Runs are independent:
each is its own process, forked from one that has started no thread and sent no request.

It ends when its standard input ends: Tests/ConformanceTests/Schemathesis.swift holds the other end
open for as long as the test process lives.
"""

import json
import os
import selectors
import signal
import socket
import sys
import traceback

import schemathesis.cli
import schemathesis.engine
import schemathesis.openapi.loaders
import schemathesis.specs.openapi.adapter
import schemathesis.specs.openapi.schemas


def run(connection):
    """One run, in a forked child: never returns."""
    code = 1
    try:
        request = json.loads(connection.makefile("r", encoding="utf-8").readline())
        connection.sendall(f"{os.getpid()}\n".encode())
        os.chdir(request["cwd"])
        output = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(output, 1)
        os.dup2(output, 2)
        try:
            schemathesis.cli.schemathesis.main(request["args"], prog_name="schemathesis")
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            connection.sendall(f"{code}\n".encode())
        finally:
            os._exit(0)


def main():
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sys.argv[1])
    server.listen(64)
    waiting = selectors.DefaultSelector()
    waiting.register(server, selectors.EVENT_READ)
    waiting.register(sys.stdin, selectors.EVENT_READ)
    print("ready", flush=True)
    while True:
        for key, _ in waiting.select():
            if key.fileobj is sys.stdin:
                if not sys.stdin.buffer.read1(4096):
                    return  # the test process is gone
                continue
            connection, _ = server.accept()
            if os.fork() == 0:
                waiting.close()
                server.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                run(connection)
            connection.close()


if __name__ == "__main__":
    main()
