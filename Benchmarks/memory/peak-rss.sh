#!/usr/bin/env bash
# Peak RSS of a crawl of pages whose og:images are 49-megapixel PNGs, for one or more thumbify binaries.
#   Benchmarks/memory/peak-rss.sh [--rounds N] <thumbify-binary>...
# Generates the web (Benchmarks/memory/make-big-png-web.py) in .build/big-png-web once, serves it with
# nginx on 127.0.0.1:18090, then crawls it with each binary in turn, N rounds (default 3) interleaved,
# into fresh output directories, and prints each binary's peak RSS (GNU time's %M) per round and the
# median. Needs nginx, GNU time and Debian's python3 with PIL (scripts/install-deps bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=3
if [ "${1:-}" = --rounds ]; then rounds="$2"; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [--rounds N] <thumbify-binary>..." >&2; exit 64; }
web=.build/big-png-web
[ -f "$web/urls.txt" ] || /usr/bin/python3 Benchmarks/memory/make-big-png-web.py --dir "$web" --port 18090
nginx -p "$PWD/$web" -c "$PWD/$web/nginx.conf" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 1
declare -A peaks
for round in $(seq 1 "$rounds"); do
  for binary in "$@"; do
    out=$(mktemp -d)
    rss=$(/usr/bin/time -f %M "$binary" crawl "$web/urls.txt" --out "$out" --allow-private-network \
      --ignore-robots -q 2>&1 >/dev/null | tail -n 1)
    rm -rf "$out"
    echo "round $round: $binary: peak RSS ${rss} KB"
    peaks[$binary]="${peaks[$binary]:-} $rss"
  done
done
for binary in "$@"; do
  median=$(tr ' ' '\n' <<<"${peaks[$binary]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$binary: median peak RSS $((median / 1024)) MiB over $rounds rounds"
done
