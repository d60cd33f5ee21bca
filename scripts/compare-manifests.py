#!/usr/bin/python3
"""Compares two crawl output directories' manifests record for record, ignoring what differs from
run to run (fetch timestamps and durations), and checks that each directory holds the files its
manifest names.

  scripts/compare-manifests.py <expected-out-dir> <actual-out-dir>

Exit 0 when equal; else 1 and the first differences on standard error. Used by scripts/slurm-test
and scripts/k8s-manifest-test: a merged sharded crawl must equal an unsharded crawl of the same list.
Records are compared in order (both are in list order), then, when the order alone differs, that is
said. Every blob a record names (image and icon variants) must exist under the directory, and
cards/ must hold one card per record.
"""
import json, os, sys

# Differ between two fetches of the same unchanged page; everything else must be equal.
VOLATILE_FETCH = ("fetchedAt", "duration", "durationMs")


def records(out):
    result = []
    with open(os.path.join(out, "manifest.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            for key in VOLATILE_FETCH:
                record.get("fetch", {}).pop(key, None)
            result.append(record)
    return result


def blob_paths(record):
    for part in ("image", "icon"):
        for variant in (record.get(part) or {}).get("variants", []):
            yield variant["path"]


def check_files(out, recs):
    problems = []
    for record in recs:
        for path in blob_paths(record):
            if not os.path.isfile(os.path.join(out, path)):
                problems.append(f"{out}: {record['normalizedURL']}: missing {path}")
    cards_dir = os.path.join(out, "cards")
    cards = [n for n in os.listdir(cards_dir) if n.endswith(".json")] if os.path.isdir(cards_dir) else []
    if len(cards) != len(recs):
        problems.append(f"{out}: {len(cards)} card files for {len(recs)} records")
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    expected_dir, actual_dir = sys.argv[1:]
    expected, actual = records(expected_dir), records(actual_dir)
    problems = check_files(expected_dir, expected) + check_files(actual_dir, actual)
    if not expected:
        problems.append(f"{expected_dir}: empty manifest")
    expected_urls = [r["normalizedURL"] for r in expected]
    actual_urls = [r["normalizedURL"] for r in actual]
    if sorted(expected_urls) != sorted(actual_urls):
        missing = sorted(set(expected_urls) - set(actual_urls))
        extra = sorted(set(actual_urls) - set(expected_urls))
        problems.append(f"URLs differ: {len(missing)} missing {missing[:5]}, {len(extra)} extra {extra[:5]}, "
                        f"{len(expected_urls)} against {len(actual_urls)} records")
    elif expected_urls != actual_urls:
        problems.append("the same records in another order (first difference at record "
                        f"{next(i for i, (a, b) in enumerate(zip(expected_urls, actual_urls)) if a != b)})")
    else:
        for index, (a, b) in enumerate(zip(expected, actual)):
            if a != b:
                keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                problems.append(f"record {index} ({a['normalizedURL']}) differs in {keys}: "
                                f"{json.dumps({k: a.get(k) for k in keys})[:400]} against "
                                f"{json.dumps({k: b.get(k) for k in keys})[:400]}")
    if problems:
        for problem in problems[:20]:
            print("compare-manifests: " + problem, file=sys.stderr)
        sys.exit(1)
    print(f"compare-manifests: {len(actual)} records equal (fetch timestamps aside), every blob present")


main()
