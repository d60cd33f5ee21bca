#!/usr/bin/python3
"""Compares two builds' cards card by card: paired SSIM differences with a confidence interval.

Usage: paired-ssim.py <before.tsv> <after.tsv> [<before.tsv> <after.tsv> ...]

Each file is what `thumbify-benchmarks imaging --colour --ssim-per-card FILE` writes (kind, stem,
SSIM; tab-separated). Several pairs (e.g. one per `--quality`) are pooled: every card of every pair
counts once.

Why paired and clustered: between two builds whose pixels differ by a fraction of a level, one card's
SSIM after a lossy encode moves by up to ±0.001 from one quality to the next (the encoder's choices
flip), so a mean over twelve photos cannot resolve 0.0001. The difference is taken card by card, and
the cards cut from one photo (`make-corpus.py --colour --crops N`: `<photo>crop<k>-…`) are not
independent, so the standard error is computed over the photos' mean differences, and the interval is
Student's t over the photos (docs/imaging.md, "Paired on 204 cards a kind").
"""
import collections
import math
import re
import sys

# Two-sided 95 % quantiles of Student's t by degrees of freedom (photos − 1); 1.96 beyond the table.
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
       11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09,
       20: 2.09, 25: 2.06, 30: 2.04}


def t95(df):
    known = [d for d in T95 if d <= df]
    return T95[max(known)] if known else T95[1]


def load(path):
    cards = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3:
                sys.exit(f"{path}:{number}: expected kind, stem and SSIM separated by tabs")
            kind, stem, ssim = fields
            cards[stem] = (kind, float(ssim))
    return cards


def photo(stem):
    """The photo a card was cut from: the stem before `crop<k>` or the first dash."""
    return re.split(r"crop\d+|-", stem, maxsplit=1)[0]


def main():
    paths = sys.argv[1:]
    if not paths or len(paths) % 2:
        sys.exit(__doc__.strip().splitlines()[2])
    # kind -> photo -> differences; kind -> (before, after) sums
    differences = collections.defaultdict(lambda: collections.defaultdict(list))
    sums = collections.defaultdict(lambda: [0.0, 0.0, 0, 0])
    for before_path, after_path in zip(paths[::2], paths[1::2]):
        before, after = load(before_path), load(after_path)
        missing = before.keys() ^ after.keys()
        if missing:
            sys.exit(f"{before_path} and {after_path} differ in {len(missing)} cards, e.g. {sorted(missing)[0]}")
        for stem, (kind, ssim) in before.items():
            difference = after[stem][1] - ssim
            differences[kind][photo(stem)].append(difference)
            total = sums[kind]
            total[0] += ssim
            total[1] += after[stem][1]
            total[2] += 1
            total[3] += difference > 0
    print("kind                 cards photos  before    after     after−before (95 % CI over photos)   after better")
    for kind in sorted(differences):
        by_photo = [sum(d) / len(d) for d in differences[kind].values()]
        count = sums[kind][2]
        mean = sum(d for ds in differences[kind].values() for d in ds) / count
        photos = len(by_photo)
        if photos > 1:
            photo_mean = sum(by_photo) / photos
            spread = math.sqrt(sum((d - photo_mean) ** 2 for d in by_photo) / (photos - 1))
            half = t95(photos - 1) * spread / math.sqrt(photos)
            interval = f"[{mean - half:+.5f}, {mean + half:+.5f}]"
        else:
            interval = "(one photo: no interval)"
        print(f"{kind:20s} {count:5d} {photos:6d}  {sums[kind][0] / count:.5f}  {sums[kind][1] / count:.5f}  "
              f"{mean:+.5f} {interval:27s} {sums[kind][3]}/{count}")


if __name__ == "__main__":
    main()
