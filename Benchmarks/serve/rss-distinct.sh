#!/usr/bin/env bash
# thumbify serve's RSS while it fetches many distinct URLs live (docs/serve.md, "Memory"): wrk asks
# for …/en/storms.html?n=<counter> of the sample site (every request a new URL, a full live fetch:
# page, extraction, the image's thumbnails coalesced by source hash, a stored card), and the
# server's RSS and peak (VmHWM) are printed when the live fetches pass each count.
# Usage: Benchmarks/serve/rss-distinct.sh [URL counts, default "10000 25000 50000 100000"]
source "$(dirname "$0")/common.sh"
counts=(${1:-10000 25000 50000 100000})
site_port=8881 serve_port=8882
start_nginx $site_port
"$thumbify" serve --out "$work/live" --state "$work/live-state" --allow-private-network --ignore-robots \
  --listen "127.0.0.1:$serve_port" --rate-limit 0 --per-host 32 --max-live 64 2>/dev/null &
pids+=($!)
serve_pid=${pids[-1]}
wait_port $serve_port
wrk -t2 -c32 -d3600s -s Benchmarks/serve/distinct-urls.lua "http://127.0.0.1:$serve_port" -- "$site_port" \
  >"$work/wrk.txt" &
pids+=($!)
start=$SECONDS
printf '%12s %10s %10s %8s\n' "live URLs" "RSS" "peak" "seconds"
for count in "${counts[@]}"; do
  while live=$(metric $serve_port 'thumbify_serve_card_lookups_total{source="live"}') && [ "${live:-0}" -lt "$count" ]; do
    kill -0 "$serve_pid" || { echo "thumbify serve exited" >&2; exit 1; }
    sleep 1
  done
  printf '%12s %7s MB %7s MB %8s\n' "$live" \
    $(($(awk '/VmRSS/ {print $2}' "/proc/$serve_pid/status") / 1024)) \
    $(($(awk '/VmHWM/ {print $2}' "/proc/$serve_pid/status") / 1024)) $((SECONDS - start))
done
echo "errors: $(curl -s "http://127.0.0.1:$serve_port/metrics" | grep '^thumbify_serve_errors_total' | tr '\n' ' ')"
