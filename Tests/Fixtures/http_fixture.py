#!/usr/bin/env python3
"""Loopback HTTP server for SandboxHTTPClientTests. Python standard library only.

Binds 127.0.0.1 on a free port and prints the port on the first stdout line. Exits when
the process that started it is gone, so a crashed test run leaves no server behind.

Endpoints:
  /echo[?summary=1]      JSON: method, path, headers, body (base64, empty with summary),
                         body_length, client_port
  /status/<n>            replies with status n and a short body
  /redirect?to=<path>    302 with a Location header
  /slow?seconds=<x>      sleeps x seconds, then replies
  /gather?n=<N>&name=<G> waits until N requests of group G are waiting together, then all reply
                         200 "gathered"; 504 when they are not all there within 20 s
  /bytes?n=<N>[&chunked=1]  N bytes of body, with Content-Length or chunked
  /headers               repeated X-Multi headers and a mixed-case header
  /early-hints           a 103 with a Link header, then 200 with X-Final
"""
import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


# Requests of /gather, by group name: how many arrived, and the condition they wait on.
gathering = {}
gathering_lock = threading.Condition()


class Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 keeps connections open between requests, which the reuse test relies on.
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def _reply(self, status, body=b"", headers=(), chunked=False):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        if chunked:
            for start in range(0, len(body), 1024):
                chunk = body[start:start + 1024]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.wfile.write(body)

    def _handle(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            if url.path == "/echo":
                summary = query.get("summary", ["0"])[0] == "1"
                payload = {
                    "method": self.command,
                    "path": self.path,
                    "headers": [[name, value] for name, value in self.headers.items()],
                    "body": "" if summary else base64.b64encode(body).decode("ascii"),
                    "body_length": len(body),
                    "client_port": self.client_address[1],
                }
                self._reply(200, json.dumps(payload).encode(), [("Content-Type", "application/json")])
            elif url.path.startswith("/status/"):
                status = int(url.path[len("/status/"):])
                self._reply(status, b"status %d" % status, [("Content-Type", "text/plain")])
            elif url.path == "/redirect":
                self._reply(302, b"", [("Location", query.get("to", ["/echo"])[0])])
            elif url.path == "/slow":
                time.sleep(float(query.get("seconds", ["1"])[0]))
                self._reply(200, b"slept")
            elif url.path == "/gather":
                wanted, name = int(query.get("n", ["2"])[0]), query.get("name", ["default"])[0]
                with gathering_lock:
                    gathering[name] = gathering.get(name, 0) + 1
                    gathering_lock.notify_all()
                    all_there = gathering_lock.wait_for(lambda: gathering[name] >= wanted, timeout=20)
                if all_there:
                    self._reply(200, b"gathered")
                else:
                    self._reply(504, b"only %d of %d requests were in flight together" % (gathering[name], wanted))
            elif url.path == "/bytes":
                count = int(query.get("n", ["0"])[0])
                chunked = query.get("chunked", ["0"])[0] == "1"
                self._reply(200, bytes(i % 251 for i in range(count)), [("Content-Type", "application/octet-stream")], chunked)
            elif url.path == "/early-hints":
                # An informational response first: its headers must not leak into the final one.
                self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
                self._reply(200, b"final", [("X-Final", "yes")])
            elif url.path == "/headers":
                self._reply(200, b"ok", [("X-Multi", "one"), ("X-Multi", "two"), ("X-MiXeD-Case", "yes")])
            else:
                self._reply(404, b"not found")
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (timeout, size cap): nothing left to tell it.
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_REPORT = _handle


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog of 5 drops SYNs when 20 clients connect at once (1 s retransmit).
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # Aborted connections are expected in these tests; keep stderr quiet.
        pass


def exit_when_orphaned(parent):
    # A dead parent's children are handed to another process: the parent id changes.
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
