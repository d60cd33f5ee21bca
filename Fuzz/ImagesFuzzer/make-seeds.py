#!/usr/bin/python3
"""Writes the seed corpus of the images fuzzer (Fuzz/ImagesFuzzer/seeds).

Run with Debian's python3 and python3-pil:  /usr/bin/python3 Fuzz/ImagesFuzzer/make-seeds.py
Each seed is one option byte (ImagesFuzzer.swift says what its bits pick) followed by a small,
valid image file: JPEG (baseline 4:2:0 and 4:4:4, progressive, grayscale, EXIF orientations,
CMYK), PNG (RGB, RGBA, palette + tRNS, 16-bit, Adam7), WebP (lossy, lossless with alpha,
animated), GIF (still, transparent, animated), ICO/CUR (PNG and BMP entries) and BMP (1, 4, 8,
24, 32 bits, RLE8). Every image is written twice, with option bytes that take it through the
RGB and the planar path and through different targets. The decoder fixtures of Tests/ and the
hostile files the tests or issues name (the INT_MIN-height ICO of issue 17) are added as they are.
Whatever the fuzzer later finds is added by hand, named after what it is.
"""
import io
import os
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "seeds")
FIXTURES = os.path.join(HERE, "..", "..", "Tests", "ThumbifyImagingTestSupport", "Fixtures")

# Option bytes (bits: 0-1 target, 2 planar, 3 small maxPixels, 4 headroom 2, 5 no encode, 6-7 format).
FULL_RGB = 0x00           # full size, RGB, 4 MP, encode WebP
ICON_PLANAR = 0x05        # 64x64 contain, planar
COVER_JPEG = 0x42         # 64x64 cover, RGB, encode JPEG
CARD_PNG_HEADROOM = 0x93  # 300x157 contain, headroom 2, encode PNG
SMALL_LIMIT = 0x28        # full size, 64 K pixel limit, decode only
PAIRS = [(FULL_RGB, ICON_PLANAR), (COVER_JPEG, CARD_PNG_HEADROOM), (ICON_PLANAR, SMALL_LIMIT)]


def gradient(width, height, mode="RGB"):
    """A smooth image with some edges, so encoders make realistic (not flat) data."""
    image = Image.new("RGB", (width, height))
    image.putdata([((x * 255) // max(1, width - 1), (y * 255) // max(1, height - 1), ((x ^ y) * 8) & 255)
                   for y in range(height) for x in range(width)])
    if mode == "RGBA":
        image = image.convert("RGBA")
        image.putalpha(Image.linear_gradient("L").resize((width, height)))
    elif mode != "RGB":
        image = image.convert(mode)
    return image


def encoded(image, fmt, **params):
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def bmp_rle8(width, height):
    """An 8-bit RLE BMP (BI_RLE8) Pillow cannot write: each row one run, then end-of-line."""
    palette = b"".join(struct.pack("<BBBB", i, 255 - i, (i * 7) & 255, 0) for i in range(256))
    data = b""
    for y in range(height):
        data += bytes([width, y * 16 & 255]) + b"\x00\x00"
    data = data[:-2] + b"\x00\x01"  # end of bitmap
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(data), 2835, 2835, 256, 0)
    offset = 14 + len(header) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + header + palette + data


def ico_int_min_height():
    """Issue 17, item 1: a BMP entry whose DIB height is INT_MIN (abs() trapped)."""
    dib = struct.pack("<IiiHHIIiiII", 40, 16, -2**31, 1, 32, 0, 0, 0, 0, 0, 0) + bytes(1024)
    return struct.pack("<HHHBBBBHHII", 0, 1, 1, 16, 16, 0, 0, 1, 32, len(dib), 22) + dib


