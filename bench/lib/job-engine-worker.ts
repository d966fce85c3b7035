import { performance } from 'node:perf_hooks';
import { type EngineName, type PagePayload, type Schemas, startWorker } from './job-engines.js';

/**
 * One worker process of the job-engine benchmark, forked by `job-engine.bench.ts` with
 * its settings as JSON in argv[2]. Roles: `count` runs no-op jobs and reports how many
 * ran; `latency` reports when each job started; `victim` takes jobs and never finishes
 * them (the parent kills it with SIGKILL); `survivor` reports which jobs it ran.
 */
interface WorkerSettings {
  readonly engine: EngineName;
  readonly url: string;
  readonly schemas: Schemas;
  readonly concurrency: number;
  readonly role: 'count' | 'latency' | 'victim' | 'survivor';
}

export type WorkerMessage =
  | { type: 'ready'; workerIds: readonly string[] }
  | { type: 'count'; n: number }
  | { type: 'started'; url: string; at: number }
  | { type: 'holding'; url: string };

const settings = JSON.parse(process.argv[2] ?? '') as WorkerSettings;
const send = (message: WorkerMessage) => process.send?.(message);
const now = () => performance.timeOrigin + performance.now();

let count = 0;
const handlers: Record<WorkerSettings['role'], (page: PagePayload) => Promise<void>> = {
  count: async () => {
    count++;
  },
  latency: async (page) => {
    send({ type: 'started', url: page.url, at: now() });
  },
  victim: (page) => {
    send({ type: 'holding', url: page.url });
    return new Promise<void>(() => {});
  },
  survivor: async (page) => {
    send({ type: 'started', url: page.url, at: now() });
  },
};

const worker = await startWorker(
  settings.engine,
  settings.url,
  settings.schemas,
  settings.concurrency,
  handlers[settings.role],
);
const reporter =
  settings.role === 'count' ? setInterval(() => send({ type: 'count', n: count }), 50) : null;
send({ type: 'ready', workerIds: worker.workerIds });

process.on('message', async (message: { type: string }) => {
  if (message.type !== 'stop') return;
  if (reporter !== null) clearInterval(reporter);
  await worker.stop();
  process.exit(0);
});
