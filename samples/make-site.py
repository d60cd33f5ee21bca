#!/usr/bin/env python3
"""Writes samples/site/: a small multilingual site for the crawl demo and tests.

Pages in several languages and charsets (UTF-8, ISO-8859-1, Shift_JIS, EUC-JP, windows-1251,
KOI8-R, GBK), og:images pointing at the real photos in samples/photos/ (served at /photos/ by
the demo's nginx), favicons as ICO and PNG, a site-wide default og:image shared by several pages,
and pages broken on purpose (missing image, corrupt image, missing page; a redirect lives in the
demo's nginx config). Rerun after editing: python3 samples/make-site.py
"""
import os, struct, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site")
BASE = "http://127.0.0.1:8765"
DEFAULT_IMAGE = "/photos/storm.jpg"  # the site-wide default og:image


def png(size, rgb):
    """A small solid-colour PNG with a lighter centre square (pure zlib, no imaging library)."""
    rows = b""
    for y in range(size):
        row = b"\x00"
        for x in range(size):
            inner = size // 4 <= x < 3 * size // 4 and size // 4 <= y < 3 * size // 4
            r, g, b = (min(255, c + 90) for c in rgb) if inner else rgb
            row += bytes((r, g, b, 255))
        rows += row
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def ico(images):
    """An ICO file whose entries are PNGs (as modern favicons are)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries, data = b"", b""
    for size, blob in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(blob), offset + len(data))
        data += blob
    return header + entries + data


def page(path, charset, lang, title, description, image=None, icon=None, extra="", body=""):
    meta_image = f'<meta property="og:image" content="{image}">\n' if image else ""
    link_icon = f'<link rel="icon" href="{icon}">\n' if icon else ""
    html = f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="{charset}">
<title>{title}</title>
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:site_name" content="Thumbify Sample Site">
{meta_image}{link_icon}{extra}</head>
<body><h1>{title}</h1><p>{description}</p>{body}</body>
</html>
"""
    full = os.path.join(ROOT, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(html.encode(charset))
    return path


def main():
    os.makedirs(os.path.join(ROOT, "icons"), exist_ok=True)
    with open(os.path.join(ROOT, "favicon.ico"), "wb") as f:
        f.write(ico([(16, png(16, (40, 90, 160))), (32, png(32, (40, 90, 160))), (64, png(64, (40, 90, 160)))]))
    with open(os.path.join(ROOT, "icons", "apple-touch-icon.png"), "wb") as f:
        f.write(png(180, (200, 80, 40)))
    with open(os.path.join(ROOT, "icons", "ja-32.png"), "wb") as f:
        f.write(png(32, (180, 30, 60)))
    with open(os.path.join(ROOT, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    os.makedirs(os.path.join(ROOT, "images"), exist_ok=True)
    photo = open(os.path.join(ROOT, "..", "photos", "greenmeadow.jpg"), "rb").read()
    with open(os.path.join(ROOT, "images", "corrupt.jpg"), "wb") as f:
        f.write(photo[:6000])  # a JPEG cut off in its first scan

    urls = []
    urls.append(page("/index.html", "utf-8", "en", "Thumbify Sample Site",
                     "A small site with pages in several languages and charsets for the crawl demo.",
                     "/photos/greenmeadow.jpg", "/favicon.ico"))
    urls.append(page("/en/storms.html", "utf-8", "en", "Watching storms roll in",
                     "Notes on summer thunderstorms, with the site's default card image.", DEFAULT_IMAGE))
    urls.append(page("/en/weather-log.html", "utf-8", "en", "Weather log &amp; readings",
                     "Daily readings: pressure, rain &amp; wind &mdash; shares the default image.", DEFAULT_IMAGE,
                     extra='<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">\n'))
    urls.append(page("/en/ladybird.html", "utf-8", "en", "A ladybird on a leaf",
                     "A macro photograph delivered as a WebP og:image.", "/photos/ladybird.webp",
                     extra='<meta name="twitter:card" content="summary_large_image">\n'))
    urls.append(page("/fr/fleurs.html", "iso-8859-1", "fr", "Fleurs jaunes à l'été",
                     "Une page en français, encodée en ISO-8859-1 : éàçô.", "/photos/yellowflower.webp"))
    urls.append(page("/fr/orages.html", "utf-8", "fr", "Les orages d'été",
                     "Même image par défaut que les autres pages du site.", DEFAULT_IMAGE))
    urls.append(page("/ja/index.html", "shift_jis", "ja", "雨の日の写真",
                     "シフトJISで書かれた日本語のページです。", "/photos/raindrops-progressive.jpg",
                     "/icons/ja-32.png"))
    urls.append(page("/ja/tenki.html", "euc-jp", "ja", "今日の天気",
                     "EUC-JPで書かれたページ。既定の画像を使います。", DEFAULT_IMAGE))
    urls.append(page("/ru/novosti.html", "windows-1251", "ru", "Новости природы",
                     "Страница на русском языке в кодировке windows-1251.", "/photos/greenmeadow.jpg"))
    urls.append(page("/ru/koi8.html", "koi8-r", "ru", "Гроза над полем",
                     "Страница в кодировке KOI8-R с изображением по умолчанию.", DEFAULT_IMAGE))
    urls.append(page("/zh/index.html", "gbk", "zh", "春天的花",
                     "这是一个使用GBK编码的中文页面。", "/photos/freshflower-alpha.png"))
    urls.append(page("/de/wiese.html", "utf-8", "de", "Grüne Wiese",
                     "Das Bild kommt hier aus JSON-LD.", None,
                     extra='<script type="application/ld+json">{"@context":"https://schema.org",'
                           '"@type":"Article","headline":"Grüne Wiese","image":"/photos/greenmeadow.jpg"}'
                           '</script>\n'))
    urls.append(page("/broken/missing-image.html", "utf-8", "en", "A page whose image is gone",
                     "Its og:image answers 404; the card has no image and says why.", "/photos/missing.jpg"))
    urls.append(page("/broken/corrupt-image.html", "utf-8", "en", "A page with a corrupt image",
                     "Its og:image is a truncated JPEG.", "/images/corrupt.jpg"))

    page("/private/draft.html", "utf-8", "en", "An unpublished draft",
         "robots.txt disallows /private/, so a polite crawl does not fetch this page.", DEFAULT_IMAGE)

    with open(os.path.join(ROOT, "..", "urls.txt"), "w") as f:
        f.write("# The sample site, served by scripts/demo on http://127.0.0.1:8765/\n")
        for path in urls:
            f.write(BASE + ("/" if path == "/index.html" else path) + "\n")
        f.write("# a redirect (301 to /en/storms.html, configured in scripts/demo's nginx.conf)\n")
        f.write(BASE + "/old/storms\n")
        f.write("# broken on purpose: a missing page, and a line that is not a URL\n")
        f.write(BASE + "/broken/no-such-page.html\n")
        f.write("this line is not a URL\n")
        f.write("# disallowed by robots.txt\n")
        f.write(BASE + "/private/draft.html\n")
        f.write("# a duplicate spelling of the home page\n")
        f.write("HTTP://127.0.0.1:8765/#top\n")


main()
