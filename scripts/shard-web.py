#!/usr/bin/python3
"""A local test web for sharded crawls: one nginx on 127.0.0.1 listening on many ports, so that a
sharded crawl (whose key for an IP literal is host:port, docs/crawl.md "Sharded crawls") spreads it.

  scripts/shard-web.py --dir /tmp/web --ports 16 --pages 8 [--limit-rate 64k] [--pad-kb 40] [--small-images]
  nginx -c /tmp/web/nginx.conf &      # serves until killed (daemon off)

Writes:
  <dir>/www/           p/<port>-<n>.html pages (title, description, og:image, icon), img/, favicon.ico
  <dir>/nginx.conf     daemon off; every port on 127.0.0.1; one access log, <dir>/logs/access.log,
                       with the port and the User-Agent of every request: `<port> <msec> <status>
                       "<user-agent>" <uri>` (the Slurm test tells the shards apart by their
                       --contact URL, which thumbify sends in its User-Agent)
  <dir>/urls.txt       every page, ports interleaved as a real list mixes hosts
  <dir>/ports.txt      the ports, one a line
No Pillow (unlike Benchmarks/make-web.py): the photos are samples/photos as they are, so this runs
with the test dependencies alone. Ports are ones the kernel just handed out (bound to 0, released).
"""
import argparse, getpass, os, shutil, socket, struct, zlib

WORDS = ("light storm meadow river harbour market garden evening window bridge valley "
         "coffee station winter summer morning mountain village forest silver ocean").split()


def free_ports(count):
    sockets, ports = [], []
    while len(ports) < count:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)  # held until all are chosen, so no port is handed out twice
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def small_png(index):
    """A 96x64 PNG of two colours: cheap to thumbnail even for a debug build of thumbify."""
    width, height = 96, 64
    a = ((index * 70) % 256, (index * 150 + 60) % 256, (index * 40 + 120) % 256)
    b = (255 - a[0], 255 - a[1], 255 - a[2])
    rows = b"".join(b"\0" + b"".join(bytes(a if (x // 16 + y // 16) % 2 else b) for x in range(width))
                    for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def distinct_copy(data, tag):
    """The same picture with different bytes: a JPEG comment (COM) segment after SOI, or a PNG tEXt
    chunk after IHDR, carrying `tag`. Decoders ignore both, so thumbify decodes and thumbnails every
    copy anew (its caches key on the bytes' SHA-256), as it would a corpus of distinct photos."""
    text = tag.encode()
    if data[:2] == b"\xff\xd8":
        return data[:2] + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + data[2:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        ihdr_end = 8 + 8 + 13 + 4
        body = b"tEXt" + b"Comment\0" + text
        chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
        return data[:ihdr_end] + chunk + data[ihdr_end:]
    raise ValueError("not a JPEG or PNG")


def page(port, n, image, pad_kb):
    words = [WORDS[(port * 7 + n * 3 + i) % len(WORDS)] for i in range(4)]
    title = " ".join(w.capitalize() for w in words)
    text = " ".join(WORDS[(port + n + i) % len(WORDS)] for i in range(pad_kb * 150))
    return f"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<!-- {text} -->
<title>{title} | Site {port}</title>
<meta name="description" content="Page {n} of site {port}: {' '.join(words)}.">
<meta property="og:title" content="{title}">
<meta property="og:site_name" content="Site {port}">
<meta property="og:image" content="{image}">
<link rel="icon" href="/favicon.ico">
</head><body><h1>{title}</h1></body></html>
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--ports", type=int, default=16)
    parser.add_argument("--pages", type=int, default=8, help="pages per port")
    parser.add_argument("--limit-rate", default="", help="nginx limit_rate (e.g. 64k) to make fetches slow")
    parser.add_argument("--pad-kb", type=int, default=1,
                        help="about this many KB of text in a comment at the top of each page's head (thumbify "
                             "stops reading a page after its head, so padding the body would not slow it)")
    parser.add_argument("--workers", type=int, default=1, help="nginx worker processes")
    parser.add_argument("--distinct-images", action="store_true",
                        help="every page its own image: the JPEG and PNG sample photos with distinct bytes "
                             "(for throughput: no thumbnail is reused)")
    parser.add_argument("--small-images", action="store_true",
                        help="six small generated PNGs instead of samples/photos (fast in debug builds)")
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.path.abspath(args.dir)
    www = os.path.join(root, "www")
    for sub in ("www/p", "www/img", "logs", "tmp"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    if args.small_images:
        photos = [f"small-{i}.png" for i in range(6)]
        for i, name in enumerate(photos):
            with open(os.path.join(www, "img", name), "wb") as f:
                f.write(small_png(i))
    else:
        photos = sorted(os.listdir(os.path.join(repo, "samples/photos")))
        for name in photos:
            shutil.copyfile(os.path.join(repo, "samples/photos", name), os.path.join(www, "img", name))
    shutil.copyfile(os.path.join(repo, "samples/site/favicon.ico"), os.path.join(www, "favicon.ico"))
    with open(os.path.join(www, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    ports = free_ports(args.ports)
    urls = []
    for n in range(args.pages):
        for port in ports:
            # Every seventh page's image is missing (an imageError in the record); the others share
            # the sample photos, so shards make some of the same blobs.
            image = "/img/missing.jpg" if (port + n) % 7 == 0 else "/img/" + photos[(port + n) % len(photos)]
            if args.distinct_images and not image.endswith("missing.jpg"):
                sources = [p for p in photos if p.endswith((".jpg", ".png"))]
                source = sources[(port + n) % len(sources)]
                image = f"/img/{port}-{n}.{source.rsplit('.', 1)[1]}"
                with open(os.path.join(www, "img", source), "rb") as f:
                    data = distinct_copy(f.read(), f"{port}-{n}")
                with open(os.path.join(www, image.lstrip("/")), "wb") as f:
                    f.write(data)
            with open(os.path.join(www, "p", f"{port}-{n}.html"), "w") as f:
                f.write(page(port, n, image, args.pad_kb))
            urls.append(f"http://127.0.0.1:{port}/p/{port}-{n}.html")
    with open(os.path.join(root, "urls.txt"), "w") as f:
        f.write("".join(u + "\n" for u in urls))
    with open(os.path.join(root, "ports.txt"), "w") as f:
        f.write("".join(f"{p}\n" for p in ports))
    listen = "\n    ".join(f"listen 127.0.0.1:{p};" for p in ports)
    rate = f"limit_rate {args.limit_rate};" if args.limit_rate else ""
    with open(os.path.join(root, "nginx.conf"), "w") as f:
        # Workers as the current user: as root, nginx's default `nobody` cannot read a mkdtemp directory.
        f.write(f"""daemon off;
user {getpass.getuser()};
worker_processes {args.workers};
pid {root}/nginx.pid;
error_log {root}/logs/error.log;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  log_format shard '$server_port $msec $status "$http_user_agent" $request_uri';
  access_log {root}/logs/access.log shard;
  keepalive_requests 100000;
  client_body_temp_path {root}/tmp/body;
  proxy_temp_path {root}/tmp/proxy;
  fastcgi_temp_path {root}/tmp/fastcgi;
  uwsgi_temp_path {root}/tmp/uwsgi;
  scgi_temp_path {root}/tmp/scgi;
  server {{
    {listen}
    root {www};
    {rate}
  }}
}}
""")


main()
