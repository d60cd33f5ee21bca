-- wrk script: every request asks for a card of a URL not asked before (…/en/storms.html?n=<counter>),
-- so each is a live fetch. Benchmarks/serve/rss-distinct.sh.
counter = 0
local thread_id = 0
function setup(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end
function request()
  counter = counter + 1
  local url = "http%3A%2F%2F127.0.0.1%3A" .. site_port .. "%2Fen%2Fstorms.html%3Fn%3D" .. id .. "-" .. counter
  return wrk.format("GET", "/v1/card?url=" .. url)
end
function init(args)
  site_port = args[1]
end
