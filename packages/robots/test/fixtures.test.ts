import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { stableJson } from '@storefront/test-utils';
import { expect, test } from 'vitest';
import { auditRobots, type FileOutcome, type RobotsInput } from '../src/index.js';

/**
 * Golden runner for the audit (the inputs are three fetches, not one HTML document, so
 * `runFixtures` does not fit). One folder per behaviour:
 *
 * - `input.json`: `{ origin, options?, robotsTxt, llmsTxt?, aiTxt? }` where each file is
 *   `{ status, contentType?, url?, redirects? }` (a response; its body is the file of the
 *   same name in the folder, `robots.txt` or `robots.txt.gz`, empty when absent) or
 *   `{ error, status? }` (a failed fetch). A file left out was not fetched.
 * - `expected.txt`: exactly `result.text` (the signed bytes), absent for `ok:false`.
 * - `expected.json`: the rest of the result, sorted keys.
 *
 * `vitest -u` rewrites the expected files; review them like code.
 */
interface FileSpec {
  readonly status?: number;
  readonly contentType?: string | null;
  readonly url?: string;
  readonly redirects?: readonly string[];
  readonly error?: string;
}

interface InputSpec {
  readonly origin: string;
  readonly options?: { readonly path?: string };
  readonly robotsTxt: FileSpec;
  readonly llmsTxt?: FileSpec;
  readonly aiTxt?: FileSpec;
}

const root = fileURLToPath(new URL('fixtures', import.meta.url));

function body(folder: string, name: string): Uint8Array {
  const plain = join(folder, name);
  if (existsSync(plain)) return new Uint8Array(readFileSync(plain));
  if (existsSync(`${plain}.gz`)) return new Uint8Array(gunzipSync(readFileSync(`${plain}.gz`)));
  return new Uint8Array(0);
}

function outcome(folder: string, name: string, spec: FileSpec | undefined): FileOutcome | null {
  if (spec === undefined) return null;
  if (spec.error !== undefined) {
    return { ok: false, error: spec.error as never, status: spec.status };
  }
  return {
    ok: true,
    doc: {
      status: spec.status ?? 200,
      bytes: body(folder, name),
      contentType: spec.contentType ?? null,
      url: spec.url,
      redirects: spec.redirects ?? [],
    },
  };
}

const cases = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

test('there are fixtures', () => {
  expect(cases.length).toBeGreaterThan(20);
});

for (const name of cases) {
  test(name, async () => {
    const folder = join(root, name);
    const spec = JSON.parse(readFileSync(join(folder, 'input.json'), 'utf8')) as InputSpec;
    const robotsTxt = outcome(folder, 'robots.txt', spec.robotsTxt);
    if (robotsTxt === null) throw new Error(`${name}: input.json needs robotsTxt`);
    const input: RobotsInput = {
      origin: spec.origin,
      robotsTxt,
      llmsTxt: outcome(folder, 'llms.txt', spec.llmsTxt),
      aiTxt: outcome(folder, 'ai.txt', spec.aiTxt),
    };
    const result = auditRobots(input, spec.options);
    const { text, ...rest } = result as { text?: string };
    const textFile = join(folder, 'expected.txt');
    if (text !== undefined) await expect(text).toMatchFileSnapshot(textFile);
    else expect(existsSync(textFile), `${textFile} exists but the result has no text`).toBe(false);
    await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
  });
}
