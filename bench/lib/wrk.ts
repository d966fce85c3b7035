import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPORTER = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));
const ROTATE = fileURLToPath(new URL('./wrk-rotate.lua', import.meta.url));
const MARKER = 'WRK_RESULT ';

/** One wrk run against one URL. */
export interface WrkOptions {
  readonly url: string;
  /** Request headers, each passed with `-H`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `Authorization` values that the requests carry in turn, one per request
   * (`wrk-rotate.lua`): calls spread over several keys.
   */
  readonly authorizations?: readonly string[];
  readonly threads: number;
  readonly connections: number;
  /** Whole seconds (`-d<N>s`). */
  readonly seconds: number;
  /** A response slower than this counts as a timeout (`--timeout`). */
  readonly timeoutSeconds?: number;
}

/** What the reporter script (`wrk-report.lua`) printed, in friendlier units. */
export interface WrkResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
  readonly bytes: number;
  /** Socket errors and timeouts. */
  readonly socketErrors: number;
  /** Answers with a status above 399. */
  readonly badStatus: number;
}

interface Reported {
  requests: number;
  durationUs: number;
  bytes: number;
  p50Us: number;
  p99Us: number;
  meanUs: number;
  maxUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

/** Whether `wrk` can be started; the reason when it cannot. */
export async function wrkProblem(): Promise<string | null> {
  try {
    await run('wrk', ['-v']);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // `wrk -v` prints its usage and exits 1; only a missing binary is a problem.
    return code === 'ENOENT' ? 'wrk is not installed (expected on the PATH)' : null;
  }
}

/**
 * Run `wrk -t<threads> -c<connections> -d<seconds>s --latency` with the reporter script
 * and return its numbers. The child runs asynchronously, so a server in this process
 * keeps answering while wrk loads it.
 */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    `--timeout`,
    `${options.timeoutSeconds ?? 10}s`,
    '--latency',
    '-s',
    options.authorizations === undefined ? REPORTER : ROTATE,
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    args.push('-H', `${name}: ${value}`);
  }
  args.push(options.url);
  const env =
    options.authorizations === undefined
      ? process.env
      : {
          ...process.env,
          WRK_REPORTER: REPORTER,
          WRK_AUTHORIZATIONS: options.authorizations.join(','),
        };
  const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20, env });
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (line === undefined) throw new Error(`wrk printed no result line:\n${stdout}`);
  const r = JSON.parse(line.slice(MARKER.length)) as Reported;
  const seconds = r.durationUs / 1e6;
  return {
    requests: r.requests,
    seconds,
    requestsPerSecond: r.requests / seconds,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    meanMs: r.meanUs / 1000,
    maxMs: r.maxUs / 1000,
    bytes: r.bytes,
    socketErrors: r.connect + r.read + r.write + r.timeout,
    badStatus: r.status,
  };
}
