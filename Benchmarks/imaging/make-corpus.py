#!/usr/bin/python3
"""Builds the imaging benchmark corpus from real photos in Debian packages.

Usage: make-corpus.py <output-dir>

Sources: the photographs of `mate-backgrounds` (/usr/share/backgrounds/mate/nature,
GPL-2+). Each photo is written in one of the shapes og:images really take:
1200x630 baseline JPEG, ~2048 px progressive JPEG, 4000x3000 baseline JPEG (a camera
original: the 2560 px photos are enlarged with Lanczos, so fine detail is softer
than a real 12 MP file), 1200x630 PNG and 1600x900 WebP. Nothing is committed.
"""
import os
import sys

from PIL import Image

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


def main():
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
