#!/usr/bin/python3
"""Quality per byte and CPU per image of candidate encodings for the default variants (docs/imaging.md).

For each source (photos: the imaging corpus's ~2048 px progressive JPEGs; illustrations: flat-colour
wallpapers from mate-backgrounds and desktop-base) and each variant width (card 600, card2x 1200), the
source is resized once with Pillow's Lanczos (the reference at that size), then encoded with every
candidate: libwebp (quality x method, and its cheaper settings: segments, SNS, filter, partitions; called
through ctypes as `WebPEncoder` calls it, byte-identical to Pillow's encode), libjpeg-turbo (quality, baseline or progressive, 4:2:0) through
Pillow, and libaom through `avifenc` (speed). Each encode is timed (process CPU time, `avifenc`: the
child's CPU time, which includes its PNG read), decoded and compared with the reference by SSIM on
BT.601 luma (8x8 windows, stride 4, as thumbify's StructuralSimilarity).

    scripts/install-deps bench
    /usr/bin/python3 Benchmarks/imaging/variant-encodings.py [--corpus .build/imaging-corpus] [--repeat 3] [--only 'WebP q8' ...]

Prints one markdown table row per candidate and width: mean bytes and mean SSIM (photos, illustrations),
the worst image's SSIM of each kind, and the median encode CPU ms per image.
"""

import argparse
import ctypes
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


class WebPConfig(ctypes.Structure):
    """libwebp 1.2's `WebPConfig` (encode.h, WEBP_ENCODER_ABI_VERSION 0x020f)."""
    _fields_ = [(name, ctypes.c_float if name in ("quality", "target_PSNR") else ctypes.c_int) for name in (
        "lossless", "quality", "method", "image_hint", "target_size", "target_PSNR", "segments", "sns_strength",
        "filter_strength", "filter_sharpness", "filter_type", "autofilter", "alpha_compression", "alpha_filtering",
        "alpha_quality", "pass_", "show_compressed", "preprocessing", "partitions", "partition_limit",
        "emulate_jpeg_size", "thread_level", "low_memory", "near_lossless", "exact", "use_delta_palette",
        "use_sharp_yuv", "qmin", "qmax")]


class WebPPicture(ctypes.Structure):
    """libwebp 1.2's `WebPPicture` (encode.h)."""
    P = ctypes.c_void_p
    _fields_ = [("use_argb", ctypes.c_int), ("colorspace", ctypes.c_int), ("width", ctypes.c_int),
                ("height", ctypes.c_int), ("y", P), ("u", P), ("v", P), ("y_stride", ctypes.c_int),
                ("uv_stride", ctypes.c_int), ("a", P), ("a_stride", ctypes.c_int), ("pad1", ctypes.c_uint32 * 2),
                ("argb", P), ("argb_stride", ctypes.c_int), ("pad2", ctypes.c_uint32 * 3), ("writer", P),
                ("custom_ptr", P), ("extra_info_type", ctypes.c_int), ("extra_info", P), ("stats", P),
                ("error_code", ctypes.c_int), ("progress_hook", P), ("user_data", P),
                ("pad3", ctypes.c_uint32 * 3), ("pad4", P), ("pad5", P), ("pad6", ctypes.c_uint32 * 8),
                ("memory_", P), ("memory_argb_", P), ("pad7", P * 2)]


class WebPMemoryWriter(ctypes.Structure):
    _fields_ = [("mem", ctypes.c_void_p), ("size", ctypes.c_size_t), ("max_size", ctypes.c_size_t),
                ("pad", ctypes.c_uint32)]


LIBWEBP = ctypes.CDLL("libwebp.so.7")
LIBWEBP.WebPConfigInitInternal.argtypes = [ctypes.POINTER(WebPConfig), ctypes.c_int, ctypes.c_float, ctypes.c_int]
LIBWEBP.WebPPictureInitInternal.argtypes = [ctypes.POINTER(WebPPicture), ctypes.c_int]
LIBWEBP.WebPPictureImportRGB.argtypes = [ctypes.POINTER(WebPPicture), ctypes.c_char_p, ctypes.c_int]
LIBWEBP.WebPEncode.argtypes = [ctypes.POINTER(WebPConfig), ctypes.POINTER(WebPPicture)]
LIBWEBP.WebPPictureFree.argtypes = [ctypes.POINTER(WebPPicture)]
LIBWEBP.WebPMemoryWriterInit.argtypes = [ctypes.POINTER(WebPMemoryWriter)]
LIBWEBP.WebPMemoryWriterClear.argtypes = [ctypes.POINTER(WebPMemoryWriter)]


