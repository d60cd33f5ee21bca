#!/usr/bin/env python3
"""How fast a 100,000-card `thumbify report` is written and opens in headless Chromium.

    swift build -c release --product thumbify
    Benchmarks/report-open.py [--records 100000] [--runs 5] [--thumbify .build/release/thumbify]

Generates an output directory with `--records` manifest records (realistic text lengths, two card
variants and an icon per record pointing at real WebP/JPEG blobs copied from samples/photos, 10% stale,
5% failed), then
  1. runs `thumbify report <dir>` `--runs` times (after one warm-up) and reports the median wall time;
  2. opens the page in headless Chromium `--runs` times (fresh browser each time) and reports the
     median time from navigation start to the first cards being in the DOM (`thumbify-first-cards`
     mark), to the frame after it (`thumbify-first-cards-painted`), first contentful paint,
     DOMContentLoaded and load, plus the wall time from Page.navigate to the first `.card` seen
     by polling.
Prints a table and one JSON line; exits 1 when the median time to painted first cards is 2 s or more.
"""

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import check_report  # noqa: E402

WORDS = ("link preview card image title site page news article story photo guide review travel food "
         "music city night river mountain weather market science history design").split()


def blob(directory, source):
    data = open(source, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    extension = os.path.splitext(source)[1].lstrip(".").replace("jpeg", "jpg")
    path = f"blobs/{digest[:2]}/{digest[2:4]}/{digest}.{extension}"
    os.makedirs(os.path.join(directory, os.path.dirname(path)), exist_ok=True)
    shutil.copyfile(source, os.path.join(directory, path))
    return path, len(data), digest


def generate(directory, count, seed=1):
    rng = random.Random(seed)
    photos = [os.path.join(ROOT, "samples", "photos", n) for n in sorted(os.listdir(os.path.join(ROOT, "samples", "photos")))
              if n.endswith((".jpg", ".webp"))]
    blobs = [blob(directory, p) for p in photos]
    sentence = lambda n: " ".join(rng.choice(WORDS) for _ in range(n)).capitalize()
    with open(os.path.join(directory, "manifest.jsonl"), "w") as manifest:
        for index in range(count):
            host = f"site{index % 997}.example"
            url = f"https://{host}/articles/{index}/{sentence(3).lower().replace(' ', '-')}"
            roll = rng.random()
            outcome = "failed" if roll < 0.05 else "stale" if roll < 0.15 else "ok"
            record = {"schema": 1, "url": url, "normalizedURL": url, "outcome": outcome,
                      "fetch": {"finalURL": url, "status": 200, "fetchedAt": "2026-11-29T00:00:00Z"}}
            if outcome != "failed":
                small, large = rng.choice(blobs), rng.choice(blobs)
                icon = blobs[index % len(blobs)]
                record["metadata"] = {"title": sentence(rng.randint(5, 11)), "description": sentence(rng.randint(15, 30)) + ".",
                                      "siteName": f"Site {index % 997}", "url": url, "lang": "en"}
                if index % 20 == 0:
                    record["metadata"]["video"] = {"url": f"https://{host}/v/{index}.mp4", "type": "video/mp4"}
                record["image"] = {"source": f"https://{host}/og/{index}.jpg", "width": 1600, "height": 900,
                                   "placeholder": "1QcSHQRnh493V4dIh4eXh1h4kJUI", "color": "#%06x" % rng.randrange(1 << 24),
                                   "variants": [
                                       {"name": "card", "path": small[0], "width": 600, "height": 338, "bytes": small[1], "format": "webp", "sha256": small[2]},
                                       {"name": "card2x", "path": large[0], "width": 1200, "height": 675, "bytes": large[1], "format": "webp", "sha256": large[2]}]}
                record["icon"] = {"source": f"https://{host}/favicon.ico", "width": 64, "height": 64,
                                  "placeholder": "1QcSHQRnh493V4dIh4eXh1h4kJUI", "color": "#336699",
                                  "variants": [{"name": "icon", "path": icon[0], "width": 64, "height": 64, "bytes": icon[1], "format": "webp", "sha256": icon[2]}]}
            if outcome != "ok":
                record["error"] = {"code": "httpStatus", "message": "The server answered HTTP 503.", "stage": "fetch"}
            manifest.write(json.dumps(record, separators=(",", ":")) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--thumbify", default=os.path.join(ROOT, ".build", "release", "thumbify"))
    parser.add_argument("--keep", action="store_true", help="keep the generated directory")
    args = parser.parse_args()
    if "/debug/" in os.path.realpath(args.thumbify):
        print("WARNING: timing a debug build of thumbify; build with -c release", file=sys.stderr)

    directory = tempfile.mkdtemp(prefix="thumbify-report-open-")
    try:
        generate(directory, args.records)
        manifest_bytes = os.path.getsize(os.path.join(directory, "manifest.jsonl"))
        command = [args.thumbify, "report", directory]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # warm-up
        report_times, report_cpu = [], []
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.monotonic()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            report_times.append(time.monotonic() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            report_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        page = os.path.join(directory, "index.html")
        page_bytes = os.path.getsize(page)

        class Options:
            pass

        options = Options()
        options.page, options.serve, options.runs, options.limit_ms = page, None, args.runs, 2000
        opened = check_report.open_time(options)
        median = opened["median"]
        print(f"records                      {args.records}")
        print(f"manifest                     {manifest_bytes / 1e6:.1f} MB")
        print(f"report page                  {page_bytes / 1e6:.1f} MB")
        print(f"thumbify report (median)     {statistics.median(report_times) * 1000:.0f} ms  (min {min(report_times) * 1000:.0f})")
        print(f"thumbify report CPU (median) {statistics.median(report_cpu) * 1000:.0f} ms user+sys")
        print(f"load average                 {os.getloadavg()[0]:.1f}")
        for key in ("firstCards", "firstCardsPainted", "firstContentfulPaint", "domContentLoaded", "load", "wallToFirstCards"):
            print(f"{key:<28} {median[key]:.0f} ms")
        print(json.dumps({"records": args.records, "pageBytes": page_bytes, "reportSeconds": report_times,
                          "reportCPUSeconds": report_cpu,
                          "open": opened}))
        return 1 if opened["failures"] else 0
    finally:
        if args.keep:
            print(f"kept {directory}", file=sys.stderr)
        else:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
