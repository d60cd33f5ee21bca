#!/usr/bin/env bash
# Two thumbify builds crawl the same generated web, alternating, into fresh directories: are their
# outputs the same, and what does each cost? For a change that must not change behaviour (a refactor):
#   Benchmarks/crawl/before-after.sh [--urls N] [--rounds R] [--defaults] <before-thumbify> <after-thumbify>
# The web is Benchmarks/make-web.py's (N URLs, default 2,000; nginx on 127.0.0.2–10:18081), without the
# failing site (127.0.0.9 answers 503 to everything, and which of its pages say httpStatus and which
# hostSkipped depends on how concurrent requests race the host's failure count, run to run with one
# binary too). Each round crawls it with both binaries (--variant card=640x1280,jpeg --variant
# icon=64x64,cover,png, the equal-work crawl of docs/crawl.md; with --defaults, the default variants),
# then checks that the two manifests are equal record for record apart from fetch timestamps
# (scripts/compare-manifests.py: blob names are content hashes, so equal records mean equal blobs),
# that blobs/ holds the same files, and that cards/ are equal apart from their fetch timestamps.
# Prints CPU-seconds (user + system) and peak RSS per run, and the medians. Exit 1 when outputs differ.
set -euo pipefail
cd "$(dirname "$0")/../.."
urls=2000 rounds=3 defaults=0
while [ $# -gt 2 ]; do
  case "$1" in
    --urls) urls="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --defaults) defaults=1; shift ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--urls N] [--rounds R] [--defaults] <before-thumbify> <after-thumbify>" >&2; exit 64; }
before=$(realpath "$1") after=$(realpath "$2")
web=.build/before-after-web port=18081
[ -f "$web/urls-$urls.txt" ] || /usr/bin/python3 Benchmarks/make-web.py --dir "$web" --port "$port" --urls "$urls" >/dev/null
grep -v '//127.0.0.9:' "$web/urls-$urls.txt" >"$web/list-$urls.txt"
nginx -e "$PWD/$web/error.log" -p "$PWD/$web" -c "$PWD/$web/nginx.conf" &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
variants=(--variant card=640x1280,jpeg --variant icon=64x64,cover,png)
[ "$defaults" = 1 ] && variants=()
status=0
declare -A cpu rss
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    binary=$before
    [ "$side" = after ] && binary=$after
    out="$work/$side-$round"
    line=$(/usr/bin/time -f "%U %S %M" "$binary" crawl "$web/list-$urls.txt" --out "$out" --state "$out.state" \
      --allow-private-network --ignore-robots --quiet --per-host 16 --concurrency 64 --timeout 30 \
      "${variants[@]}" 2>&1 >/dev/null | tail -n 1) || true
    read -r user system peak <<<"$line"
    seconds=$(echo "$user + $system" | bc)
    echo "round $round $side: $seconds CPU-s, peak RSS $((peak / 1024)) MB"
    cpu[$side]="${cpu[$side]:-} $seconds"
    rss[$side]="${rss[$side]:-} $peak"
  done
  a="$work/before-$round" b="$work/after-$round"
  if ! python3 scripts/compare-manifests.py "$a" "$b"; then status=1; fi
  if ! diff <(cd "$a/blobs" && find . -type f | sort) <(cd "$b/blobs" && find . -type f | sort) >/dev/null; then
    echo "round $round: blobs/ differ" >&2; status=1
  fi
  strip='s/"fetchedAt" *: *"[^"]*"//g; s/"(duration|durationMs)" *: *[0-9.]+//g'
  for card in "$a"/cards/*.json; do
    if ! cmp -s <(sed -E "$strip" "$card") <(sed -E "$strip" "$b/cards/$(basename "$card")"); then
      echo "round $round: cards/$(basename "$card") differs" >&2; status=1; break
    fi
  done
  rm -rf "$a" "$b" "$a.state" "$b.state"
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for side in before after; do
  echo "$side: median $(median "${cpu[$side]}") CPU-s, peak RSS $(($(median "${rss[$side]}") / 1024)) MB over $rounds rounds"
done
[ "$status" = 0 ] && echo "outputs: equal in every round (manifests apart from fetch times, blobs, cards)"
exit "$status"
