import { Readable } from 'node:stream';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DECODE_CHUNK_BYTES, DEFAULT_MAX_BODY_BYTES, readBody } from '../src/body.js';

const MiB = 1024 * 1024;
const CAP = DEFAULT_MAX_BODY_BYTES;

/**
 * A bomb of `members` compressed MiB of zeros, fed as a wire would (64 KiB pieces),
 * counting how much of it the reader pulled.
 */
function wire(member: Buffer, members: number): { stream: Readable; pulled: () => number } {
  let sent = 0;
  let pulled = 0;
  const piece = 64 * 1024;
  const all = Buffer.concat(Array.from({ length: members }, () => member));
  const stream = new Readable({
    read() {
      if (sent >= all.length) {
        this.push(null);
        return;
      }
      const chunk = all.subarray(sent, sent + piece);
      sent += chunk.length;
      pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

const zeros = Buffer.alloc(MiB);
const BOMBS = {
  // Concatenated gzip members: 1 GiB of zeros in about 1 MB.
  gzip: gzipSync(zeros, { level: 9 }),
  // A zlib stream cannot be concatenated; one stream of 64 MiB instead.
  deflate: deflateSync(Buffer.alloc(64 * MiB), { level: 9 }),
  br: brotliCompressSync(Buffer.alloc(64 * MiB), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
  }),
} as const;

describe('decoding a bomb', () => {
  it.each([
    ['gzip', 1024],
    ['deflate', 1],
    ['br', 1],
  ] as const)(
    'a %s bomb stops at the cap after decoding at most one piece past it',
    async (coding, members) => {
      const { stream, pulled } = wire(BOMBS[coding], members);
      const body = await readBody(stream, coding, CAP, null);
      expect(body.truncated).toBe(true);
      expect(body.bytes.length).toBe(CAP);
      // What the decoder produced: the cap and at most one more piece, never the bomb.
      expect(body.decoded).toBeGreaterThanOrEqual(CAP);
      expect(body.decoded).toBeLessThanOrEqual(CAP + DECODE_CHUNK_BYTES);
      // Each piece is one round trip to the thread pool: a few dozen for 10 MiB, not
      // hundreds, since on a busy machine each round trip waits for a core.
      expect(body.pieces).toBeLessThanOrEqual(Math.ceil(CAP / DECODE_CHUNK_BYTES) + 2);
      // The gzip bomb is 1 MB on the wire: reading stopped long before its end.
      if (members > 1) expect(pulled()).toBeLessThan((BOMBS[coding].length * members) / 4);
    },
  );

  it('decodes a small page whole, in one piece', async () => {
    const page = Buffer.from('<p>hello</p>'.repeat(1000));
    const { stream } = wire(gzipSync(page), 1);
    const body = await readBody(stream, 'gzip', CAP, null);
    expect(body).toMatchObject({ truncated: false, decoded: page.length, pieces: 1 });
    expect(Buffer.from(body.bytes).equals(page)).toBe(true);
  });
});
