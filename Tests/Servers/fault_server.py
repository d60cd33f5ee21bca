#!/usr/bin/env python3
"""A misbehaving HTTP server for thumbify's fetcher tests (Python stdlib only).

Listens on 127.0.0.1 on a free port, prints the port on stdout, and exits when its
stdin closes (so it never outlives the test process that started it). Endpoints:

  /ok                      small HTML page
  /hold?ms=N&bucket=B      answers after N ms; counts concurrent requests per bucket
  /hold?gate=G&bucket=B    answers once /open?gate=G was asked (at most 120 s), counted the same way
  /open?gate=G             opens gate G
  /switch?key=K            a page, or the status /set-status?key=K&code=N last set (counted in "switch:K")
  /set-status?key=K&code=N sets what /switch?key=K answers (200 again: the page)
  /gated-page?gate=G       a page (counted in bucket "gated-page:G") whose og:image and icon are
                           /gated-image?gate=G&name=og and &name=icon
  /gated-image?gate=G&name=N  counted in bucket "gated:G:N"; a 16x16 PNG once gate G is open
  /stats?bucket=B          JSON {"max": concurrent max, "count": requests} for a bucket
  /slow-body?bytes=N&interval=S   Content-Length N, one byte every S seconds
  /tarpit                  accepts and never answers (/tarpit?image=X counted in bucket tarpit:X)
  /tarpit-images?ms=N      after N ms, a page whose og:image, twitter:image and icon are tarpits
  /oembed-page?format=F[&endpoint=URL]  a page declaring /oembed?format=F (or URL) as its oEmbed
  /oembed?format=F         an oEmbed response, F = json, xml, garbage, huge (300 KB) or tarpit (never answers);
                           counted in bucket "oembed:F"; its html: one https iframe and a script
  /endless                 a body that never ends (no Content-Length)
  /gzip-bomb               50 MB of zeros, gzip-encoded (about 50 KB on the wire)
  /redirect-loop           302 to itself
  /redirect?to=URL         302 to URL (private addresses, file://, ...)
  /chain?n=K               K redirects, then /ok
  /lying-type              HTML served as Content-Type: image/png
  /reset                   promises 100000 bytes, sends 1000, then resets the connection
  /flaky?key=K&failures=N&status=S[&after=A]
                           the first N requests for key K answer S (with Retry-After: A
                           when given, seconds or 'date' for an HTTP date A=1 s ahead), then 200
  /status?code=N           answers N
  /etag                    ETag "v1" and Last-Modified; answers 304 to matching validators
  /hostile-validators      200 with an ETag holding a bare CR and a Last-Modified holding an ESC
  /echo-headers            the request headers as JSON
  /huge-header?kind=K&bytes=N  response headers of N bytes: one line (K=line) or many 1 KB lines (K=many)
Every request but /stats and /open is also counted in bucket "all" (a test asserts that nothing
was sent after a point).
  /robots.txt              chosen by the Host name's first label (see ROBOTS below); every
                           fetch is counted in bucket "robots:<host name>"
"""
import email.utils
import functools
import html
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROBOTS_CAP = 500 * 1024
LOCK = threading.Lock()
BUCKETS = {}  # bucket -> {"active": n, "max": n, "count": n}
FLAKY = {}  # key -> requests seen
GATES = {}  # gate -> threading.Event, set by /open
SWITCHES = {}  # key -> the status /switch?key= answers
STOP = threading.Event()


