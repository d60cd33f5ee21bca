# Sourced by the serve benchmarks (wrk-vs-nginx.sh, rss-distinct.sh): the release build, a work
# directory removed on exit (kept with KEEP=1) with every background process stopped, `wait_port`,
# and `start_nginx` serving the sample site (plus the caller's extra `server` blocks).
# Needs wrk and nginx (scripts/install-deps bench).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
thumbify=${THUMBIFY:-$root/.build/release/thumbify}
[ -x "$thumbify" ] || swift build -c release --product thumbify
case "$thumbify" in *debug*) echo "WARNING: a debug build: numbers are not representative" >&2 ;; esac
work=$(mktemp -d "/tmp/thumbify-serve-bench.XXXXXX")
chmod 755 "$work" # nginx's workers run as another user
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# wait_port <port>: until something accepts on 127.0.0.1:<port> (10 s at most).
wait_port() {
  for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.05; done
  echo "port $1 did not open" >&2
  exit 1
}

# start_nginx <site port> [extra server blocks]: one nginx worker, access log off, serving
# samples/site (and samples/photos under /photos/) on <site port>.
start_nginx() {
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
  keepalive_requests 1000000;
  server { listen 127.0.0.1:$1; root $root/samples/site; location /photos/ { alias $root/samples/photos/; } }
  ${2:-}
}
CONF
  nginx -e "$work/error.log" -p "$work" -c "$work/nginx.conf" &
  pids+=($!)
  wait_port "$1"
}

# metric <port> <name>: a sample's value from serve's /metrics (labels included in <name>).
metric() {
  curl -s "http://127.0.0.1:$1/metrics" | awk -v name="$2" '$1 == name {print $2}'
}
