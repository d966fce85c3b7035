/**
 * The service and the packages behind it, for `service.bench.ts` and `x402.bench.ts`.
 * bench/package.json does not list `@storefront/server`, `@storefront/notarize`,
 * `@storefront/headers`, `@storefront/safe-fetch`, `express` or `pino`, so their sources
 * are imported by path (the `@storefront/source` condition's files) and the npm
 * packages are required from the server's own dependencies (undici from safe-fetch's):
 * the same copies the server runs. The same goes for the server's x402 `Facilitator` client, whose calls
 * `x402.bench.ts` times.
 */
import { createRequire } from 'node:module';
import type { expressApp, StartOptions } from '../../apps/server/src/index.js';

export { Facilitator } from '../../apps/server/src/doors/x402/facilitator.js';
export { endSigned } from '../../apps/server/src/http/signed-answer.js';
export {
  type Database,
  loadConfig,
  migrate,
  openDatabase,
  type RunningServer,
  startServer,
} from '../../apps/server/src/index.js';
export { dropSchemasSql, queueSchemaOf } from '../../apps/server/src/jobs/queue.js';
export { creditsFor, type TierPlans, tierPlans } from '../../apps/server/src/metering/tiers.js';
export {
  claimOf,
  PROVENANCE_HEADER,
  questionOfTarget,
} from '../../apps/server/src/pipeline/provenance.js';
export { notarizeRoute } from '../../apps/server/src/registry/notarize/index.js';
export { serviceSigner } from '../../apps/server/src/signer-key.js';
export { inspectHeaders } from '../../packages/headers/src/index.js';
export { INLINE_SOURCE, notarize } from '../../packages/notarize/src/index.js';
export {
  createFetcher,
  type Fetcher,
  type FetchInit,
} from '../../packages/safe-fetch/src/index.js';

const fromServer = createRequire(new URL('../../apps/server/package.json', import.meta.url));

/** An Express 5 application, as `expressApp` returns one. */
export type ExpressApp = ReturnType<typeof expressApp>;

/** `express()` from the server's dependencies. */
export const express = fromServer('express') as () => ExpressApp;

const fromSafeFetch = createRequire(
  new URL('../../packages/safe-fetch/package.json', import.meta.url),
);

/** The part of undici the bare proxy uses. */
export interface Undici {
  Agent: new () => { close(): Promise<void> };
  request(
    url: string,
    options: { dispatcher: unknown },
  ): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: { arrayBuffer(): Promise<ArrayBuffer> };
  }>;
}

/** undici from safe-fetch's dependencies: the HTTP client the service fetches with. */
export const undici = fromSafeFetch('undici') as Undici;

/** A pino logger that writes nothing. */
export function silentLogger(): NonNullable<StartOptions['logger']> {
  const { pino } = fromServer('pino') as {
    pino: (options: { level: string }) => NonNullable<StartOptions['logger']>;
  };
  return pino({ level: 'silent' });
}
