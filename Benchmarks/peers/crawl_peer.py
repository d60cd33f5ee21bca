#!/usr/bin/python3
"""The crawl benchmark's Python peer: the same job as `thumbify crawl`, the way a competent engineer
would write it with the usual tools.

asyncio + aiohttp (one session, 64 connections, a per-host limit), html.parser for OpenGraph/icons,
Pillow (draft mode for JPEG shrink-on-load, LANCZOS, WebP q80) in a ProcessPoolExecutor with one
worker per core, content-addressed blobs (SHA-256), one download per image URL (coalesced through a
dict of futures), one thumbnail set per source hash, one card file per URL as thumbify writes them
(`cards/<sha256 of the URL>.json`, written to a temporary name and renamed into place), and
manifest.jsonl in input order.

  /usr/bin/python3 Benchmarks/peers/crawl_peer.py urls.txt --out DIR [--concurrency 64] [--per-host 2]
      [--no-cards]

Prints one line: `peer: N urls in S s (R urls/s), peak RSS M MB` (RSS of this process; the pool's
workers are reported separately as the largest child).
"""
import argparse, asyncio, concurrent.futures, hashlib, io, json, os, resource, sys, time
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import aiohttp
from PIL import Image

VARIANTS = [("card", 600, 1200, False), ("card2x", 1200, 2400, False)]
ICON_VARIANTS = [("icon", 64, 64, True)]


class HeadParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.meta, self.icons, self.title, self._in_title = {}, [], None, False

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "meta":
            key = (a.get("property") or a.get("name") or "").lower()
            if key and key not in self.meta and "content" in a:
                self.meta[key] = a["content"]
        elif tag == "link" and "icon" in a.get("rel", "").lower() and a.get("href"):
            self.icons.append(a["href"])
        elif tag == "title":
            self._in_title = True

    def handle_data(self, data):
        if self._in_title and self.title is None:
            self.title = data.strip()

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False


def make_thumbnails(data, variants, out):
    """Runs in a pool worker: decode once (draft for JPEG), one resize + WebP encode per variant."""
    image = Image.open(io.BytesIO(data))
    biggest = max(v[1] for v in variants)
    if image.format == "JPEG":
        image.draft("RGB", (biggest, biggest))
    image = image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB")
    width, height = image.size
    results = []
    for name, box_w, box_h, cover in variants:
        if cover:
            scale = max(box_w / width, box_h / height)
        else:
            scale = min(box_w / width, box_h / height)
        scale = min(scale, 1.0)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        resized = image.resize(size, Image.LANCZOS)
        if cover:
            left, top = (size[0] - min(box_w, size[0])) // 2, (size[1] - min(box_h, size[1])) // 2
            resized = resized.crop((left, top, left + min(box_w, size[0]), top + min(box_h, size[1])))
        buffer = io.BytesIO()
        resized.save(buffer, "WEBP", quality=80)
        blob = buffer.getvalue()
        digest = hashlib.sha256(blob).hexdigest()
        path = f"blobs/{digest[:2]}/{digest[2:4]}/{digest}.webp"
        full = os.path.join(out, path)
        if not os.path.exists(full):
            os.makedirs(os.path.dirname(full), exist_ok=True)
            tmp = full + ".tmp"
            with open(tmp, "wb") as f:
                f.write(blob)
            os.replace(tmp, full)
        results.append({"name": name, "path": path, "width": resized.size[0], "height": resized.size[1],
                        "bytes": len(blob), "format": "webp", "sha256": digest})
    return {"width": width, "height": height, "variants": results}


def write_card(cards, record):
    """A frontend draws one URL's card from its own small file (thumbify's `cards/<key>.json`); a
    temporary name and os.replace, so a reader never sees a torn card."""
    path = os.path.join(cards, hashlib.sha256(record["url"].encode()).hexdigest() + ".json")
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")
    os.replace(path + ".tmp", path)


