#!/usr/bin/python3
"""The Pillow peer of the imaging benchmark: times thumbnails of the given files.

Usage: pillow-thumbnail.py [--srgb] WxH contain|cover webp|png QUALITY THREADS SAMPLES|serve OUTDIR FILE...

Each image: open, `draft` (JPEG DCT shrink-on-load), then `Image.thumbnail`
(contain) or `ImageOps.fit` (cover), Lanczos, saved as WebP (method 4) or PNG.
Prints one line per sample: `seconds <s> cpu <s>` (warm-up excluded, interpreter start-up
and imports excluded), then `rss_kb <VmHWM>`. With `serve` instead of a sample
count it runs one timed pass per line read from standard input (so a driver can
interleave it with other tools) until end of input.

With --srgb an embedded ICC profile is converted to sRGB after the draft decode, as thumbify and
`vipsthumbnail --export-profile srgb` do: ImageCms (Little CMS), perceptual intent with black-point
compensation, the transform built once per profile and kept (a thumbnailing service would).
"""
import io
import os
import sys
import time
from multiprocessing import get_context

from PIL import Image, ImageCms, ImageOps

SRGB = ImageCms.createProfile("sRGB")
TRANSFORMS = {}


def to_srgb(image):
    """`image` converted from its embedded profile to sRGB (RGB mode), or as it is without one."""
    icc = image.info.get("icc_profile")
    if not icc:
        return image
    key = (icc, image.mode)
    if key not in TRANSFORMS:
        TRANSFORMS[key] = ImageCms.buildTransform(
            ImageCms.ImageCmsProfile(io.BytesIO(icc)), SRGB, image.mode, "RGB",
            renderingIntent=ImageCms.Intent.PERCEPTUAL, flags=ImageCms.FLAGS["BLACKPOINTCOMPENSATION"])
    return ImageCms.applyTransform(image, TRANSFORMS[key])


def thumbnail(job):
    path, width, height, fit, fmt, quality, out, srgb = job
    image = Image.open(path)
    image.draft("RGB", (width, height))
    if srgb and image.mode in ("RGB", "CMYK", "L"):
        image = to_srgb(image)
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    if fit == "cover":
        image = ImageOps.fit(image, (width, height), Image.LANCZOS)
    else:
        image.thumbnail((width, height), Image.LANCZOS)
    name = os.path.join(out, os.path.splitext(os.path.basename(path))[0] + "." + fmt)
    if fmt == "webp":
        image.save(name, "WEBP", quality=quality, method=4)
    else:
        image.save(name, "PNG")


def main():
    arguments = sys.argv[1:]
    srgb = arguments[:1] == ["--srgb"]
    size, fit, fmt, quality, threads, samples, out = arguments[srgb:srgb + 7]
    files = arguments[srgb + 7:]
    width, height = (int(v) for v in size.split("x"))
    os.makedirs(out, exist_ok=True)
    jobs = [(f, width, height, fit, fmt, int(quality), out, srgb) for f in files]
    # "spawn" workers: forking a process whose pool threads hold locks can deadlock at exit.
    pool = get_context("spawn").Pool(int(threads)) if int(threads) > 1 else None
    run = (lambda: pool.map(thumbnail, jobs, chunksize=1)) if pool else (lambda: [thumbnail(j) for j in jobs])
    run()  # warm-up
    rounds = iter(sys.stdin.readline, "") if samples == "serve" else range(int(samples))
    for _ in rounds:
        start, cpu = time.perf_counter(), time.process_time()
        run()
        # CPU time of this process only: meaningful without a pool (-1 with one).
        cpu = time.process_time() - cpu if pool is None else -1
        print(f"seconds {time.perf_counter() - start:.6f} cpu {cpu:.6f}", flush=True)
    if pool:
        pool.close()
        pool.join()
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                print(f"rss_kb {line.split()[1]}")


if __name__ == "__main__":
    main()