def images():
    photo = gradient(96, 64)
    yield "jpeg-420.jpg", encoded(photo, "JPEG", quality=80)
    yield "jpeg-444.jpg", encoded(photo, "JPEG", quality=90, subsampling=0)
    yield "jpeg-large-420.jpg", encoded(gradient(640, 400), "JPEG", quality=30)
    yield "jpeg-progressive.jpg", encoded(gradient(320, 200), "JPEG", quality=50, progressive=True)
    yield "jpeg-gray.jpg", encoded(gradient(64, 48, "L"), "JPEG", quality=75)
    yield "jpeg-exif6.jpg", encoded(photo, "JPEG", quality=60, exif=exif_orientation(6))
    yield "jpeg-exif3-progressive.jpg", encoded(photo, "JPEG", quality=60, progressive=True,
                                                exif=exif_orientation(3))
    yield "jpeg-exif8.jpg", encoded(gradient(40, 24), "JPEG", quality=60, exif=exif_orientation(8))
    yield "png-rgb.png", encoded(gradient(48, 32), "PNG")
    yield "png-rgba.png", encoded(gradient(48, 32, "RGBA"), "PNG")
    yield "png-palette.png", encoded(gradient(32, 32).convert("P", palette=Image.ADAPTIVE, colors=16), "PNG")
    yield "png-gray.png", encoded(gradient(40, 20, "L"), "PNG")
    yield "png-large.png", encoded(gradient(400, 300).quantize(8), "PNG", optimize=True)
    yield "webp-lossy.webp", encoded(photo, "WEBP", quality=70)
    yield "webp-lossy-alpha.webp", encoded(gradient(48, 32, "RGBA"), "WEBP", quality=70)
    yield "webp-lossless.webp", encoded(gradient(32, 24, "RGBA"), "WEBP", lossless=True)
    yield "webp-large.webp", encoded(gradient(480, 320), "WEBP", quality=20)
    frames = [gradient(32, 24).rotate(angle) for angle in (0, 90, 180)]
    yield "webp-animated.webp", encoded(frames[0], "WEBP", save_all=True, append_images=frames[1:],
                                        duration=100, loop=0, quality=50)
    gif = gradient(40, 30).convert("P", palette=Image.ADAPTIVE, colors=32)
    yield "gif-still.gif", encoded(gif, "GIF")
    yield "gif-transparent.gif", encoded(gif, "GIF", transparency=0)
    gif_frames = [frame.convert("P", palette=Image.ADAPTIVE, colors=16) for frame in frames]
    yield "gif-animated.gif", encoded(gif_frames[0], "GIF", save_all=True, append_images=gif_frames[1:],
                                      duration=80, loop=0, disposal=2)
    ico = encoded(gradient(64, 64, "RGBA"), "ICO", sizes=[(16, 16), (32, 32), (64, 64)])
    yield "ico-png-entries.ico", ico
    yield "cur-png-entries.cur", ico[:2] + b"\x02\x00" + ico[4:]  # type 2: a cursor
    yield "bmp-24.bmp", encoded(gradient(20, 12), "BMP")
    yield "bmp-8.bmp", encoded(gradient(20, 12).convert("P", palette=Image.ADAPTIVE, colors=200), "BMP")
    yield "bmp-1.bmp", encoded(gradient(20, 12).convert("1"), "BMP")
    yield "bmp-rle8.bmp", bmp_rle8(24, 8)


def main():
    os.makedirs(SEEDS, exist_ok=True)
    for old in os.listdir(SEEDS):
        if not old.startswith("crash-"):  # reproducers of findings stay
            os.remove(os.path.join(SEEDS, old))
    for index, (name, data) in enumerate(images()):
        for selector in PAIRS[index % len(PAIRS)]:
            with open(os.path.join(SEEDS, "%02x-%s" % (selector, name)), "wb") as out:
                out.write(bytes([selector]) + data)
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith((".jpg", ".png", ".bmp", ".ico")) and ".reference." not in name:
            with open(os.path.join(FIXTURES, name), "rb") as source:
                data = source.read()
            with open(os.path.join(SEEDS, "%02x-fixture-%s" % (ICON_PLANAR, name)), "wb") as out:
                out.write(bytes([ICON_PLANAR]) + data)
    with open(os.path.join(SEEDS, "%02x-issue17-int-min-height.ico" % FULL_RGB), "wb") as out:
        out.write(bytes([FULL_RGB]) + ico_int_min_height())


if __name__ == "__main__":
    main()
