// A client in its own process for `service.bench.ts`: calls a list of URLs one at a time,
// in turn, call by call (the first URL of each turn rotates), so that every side of a
// comparison meets the same moments of a shared, noisy machine. Each origin keeps one
// keep-alive connection (Node's global fetch). Prints one JSON line: per URL, the
// latencies' p50, p99 and mean in ms.
const { urls, headers, calls, warmup } = JSON.parse(process.argv[2]);
const times = urls.map(() => []);

async function call(url) {
  const start = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - start;
}

for (let i = 0; i < warmup; i++) for (const url of urls) await call(url);
for (let i = 0; i < calls; i++) {
  for (let j = 0; j < urls.length; j++) {
    const k = (i + j) % urls.length;
    times[k].push(await call(urls[k]));
  }
}
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
console.log(
  JSON.stringify(
    times.map((t) => {
      const sorted = [...t].sort((a, b) => a - b);
      return {
        p50: at(sorted, 0.5),
        p99: at(sorted, 0.99),
        mean: t.reduce((a, b) => a + b, 0) / t.length,
        calls: t.length,
      };
    }),
  ),
);
