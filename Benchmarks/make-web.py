#!/usr/bin/python3
"""Generates a local web for the crawl benchmark and an nginx config serving it on loopback.

  /usr/bin/python3 Benchmarks/make-web.py --dir /tmp/web --urls 10000 --port 18080

Hosts are loopback addresses 127.0.0.2 … 127.0.0.10, all on one port:
  127.0.0.2–127.0.0.7  ordinary sites;
  127.0.0.8            a slow site (nginx limit_rate: after the first 32 KB, bodies trickle at 32 KB/s);
  127.0.0.9            a failing site (every page answers 503);
  127.0.0.10           a redirecting site (every page 301s to the same path on 127.0.0.2).
Each site serves /p/<n>.html for any n from 100 templates (picked by n's last two digits), so the
URL count can grow to 100,000+ without writing 100,000 pages. Templates are realistic pages
(~6–15 KB, OpenGraph, icons, JSON-LD, body text). As on the real web most pages have an image of their
own: 65 % of pages (by template) point at /img/p/<page number>.jpg, one distinct 1200×630 JPEG per page
number (nginx's sub_filter writes the number into the page; the files are written for every page number
below the largest --urls, in <dir>/own); 20 % share the site-wide og:image, 10 % use one of the site's 30
section photos, 5 % point at a missing image. Photos are real: crops of samples/photos and Debian's
backgrounds (gnome-backgrounds, desktop-base), made with Pillow, 1200×630 JPEG (some progressive) and
some PNG/WebP, as og:images are. (Until 5 Dec 2026: 60 % site-wide, 35 % section photos, no own images.)
Writes <dir>/nginx.conf, <dir>/urls-<N>.txt and the sites under <dir>/sites.
"""
import argparse, glob, io, os, random, shutil

from PIL import Image

ORDINARY = [f"127.0.0.{i}" for i in range(2, 8)]
SLOW, FAILING, REDIRECTING = "127.0.0.8", "127.0.0.9", "127.0.0.10"
WORDS = ("light storm meadow river harbour market garden evening window bridge valley "
         "coffee station winter summer morning mountain village forest silver ocean").split()


def photo_sources(repo):
    paths = sorted(glob.glob(os.path.join(repo, "samples/photos/*")))
    paths += sorted(glob.glob("/usr/share/backgrounds/gnome/*.jpg"))[:12]
    paths += sorted(glob.glob("/usr/share/desktop-base/*/wallpaper/contents/images/*.png"))[:4]
    return [p for p in paths if p.rsplit(".", 1)[-1].lower() in ("jpg", "jpeg", "png", "webp")]


def make_photos(sources, count, rng):
    """`count` distinct og:image-like files (bytes, extension) cut from real photos."""
    opened = []
    for path in sources:
        try:
            image = Image.open(path)
            image.draft("RGB", (2400, 1600))
            opened.append(image.convert("RGB"))
        except Exception:
            pass
    photos = []
    for index in range(count):
        image = opened[index % len(opened)]
        scale = rng.uniform(0.55, 1.0)
        width, height = int(image.width * scale), int(image.width * scale * 630 / 1200)
        height = min(height, image.height)
        left = rng.randint(0, max(0, image.width - width))
        top = rng.randint(0, max(0, image.height - height))
        crop = image.crop((left, top, left + width, top + height)).resize((1200, 630), Image.LANCZOS)
        buffer = io.BytesIO()
        kind = index % 10
        if kind == 8:
            crop.save(buffer, "PNG", optimize=False)
            extension = "png"
        elif kind == 9:
            crop.save(buffer, "WEBP", quality=80)
            extension = "webp"
        else:
            crop.save(buffer, "JPEG", quality=82, progressive=(kind % 3 == 0))
            extension = "jpg"
        photos.append((buffer.getvalue(), extension))
    return photos


def template(host, n, image, rng):
    title = " ".join(rng.choice(WORDS).capitalize() for _ in range(4))
    paragraphs = "\n".join(
        "<p>" + " ".join(rng.choice(WORDS) for _ in range(rng.randint(60, 140))) + ".</p>" for _ in range(rng.randint(6, 14)))
    nav = "\n".join(f'<li><a href="/p/{rng.randint(0, 99999)}.html">{rng.choice(WORDS)}</a></li>' for _ in range(30))
    return f"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} | Site {host}</title>
