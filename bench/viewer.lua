-- wrk script of the viewer benchmark (bench/bench_viewer.py).
-- wrk -s bench/viewer.lua URL -- PATHS_FILE: each request the next path of the file (one a
-- line), each thread starting at its own place; without a file, the URL's own path.
-- At the end one line: "bench: p50_us p95_us p99_us requests not_200 socket_errors".

local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  bad = 0
  if args[1] then
    for line in io.lines(args[1]) do
      if #line > 0 then table.insert(paths, line) end
    end
  end
  at = (id * 7919) % math.max(#paths, 1)
end

function request()
  if #paths == 0 then
    return wrk.format(nil)
  end
  at = at % #paths + 1
  return wrk.format(nil, paths[at])
end

function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

function done(summary, latency, requests)
  local not_200 = 0
  for _, thread in ipairs(threads) do
    not_200 = not_200 + thread:get("bad")
  end
  local e = summary.errors
  io.write(string.format("bench: %d %d %d %d %d %d\n",
    latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.requests, not_200, e.connect + e.read + e.write + e.timeout))
end
