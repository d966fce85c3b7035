// Crawlee's CheerioCrawler crawling one site in its own process, for `jobs.bench.ts`: the
// crawl a user would run instead of a crawl job. Plain JavaScript run by plain node (no
// TypeScript loader), so the process's memory is the crawler's. Same start URL and
// same-origin links as the job, robots.txt respected, `$('body').text()` per page (the
// job's `text` format), fixed concurrency, in-memory storage (no `storage/` directory),
// logging off. It keeps no receipt and no books: a page lives only in this process.
//
// argv[2]: JSON {origin, pages, concurrency}. Messages to the parent over IPC:
// {type:'progress', handled} every 100 pages, then {type:'done', handled, failed, chars,
// seconds, lastPageSeconds, cpuMs}; it starts when the parent sends {type:'start'}.
import { CheerioCrawler, Configuration, LogLevel, log } from '@crawlee/cheerio';

const { origin, pages, concurrency } = JSON.parse(process.argv[2]);
log.setLevel(LogLevel.OFF);

let handled = 0;
let failed = 0;
let chars = 0;
let lastPage = 0;
const config = new Configuration({ persistStorage: false, purgeOnStart: false });
const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: pages,
    respectRobotsTxtFile: true,
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 0,
    useSessionPool: false,
    statusMessageLoggingInterval: 3600,
    async requestHandler({ $, enqueueLinks }) {
      chars += $('body').text().length;
      handled += 1;
      lastPage = performance.now();
      if (handled % 100 === 0) process.send({ type: 'progress', handled });
      await enqueueLinks({ strategy: 'same-origin' });
    },
    failedRequestHandler() {
      failed += 1;
    },
  },
  config,
);

process.once('message', async () => {
  const started = performance.now();
  await crawler.run([`${origin}/p/0`]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage();
  process.send(
    {
      type: 'done',
      handled,
      failed,
      chars,
      seconds,
      lastPageSeconds: (lastPage - started) / 1000,
      cpuMs: (cpu.user + cpu.system) / 1000,
    },
    () => process.exit(0),
  );
});
process.send({ type: 'ready' });
