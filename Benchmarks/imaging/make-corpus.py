#!/usr/bin/python3
"""Builds the imaging benchmark corpus from real photos in Debian packages.

Usage: make-corpus.py <output-dir>
       make-corpus.py --colour <output-dir> [--crops N]

Sources: the photographs of `mate-backgrounds` (/usr/share/backgrounds/mate/nature,
GPL-2+). Each photo is written in one of the shapes og:images really take:
1200x630 baseline JPEG, ~2048 px progressive JPEG, 4000x3000 baseline JPEG (a camera
original: the 2560 px photos are enlarged with Lanczos, so fine detail is softer
than a real 12 MP file), 1200x630 PNG and 1600x900 WebP. Nothing is committed.

With --colour, the colour-managed corpus instead (`thumbify-benchmarks imaging --colour`): every
photo of the folder (12) as a 1200x630 baseline JPEG untagged (sRGB), converted into Adobe RGB
(1998), ProPhoto (ROMM) RGB and CMYK (relative colorimetric) and tagged with that profile, and as
an untagged 1200x630 AVIF (avifenc, libaom speed 6, quantizer 20-24, 4:2:0). Profiles: ghostscript's
`a98.icc`, `rommrgb.icc` and `default_cmyk.icc` (Debian's libgs-common). With --crops N, also N
1200x630 windows of each photo at its own resolution, spread over it (`<photo>crop<k>-…`), untagged
and in the two RGB spaces only: more cards a kind, for SSIM differences the twelve photos cannot
resolve (docs/imaging.md, "Paired on 204 cards a kind": `paired-ssim.py` compares two builds
card by card).
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageCms

SOURCE = "/usr/share/backgrounds/mate/nature"
PHOTOS = ["Storm.jpg", "LadyBird.jpg", "Wood.jpg", "RainDrops.jpg", "TwoWings.jpg", "Garden.jpg"]


def cover(image, width, height):
    """Centre-crops to width:height, then resizes with Lanczos."""
    ratio = width / height
    w, h = image.size
    if w / h > ratio:
        crop = int(h * ratio)
        image = image.crop(((w - crop) // 2, 0, (w - crop) // 2 + crop, h))
    else:
        crop = int(w / ratio)
        image = image.crop((0, (h - crop) // 2, w, (h - crop) // 2 + crop))
    return image.resize((width, height), Image.LANCZOS)


PROFILES = "/usr/share/color/icc/ghostscript"
COLOUR_SPACES = [("adobergb", "a98.icc", "RGB"), ("prophoto", "rommrgb.icc", "RGB"), ("cmyk", "default_cmyk.icc", "CMYK")]


def colour_corpus(out):
    """The colour-managed corpus: the same 1200x630 crop untagged, in three tagged spaces, and as AVIF."""
    os.makedirs(out, exist_ok=True)
    srgb = ImageCms.createProfile("sRGB")
    for name in sorted(os.listdir(SOURCE)):
        stem = os.path.splitext(name)[0].lower()
        card = cover(Image.open(os.path.join(SOURCE, name)).convert("RGB"), 1200, 630)
        card.save(f"{out}/{stem}-1200x630-srgb.jpg", quality=85)
        for space, icc, mode in COLOUR_SPACES:
            path = os.path.join(PROFILES, icc)
            converted = ImageCms.profileToProfile(
                card, srgb, path, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode=mode)
            with open(path, "rb") as profile:
                converted.save(f"{out}/{stem}-1200x630-{space}.jpg", quality=85, icc_profile=profile.read())
        with tempfile.NamedTemporaryFile(suffix=".png") as png:
            card.save(png.name)
            subprocess.run(
                ["avifenc", "--jobs", "1", "--speed", "6", "--min", "20", "--max", "24", "--yuv", "420",
                 png.name, f"{out}/{stem}-1200x630.avif"],
                check=True, stdout=subprocess.DEVNULL)
    print(f"colour corpus: {len(os.listdir(out))} images in {out}")


def colour_crops(out, count):
    """`count` 1200x630 windows of each photo at its own resolution, untagged and in the RGB spaces."""
    srgb = ImageCms.createProfile("sRGB")
    for name in sorted(os.listdir(SOURCE)):
        stem = os.path.splitext(name)[0].lower()
        photo = Image.open(os.path.join(SOURCE, name)).convert("RGB")
        w, h = photo.size
        for k in range(count):
            # Along the diagonal, corner to corner: windows that overlap as little as the photo allows.
            t = k / max(1, count - 1)
            left, top = int(t * (w - 1200)), int(t * (h - 630))
            card = photo.crop((left, top, left + 1200, top + 630))
            card.save(f"{out}/{stem}crop{k}-1200x630-srgb.jpg", quality=85)
            for space, icc, mode in COLOUR_SPACES[:2]:
                path = os.path.join(PROFILES, icc)
                converted = ImageCms.profileToProfile(
                    card, srgb, path, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode=mode)
                with open(path, "rb") as profile:
                    converted.save(f"{out}/{stem}crop{k}-1200x630-{space}.jpg", quality=85, icc_profile=profile.read())
    print(f"colour corpus with crops: {len(os.listdir(out))} images in {out}")


def main():
    if sys.argv[1] == "--colour":
        colour_corpus(sys.argv[2])
        if "--crops" in sys.argv:
            colour_crops(sys.argv[2], int(sys.argv[sys.argv.index("--crops") + 1]))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in PHOTOS:
        stem = os.path.splitext(name)[0].lower()
        photo = Image.open(os.path.join(SOURCE, name)).convert("RGB")
        cover(photo, 1200, 630).save(f"{out}/{stem}-1200x630.jpg", quality=85)
        scaled = photo.copy()
        scaled.thumbnail((2048, 2048), Image.LANCZOS)
        scaled.save(f"{out}/{stem}-2048-progressive.jpg", quality=85, progressive=True)
        cover(photo, 4000, 3000).save(f"{out}/{stem}-4000x3000.jpg", quality=90)
        cover(photo, 1200, 630).save(f"{out}/{stem}-1200x630.png")
        cover(photo, 1600, 900).save(f"{out}/{stem}-1600x900.webp", quality=85)
    print(f"corpus: {len(os.listdir(out))} images in {out}")


if __name__ == "__main__":
    main()
