#!/bin/bash
# What isolating each decode in a process of its own would cost (docs/errors.md, "A decoder that
# crashes"): `thumbify thumb` over the imaging corpus in one process, against one process per image
# (the upper bound of process isolation: spawn, dynamic loading and start-up per image), timed by
# hyperfine (warm-up, repeated runs, median in its JSON export).
#
# Usage: Benchmarks/imaging/worker-cost.sh [runs]    (after scripts/install-deps bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
corpus=.build/imaging-corpus
[ -d "$corpus" ] || /usr/bin/python3 Benchmarks/imaging/make-corpus.py "$corpus"
swift build -c release --product thumbify >/dev/null
binary=$PWD/.build/release/thumbify
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hyperfine --warmup 2 --runs "$runs" --export-json "$work/result.json" \
  --prepare "rm -rf $work/one $work/each" \
  -n "one process" "$binary thumb $corpus/* --out $work/one" \
  -n "process per image" "for f in $corpus/*; do $binary thumb \"\$f\" --out $work/each/\$(basename \"\$f\"); done"
python3 - "$work/result.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
one, each = results["one process"], results["process per image"]
print(f"median: one process {one['median']:.3f} s, process per image {each['median']:.3f} s, "
      f"ratio {each['median'] / one['median']:.2f}x; user+sys {one['user'] + one['system']:.3f} s vs "
      f"{each['user'] + each['system']:.3f} s")
PY
