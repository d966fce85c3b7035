import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FetchedDocument, ProductResult } from '@storefront/core';
import { expect, test } from 'vitest';
import { type DocumentInit, makeDocument } from './document.js';

/** Options of {@link runFixtures}. */
export interface RunFixturesOptions {
  /** Extension of the file holding `text` (`md` for markdown, `txt` otherwise). */
  readonly textExtension?: string;
  /** Name of the input file when it is not `input.html` (e.g. `input.xml`). */
  readonly input?: string;
}

/** A product under test: takes a document and the fixture's `options.json` (as `O`). */
export type FixtureProduct<O = Record<string, unknown>> = (
  doc: FetchedDocument,
  options: O | undefined,
) => ProductResult<unknown>;

/**
 * Run one golden test per folder of `dir` (STYLE §5): build a `FetchedDocument` from
 * `input.html` (or `input.html.gz`, for large generated inputs) and `document.json`,
 * run `product` with `options.json`, and compare `text` with `expected.<ext>` (exactly
 * the signed bytes) and the rest of the result with `expected.json`. `vitest -u`
 * rewrites the expected files; review them in the diff like code.
 */
export function runFixtures<O = Record<string, unknown>>(
  dir: string,
  product: FixtureProduct<O>,
  options: RunFixturesOptions = {},
): void {
  const inputName = options.input ?? 'input.html';
  runFolderFixtures(
    dir,
    (folder) => {
      const optionsFile = join(folder, 'options.json');
      const productOptions = existsSync(optionsFile)
        ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as O)
        : undefined;
      return product(readFixtureDocument(folder, inputName), productOptions);
    },
    options,
  );
}

/**
 * The golden runner for products whose input is not one fetched document (a diff, a
 * notarization, an availability probe, a robots audit): one test per folder of `dir`;
 * `run` builds the result from the folder (usually from its `input.json`, see
 * {@link readJsonFile}); `text` is compared with `expected.<ext>` and the rest with
 * `expected.json`, exactly as {@link runFixtures} does.
 */
export function runFolderFixtures(
  dir: string,
  run: (folder: string) => ProductResult<unknown>,
  options: Pick<RunFixturesOptions, 'textExtension'> = {},
): void {
  const textExtension = options.textExtension ?? 'txt';
  const cases = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  if (cases.length === 0) throw new Error(`No fixture folders in \`${dir}\``);
  for (const name of cases) {
    test(name, async () => {
      const folder = join(dir, name);
      const { text, ...rest } = run(folder) as { text?: string };
      const textFile = join(folder, `expected.${textExtension}`);
      if (text !== undefined) {
        await expect(text).toMatchFileSnapshot(textFile);
      } else {
        expect(existsSync(textFile), `${textFile} exists but the result has no text`).toBe(false);
      }
      await expect(`${stableJson(rest)}\n`).toMatchFileSnapshot(join(folder, 'expected.json'));
    });
  }
}

/** Parse a JSON file of a fixture folder (`input.json` by default) as `T`. */
export function readJsonFile<T>(folder: string, name = 'input.json'): T {
  return JSON.parse(readFileSync(join(folder, name), 'utf8')) as T;
}

/** A document written inline in a fixture's JSON: its init plus a `body` or `bodyBase64`. */
export type InlineDocument = DocumentInit & {
  readonly body?: string;
  readonly bodyBase64?: string;
};

/** Build the `FetchedDocument` an {@link InlineDocument} describes. */
export function inlineDocument(spec: InlineDocument): FetchedDocument {
  const { body, bodyBase64, ...init } = spec;
  const bytes =
    bodyBase64 === undefined ? (body ?? '') : new Uint8Array(Buffer.from(bodyBase64, 'base64'));
  return makeDocument(bytes, init);
}

/** Read a fixture folder's input and `document.json` into a `FetchedDocument`. */
export function readFixtureDocument(folder: string, inputName = 'input.html'): FetchedDocument {
  const plain = join(folder, inputName);
  const zipped = `${plain}.gz`;
  let bytes: Uint8Array;
  if (existsSync(plain)) bytes = new Uint8Array(readFileSync(plain));
  else if (existsSync(zipped)) bytes = new Uint8Array(gunzipSync(readFileSync(zipped)));
  else bytes = new Uint8Array(0);
  const documentFile = join(folder, 'document.json');
  const init = existsSync(documentFile)
    ? (JSON.parse(readFileSync(documentFile, 'utf8')) as DocumentInit)
    : {};
  return makeDocument(bytes, init);
}

/** JSON with sorted keys, two-space indented: stable for golden files. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    // A null-prototype object keeps an own `__proto__` key as data.
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      if (child !== undefined) out[key] = sortKeys(child);
    }
    return out;
  }
  return value;
}
