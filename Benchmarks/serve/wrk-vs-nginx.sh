#!/usr/bin/env bash
# thumbify serve under load with wrk, side by side with nginx serving the same cards/ files
# (docs/serve.md, "Load benchmark"). On loopback, in one run:
#   1. card hits: wrk on nginx's /cards/<key>.json, then on serve's /v1/card?url=<url> (answered
#      from --cards): requests/s, p50, p99;
#   2. the same hit load on serve while 200 live misses hang on a tarpit site (accepts, never answers).
# Each line has the load average when it started: on a shared machine the tail moves with it.
# Usage: Benchmarks/serve/wrk-vs-nginx.sh [seconds per run, default 10]
# SERVE_ARGS adds options to serve's (SERVE_ARGS="--threads 4"); THUMBIFY picks the binary.
# Needs wrk and nginx (scripts/install-deps bench) and a release build (built when missing):
# Benchmarks/serve/common.sh.
source "$(dirname "$0")/common.sh"
seconds=${1:-10}
site_port=8871 cards_port=8872 serve_port=8873 tarpit_port=8874
mkdir -p "$work/nightly"
start_nginx $site_port "server { listen 127.0.0.1:$cards_port; root $work/nightly; location /cards/ { add_header Cache-Control \"public, max-age=300\"; } }"
sed "s/8765/$site_port/" samples/urls.txt >"$work/urls.txt"
"$thumbify" crawl "$work/urls.txt" --out "$work/nightly" --state "$work/nightly-state" --allow-private-network -q || true
url="http://127.0.0.1:$site_port/en/storms.html"
key=$("$thumbify" card-key "$url" | awk '{print $1}')
[ -f "$work/nightly/cards/$key.json" ] || { echo "no card for $url (key $key)" >&2; exit 1; }

"$thumbify" serve --cards "$work/nightly" --out "$work/live" --state "$work/live-state" --allow-private-network \
  --listen "127.0.0.1:$serve_port" --rate-limit 0 --max-live 256 --max-connections 4096 --max-client-connections 1024 --timeout 60s \
  ${SERVE_ARGS:-} 2>/dev/null & pids+=($!)
serve_pid=${pids[-1]}
wait_port $serve_port
encoded=${url//:/%3A}
encoded=${encoded//\//%2F}
serve_url="http://127.0.0.1:$serve_port/v1/card?url=$encoded"
nginx_url="http://127.0.0.1:$cards_port/cards/$key.json"
cmp <(curl -s "$nginx_url") <(curl -s "$serve_url") || { curl -si "$serve_url" | head -20 >&2; echo "serve and nginx answer different bytes" >&2; exit 1; }

run() {  # name url -> "name load rps p50 p90 p99 p99.9"
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  wrk -t2 -c64 -d"${seconds}s" -s Benchmarks/serve/percentiles.lua "$2" >"$work/wrk.txt"
  printf '%-34s %5s %10s %7s %7s %7s %7s\n' "$1" "$load" $(awk '$1 == "percentiles" {print $2, $3, $4, $5, $6}' "$work/wrk.txt")
}
echo "wrk -t2 -c64 -d${seconds}s, $(nproc) cores, card: $(stat -c %s "$work/nightly/cards/$key.json") bytes; latencies in ms"
printf '%-34s %5s %10s %7s %7s %7s %7s\n' "" "load" "requests/s" "p50" "p90" "p99" "p99.9"
run "nginx /cards/<key>.json" "$nginx_url"
run "serve /v1/card (hit)" "$serve_url"

# A tarpit: answers 200 with a body that never ends, 100 bytes every 0.4 s, so that a fetch hangs
# until its --timeout (60 s) and not for libcurl's low-speed limit (under 100 bytes/s for 10 s): a
# tarpit that never answered had every miss fail at once 10 s in, inside the hit run (the failures'
# burst, not the hanging, was measured; docs/serve.md).
python3 -c "
import select, socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $tarpit_port)); s.listen(1024); s.setblocking(False); held = []
while True:
    if select.select([s], [], [], 0.4)[0]:
        try:
            while True:
                c, _ = s.accept(); c.setblocking(False); held.append(c)
                c.send(b'HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: 100000000\\r\\n\\r\\n<html><head>')
        except (BlockingIOError, OSError):
            pass
    for c in list(held):
        try:
            c.send(b'<!--' + b'.' * 93 + b'-->')
        except OSError:
            held.remove(c); c.close()
" & pids+=($!)
wait_port $tarpit_port
for i in $(seq 200); do
  curl -s -o /dev/null --max-time 120 "http://127.0.0.1:$serve_port/v1/card?url=http%3A%2F%2F127.0.0.1%3A$tarpit_port%2Fhang-$i" & pids+=($!)
done
for _ in $(seq 100); do
  live=$(metric $serve_port thumbify_serve_live_fetches)
  [ "${live:-0}" -ge 200 ] && break
  sleep 0.1
done
echo "(live fetches hanging on the tarpit: $live)"
run "serve /v1/card (hit), 200 hanging" "$serve_url"
echo "(live fetches still hanging after the run: $(metric $serve_port thumbify_serve_live_fetches))"
echo "serve peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/$serve_pid/status)"
