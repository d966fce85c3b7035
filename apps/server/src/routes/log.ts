import { StorefrontError } from '@storefront/core';
import {
  encodeEntryBundle,
  parseTilePath,
  proveConsistency,
  proveInclusion,
  TILE_HEIGHT,
  TILE_WIDTH,
  tileWidthAt,
  toBase64,
} from '@storefront/tlog';
import { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import {
  checkpointAt,
  entryRun,
  findEntry,
  hashRun,
  isPending,
  logState,
  readHashes,
  sequence,
} from '../log/store.js';
import { cosignaturesAt } from '../log/witnesses.js';

/** `Cache-Control` of what never changes: full tiles and bundles, proofs between fixed sizes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `Cache-Control` of the checkpoint and of partial tiles: the log grows every second or so. */
const SHORT = 'public, max-age=1';
/** How long a caller waits for an entry still pending (s). */
const PENDING_RETRY_SECONDS = 1;

/** The log's state, with a checkpoint signed by this app's key (signing one if need be). */
async function currentState(deps: AppDeps) {
  const state = await logState(deps.db);
  if (state.checkpoint?.startsWith(`${deps.logKey.signer.name}\n`)) {
    return state as { size: number; checkpoint: string };
  }
  await sequence(deps.db, deps.logKey);
  const signed = await logState(deps.db);
  if (signed.checkpoint === null) throw new Error('the log has no checkpoint');
  return signed as { size: number; checkpoint: string };
}

function bad(message: string): StorefrontError {
  return new StorefrontError('invalid_params', message, { details: [{ message }] });
}

/** A query parameter as a tree size: a decimal integer ≥ 0 (null when absent). */
function sizeParam(req: Request, name: string): number | null {
  const value = req.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^(?:0|[1-9][0-9]{0,15})$/.test(value)) {
    throw bad(`Expected \`${name}\` to be a tree size (a decimal integer ≥ 0)`);
  }
  return Number(value);
}

function octets(res: Response, bytes: Uint8Array, full: boolean): void {
  res.setHeader('Cache-Control', full ? IMMUTABLE : SHORT);
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.type('application/octet-stream');
  res.send(Buffer.from(bytes));
}

/**
 * The transparency log of every receipt, served as C2SP tlog-tiles (docs/decisions.md, "A
 * transparency log of every receipt"): `GET /log/checkpoint` (a signed note),
 * `GET /log/tile/<L>/<N>[.p/<W>]` and `GET /log/tile/entries/<N>[.p/<W>]` (full tiles
 * immutable, partial ones short-lived), plus `GET /log/proof?receipt=<hash>` (a receipt's
 * inclusion proof against the current checkpoint) and `GET /log/consistency?old=&new=` (the
 * consistency proof between two sizes). Free and unauthenticated; a mirror can copy the
 * checkpoint and tiles as static files.
 */
export function logRoutes(deps: AppDeps): Router {
  const router = Router();
  const { db } = deps;

  router.get('/log/checkpoint', async (_req, res) => {
    const { size, checkpoint } = await currentState(deps);
    res.setHeader('Cache-Control', SHORT);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('text/plain; charset=utf-8');
    // The witnesses' cosignatures of this size, as further signature lines of the note.
    res.send(checkpoint + (await cosignaturesAt(db, size)));
  });

  router.get(/^\/log\/(tile\/.+)$/, async (req, res) => {
    const path = (req.params as Record<string, string>)[0] ?? '';
    const tile = parseTilePath(path);
    if (tile === null) {
      throw new StorefrontError('not_found', `\`/log/${path.slice(0, 100)}\` is not a tile path`);
    }
    const { size } = await currentState(deps);
    const level = tile.kind === 'entries' ? 0 : tile.level;
    if (tile.width > tileWidthAt(level, tile.index, size)) {
      throw new StorefrontError(
        'not_found',
        `The log of ${size} entries has no \`/log/${path}\` yet`,
      );
    }
    const first = tile.index * TILE_WIDTH;
    const full = tile.width === TILE_WIDTH;
    if (tile.kind === 'entries') {
      const entries = await entryRun(db, first, tile.width);
      octets(res, encodeEntryBundle(entries.map((e) => Buffer.from(e, 'utf8'))), full);
    } else {
      octets(res, await hashRun(db, tile.level * TILE_HEIGHT, first, tile.width), full);
    }
  });

  router.get('/log/proof', async (req, res) => {
    const receipt = req.query.receipt;
    if (typeof receipt !== 'string' || !/^(?:0x)?[0-9a-fA-F]{64}$/.test(receipt)) {
      throw bad('Expected `receipt` to be a receipt hash: SHA-256 hex of the receipt’s log entry');
    }
    const hash = receipt.replace(/^0x/, '').toLowerCase();
    const asked = sizeParam(req, 'size');
    const found = await findEntry(db, hash);
    const state = await currentState(deps);
    if (found === null || found.index >= state.size) {
      if (await isPending(db, hash)) {
        res.setHeader('Retry-After', String(PENDING_RETRY_SECONDS));
        throw new StorefrontError(
          'not_found',
          `Receipt ${hash} is not sequenced yet; it enters the log within a second or two`,
        );
      }
      throw new StorefrontError('not_found', `No receipt ${hash} in the log`);
    }
    let size = state.size;
    let checkpoint: string | null = state.checkpoint;
    if (asked !== null) {
      if (asked <= found.index || asked > state.size) {
        throw bad(`Expected \`size\` between ${found.index + 1} and ${state.size}`);
      }
      size = asked;
      checkpoint = asked === state.size ? state.checkpoint : await checkpointAt(db, asked);
    }
    const proof = await proveInclusion(found.index, size, (nodes) => readHashes(db, nodes));
    const cosignatures = await cosignaturesAt(db, size);
    if (checkpoint !== null) checkpoint += cosignatures;
    // Fixed once every witness cosigned it; until then a later answer may carry more lines.
    const settled = cosignatures.split('\n').length - 1 >= deps.witnesses().length;
    res.setHeader('Cache-Control', asked !== null && settled ? IMMUTABLE : SHORT);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json({
      ok: true,
      receipt: hash,
      index: found.index,
      size,
      entry: found.entry,
      checkpoint,
      proof: proof.map(toBase64),
    });
  });

  router.get('/log/consistency', async (req, res) => {
    const state = await currentState(deps);
    const old = sizeParam(req, 'old');
    const asked = sizeParam(req, 'new');
    if (old === null) throw bad('Expected `old`: the size of the older tree');
    const size = asked ?? state.size;
    if (size > state.size) throw bad(`Expected \`new\` at most ${state.size}, the log's size`);
    if (old > size) throw bad(`Expected \`old\` at most \`new\` (${size})`);
    const proof = await proveConsistency(old, size, (nodes) => readHashes(db, nodes));
    res.setHeader('Cache-Control', asked === null ? SHORT : IMMUTABLE);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json({ ok: true, old, new: size, proof: proof.map(toBase64) });
  });

  return router;
}
