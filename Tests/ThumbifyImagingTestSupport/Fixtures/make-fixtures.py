#!/usr/bin/python3
"""Writes the small decoder fixtures in this folder.

Run with Debian's python3 and python3-pil:  /usr/bin/python3 make-fixtures.py
Every fixture is a few KB. Images that the tests can build in memory with the
real encoders (TurboJPEG, libpng, libwebp, giflib) are built there instead;
this script makes what those APIs cannot: PNGs with 16-bit samples and Adam7
interlacing (written by hand below), CMYK JPEGs with and without Photoshop's
Adobe marker plus Pillow's RGB conversion of each as the reference (the
Adobe-inverted sense, R = C*K/255 on the stored samples), and
multi-entry ICO files.
"""
import io
import os
import struct
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, color_type, bit_depth, rows, interlace=False, extra=b""):
    """A PNG from `rows` (lists of raw sample bytes per row), filter 0 on every line."""
    def scanlines(xs, ys):
        out = b""
        for y in ys:
            row = rows[y]
            bpp = len(row) // width
            out += b"\x00" + b"".join(row[x * bpp:(x + 1) * bpp] for x in xs)
        return out

    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            xs, ys = range(x0, width, dx), range(y0, height, dy)
            if len(xs) and len(ys):
                raw += scanlines(xs, ys)
    else:
        raw = scanlines(range(width), range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def pattern(x, y):
    """The RGB pattern the PNG tests expect: red = 8x, green = 8y, blue = 255 - 4(x + y)."""
    return (x * 8 % 256, y * 8 % 256, (255 - 4 * (x + y)) % 256)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


# 16x16 8-bit RGB, Adam7 interlaced.
rows = [b"".join(bytes(pattern(x, y)) for x in range(16)) for y in range(16)]
write("interlaced.png", png(16, 16, 2, 8, rows, interlace=True))

# 16x16 16-bit RGB without gAMA/sRGB: each sample is v * 257 (so 8-bit v exactly).
rows16 = [b"".join(struct.pack(">HHH", *(c * 257 for c in pattern(x, y))) for x in range(16)) for y in range(16)]
write("rgb16.png", png(16, 16, 2, 16, rows16))

# The same, interlaced.
write("rgb16-interlaced.png", png(16, 16, 2, 16, rows16, interlace=True))

# 16x16 16-bit gray + alpha, interlaced: gray = 16x, alpha = 16y.
rowsga = [b"".join(struct.pack(">HH", (x * 16) * 257, (y * 16) * 257) for x in range(16)) for y in range(16)]
write("gray-alpha16-interlaced.png", png(16, 16, 4, 16, rowsga, interlace=True))
write("gray-alpha16.png", png(16, 16, 4, 16, rowsga))

# 2-bit palette with tRNS: index = (x + y) % 4; entry 3 fully transparent, entry 2 half.
palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
rows2 = []
for y in range(8):
    bits = 0
    row = b""
    for x in range(8):
        bits = (bits << 2) | ((x + y) % 4)
        if x % 4 == 3:
            row += bytes([bits])
            bits = 0
    rows2.append(row)
plte = chunk(b"PLTE", b"".join(bytes(c) for c in palette)) + chunk(b"tRNS", bytes([255, 255, 128, 0]))
# scanlines() slices per pixel, which does not work below 8 bits, so pack 2-bit rows directly.
raw = b"".join(b"\x00" + r for r in rows2)
ihdr = struct.pack(">IIBBBBB", 8, 8, 2, 3, 0, 0, 0)
write("palette2-trns.png",
      b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + plte + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# For the row decoder's comparison with libpng's simplified API (PNGDecoderTests): a gAMA other
# than sRGB's (1.0, so libpng corrects it), 16-bit RGBA, 4-bit gray with tRNS, and an odd-sized
# interlaced RGBA image whose Adam7 passes have ragged edges.
write("gamma10.png", png(16, 16, 2, 8, rows, extra=chunk(b"gAMA", struct.pack(">I", 100000))))
rowsrgba16 = [b"".join(struct.pack(">HHHH", *(c * 257 for c in pattern(x, y)), (x * 17) * 257) for x in range(16))
              for y in range(16)]
write("rgba16.png", png(16, 16, 6, 16, rowsrgba16))
rowsgray4 = [bytes(((2 * x) % 16) << 4 | ((2 * x + 1 + y) % 16) for x in range(8)) for y in range(16)]
raw4 = b"".join(b"\x00" + r for r in rowsgray4)
write("gray4-trns.png",
      b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 4, 0, 0, 0, 0))
      + chunk(b"tRNS", struct.pack(">H", 5)) + chunk(b"IDAT", zlib.compress(raw4, 9)) + chunk(b"IEND", b""))
