#!/usr/bin/env python3
"""Opens a `thumbify report` page in headless Chromium and checks it; prints one JSON object.

    check_report.py render <page.html> [--serve <root>] [--scale 2] [--screenshot out.png]
    check_report.py xss <page.html> --marker THUMBIFY-XSS
    check_report.py open-time <page.html> [--runs 5]
    check_report.py frontend <samples/frontend/index.html> --serve <root> --url <url> --output ../out/
                    [--vectors urls.json]

Exit status: 0 when every check passed, 1 when a check failed (the JSON says which), 2 when the
browser could not be driven. Used by Tests/ThumbifyTests/Frontend/ReportBrowserTests.swift.
"""

import argparse
import base64
import contextlib
import functools
import http.server
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

RENDER_ALL = """
// How well the ThumbHash placeholder stands for the loaded image: mean absolute difference (0-1)
// between the placeholder and the image drawn at the placeholder's size, and the same for a flat
// fill with the image's mean colour. Null when either is missing or the image taints the canvas
// (file:// pages).
function likeness(box) {
  const placeholder = box.querySelector("canvas.placeholder"), img = box.querySelector("img");
  if (!placeholder || !img.complete || img.naturalWidth === 0) return { placeholderError: null, flatError: null };
  try {
    const w = placeholder.width, h = placeholder.height;
    const scratch = document.createElement("canvas");
    scratch.width = w; scratch.height = h;
    const context = scratch.getContext("2d");
    context.drawImage(img, 0, 0, w, h);
    const image = context.getImageData(0, 0, w, h).data;
    const hash = placeholder.getContext("2d").getImageData(0, 0, w, h).data;
    const mean = [0, 1, 2].map((c) => { let t = 0; for (let i = c; i < image.length; i += 4) t += image[i]; return t / (w * h); });
    let hashError = 0, flatError = 0;
    for (let i = 0; i < image.length; i += 4)
      for (let c = 0; c < 3; c++) {
        hashError += Math.abs(image[i + c] - hash[i + c]);
        flatError += Math.abs(image[i + c] - mean[c]);
      }
    return { placeholderError: hashError / (w * h * 3 * 255), flatError: flatError / (w * h * 3 * 255) };
  } catch (error) {
    return { placeholderError: null, flatError: null };
  }
}

(async () => {
  const more = document.getElementById("more");
  for (let i = 0; i < 200 && !more.hidden; i++) {
    more.scrollIntoView();
    await new Promise((r) => setTimeout(r, 50));
  }
  const images = [...document.querySelectorAll(".card img")];
  const deadline = performance.now() + 20000;
  for (const img of images) {
    img.scrollIntoView();
    while (!img.complete && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
  window.scrollTo(0, 0);
  await new Promise((r) => setTimeout(r, 300));
  const canvases = [...document.querySelectorAll("canvas.placeholder")];
  return {
    title: document.title,
    heading: document.querySelector("h1").textContent,
    total: JSON.parse(document.getElementById("report-config").textContent).total,
    cards: document.querySelectorAll(".card").length,
    ok: document.querySelectorAll(".card.ok").length,
    stale: document.querySelectorAll(".card.stale").length,
    failed: document.querySelectorAll(".card.failed").length,
    staleWithError: document.querySelectorAll(".card.stale .error").length,
    failedWithError: document.querySelectorAll(".card.failed .error").length,
    videoBadges: document.querySelectorAll(".badge.video").length,
    images: images.length,
    imagesLoaded: images.filter((img) => img.complete && img.naturalWidth > 0).length,
    imagesBroken: images.filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
    imagesWithoutSize: images.filter((img) => !(img.getAttribute("width") > 0 && img.getAttribute("height") > 0)).length,
    mediaBoxes: [...document.querySelectorAll(".media")].map((box) => ({
      width: box.getBoundingClientRect().width, height: box.getBoundingClientRect().height,
      loaded: box.classList.contains("loaded"),
      currentSrc: box.querySelector("img").currentSrc, srcset: box.querySelector("img").srcset,
      ...likeness(box) })),
    placeholders: canvases.length,
    placeholdersDrawn: canvases.filter((c) => {
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
      return false; }).length,
    icons: document.querySelectorAll(".site .icon").length,
    links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
    titles: [...document.querySelectorAll(".title bdi")].map((b) => b.textContent),
    texts: [...document.querySelectorAll(".card bdi")].map((b) => b.textContent),
    errors: [...document.querySelectorAll(".card .error")].map((e) => e.textContent),
    notes: [...document.querySelectorAll(".card .note")].map((e) => e.textContent),
    scripts: document.scripts.length,
    pwned: typeof window.__thumbifyPwned !== "undefined",
  };
})()
"""


