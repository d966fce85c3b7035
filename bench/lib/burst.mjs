// A client in its own process for `scale.bench.ts`: sends `calls` GETs to one URL all at
// once, each on a connection of its own (as that many separate callers would), and
// prints one JSON line: every call's latency in ms (request created to body read), how
// many answered each status, and the `Storefront-Charge` headers seen. A call that
// fails on the socket counts under status 0 with its error code.
import http from 'node:http';

const { url, headers, calls } = JSON.parse(process.argv[2]);

function call() {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request(url, { headers, agent: false }, (res) => {
      res.on('data', () => {});
      res.on('end', () =>
        resolve({
          ms: performance.now() - start,
          status: res.statusCode,
          charge: res.headers['storefront-charge'] ?? null,
        }),
      );
      res.on('error', (error) =>
        resolve({ ms: performance.now() - start, status: 0, error: error.code ?? 'error' }),
      );
    });
    req.on('error', (error) =>
      resolve({ ms: performance.now() - start, status: 0, error: error.code ?? 'error' }),
    );
    req.end();
  });
}

const results = await Promise.all(Array.from({ length: calls }, call));
const statuses = {};
const charges = {};
const errors = {};
for (const r of results) {
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  if (r.charge) charges[r.charge] = (charges[r.charge] ?? 0) + 1;
  if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
}
console.log(
  JSON.stringify({
    latencies: results.map((r) => Math.round(r.ms * 1000) / 1000),
    statuses,
    charges,
    errors,
  }),
);
