#!/usr/bin/env python3
"""An HTTPS server that is not nginx, for checking `kclab aasa check` against a server of
another make: Python's http.server and ssl module, certificates chosen by SNI, bodies sent with a
Content-Length, chunked, or delimited by closing the connection, optionally gzip-encoded.

    independent-https-server.py CONFIG.json

CONFIG: {"ready": PATH, "default": HOST,
         "certificates": {HOST: {"chain": PEM, "key": PEM}},
         "sites": {HOST: {"path": "/.well-known/apple-app-site-association", "status": 200,
                          "type": "application/json", "body": FILE, "transfer": "length"|"chunked"|"close",
                          "gzip": false, "location": URL}}}

It binds 127.0.0.1 on a free port and writes the port to READY once it listens. Every other
path answers 404. It stops on SIGTERM.
"""
import gzip
import json
import os
import signal
import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

config = json.load(open(sys.argv[1]))
sites = config["sites"]


def context_for(host):
    entry = config["certificates"][host]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(entry["chain"], entry["key"])
    return context


contexts = {host: context_for(host) for host in config["certificates"]}
default = contexts[config["default"]]


def choose_certificate(connection, server_name, _context):
    if server_name in contexts:
        connection.context = contexts[server_name]


default.sni_callback = choose_certificate


# Compressed bodies by file.
compressed = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        site = sites.get(host)
        if site is None or self.path != site.get("path", "/.well-known/apple-app-site-association"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = open(site["body"], "rb").read() if "body" in site else b""
        if site.get("gzip"):
            # Compressed once per file: a 200 MB bomb takes seconds to compress.
            if site["body"] not in compressed:
                compressed[site["body"]] = gzip.compress(body, compresslevel=6)
            body = compressed[site["body"]]
        self.send_response(site.get("status", 200))
        if "type" in site:
            self.send_header("Content-Type", site["type"])
        if site.get("gzip"):
            self.send_header("Content-Encoding", "gzip")
        if "location" in site:
            self.send_header("Location", site["location"])
        transfer = site.get("transfer", "length")
        if transfer == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 1000):
                piece = body[start:start + 1000]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        elif transfer == "close":
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that refuses our certificate is part of the tests, not a fault


server = Server(("127.0.0.1", 0), Handler)
server.socket = default.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
# A parent may start it with signals blocked (Foundation's Process passes its thread's mask on).
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
ready = config["ready"]
with open(ready + ".tmp", "w") as handle:
    handle.write(str(server.server_address[1]))
os.rename(ready + ".tmp", ready)
server.serve_forever()