<link rel="stylesheet" href="/static/site.css">
<script src="/static/app.js" defer></script>
<meta name="description" content="About {title.lower()}: {' '.join(rng.choice(WORDS) for _ in range(20))}.">
<meta property="og:type" content="article">
<meta property="og:title" content="{title}">
<meta property="og:site_name" content="Site {host}">
<meta property="og:image" content="{image}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta name="twitter:card" content="summary_large_image">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="canonical" href="/p/{n}.html">
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"Article","headline":"{title}","datePublished":"2026-01-{n % 28 + 1:02d}"}}</script>
</head><body>
<header><nav><ul>{nav}</ul></nav></header>
<main><article><h1>{title}</h1>
{paragraphs}
</article></main>
<footer><p>&copy; 2026 Site {host}</p></footer>
</body></html>
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--urls", type=int, action="append", default=[])
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rng = random.Random(args.seed)
    root = os.path.abspath(args.dir)
    sites = os.path.join(root, "sites")
    own_templates = set()
    if not os.path.exists(os.path.join(root, ".complete-v2")):
        shutil.rmtree(sites, ignore_errors=True)
        sources = photo_sources(repo)
        favicon = open(os.path.join(repo, "samples/site/favicon.ico"), "rb").read()
        for host in ORDINARY + [SLOW, FAILING]:
            site = os.path.join(sites, host)
            os.makedirs(os.path.join(site, "t"), exist_ok=True)
            os.makedirs(os.path.join(site, "img"), exist_ok=True)
            with open(os.path.join(site, "favicon.ico"), "wb") as f:
                f.write(favicon)
            names = []
            for index, (data, extension) in enumerate(make_photos(sources, 31, rng)):
                name = "default.jpg" if index == 0 else f"photo{index}.{extension}"
                if index == 0 and extension != "jpg":
                    name = f"default.{extension}"
                with open(os.path.join(site, "img", name), "wb") as f:
                    f.write(data)
                names.append(name)
            for t in range(100):
                roll = rng.random()
                if roll < 0.65:
                    image = "/img/p/__PAGE__.jpg"
                    own_templates.add(t)
                elif roll < 0.85:
                    image = "/img/" + names[0]
                elif roll < 0.95:
                    image = "/img/" + names[1 + t % (len(names) - 1)]
                else:
                    image = "/img/missing.jpg"
                with open(os.path.join(site, "t", f"{t:02d}.html"), "w") as f:
                    f.write(template(host, t, image, rng))
        with open(os.path.join(root, "own-templates.txt"), "w") as f:
            f.write(" ".join(str(t) for t in sorted(own_templates)))
        open(os.path.join(root, ".complete-v2"), "w").close()
    # One distinct photo per page number whose template points at its own image, for every page number
    # of the longest list (written once; a longer list adds the missing ones).
    own_templates = {int(t) for t in open(os.path.join(root, "own-templates.txt")).read().split()}
    own = os.path.join(root, "own")
    os.makedirs(own, exist_ok=True)
    missing = [n for n in range(max(args.urls, default=0)) if n % 100 in own_templates
               and not os.path.exists(os.path.join(own, f"{n}.jpg"))]
    if missing:
        sources = photo_sources(repo)
        opened = []
        for path in sources:
            try:
                image = Image.open(path)
                image.draft("RGB", (2400, 1600))
                opened.append(image.convert("RGB"))
            except Exception:
                pass
        own_rng = random.Random(args.seed * 7919 + len(missing))
        for n in missing:
            image = opened[n % len(opened)]
            scale = own_rng.uniform(0.45, 1.0)
            width = int(image.width * scale)
            height = min(int(width * 630 / 1200), image.height)
            left = own_rng.randint(0, max(0, image.width - width))
            top = own_rng.randint(0, max(0, image.height - height))
            crop = image.crop((left, top, left + width, top + height)).resize((1200, 630), Image.BICUBIC)
            crop.save(os.path.join(own, f"{n}.jpg"), "JPEG", quality=82, progressive=(n % 3 == 0))
    servers = []
    for host in ORDINARY + [SLOW]:
        rate = "limit_rate 32k;" if host == SLOW else ""
        servers.append(f"""  server {{
    listen {host}:{args.port};
    root {sites}/{host};
    {rate}
    location ~ ^/p/(?<page>\\d*?(?<t>\\d\\d))\\.html$ {{
      sub_filter '__PAGE__' $page; sub_filter_last_modified on; try_files /t/$t.html =404; }}
    location ~ ^/p/(?<page>\\d)\\.html$ {{
      sub_filter '__PAGE__' $page; sub_filter_last_modified on; try_files /t/0$page.html =404; }}
    location ~ ^/img/p/(?<n>\\d+)\\.jpg$ {{ root {root}/own; try_files /$n.jpg =404; }}
  }}""")
    servers.append(f"""  server {{ listen {FAILING}:{args.port}; return 503; }}""")
    servers.append(
        f"""  server {{ listen {REDIRECTING}:{args.port}; return 301 http://{ORDINARY[0]}:{args.port}$request_uri; }}""")
    with open(os.path.join(root, "nginx.conf"), "w") as f:
        f.write(f"""daemon off;
worker_processes 2;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  access_log off;
  keepalive_requests 100000;
  client_body_temp_path {root}/tmp-body;
  proxy_temp_path {root}/tmp-proxy;
  fastcgi_temp_path {root}/tmp-fastcgi;
  uwsgi_temp_path {root}/tmp-uwsgi;
  scgi_temp_path {root}/tmp-scgi;
{chr(10).join(servers)}
}}
""")
    # ~2.4 % of URLs on the slow site, ~4.9 % each on the failing and the redirecting one.
    weighted = ORDINARY * 6 + [FAILING, REDIRECTING] * 2 + [SLOW]
    for count in args.urls:
        with open(os.path.join(root, f"urls-{count}.txt"), "w") as f:
            for index in range(count):
                host = weighted[index % len(weighted)]
                f.write(f"http://{host}:{args.port}/p/{index}.html\n")


main()
