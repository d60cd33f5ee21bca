#!/usr/bin/python3
"""Quality per byte and CPU per image of candidate encodings for the default variants (docs/imaging.md).

For each source (photos: the imaging corpus's ~2048 px progressive JPEGs; illustrations: flat-colour
wallpapers from mate-backgrounds and desktop-base) and each variant width (card 600, card2x 1200), the
source is resized once with Pillow's Lanczos (the reference at that size), then encoded with every
candidate: libwebp (quality x method), libjpeg-turbo (quality, baseline or progressive, 4:2:0) through
Pillow, and libaom through `avifenc` (speed). Each encode is timed (process CPU time, `avifenc`: the
child's CPU time, which includes its PNG read), decoded and compared with the reference by SSIM on
BT.601 luma (8x8 windows, stride 4, as thumbify's StructuralSimilarity).

    scripts/install-deps bench
    /usr/bin/python3 Benchmarks/imaging/variant-encodings.py [--corpus .build/imaging-corpus] [--repeat 3] [--only 'WebP q8']

Prints one markdown table row per candidate and width: mean bytes, mean SSIM (photos, illustrations)
and median encode CPU ms per image.
"""

import argparse
import glob
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

ILLUSTRATIONS = [
    "/usr/share/backgrounds/mate/desktop/Stripes.png",
    "/usr/share/backgrounds/mate/desktop/Ubuntu-Mate-Warm-no-logo.png",
    "/usr/share/backgrounds/mate/abstract/Flow.png",
    "/usr/share/backgrounds/mate/abstract/Waves.png",
    "/usr/share/backgrounds/mate/abstract/Gulp.png",
    "/usr/share/desktop-base/emerald-theme/grub/grub-16x9.png",
]


def luma(image):
    a = np.asarray(image.convert("RGB"), dtype=np.float64)
    return 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]


def ssim(x, y, window=8, stride=4):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    view = np.lib.stride_tricks.sliding_window_view
    a = view(x, (window, window))[::stride, ::stride]
    b = view(y, (window, window))[::stride, ::stride]
    ma, mb = a.mean(axis=(2, 3)), b.mean(axis=(2, 3))
    va, vb = a.var(axis=(2, 3)), b.var(axis=(2, 3))
    cov = (a * b).mean(axis=(2, 3)) - ma * mb
    values = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(values.mean())


def pillow_encoder(format_, **options):
    def encode(image, _scratch):
        buffer = io.BytesIO()
        start = time.process_time()
        image.save(buffer, format_, **options)
        return buffer.getvalue(), time.process_time() - start

    return encode


def avif_encoder(speed, quantizer):
    def encode(image, scratch):
        source = os.path.join(scratch, "in.png")
        target = os.path.join(scratch, "out.avif")
        image.save(source, "PNG", compress_level=0)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            ["avifenc", "--codec", "aom", "--speed", str(speed), "--jobs", "1", "--yuv", "420", "--depth", "8",
             "--range", "full", "--min", str(quantizer), "--max", str(quantizer), source, target],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        with open(target, "rb") as file:
            data = file.read()
        return data, cpu

    return encode


def avif_decode(data, scratch):
    source = os.path.join(scratch, "d.avif")
    target = os.path.join(scratch, "d.png")
    with open(source, "wb") as file:
        file.write(data)
    subprocess.run(["avifdec", source, target], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Image.open(target).convert("RGB")


def candidates():
    result = []
    for quality in (70, 75, 80, 85):
        for method in (0, 2, 3, 4, 6):
            result.append((f"WebP q{quality} m{method}", pillow_encoder("WEBP", quality=quality, method=method)))
    for quality in (75, 80, 85):
        result.append((f"JPEG q{quality}", pillow_encoder("JPEG", quality=quality, subsampling=2)))
        result.append((f"JPEG q{quality} progressive",
                       pillow_encoder("JPEG", quality=quality, subsampling=2, progressive=True)))
    # libavif 1.0's mapping of quality q to a quantizer, as AVIFEncoder: q 60 -> 25, q 80 -> 13.
    for quality in (60, 80):
        quantizer = ((100 - quality) * 63 + 50) // 100
        for speed in (8, 10):
            result.append((f"AVIF q{quality} speed {speed}", avif_encoder(speed, quantizer)))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=".build/imaging-corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="only the candidates whose name starts with this")
    arguments = parser.parse_args()
    photos = sorted(glob.glob(os.path.join(arguments.corpus, "*-2048-progressive.jpg")))
    illustrations = [path for path in ILLUSTRATIONS if os.path.exists(path)]
    if not photos:
        sys.exit(f"no *-2048-progressive.jpg in {arguments.corpus}: run thumbify-benchmarks imaging once")
    sources = [(path, "photo") for path in photos] + [(path, "illustration") for path in illustrations]
    print(f"{len(photos)} photos, {len(illustrations)} illustrations, {arguments.repeat} encodes each, medians",
          file=sys.stderr)
    scratch = tempfile.mkdtemp(prefix="variant-encodings-")
    for width in (600, 1200):
        references = []
        for path, kind in sources:
            image = Image.open(path).convert("RGB")
            height = round(image.height * width / image.width)
            reference = image.resize((width, height), Image.LANCZOS)
            references.append((kind, reference, luma(reference)))
        print(f"\n| {width} px wide | bytes (mean) | SSIM photos | SSIM illustrations | encode CPU ms (median) |")
        print("| --- | --- | --- | --- | --- |")
        for name, encode in candidates():
            if not name.startswith(arguments.only):
                continue
            sizes, scores, times = [], {"photo": [], "illustration": []}, []
            for kind, reference, reference_luma in references:
                runs = [encode(reference, scratch) for _ in range(arguments.repeat)]
                data = runs[0][0]
                times.append(statistics.median(cpu for _, cpu in runs) * 1000)
                sizes.append(len(data))
                decoded = avif_decode(data, scratch) if name.startswith("AVIF") else Image.open(
                    io.BytesIO(data)).convert("RGB")
                scores[kind].append(ssim(reference_luma, luma(decoded)))
            illustration = f"{np.mean(scores['illustration']):.4f}" if scores["illustration"] else "n/a"
            print(f"| {name} | {np.mean(sizes):,.0f} | {np.mean(scores['photo']):.4f} | {illustration} | "
                  f"{statistics.median(times):.1f} |", flush=True)


if __name__ == "__main__":
    main()
