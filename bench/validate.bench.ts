import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { validateDocument } from '@storefront/validate';
import Ajv from 'ajv';
import { Bench } from 'tinybench';
import { type Measured, machine, measured, printTable } from './lib/report.js';

/** RE2 as @storefront/validate resolves it (the bench does not depend on re2 itself). */
const RE2 = createRequire(new URL('../packages/validate/package.json', import.meta.url))(
  're2',
) as new (
  pattern: string,
  flags: string,
) => RegExp;

/** A catalogue page as an API would return it; every `broken`-th record breaks the schema. */
function catalogue(records: number, broken: number): string {
  const items = Array.from({ length: records }, (_, i) => {
    const bad = broken > 0 && i % broken === 0;
    return {
      id: bad ? String(i) : i,
      sku: `SKU-${String(i).padStart(6, '0')}`,
      name: `Product ${i}`,
      price: bad ? -1 : 10 + (i % 90) / 4,
      currency: 'EUR',
      tags: ['kitchen', i % 2 === 0 ? 'sale' : 'new'],
      stock: i % 7 === 0 ? null : i % 50,
      dimensions: { w: 10 + (i % 5), h: 20, d: 5.5 },
    };
  });
  return JSON.stringify({ page: 1, total: records, items });
}

const SCHEMA = {
  type: 'object',
  required: ['page', 'total', 'items'],
  properties: {
    page: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'sku', 'name', 'price', 'currency'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer', minimum: 0 },
          sku: { type: 'string', pattern: '^SKU-[0-9]{6}$' },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          price: { type: 'number', exclusiveMinimum: 0 },
          currency: { enum: ['EUR', 'USD', 'GBP'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
          stock: { type: 'integer', minimum: 0, nullable: true },
          dimensions: {
            type: 'object',
            properties: { w: { type: 'number' }, h: { type: 'number' }, d: { type: 'number' } },
          },
        },
      },
    },
  },
};

/**
 * JSON validation: our `validateDocument` (decode, depth check, `JSON.parse`, the RFC 8785
 * hash of the document, the metered validation on RE2, document-order sorting, the
 * canonical text) next to what a user would write by hand: `JSON.parse` and an ajv
 * validator compiled once with `allErrors: true`, with V8's own regular expressions (the
 * default, which a hostile `pattern` can hang) and with RE2 (what security.md §3.4 asks
 * for). Same schema, same bytes, two interleaved rounds. No target: the ratios are
 * reported against the RE2 baseline.
 */
export async function validateBenchmark(options: {
  time: number;
}): Promise<{ ratios: Record<string, number>; rows: Measured[] }> {
  const bare = new Ajv({ allErrors: true, strict: false }).compile(SCHEMA);
  const regExp = Object.assign((pattern: string, flags: string) => new RE2(pattern, flags), {
    code: 'new RE2',
  });
  const safe = new Ajv({ allErrors: true, strict: false, code: { regExp } }).compile(SCHEMA);
  const schema = JSON.stringify(SCHEMA);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const documents = [
    ['valid, 1,000 records', catalogue(1_000, 0)],
    ['invalid, 1,000 records', catalogue(1_000, 10)],
    ['valid, 20,000 records', catalogue(20_000, 0)],
  ] as const;

  const bench = new Bench({ time: options.time, warmupTime: 300 });
  for (const [label, text] of documents) {
    const bytes = encoder.encode(text);
    const doc = {
      requestedUrl: 'https://api.example.com/catalogue',
      url: 'https://api.example.com/catalogue',
      status: 200,
      headers: { 'content-type': 'application/json' },
      contentType: 'application/json',
      bytes,
      truncated: false,
      redirects: [],
      fetchedAt: '2026-01-01T00:00:00.000Z',
    };
    // Both sides must agree before they are timed.
    const ours = validateDocument(doc, { schema });
    const theirs = bare(JSON.parse(text));
    if (!ours.ok || ours.data.valid !== theirs || safe(JSON.parse(text)) !== theirs) {
      throw new Error(`${label}: results differ`);
    }
    for (let round = 1; round <= 2; round++) {
      bench.add(`ajv JSON.parse + validate (${label}) #${round}`, () => {
        bare(JSON.parse(decoder.decode(bytes)));
      });
      bench.add(`ajv + RE2 JSON.parse + validate (${label}) #${round}`, () => {
        safe(JSON.parse(decoder.decode(bytes)));
      });
      bench.add(`storefront validateDocument (${label}) #${round}`, () => {
        validateDocument(doc, { schema });
      });
    }
  }
  await bench.run();
  const rows = measured(bench);
  const mean = (prefix: string) => {
    const hits = rows.filter((r) => r.name.startsWith(prefix));
    return hits.reduce((sum, r) => sum + r.meanMs, 0) / hits.length;
  };
  const ratios: Record<string, number> = {};
  for (const [label] of documents) {
    const ours = mean(`storefront validateDocument (${label})`);
    ratios[`${label}: storefront / ajv + RE2`] =
      ours / mean(`ajv + RE2 JSON.parse + validate (${label})`);
    ratios[`${label}: storefront / ajv`] = ours / mean(`ajv JSON.parse + validate (${label})`);
  }
  printTable(`JSON validation, bytes to result (${machine()}, ${cpus().length} cores)`, rows);
  for (const [label, ratio] of Object.entries(ratios)) {
    console.log(`${label} (mean latency): ${ratio.toFixed(2)}x`);
  }
  return { ratios, rows };
}
