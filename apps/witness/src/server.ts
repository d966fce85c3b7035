import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Witness } from './witness.js';

/** The largest `add-checkpoint` body read: 63 proof lines, a checkpoint and its signatures. */
export const MAX_BODY_BYTES = 64 * 1024;

function answer(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/** The request's body as UTF-8, or null when it is larger than `MAX_BODY_BYTES`. */
async function bodyOf(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The witness's HTTP interface (C2SP tlog-witness), the submission and monitoring
 * prefix both `/`: `POST /add-checkpoint`, and `GET /` describing the witness (its name,
 * verifier key and the logs it follows) as JSON.
 */
export function witnessServer(witness: Witness, options: { readonly name: string }): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/add-checkpoint') {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        answer(res, 405, 'text/plain; charset=utf-8', 'add-checkpoint takes a POST\n');
        return;
      }
      bodyOf(req)
        .then(async (body) => {
          if (body === null) {
            req.resume();
            answer(
              res,
              413,
              'text/plain; charset=utf-8',
              `a body is at most ${MAX_BODY_BYTES} bytes\n`,
            );
            return;
          }
          const result = await witness.addCheckpoint(body);
          answer(res, result.status, result.contentType, result.body);
        })
        .catch(() => {
          if (!res.headersSent) {
            answer(
              res,
              500,
              'text/plain; charset=utf-8',
              'the witness could not record the checkpoint\n',
            );
          } else res.destroy();
        });
      return;
    }
    if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      const body = `${JSON.stringify({ name: options.name, vkey: witness.vkey, logs: witness.origins }, null, 2)}\n`;
      answer(res, 200, 'application/json; charset=utf-8', body);
      return;
    }
    answer(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  });
}