def page_url(path, serve_root):
    path = os.path.abspath(path)
    if not serve_root:
        return "file://" + path, None
    root = os.path.abspath(serve_root)
    handler = functools.partial(Quiet, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    relative = os.path.relpath(path, root)
    return f"http://127.0.0.1:{server.server_address[1]}/{relative}", server


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def open_page(browser, url):
    for domain in ("Page", "Runtime", "Log"):
        browser.send(domain + ".enable")
    browser.send("Page.navigate", {"url": url})
    browser.wait_for("Page.loadEventFired", timeout=60)


@contextlib.contextmanager
def opened(args, query="", **options):
    """Chromium with `args.page` loaded (served over loopback when `args.serve` is set)."""
    url, server = page_url(args.page, args.serve)
    browser = Browser(**options)
    try:
        open_page(browser, url + query)
        yield browser
    finally:
        browser.close()
        if server:
            server.shutdown()


def render(args):
    width, height = (int(n) for n in args.window.split("x"))
    with opened(args, width=width, height=height, scale=args.scale) as browser:
        state = browser.evaluate(RENDER_ALL, timeout=90)
        browser.drain(0.5)
        if args.screenshot:
            shot = browser.send("Page.captureScreenshot", {"format": "png"})
            with open(args.screenshot, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        state["problems"] = browser.problems()
        state["console"] = browser.console_messages()
    failures = []
    if state["cards"] != state["total"] or state["total"] == 0:
        failures.append(f"{state['cards']} cards rendered of {state['total']}")
    if state["images"] == 0 or state["imagesLoaded"] != state["images"]:
        failures.append(f"{state['imagesLoaded']} of {state['images']} images loaded: {state['imagesBroken']}")
    if state["imagesWithoutSize"]:
        failures.append(f"{state['imagesWithoutSize']} images without width/height")
    if state["problems"]:
        failures.append("console/log problems: " + "; ".join(state["problems"]))
    if any(not link.startswith(("http://", "https://")) for link in state["links"]):
        failures.append("a link that is not http(s)")
    state["failures"] = failures
    return state


def xss(args):
    state = render(args)
    messages = state["console"] + state["problems"]
    failures = [f for f in state["failures"] if not f.startswith(("console/log problems", "0 of 0 images"))]
    if any(args.marker in message for message in messages):
        failures.append("the injected marker reached the console: " + repr(messages))
    if state["title"] != state["heading"]:
        failures.append(f"document.title changed to {state['title']!r}")
    if state["pwned"]:
        failures.append("an injected script set window.__thumbifyPwned")
    if state["problems"]:
        failures.append("console/log problems (a CSP violation means something tried to run): " + "; ".join(state["problems"]))
    state["failures"] = failures
    return state


def open_time(args):
    url, server = page_url(args.page, args.serve)
    samples = []
    try:
        for _ in range(args.runs):
            browser = Browser()
            try:
                for domain in ("Page", "Runtime", "Log"):
                    browser.send(domain + ".enable")
                started = time.monotonic()
                browser.send("Page.navigate", {"url": url})
                while True:
                    count = browser.evaluate("document.querySelectorAll('.card').length")
                    if count:
                        break
                    if time.monotonic() - started > 60:
                        raise TimeoutError("no card after 60 s")
                    time.sleep(0.01)
                wall = time.monotonic() - started
                browser.wait_for("Page.loadEventFired", timeout=120)
                marks = browser.evaluate(
                    """(() => {
                      const m = (n) => (performance.getEntriesByName(n)[0] || {}).startTime;
                      const nav = performance.getEntriesByType("navigation")[0];
                      return { firstCards: m("thumbify-first-cards"), firstCardsPainted: m("thumbify-first-cards-painted"),
                               firstContentfulPaint: (performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint") || {}).startTime, domContentLoaded: nav.domContentLoadedEventEnd,
                               load: nav.loadEventEnd, cards: document.querySelectorAll('.card').length };
                    })()"""
                )
                marks["wallToFirstCards"] = wall * 1000
                marks["problems"] = browser.problems()
                samples.append(marks)
            finally:
                browser.close()
    finally:
        if server:
            server.shutdown()
    keys = ["firstCards", "firstCardsPainted", "firstContentfulPaint", "domContentLoaded", "load", "wallToFirstCards"]
    median = {key: statistics.median([s[key] for s in samples if s.get(key) is not None] or [float("nan")]) for key in keys}
    failures = [p for s in samples for p in s["problems"]]
    if median["firstCardsPainted"] >= args.limit_ms:
        failures.append(f"first cards painted after {median['firstCardsPainted']:.0f} ms (limit {args.limit_ms} ms)")
    return {"samples": samples, "median": median, "failures": failures}


FRONTEND_STATE = """
(async () => {
  const deadline = performance.now() + 20000;
  while (document.body.dataset.state !== "done" && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const img = document.querySelector("#result .media img");
  while (img && !img.complete && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const card = await import("./card.js");
  const vectors = VECTORS;
  const normalized = [], keys = [];
  for (const url of vectors) {
    try { normalized.push(card.normalizeURL(url)); keys.push(await card.cardKey(url)); }
    catch (error) { normalized.push(null); keys.push(null); }
  }
  // A playable card: click it, read the player it shows, and take it out at once (in the same task,
  // so the browser starts no load of the player's URL).
  const playable = document.querySelector("#result .media.playable");
  let player = null;
  if (playable) {
    playable.click();
    const shown = playable.querySelector(".player");
    if (shown) {
      player = { tag: shown.tagName.toLowerCase(), src: shown.getAttribute("src"), sandbox: shown.getAttribute("sandbox") };
      shown.remove();
    }
  }
  return {
    done: document.body.dataset.state === "done",
    player,
    keyLine: document.getElementById("key").textContent,
    title: (document.querySelector("#result .title") || {}).textContent,
    result: document.getElementById("result").textContent,
    imageLoaded: !!img && img.naturalWidth > 0,
    normalized, keys,
  };
})()
"""


def frontend(args):
    vectors = json.load(open(args.vectors)) if args.vectors else []
    query = "?" + urllib.parse.urlencode({"url": args.url, "output": args.output})
    with opened(args, query) as browser:
        state = browser.evaluate(FRONTEND_STATE.replace("VECTORS", json.dumps(vectors)), timeout=60)
        browser.drain(0.3)
        state["problems"] = browser.problems()
    failures = []
    if not state["done"]:
        failures.append("the page did not finish looking up the card")
    if state["problems"]:
        failures.append("console/log problems: " + "; ".join(state["problems"]))
    state["failures"] = failures
    return state


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["render", "xss", "open-time", "frontend"])
    parser.add_argument("page")
    parser.add_argument("--serve", help="serve this directory on loopback and open the page over http")
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("--screenshot")
    parser.add_argument("--window", default="1280x900", help="render: the viewport, WxH")
    parser.add_argument("--marker", default="THUMBIFY-XSS")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit-ms", type=float, default=2000)
    parser.add_argument("--url", help="frontend: the URL to look up")
    parser.add_argument("--output", default="../", help="frontend: the output directory, relative to the page")
    parser.add_argument("--vectors", help="frontend: a JSON file of URLs to normalize and hash in the page")
    args = parser.parse_args()
    try:
        result = {"render": render, "xss": xss, "open-time": open_time, "frontend": frontend}[args.mode](args)
    except Exception as error:  # the browser could not be driven: say so, distinctly from a failed check
        print(json.dumps({"failures": [f"driver error: {error!r}"], "driverError": True}))
        return 2
    print(json.dumps(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
