import { Worker } from 'node:worker_threads';
import { type Compute, type ProductTask, WARMED_TASKS } from './compute.js';
import {
  budgetSpent,
  type CallDeadline,
  ComputeCancelledError,
  type ComputeLimit,
  ComputeLimitError,
  msLeft,
} from './limits.js';

/** Where the pool reports threads it had to replace (a pino logger fits). */
export interface PoolLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Options of {@link ProductPool}. */
export interface ProductPoolOptions {
  /** Product threads; each runs one task at a time. */
  readonly threads: number;
  /** How long one task may run once a thread has it (and never past its call's deadline). */
  readonly deadlineMs: number;
  /** V8 old-generation bound of each thread, in MB. */
  readonly heapMb: number;
  /**
   * Heap added to `heapMb` when the threads run from sources (tests, `pnpm dev`): their
   * heap then also holds the TypeScript loader and every module it transpiled (pdf.js
   * among them), which a built thread does not carry. Default 0; the server passes 128.
   */
  readonly sourceHeapMb?: number;
  /**
   * A thread idle this long is stopped; threads start again on demand. Absent, threads
   * once started are kept (the server passes `PRODUCT_IDLE_MS`, 60 s by default).
   */
  readonly idleMs?: number;
  /** A thread whose heap has grown by more than this (MB) during a task is replaced after it ({@link RECYCLE_GROWTH_MB}). */
  readonly recycleMb?: number;
  /**
   * Tasks a busy thread is handed beyond the one it runs while tasks wait in the queue
   * (default 0): it goes from one to the next without waiting for this thread's event
   * loop to hear of the first's end and post the next ({@link SERVER_PREFETCH}).
   */
  readonly prefetch?: number;
  readonly logger: PoolLog;
}

interface Job {
  /** The product task's name, which the thread looks up. */
  readonly task: string;
  readonly input: unknown;
  /** The call's deadline, if it has one: the job is given up there, queued or running. */
  readonly deadline: CallDeadline | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Stop watching the caller's signal and the call's deadline (once a thread has the job, or it ended). */
  detach(): void;
}

/** What a product thread posts back; after a task, how far its heap grew past its loaded size (MB). */
type Reply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'warmed' }
  | { readonly kind: 'done'; readonly value: unknown; readonly grownMb: number }
  | {
      readonly kind: 'threw';
      readonly message: string;
      readonly stack?: string;
      readonly grownMb: number;
    };

/** A thread slot: its worker, whether it has loaded, and the job it runs. */
interface Slot {
  worker: Worker;
  ready: boolean;
  /** Settles once the thread has loaded or exited. */
  loaded: Promise<void>;
  markLoaded(): void;
  /** The jobs the thread holds, in the order it runs them: the first runs, the rest wait there. */
  jobs: Job[];
  timer: NodeJS.Timeout | null;
  /** Makes the error the current job gets if its timer fires first (made then, not per task). */
  late: (() => ComputeLimitError) | null;
  /** The limit that stopped the current job, reported when the thread exits. */
  stopped: ComputeLimit | null;
  /** Stopped on purpose (idle, or its heap grew): it takes no job, and its exit is no fault. */
  retired: boolean;
  /** Retires the thread once it has been idle for the pool's `idleMs`. */
  idle: NodeJS.Timeout | null;
  /** Whether the thread was asked to run the warm-ups. */
  warm: boolean;
  /** Settles once the thread has run its warm-ups, or exited. */
  warmed: Promise<void>;
  markWarmed(): void;
}

/** What asks a product thread to run the warm-ups (see `worker.ts`); no task has this name. */
const WARM = ':warm';
/** The V8 young-generation bound of each thread (MB). */
const YOUNG_GENERATION_MB = 16;
/** How long a thread that failed to load waits before the next try. */
const RESPAWN_BACKOFF_MS = 1_000;
/** How long {@link ProductPool.close} waits for a thread that is still loading. */
const LOAD_WAIT_MS = 10_000;
/**
 * A thread whose V8 heap has grown by more than this (MB) past its size once loaded (a
 * large page, or garbage a hostile one left) is replaced after the task: V8 keeps a grown
 * heap long after the task, and only ending the thread gives its memory back at once. A
 * 50 KB page grows it by about 10 MB; a 2 MB article by about 50 MB.
 */
export const RECYCLE_GROWTH_MB = 40;

/**
 * Tasks the server hands a busy product thread beyond the one it runs, while tasks wait
 * (docs/decisions.md, "A busy product thread holds its next tasks"). Without them, a
 * thread waits after each task until the event loop, busy with everything else, hears of
 * its end and posts the next. Tasks held by a thread that is stopped go back to the
 * queue, in their order.
 */
