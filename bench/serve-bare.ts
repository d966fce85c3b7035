/**
 * The service benchmark's bare side on its own (bench/README.md, "Service overhead"): a
 * bare Express 5 app whose `GET /buy/notarize` runs `notarize()` on the query, unsigned
 * and unmetered, as `service.bench.ts`'s bare app does. Prints `{url}` as one JSON line;
 * SIGTERM or Ctrl-C stops it. For `alternate-key-door.ts`.
 * Usage: node --conditions=@storefront/source --import tsx serve-bare.ts
 */
import type { AddressInfo } from 'node:net';
import { bareNotarize } from './lib/bare-notarize.js';
import { express } from './lib/server-deps.js';

const app = express();
app.disable('x-powered-by');
app.set('query parser', 'simple');
app.get('/buy/notarize', bareNotarize('http://bare'));
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
