#!/usr/bin/env bash
# Writes the AVIF decoder fixtures in this folder with avifenc (Debian's libavif-bin, libaom inside).
#
#   Tests/ThumbifyImagingTestSupport/Fixtures/make-avif-fixtures.sh
#
# The source is a 32×16 picture of four quadrants (red, green / blue, white: TestImages.quadrantColors),
# written as a 16-bit PNG by Python's zlib so the 10- and 12-bit encodes get real high-bit samples; the
# alpha version's right half is 25 % opaque (alpha 64). Near-lossless quantizers (0–8) keep the colours
# within a few levels, so the tests can check them. Each file is a few hundred bytes.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
def png(path, alpha):
    w, h = 32, 16
    colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    raw = b""
    for y in range(h):
        raw += b"\x00"
        for x in range(w):
            r, g, b = colors[(2 if y >= h // 2 else 0) + (1 if x >= w // 2 else 0)]
            samples = [r, g, b] + ([64 if x >= w // 2 else 255] if alpha else [])
            raw += b"".join(struct.pack(">H", s * 257) for s in samples)
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 6 if alpha else 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/rgb.png", False)
png(sys.argv[1] + "/rgba.png", True)
PY

encode() {  # encode <source> <output> [avifenc options...]
  local source=$1 output=$2
  shift 2
  avifenc --codec aom --speed 6 --jobs 1 --yuv 444 --min 0 --max 8 --minalpha 0 --maxalpha 8 "$@" \
    "$work/$source" "$output" >/dev/null
}
encode rgb.png avif-8bit.avif --depth 8
encode rgb.png avif-10bit.avif --depth 10
encode rgb.png avif-12bit.avif --depth 12
encode rgba.png avif-8bit-alpha.avif --depth 8
encode rgba.png avif-10bit-alpha.avif --depth 10
encode rgb.png avif-8bit-420.avif --depth 8 --yuv 420
# irot turns counter-clockwise by 90° × ANGLE; imir 0 swaps top and bottom, 1 left and right.
encode rgb.png avif-irot1.avif --depth 8 --irot 1
encode rgb.png avif-imir0.avif --depth 8 --imir 0
encode rgb.png avif-irot1-imir1.avif --depth 8 --irot 1 --imir 1