export const SERVER_PREFETCH = 8;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The products' threads (`worker_threads`): route `compute` functions run here, off the
 * event loop, so a heavy page neither stalls other calls nor the metering, and a hostile
 * one is stopped at a deadline and a heap bound (`../shared/security.md` §3.6). A task
 * waits in a FIFO queue until a thread is free. It runs at most `deadlineMs` once a
 * thread has it, and never past its call's deadline: a task still queued or running
 * when its call's budget runs out is given up then, and a running one costs its thread.
 *
 * Threads start on demand, up to `threads`, and stop after `idleMs` without a task, so
 * an idle service holds none; a thread whose heap grew past `recycleMb` during a task is
 * replaced after it, so one large page does not keep its memory (docs/decisions.md,
 * "Bounded memory per call").
 */
export class ProductPool {
  readonly #options: ProductPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #closed = false;
  #started = 0;
  #recycled = 0;
  /** No thread starts before this (`performance.now()`): a thread failed to load. */
  #backoffUntil = 0;
  /** Whether threads run the routes' warm-ups: once a route that has one was called. */
  #warm = false;

  constructor(options: ProductPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) {
      throw new Error(`A product pool needs at least one thread, got ${options.threads}`);
    }
    this.#options = options;
  }

  /**
   * Threads alive (loading, working, idle or stopping), tasks running and waiting, tasks
   * handed to a thread so far, and threads replaced after a task grew their heap.
   */
  get stats(): {
    readonly threads: number;
    readonly busy: number;
    readonly queued: number;
    readonly started: number;
    readonly recycled: number;
  } {
    return {
      threads: this.#slots.length,
      busy: this.#slots.filter((slot) => slot.jobs.length > 0).length,
      queued: this.#queue.length,
      started: this.#started,
      recycled: this.#recycled,
    };
  }

  /**
   * {@link Compute} on this pool. A task whose `signal` aborts while it waits in the
   * queue is dropped (its caller left); one a thread already runs goes on to its end.
   */
  readonly compute: Compute = <I, O>(
    task: ProductTask<I, O>,
    input: I,
    signal?: AbortSignal,
    deadline?: CallDeadline,
  ) =>
    new Promise<O>((resolve, reject) => {
      if (this.#closed) {
        reject(new Error('The product pool is closed'));
        return;
      }
      if (signal?.aborted) {
        reject(new ComputeCancelledError());
        return;
      }
      if (deadline !== undefined && msLeft(deadline) < 1) {
        reject(budgetSpent(deadline));
        return;
      }
      /** Take the job out of the queue, if it is still there, and fail it with `error`. */
      const dequeue = (error: Error) => {
        const index = this.#queue.indexOf(job);
        if (index < 0) return;
        this.#queue.splice(index, 1);
        job.detach();
        reject(error);
      };
      const onAbort = () => dequeue(new ComputeCancelledError());
      // The call's budget runs out while the job still waits for a thread.
      const expiry =
        deadline === undefined
          ? null
          : setTimeout(() => dequeue(budgetSpent(deadline)), msLeft(deadline));
      expiry?.unref();
      const job: Job = {
        task: task.name,
        input,
        deadline,
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => {
          signal?.removeEventListener('abort', onAbort);
          if (expiry !== null) clearTimeout(expiry);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#dispatch();
    });

  /**
   * Start every thread now (they otherwise start on demand) and settle once each has
   * loaded and run the routes' warm-ups (or failed to). A task's call budget runs while
   * it waits for a thread that is still loading, so tests that time their calls wait
   * for this first; the threads still stop after `idleMs` without a task.
   */
  async ready(): Promise<void> {
    this.#warmUp();
    while (!this.#closed && this.#slots.length < this.#options.threads) {
      const slot = this.#spawn();
      this.#slots.push(slot);
    }
    await Promise.all(this.#slots.map((slot) => slot.loaded));
    await Promise.all(this.#slots.map((slot) => slot.warmed));
  }

  /** Stop every thread; queued and running tasks fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closing = new Error('The product pool is closed');
    for (const job of this.#queue.splice(0)) {
      job.detach();
      job.reject(closing);
    }
    await Promise.all(
      this.#slots.map(async (slot) => {
        if (slot.timer !== null) clearTimeout(slot.timer);
        if (slot.idle !== null) clearTimeout(slot.idle);
        for (const job of slot.jobs.splice(0)) job.reject(closing);
        // Never stop a thread while it is still loading its modules: Node 20 can abort the
        // whole process when a worker is terminated in the middle of module evaluation.
        await Promise.race([slot.loaded, delay(LOAD_WAIT_MS)]);
        await slot.worker.terminate();
      }),
    );
  }

  #spawn(): Slot {
    let markLoaded = () => {};
    const loaded = new Promise<void>((resolve) => {
      markLoaded = resolve;
    });
    let markWarmed = () => {};
    const warmed = new Promise<void>((resolve) => {
      markWarmed = resolve;
    });
    const slot: Slot = {
      worker: startWorker(this.#options.heapMb, this.#options.sourceHeapMb ?? 0, this.#warm),
      ready: false,
      loaded,
      markLoaded,
      jobs: [],
      timer: null,
      late: null,
      stopped: null,
      retired: false,
      idle: null,
      warm: this.#warm,
      warmed,
      markWarmed,
    };
    this.#watch(slot);
    return slot;
  }

  /** From now on threads run the warm-ups: the threads alive now, and each new one. */
  #warmUp(): void {
    this.#warm = true;
    for (const slot of this.#slots) if (slot.ready) this.#warmSlot(slot);
  }

  #warmSlot(slot: Slot): void {
    if (slot.warm || slot.retired) return;
    slot.warm = true;
    slot.worker.postMessage({ task: WARM, input: null });
  }

  /** Stop `slot`'s thread on purpose: idle too long, or its heap grew during a task. */
  #retire(slot: Slot): void {
    if (slot.retired) return;
    slot.retired = true;
    if (slot.idle !== null) clearTimeout(slot.idle);
    slot.idle = null;
    void slot.worker.terminate();
  }

  /** Start `slot`'s idle clock, if the pool has one: it has no job now. */
  #idle(slot: Slot): void {
    if (slot.idle !== null) clearTimeout(slot.idle);
    slot.idle = null;
    const { idleMs } = this.#options;
    if (idleMs === undefined) return;
    slot.idle = setTimeout(() => {
      slot.idle = null;
      if (slot.jobs.length === 0 && !this.#closed) this.#retire(slot);
    }, idleMs);
    slot.idle.unref();
  }

  #watch(slot: Slot): void {
    const { worker } = slot;
    worker.unref();
    worker.on('message', (reply: Reply) => {
      if (reply.kind === 'warmed') {
        slot.markWarmed();
        return;
      }
      if (reply.kind === 'ready') {
        slot.ready = true;
        slot.markLoaded();
        if (this.#warm) this.#warmSlot(slot);
        this.#idle(slot);
        this.#dispatch();
        return;
      }
      const job = this.#take(slot);
      if (job === null) return;
      if (reply.kind === 'done') job.resolve(reply.value);
      else job.reject(Object.assign(new Error(reply.message), { stack: reply.stack }));
      if (reply.grownMb > (this.#options.recycleMb ?? RECYCLE_GROWTH_MB)) {
        this.#recycled++;
        this.#requeue(slot);
        this.#retire(slot);
      } else if (slot.jobs.length > 0) this.#arm(slot);
      else this.#idle(slot);
      this.#dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') slot.stopped ??= 'memory';
      const job = this.#take(slot);
      this.#requeue(slot);
      if (job === null) {
        if (!slot.ready)
          this.#options.logger.error({ err: error }, 'product thread failed to load');
        return;
      }
      job.reject(
        slot.stopped === 'memory'
          ? new ComputeLimitError(
              'memory',
              `Processing the page needed more than ${this.#options.heapMb} MB`,
            )
          : error,
      );
    });
    worker.on('exit', () => {
      slot.markLoaded();
      slot.markWarmed();
      if (slot.idle !== null) clearTimeout(slot.idle);
      // A job stopped at its deadline was answered when the timer fired.
      const job = this.#take(slot);
      if (job !== null) job.reject(new Error('A product thread stopped during the task'));
      this.#requeue(slot);
      if (this.#closed) return;
      const index = this.#slots.indexOf(slot);
      if (index < 0) return;
      this.#slots.splice(index, 1);
      if (slot.stopped === null && !slot.retired) {
        this.#options.logger.warn({ loaded: slot.ready }, 'product thread exited; replacing it');
      }
      // A thread that never loaded would fail again at once: fail the waiting tasks, wait.
      if (!slot.ready && !slot.retired) {
        for (const waiting of this.#queue.splice(0)) {
          waiting.detach();
          waiting.reject(new Error('The product threads cannot start'));
        }
        this.#backoffUntil = performance.now() + RESPAWN_BACKOFF_MS;
        setTimeout(() => this.#dispatch(), RESPAWN_BACKOFF_MS).unref();
        return;
      }
      // The next waiting task gets a new thread.
      this.#dispatch();
    });
  }

  /** The job the slot's thread runs, taken off the slot and its timer; the next one, if any, runs now. */
  #take(slot: Slot): Job | null {
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.late = null;
    return slot.jobs.shift() ?? null;
  }

  /**
   * Put the jobs still waiting on `slot`'s thread back at the head of the queue, in their
   * order: the thread is stopping before it ran them.
   */
  #requeue(slot: Slot): void {
    const waiting = slot.jobs.splice(0);
    if (waiting.length > 0) this.#queue.unshift(...waiting);
  }

  /**
   * Start the clock of the job `slot`'s thread runs now: the pool's deadline, or what is
   * left of its call's budget if that is sooner (at least 1 ms: a job whose budget ran out
   * while it waited on the thread is stopped with its thread at once).
   */
  #arm(slot: Slot): void {
    const job = slot.jobs[0];
    if (job === undefined) return;
    const { deadlineMs } = this.#options;
    const { deadline } = job;
    const own = deadline === undefined || msLeft(deadline) >= deadlineMs;
    const runMs = own ? deadlineMs : Math.max(1, msLeft(deadline));
    slot.late = own
      ? () =>
          new ComputeLimitError(
            'deadline',
            `Processing the page took longer than ${deadlineMs / 1000} s`,
          )
      : () => budgetSpent(deadline);
    slot.timer = setTimeout(() => {
      // Answer at once: a thread busy collecting a large heap can take a while to exit.
      const error = slot.late?.();
      const stopped = this.#take(slot);
      slot.stopped = 'deadline';
      stopped?.reject(error);
      this.#requeue(slot);
      void slot.worker.terminate();
    }, runMs);
    slot.timer.unref();
  }

  /** The next queued job with time left; jobs whose call has no time left are failed on the way. */
  #next(): Job | null {
    for (;;) {
      const job = this.#queue.shift();
      if (job === undefined) return null;
      job.detach();
      if (job.deadline === undefined || msLeft(job.deadline) >= 1) return job;
      job.reject(budgetSpent(job.deadline));
    }
  }

  /** Hand `job` to `slot`'s thread; false when its input cannot be cloned (the job is failed). */
  #post(slot: Slot, job: Job): boolean {
    slot.jobs.push(job);
    if (slot.jobs.length === 1) this.#arm(slot);
    if (!this.#warm && WARMED_TASKS.has(job.task)) this.#warmUp();
    try {
      slot.worker.postMessage({ task: job.task, input: job.input });
      this.#started++;
      return true;
    } catch (error) {
      // Input that cannot be cloned: the task's fault, not the thread's.
      slot.jobs.pop();
      if (slot.jobs.length === 0) {
        if (slot.timer !== null) clearTimeout(slot.timer);
        slot.timer = null;
        slot.late = null;
        this.#idle(slot);
      }
      job.reject(error);
      return false;
    }
  }

  #dispatch(): void {
    this.#hand(1, 0);
    if (this.#queue.length === 0) return;
    // Tasks still waiting: start threads for them, up to the pool's size. A thread still
    // loading takes the next task once it is ready.
    const loading = () => this.#slots.filter((slot) => !slot.ready).length;
    let wanted = this.#queue.length - loading();
    while (
      wanted > 0 &&
      this.#slots.length < this.#options.threads &&
      !this.#closed &&
      performance.now() >= this.#backoffUntil
    ) {
      this.#slots.push(this.#spawn());
      wanted--;
    }
    // What the loading threads will not take: each busy thread holds up to `prefetch` more.
    const prefetch = this.#options.prefetch ?? 0;
    if (prefetch > 0) this.#hand(1 + prefetch, loading());
  }

  /** Hand queued jobs to the ready threads until each holds `held`, leaving `leave` queued. */
  #hand(held: number, leave: number): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.stopped !== null || slot.retired) continue;
      while (this.#queue.length > leave && slot.jobs.length < held) {
        const job = this.#next();
        if (job === null) return;
        if (slot.idle !== null) clearTimeout(slot.idle);
        slot.idle = null;
        this.#post(slot, job);
      }
    }
  }
}

/**
 * A product thread. From the built server it is `product-worker.js` beside the bundle;
 * from sources (tests, `pnpm dev`) a small loader registers tsx in the thread first,
 * since Node 20 does not pass `--import` hooks on to workers.
 */
function startWorker(heapMb: number, sourceHeapMb: number, warm: boolean): Worker {
  // The young generation is bounded too: by default it grows to 48 MB beside the old one.
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fromSource
    ? new URL('./worker-source.mjs', import.meta.url)
    : new URL('./product-worker.js', import.meta.url);
  return new Worker(file, {
    resourceLimits: {
      maxOldGenerationSizeMb: fromSource ? heapMb + sourceHeapMb : heapMb,
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      stackSizeMb: 4,
    },
    // Resolve the workspace packages to their sources, as the parent does.
    ...(fromSource ? { execArgv: ['--conditions=@storefront/source'] } : {}),
    workerData: { warm },
    stdout: false,
    stderr: false,
  });
}
