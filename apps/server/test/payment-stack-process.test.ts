/**
 * The development payment stack's and the log witness's own processes, seen from outside:
 * `main` as a real process forks them, and they go when `main` goes, whether `main` stops
 * (SIGTERM) or is killed without a chance to stop it (SIGKILL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

const main = join(import.meta.dirname, '../src/main.ts');
/**
 * Each test starts `main` from source: on PGlite a new database too, which takes tens of
 * seconds on a busy machine.
 */
const START_TIMEOUT_MS = 150_000;
const schema = uniqueSchema();
const started = new Set<ChildProcess>();

beforeAll(() => createSchema(schema));
afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
  await dropSchema(schema);
});

interface Running {
  readonly main: ChildProcess;
  readonly facilitatorUrl: string;
  /** The development witness's URL. */
  readonly witnessUrl: string;
  /** The processes `main` forked: the payment stack and the witness. */
  readonly childPids: readonly number[];
}

/** `src/main.ts` as `pnpm dev` runs it, until its start-up lines are out. */
async function startMain(): Promise<Running> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: '0',
    LOCAL_CHAIN_PORT: '0',
    LOCAL_FACILITATOR_PORT: '0',
    DATA_DIR: tempDir('storefront-stack-process-'),
    LOG_LEVEL: 'silent',
  };
  if (DATABASE_URL !== null) {
    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.href;
  }
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', main],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.add(child);
  let output = '';
  const [facilitatorUrl, witnessUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The stack's and the witness's lines, then the last part of the start-up lines.
      const match =
        /facilitator {2}(http:\/\/\S+)[\s\S]*witness {6}(http:\/\/\S+)[\s\S]*Try it:/.exec(output);
      if (match) resolve([match[1] as string, match[2] as string]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`main exited with ${code}:\n${output}`)));
  });
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  expect(children).toHaveLength(2);
  return { main: child, facilitatorUrl, witnessUrl, childPids: children };
}

/** Whether `pid` still runs (a zombie waiting for its reaper does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Resolves once `pid` has exited: no signal tells another process's end, so it looks. */
async function exited(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Both children gone, and neither answers any more. */
async function childrenGone(running: Running): Promise<void> {
  for (const pid of running.childPids) await exited(pid);
  await expect(fetch(`${running.facilitatorUrl}/supported`)).rejects.toThrow();
  await expect(fetch(`${running.witnessUrl}/`)).rejects.toThrow();
}

describe.skipIf(process.platform !== 'linux')('the payment stack and witness processes', () => {
  it(
    'stops with main on SIGTERM, and main exits 0',
    async () => {
      const running = await startMain();
      expect((await fetch(`${running.facilitatorUrl}/supported`)).status).toBe(200);
      expect((await fetch(`${running.witnessUrl}/`)).status).toBe(200);
      const mainExit = once(running.main, 'exit');
      running.main.kill('SIGTERM');
      expect((await mainExit)[0]).toBe(0);
      started.delete(running.main);
      await childrenGone(running);
    },
    START_TIMEOUT_MS,
  );

  it(
    'goes when main is killed without a chance to stop it (SIGKILL)',
    async () => {
      const running = await startMain();
      for (const pid of running.childPids) expect(alive(pid)).toBe(true);
      const mainExit = once(running.main, 'exit');
      running.main.kill('SIGKILL');
      await mainExit;
      started.delete(running.main);
      await childrenGone(running);
    },
    START_TIMEOUT_MS,
  );
});
