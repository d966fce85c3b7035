/**
 * The service benchmark's bare side on its own (bench/README.md, "Service overhead"): a
 * bare Express 5 app whose `GET /buy/notarize` runs `notarize()` on the query, unsigned
 * and unmetered, as `service.bench.ts`'s bare app does. Prints `{url}` as one JSON line;
 * SIGTERM or Ctrl-C stops it. For `alternate-key-door.ts`.
 * Usage: node --conditions=@storefront/source --import tsx serve-bare.ts [--signed | --floor]
 */

import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareNotarize, signedBareNotarize } from './lib/bare-notarize.js';
import { express } from './lib/server-deps.js';

const app = express();
app.disable('x-powered-by');
app.set('query parser', 'simple');
// `--signed`: with the two signatures of every paid answer (`signedBareNotarize`);
// `--floor`: with its response-provenance claim too, the three proofs every paid answer
// carries and nothing else of the service.
const floor = process.argv.includes('--floor');
app.get(
  '/buy/notarize',
  floor || process.argv.includes('--signed')
    ? await signedBareNotarize(
        'http://bare',
        '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
        mkdtempSync(join(tmpdir(), 'serve-bare-')),
        { claim: floor },
      )
    : bareNotarize('http://bare'),
);
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
