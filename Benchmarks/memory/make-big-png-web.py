#!/usr/bin/python3
"""Generates a local web of pages whose og:images are large PNGs, and an nginx config serving it.

  /usr/bin/python3 Benchmarks/memory/make-big-png-web.py --dir /tmp/bigpng --port 18090 --pages 20

Every page /p/<n>.html on 127.0.0.1 has its own og:image /img/<n>.png: a 7000×7000 (49 MP) RGB
PNG, different per page (a gradient with a per-page tint and a photo pasted in, so it compresses to
a few MB like a real scan or screenshot, within the crawl's 10 MB image limit). Some are Adam7
interlaced, as a hostile or careless site may serve. Used to measure a crawl's peak memory
(docs/decoding.md, "Memory").
"""
import argparse, glob, os, random

from PIL import Image


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=18090)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--side", type=int, default=7000)
    args = parser.parse_args()
    root = os.path.abspath(args.dir)
    os.makedirs(os.path.join(root, "site/p"), exist_ok=True)
    os.makedirs(os.path.join(root, "site/img"), exist_ok=True)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    photos = sorted(glob.glob(os.path.join(repo, "samples/photos/*")))
    photos += sorted(glob.glob("/usr/share/backgrounds/gnome/*.jpg"))[:12]
    rng = random.Random(7)
    side = args.side
    for n in range(args.pages):
        path = os.path.join(root, f"site/img/{n}.png")
        if not os.path.exists(path):
            tint = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
            gradient = Image.linear_gradient("L").resize((side, side))
            image = Image.merge("RGB", [gradient.point(lambda v, t=t: (v + t) % 256) for t in tint])
            if photos:
                photo = Image.open(photos[n % len(photos)]).convert("RGB")
                photo.thumbnail((side // 2, side // 2))
                image.paste(photo, (rng.randrange(side // 2), rng.randrange(side // 2)))
            image.save(path, "PNG", compress_level=6, interlace=(n % 4 == 3))
        with open(os.path.join(root, f"site/p/{n}.html"), "w") as f:
            f.write(f"""<!doctype html><html><head><meta charset="utf-8">
<title>Large image {n}</title>
<meta property="og:title" content="Large image {n}">
<meta property="og:image" content="/img/{n}.png">
<link rel="icon" href="/img/none.ico">
</head><body><p>A page with a {side}×{side} PNG.</p></body></html>
""")
    with open(os.path.join(root, "urls.txt"), "w") as f:
        for n in range(args.pages):
            f.write(f"http://127.0.0.1:{args.port}/p/{n}.html\n")
    with open(os.path.join(root, "nginx.conf"), "w") as f:
        f.write(f"""daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 256; }}
http {{
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path {root}/tmp-body;
  proxy_temp_path {root}/tmp-proxy;
  fastcgi_temp_path {root}/tmp-fastcgi;
  uwsgi_temp_path {root}/tmp-uwsgi;
  scgi_temp_path {root}/tmp-scgi;
  server {{ listen 127.0.0.1:{args.port}; root {root}/site; }}
}}
""")


if __name__ == "__main__":
    main()