def webp_encoder(quality, method, **settings):
    """libwebp called as `WebPEncoder` calls it: the default preset, one thread, `WebPPictureImportRGB`, then
    `settings` (any `WebPConfig` field: segments, sns_strength, filter_strength, partitions, …) on top."""

    def encode(image, _scratch):
        pixels = image.tobytes()
        start = time.process_time()
        config = WebPConfig()
        if not LIBWEBP.WebPConfigInitInternal(ctypes.byref(config), 0, 75.0, 0x020F):
            sys.exit("libwebp: WebPConfig version mismatch")
        config.quality, config.method, config.thread_level = float(quality), method, 0
        for name, value in settings.items():
            setattr(config, name, value)
        picture = WebPPicture()
        LIBWEBP.WebPPictureInitInternal(ctypes.byref(picture), 0x020F)
        picture.width, picture.height = image.width, image.height
        writer = WebPMemoryWriter()
        LIBWEBP.WebPMemoryWriterInit(ctypes.byref(writer))
        try:
            if not LIBWEBP.WebPPictureImportRGB(ctypes.byref(picture), pixels, image.width * 3):
                sys.exit("libwebp: WebPPictureImportRGB failed")
            picture.writer = ctypes.cast(LIBWEBP.WebPMemoryWrite, ctypes.c_void_p).value
            picture.custom_ptr = ctypes.cast(ctypes.pointer(writer), ctypes.c_void_p).value
            if not LIBWEBP.WebPEncode(ctypes.byref(config), ctypes.byref(picture)):
                sys.exit(f"libwebp: WebPEncode failed ({picture.error_code})")
            cpu = time.process_time() - start
            return ctypes.string_at(writer.mem, writer.size), cpu
        finally:
            LIBWEBP.WebPPictureFree(ctypes.byref(picture))
            LIBWEBP.WebPMemoryWriterClear(ctypes.byref(writer))

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
    for quality in (75, 80, 85, 90):
        for method in (0, 1, 2, 3, 4, 6):
            result.append((f"WebP q{quality} m{method}", webp_encoder(quality, method)))
    # libwebp's cheaper settings beside the method (thread_level does not lower the CPU, only the wall time).
    for quality in (85, 90):
        for method in (0, 2):
            for label, settings in (("segments 1", {"segments": 1}), ("sns 0", {"sns_strength": 0}),
                                    ("filter 0", {"filter_strength": 0}), ("partitions 3", {"partitions": 3}),
                                    ("segments 1, sns 0", {"segments": 1, "sns_strength": 0})):
                result.append((f"WebP q{quality} m{method} {label}", webp_encoder(quality, method, **settings)))
    for quality in (70, 75, 80, 85, 90):
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
    parser.add_argument("--only", action="append", help="only the candidates whose name starts with this (repeats)")
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
        print(f"\n| {width} px wide | bytes photo · illustration (mean) | SSIM photo · illustration (mean) | "
              "SSIM (worst image) | encode CPU ms (median) |")
        print("| --- | --- | --- | --- | --- |")
        for name, encode in candidates():
            if not any(name.startswith(prefix) for prefix in arguments.only or [""]):
                continue
            sizes, scores, times = {"photo": [], "illustration": []}, {"photo": [], "illustration": []}, []
            for kind, reference, reference_luma in references:
                runs = [encode(reference, scratch) for _ in range(arguments.repeat)]
                data = runs[0][0]
                times.append(statistics.median(cpu for _, cpu in runs) * 1000)
                sizes[kind].append(len(data))
                decoded = avif_decode(data, scratch) if name.startswith("AVIF") else Image.open(
                    io.BytesIO(data)).convert("RGB")
                scores[kind].append(ssim(reference_luma, luma(decoded)))

            def both(values, form):
                return " · ".join(form(values[kind]) if values[kind] else "n/a" for kind in ("photo", "illustration"))

            print(f"| {name} | {both(sizes, lambda v: f'{np.mean(v):,.0f}')} | "
                  f"{both(scores, lambda v: f'{np.mean(v):.4f}')} | {both(scores, lambda v: f'{min(v):.4f}')} | "
                  f"{statistics.median(times):.1f} |", flush=True)


if __name__ == "__main__":
    main()
