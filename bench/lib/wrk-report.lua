-- wrk reporter for bench/service.bench.ts: after the run, print one line that the
-- harness parses. Durations and latencies are in microseconds, as wrk measures them.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p99Us":%d,' ..
    '"meanUs":%.1f,"maxUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.mean, latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
