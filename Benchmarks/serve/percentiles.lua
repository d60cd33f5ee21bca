-- wrk script of wrk-vs-nginx.sh: prints one line, "requests/s p50 p90 p99 p99.9" (milliseconds), for
-- the shell to read (wrk --latency shows no p99.9).
done = function(summary, latency, requests)
  io.write(string.format("percentiles %.0f %.2f %.2f %.2f %.2f\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000))
end
