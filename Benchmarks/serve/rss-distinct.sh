#!/usr/bin/env bash
# thumbify serve's peak RSS while it fetches many distinct URLs live (docs/serve.md, "Load
# benchmark"): wrk asks for …/en/storms.html?n=<counter> of the sample site (every request a new
# URL, a full live fetch: page, extraction, the image's thumbnails coalesced by source hash), and
# the server's VmHWM is printed every `step` seconds with the number of live results stored.
# Usage: Benchmarks/serve/rss-distinct.sh [total seconds, default 120] [step, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
total=${1:-120} step=${2:-20}
thumbify=${THUMBIFY:-$root/.build/release/thumbify}
[ -x "$thumbify" ] || swift build -c release --product thumbify
work=$(mktemp -d /tmp/thumbify-serve-rss.XXXXXX)
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
wait_port() { for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.05; done; exit 1; }
site_port=8881 serve_port=8882
cat >"$work/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  server { listen 127.0.0.1:$site_port; root $root/samples/site; location /photos/ { alias $root/samples/photos/; } }
}
CONF
nginx -e "$work/error.log" -p "$work" -c "$work/nginx.conf" & pids+=($!)
wait_port $site_port
"$thumbify" serve --out "$work/live" --state "$work/live-state" --allow-private-network --ignore-robots \
  --listen "127.0.0.1:$serve_port" --rate-limit 0 --per-host 32 --max-live 64 2>/dev/null & pids+=($!)
serve_pid=${pids[-1]}
wait_port $serve_port
wrk -t2 -c32 -d"${total}s" -s Benchmarks/serve/distinct-urls.lua "http://127.0.0.1:$serve_port" -- "$site_port" \
  >"$work/wrk.txt" & pids+=($!)
for ((t = step; t <= total; t += step)); do
  sleep "$step"
  stored=$(find "$work/live/cards" -name '*.json' | wc -l)
  echo "${t}s: $stored live cards stored, RSS $(awk '/VmRSS/ {print $2}' /proc/$serve_pid/status) kB, peak $(awk '/VmHWM/ {print $2}' /proc/$serve_pid/status) kB"
done
wait "${pids[-1]}" || true
grep -E "requests in|Requests/sec|Non-2xx" "$work/wrk.txt" || true