@functools.lru_cache(maxsize=None)
def gzip_bomb():
    """50 MB of zeros, gzip-encoded (~51 KB), made from one compressed megabyte repeated: after a full
    flush deflate starts afresh, so every megabyte of zeros compresses to the same bytes. ~20 ms of CPU,
    where compressing the 50 MB took 0.15 s, which on a loaded machine (load 33 in one CI run) became
    more than the test fetcher's 10 s timeout."""
    megabyte, count = b"\0" * (1 << 20), 50
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    block = deflate.compress(megabyte) + deflate.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(megabyte, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no name or time, unknown OS
    trailer = struct.pack("<II", crc, (count << 20) & 0xFFFFFFFF)
    return header + block * count + deflate.flush(zlib.Z_FINISH) + trailer

RULES = b"""# thumbify's group wins over *
User-agent: otherbot
Disallow: /

User-agent: Thumbify/1.0
Allow: /private/open
Disallow: /private
Disallow: /*.pdf$
Crawl-delay: 60

User-agent: *
Disallow: /
"""


@functools.lru_cache(maxsize=None)
def huge_robots():
    """Over the cap, cut so that the line crossing it starts 'Disallow: /'.

    Kept whole, that partial line would disallow everything; only whole lines may remain.
    """
    head = b"User-agent: *\n"
    lines = [b"Disallow: /filler-%06d\n" % i for i in range(20000)]
    body = head
    for line in lines:
        if len(body) + len(line) > ROBOTS_CAP - 200:
            break
        body += line
    partial = b"Disallow: /"
    pad = ROBOTS_CAP - len(body) - len(partial) - 2  # '#' + padding + '\n'
    body += b"#" + b"p" * pad + b"\n"
    assert len(body) + len(partial) == ROBOTS_CAP
    body += partial + b"x" * 100 + b"\n"
    body += b"Disallow: /after-the-cap\n" * 4000
    return body



def gate(name):
    with LOCK:
        return GATES.setdefault(name, threading.Event())


def wait_for_gate(name, seconds=120):
    """Waits until gate `name` is open (or the server stops, or `seconds` pass)."""
    event = gate(name)
    deadline = time.monotonic() + seconds
    while not event.is_set() and not STOP.is_set() and time.monotonic() < deadline:
        event.wait(0.05)


@functools.lru_cache(maxsize=None)
def small_png():
    """A 16x16 RGB PNG (a gradient), made with zlib alone."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"".join(bytes((x * 16, y * 16, 128)) for x in range(16)) for y in range(16))
    header = struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def count(bucket, delta):
    with LOCK:
        entry = BUCKETS.setdefault(bucket, {"active": 0, "max": 0, "count": 0})
        entry["active"] += delta
        if delta > 0:
            entry["count"] += 1
            entry["max"] = max(entry["max"], entry["active"])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server_version = "fault/1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", content_type="text/html", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        route = getattr(self, "route_" + url.path.strip("/").replace("-", "_").replace(".", "_"), None)
        if url.path not in ("/stats", "/open"):
            count("all", 1)
            count("all", -1)
        if route is None:
            self.send(404, b"not found")
            return
        try:
            route(query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def route_ok(self, query):
        self.send(200, b"<html><head><title>ok</title></head><body>ok</body></html>")

    def route_hold(self, query):
        bucket = query.get("bucket", "default")
        count(bucket, 1)
        try:
            if "gate" in query:
                wait_for_gate(query["gate"])
            else:
                STOP.wait(int(query.get("ms", "200")) / 1000)
        finally:
            count(bucket, -1)  # before answering: the client may start its next request at once
        self.send(200, b"held")

    def route_open(self, query):
        gate(query.get("gate", "default")).set()
        self.send(200, b"open", "text/plain")

    def route_stats(self, query):
        with LOCK:
            entry = dict(BUCKETS.get(query.get("bucket", "default"), {"active": 0, "max": 0, "count": 0}))
        self.send(200, json.dumps(entry).encode(), "application/json")

    def route_slow_body(self, query):
        size = int(query.get("bytes", "100"))
        interval = float(query.get("interval", "1"))
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        for _ in range(size):
            self.wfile.write(b"x")
            self.wfile.flush()
            if STOP.wait(interval):
                return

    def route_tarpit(self, query):
        if "image" in query:  # the tarpit-images page's candidates, counted in "tarpit:<image>"
            count("tarpit:" + query["image"], 1)
            count("tarpit:" + query["image"], -1)
        STOP.wait(120)
        self.close_connection = True

    def route_tarpit_images(self, query):
        STOP.wait(int(query.get("ms", "0")) / 1000)
        self.send(200, b"<html><head><title>Three tarpits</title>"
                  b'<meta property="og:image" content="/tarpit?image=og">'
                  b'<meta name="twitter:image" content="/tarpit?image=twitter">'
                  b'<link rel="icon" href="/tarpit?image=icon"></head><body>card</body></html>')

    def route_switch(self, query):
        key = query.get("key", "default")
        count("switch:" + key, 1)
        count("switch:" + key, -1)
        with LOCK:
            status = SWITCHES.get(key, 200)
        if status == 200:
            self.send(200, ("<html><head><title>Switch %s</title></head><body>here</body></html>"
                            % html.escape(key)).encode())
        else:
            self.send(status, b"switched")

    def route_set_status(self, query):
        with LOCK:
            SWITCHES[query.get("key", "default")] = int(query.get("code", "200"))
        self.send(200, b"set", "text/plain")

    def route_gated_page(self, query):
        name = query.get("gate", "default")
        count("gated-page:" + name, 1)
        count("gated-page:" + name, -1)
        self.send(200, ("<html><head><title>Gated pictures</title>"
                        '<meta property="og:image" content="/gated-image?gate=%s&amp;name=og">'
                        '<link rel="icon" href="/gated-image?gate=%s&amp;name=icon">'
                        "</head><body>card</body></html>" % (name, name)).encode())

    def route_gated_image(self, query):
        name = query.get("gate", "default")
        bucket = "gated:%s:%s" % (name, query.get("name", ""))
        count(bucket, 1)
        count(bucket, -1)
        wait_for_gate(name)
        if not gate(name).is_set():
            self.close_connection = True
            return
        self.send(200, small_png(), "image/png")

    def route_oembed_page(self, query):
        # A page declaring an oEmbed endpoint: /oembed?format=<format> on this server, or `endpoint`.
        fmt = query.get("format", "json")
        endpoint = query.get("endpoint", "/oembed?format=" + fmt)
        kind = "text/xml+oembed" if fmt == "xml" else "application/json+oembed"
        self.send(200, ("<html><head><title>A video page</title>"
                        '<link rel="alternate" type="%s" href="%s">'
                        "</head><body>video</body></html>" % (kind, html.escape(endpoint))).encode())

    def route_oembed(self, query):
        # oEmbed responses, counted in "oembed:<format>": json, xml, garbage, tarpit.
        fmt = query.get("format", "json")
        count("oembed:" + fmt, 1)
        count("oembed:" + fmt, -1)
        host = self.headers.get("Host", "127.0.0.1")
        iframe = '<iframe src="https://%s/embed/42" width="640" height="360"></iframe>' % host.split(":")[0]
        fields = {
            "version": "1.0", "type": "video", "title": "The provider's title",
            "author_name": "A. Author", "provider_name": "Loopback Video", "provider_url": "http://127.0.0.1/",
            "thumbnail_url": "/thumb.jpg", "thumbnail_width": 480, "thumbnail_height": 270,
            "width": 640, "height": 360, "html": iframe + "<script>alert(1)</script>",
        }
        if fmt == "json":
            self.send(200, json.dumps(fields).encode(), "application/json")
        elif fmt == "xml":
            body = "".join("<%s>%s</%s>" % (k, html.escape(str(v)), k) for k, v in fields.items())
            self.send(200, ('<?xml version="1.0" encoding="utf-8"?><oembed>%s</oembed>' % body).encode(),
                      "text/xml")
        elif fmt == "huge":  # over the fetcher's 256 KB cap for oEmbed
            self.send(200, json.dumps(dict(fields, title="t" * (300 * 1024))).encode(), "application/json")
        elif fmt == "tarpit":
            STOP.wait(120)
            self.close_connection = True
        else:
            self.send(200, b"\x00\xff{<<not oembed", "application/json")

    def route_endless(self, query):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        chunk = b"<p>" + b"a" * 65536 + b"</p>\n"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not STOP.is_set():
            self.wfile.write(chunk)

    def route_gzip_bomb(self, query):
        self.send(200, gzip_bomb(), "text/html", [("Content-Encoding", "gzip")])

    def route_redirect_loop(self, query):
        self.send(302, b"", headers=[("Location", "/redirect-loop")])

    def route_redirect(self, query):
        self.send(302, b"", headers=[("Location", query.get("to", "/ok"))])

    def route_chain(self, query):
        n = int(query.get("n", "1"))
        self.send(302, b"", headers=[("Location", "/chain?n=%d" % (n - 1) if n > 1 else "/ok")])

    def route_lying_type(self, query):
        self.send(200, b"<html><head><title>not a png</title></head></html>", "image/png")

    def route_reset(self, query):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(b"y" * 1000)
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def route_flaky(self, query):
        key = query.get("key", "default")
        with LOCK:
            seen = FLAKY.get(key, 0)
            FLAKY[key] = seen + 1
        if seen < int(query.get("failures", "1")):
            headers = []
            after = query.get("after")
            if after == "date":
                headers.append(("Retry-After", email.utils.formatdate(time.time() + 2, usegmt=True)))
            elif after is not None:
                headers.append(("Retry-After", after))
            self.send(int(query.get("status", "503")), b"try later", headers=headers)
        else:
            self.send(200, b"<html><title>recovered</title></html>")

    def route_status(self, query):
        self.send(int(query.get("code", "500")), b"status")

    def route_etag(self, query):
        modified = "Sun, 01 Nov 2026 10:00:00 GMT"
        if self.headers.get("If-None-Match") == '"v1"' or self.headers.get("If-Modified-Since") == modified:
            self.send_response(304)
            self.send_header("ETag", '"v1"')
            self.end_headers()
            return
        self.send(200, b"<html>versioned</html>", headers=[("ETag", '"v1"'), ("Last-Modified", modified)])

    def route_hostile_validators(self, query):
        # send_header writes a value's bytes as given, control characters included.
        self.send_response(200)
        self.send_header("ETag", '"v1\rX-Injected: 1"')
        self.send_header("Last-Modified", "Sun, 01 Nov 2026\x1b[2J 10:00:00 GMT")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def route_huge_header(self, query):
        size = int(query.get("bytes", "20000000"))
        self.send_response(200)
        if query.get("kind") == "line":
            self.send_header("X-Huge", "a" * size)
        else:
            for index in range(size // 1024):
                self.send_header("X-Filler-%d" % index, "a" * 1000)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def route_echo_headers(self, query):
        self.send(200, json.dumps({k.lower(): v for k, v in self.headers.items()}).encode(), "application/json")

    def route_robots_txt(self, query):
        host = (self.headers.get("Host") or "").split(":")[0]
        count("robots:" + host, 1)
        count("robots:" + host, -1)
        variant = host.split(".")[0]
        if variant == "robots-5xx":
            self.send(503, b"down", "text/plain")
        elif variant == "robots-huge":
            self.send(200, huge_robots(), "text/plain")
        elif variant == "robots-rules":
            self.send(200, RULES, "text/plain")
        elif variant == "robots-delay":  # a delay no Duration can hold (it used to trap)
            self.send(200, b"User-agent: *\nCrawl-delay: 1e308\nDisallow: /blocked\n", "text/plain")
        elif variant == "robots-etag":
            if self.headers.get("If-None-Match") == '"r1"':
                self.send_response(304)
                self.send_header("ETag", '"r1"')
                self.end_headers()
                return
            self.send(200, b"User-agent: *\nDisallow: /blocked\n", "text/plain", [("ETag", '"r1"')])
        else:  # robots-missing and every other host
            self.send(404, b"no robots", "text/plain")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # EOF: the test process closed our stdin or died
    STOP.set()
    os._exit(0)


if __name__ == "__main__":
    main()