rowsodd = [b"".join(bytes(pattern(x, y)) + bytes([(x * 7 + y * 11) % 256]) for x in range(37)) for y in range(23)]
write("rgba-interlaced-37x23.png", png(37, 23, 6, 8, rowsodd, interlace=True))
write("rgba-37x23.png", png(37, 23, 6, 8, rowsodd))


# CMYK JPEGs: Pillow writes Photoshop-style inverted CMYK with an Adobe APP14 marker.
def cmyk_pattern(x, y):
    return (x * 4 % 256, y * 4 % 256, ((x // 16) * 80) % 256, ((y // 16) * 70) % 256)


cmyk = Image.new("CMYK", (64, 64))
cmyk.putdata([cmyk_pattern(x, y) for y in range(64) for x in range(64)])
buffer = io.BytesIO()
cmyk.save(buffer, "JPEG", quality=95, subsampling=0)
adobe = buffer.getvalue()
write("cmyk-adobe.jpg", adobe)
Image.open(path("cmyk-adobe.jpg")).convert("RGB").save(path("cmyk-adobe.reference.png"))

# The same data with the APP14 segment removed. Pillow (`CMYK;I`) and libvips still read it as inverted
# CMYK, so its reference equals the Adobe one; thumbify must agree.
start = adobe.index(b"\xff\xee")
length = struct.unpack(">H", adobe[start + 2:start + 4])[0]
write("cmyk-plain.jpg", adobe[:start] + adobe[start + 2 + length:])
Image.open(path("cmyk-plain.jpg")).convert("RGB").save(path("cmyk-plain.reference.png"))

# An ICO with 16, 32 and 48 px entries, each a flat colour so the test can tell which was chosen.
# Pillow writes PNG entries; the BMP-entry ICO is built in the tests.
icon_colors = {16: (255, 0, 0, 255), 32: (0, 255, 0, 255), 48: (0, 0, 255, 128)}
frames = [Image.new("RGBA", (s, s), icon_colors[s]) for s in (16, 32, 48)]
frames[-1].save(path("three-sizes.ico"), format="ICO", sizes=[(16, 16), (32, 32), (48, 48)],
                append_images=frames[:-1])

# BMPs written by Pillow, as an independent writer for the BMP decoder: 24-bit, 8-bit palette, 1-bit and
# 32-bit with alpha (BI_RGB, alpha in the fourth byte). Pixels follow pattern(); alpha is 16y.
rgb = Image.new("RGB", (16, 16))
rgb.putdata([pattern(x, y) for y in range(16) for x in range(16)])
rgb.save(path("pattern-24.bmp"))
paletted = Image.new("P", (16, 16))
paletted.putpalette([c for color in palette for c in color])
paletted.putdata([(x + y) % 4 for y in range(16) for x in range(16)])
paletted.save(path("palette-8.bmp"))
mono = Image.new("1", (16, 16))
mono.putdata([255 if (x + y) % 2 == 0 else 0 for y in range(16) for x in range(16)])
mono.save(path("mono-1.bmp"))
rgba = Image.new("RGBA", (16, 16))
rgba.putdata([pattern(x, y) + (16 * y,) for y in range(16) for x in range(16)])
rgba.save(path("rgba-32.bmp"))
# An ICO with 32-bit BMP entries (16 and 32 px) instead of PNG ones.
rgba.resize((32, 32), Image.NEAREST).save(path("bmp-entries.ico"), format="ICO", sizes=[(16, 16), (32, 32)],
                                          bitmap_format="bmp")

for name in sorted(os.listdir(HERE)):
    if not name.endswith(".py"):
        print(f"{name}: {os.path.getsize(path(name))} bytes")
