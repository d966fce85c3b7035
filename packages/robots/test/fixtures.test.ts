import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { readJsonFile, runFolderFixtures } from '@storefront/test-utils';
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

runFolderFixtures(root, (folder) => {
  const spec = readJsonFile<InputSpec>(folder);
  const robotsTxt = outcome(folder, 'robots.txt', spec.robotsTxt);
  if (robotsTxt === null) throw new Error(`${folder}: input.json needs robotsTxt`);
  const input: RobotsInput = {
    origin: spec.origin,
    robotsTxt,
    llmsTxt: outcome(folder, 'llms.txt', spec.llmsTxt),
    aiTxt: outcome(folder, 'ai.txt', spec.aiTxt),
  };
  return auditRobots(input, spec.options);
});