class Crawler:
    def __init__(self, session, pool, out):
        self.session, self.pool, self.out = session, pool, out
        self.images = {}   # (url, kind) -> future: one download per image URL
        self.renders = {}  # (sha256, kind) -> future: one thumbnail set per source bytes

    async def image(self, url, kind):
        key = (url, kind)
        if key not in self.images:
            self.images[key] = asyncio.ensure_future(self._image(url, kind))
        return await self.images[key]

    async def _image(self, url, kind):
        async with self.session.get(url) as response:
            if response.status != 200:
                raise RuntimeError(f"HTTP {response.status}")
            data = await response.read()
        digest = hashlib.sha256(data).hexdigest()
        key = (digest, kind)
        if key not in self.renders:
            variants = ICON_VARIANTS if kind == "icon" else VARIANTS
            loop = asyncio.get_running_loop()
            self.renders[key] = loop.run_in_executor(self.pool, make_thumbnails, data, variants, self.out)
        result = dict(await self.renders[key])
        result["source"] = url
        return result

    async def page(self, url):
        record = {"url": url}
        try:
            async with self.session.get(url) as response:
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}")
                body = await response.read()
                final = str(response.url)
                charset = response.charset or "utf-8"
        except Exception as error:
            record["outcome"], record["error"] = "failed", str(error) or type(error).__name__
            return record
        parser = HeadParser()
        parser.feed(body.decode(charset, errors="replace"))
        meta = parser.meta
        record.update(outcome="ok", finalURL=final, title=meta.get("og:title") or parser.title,
                      description=meta.get("og:description") or meta.get("description"))
        image = meta.get("og:image") or meta.get("twitter:image")
        icons = [urljoin(final, href) for href in parser.icons]
        parts = urlsplit(final)
        icons.append(f"{parts.scheme}://{parts.netloc}/favicon.ico")
        jobs = []
        if image:
            jobs.append(self._first([urljoin(final, image)], "image"))
        jobs.append(self._first(icons, "icon"))
        results = await asyncio.gather(*jobs)
        if image:
            record["image"], record["imageError"] = results[0]
        record["icon"], record["iconError"] = results[-1]
        return record

    async def _first(self, urls, kind):
        error = None
        for url in urls:
            try:
                return await self.image(url, kind), None
            except Exception as caught:
                error = str(caught) or type(caught).__name__
        return None, error


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("urls")
    parser.add_argument("--out", required=True)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--per-host", type=int, default=2)
    parser.add_argument("--no-cards", action="store_true", help="write no card files (manifest and blobs only)")
    args = parser.parse_args()
    urls = [line.strip() for line in open(args.urls) if line.strip() and not line.startswith("#")]
    cards = None if args.no_cards else os.path.join(args.out, "cards")
    os.makedirs(cards or args.out, exist_ok=True)
    started = time.monotonic()
    connector = aiohttp.TCPConnector(limit=args.concurrency, limit_per_host=args.per_host)
    timeout = aiohttp.ClientTimeout(total=30)
    headers = {"User-Agent": "crawl-peer/1.0"}
    results = [None] * len(urls)
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        async with aiohttp.ClientSession(connector=connector, timeout=timeout, headers=headers) as session:
            crawler = Crawler(session, pool, args.out)
            queue = asyncio.Queue(maxsize=args.concurrency * 2)

            async def worker():
                while True:
                    item = await queue.get()
                    if item is None:
                        return
                    index, url = item
                    results[index] = await crawler.page(url)
                    if cards:
                        write_card(cards, results[index])

            workers = [asyncio.create_task(worker()) for _ in range(args.concurrency)]
            for item in enumerate(urls):
                await queue.put(item)
            for _ in workers:
                await queue.put(None)
            await asyncio.gather(*workers)
    with open(os.path.join(args.out, "manifest.jsonl.tmp"), "w") as f:
        for record in results:
            f.write(json.dumps(record, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(os.path.join(args.out, "manifest.jsonl.tmp"), os.path.join(args.out, "manifest.jsonl"))
    elapsed = time.monotonic() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    ok = sum(1 for r in results if r["outcome"] == "ok")
    print(f"peer: {len(urls)} urls ({ok} ok) in {elapsed:.2f} s ({len(urls) / elapsed:.1f} urls/s), "
          f"peak RSS {rss:.0f} MB (largest pool worker {children:.0f} MB)")


asyncio.run(main())
