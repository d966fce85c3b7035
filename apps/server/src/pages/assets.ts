import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';

/**
 * The server package's root (`apps/server`), found from this module whether it runs
 * from `src/` (development, tests) or from the `dist/` bundle.
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      JSON.parse(readFileSync(manifest, 'utf8')).name === '@storefront/server'
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('The @storefront/server package root was not found');
    dir = parent;
  }
}

const ROOT = packageRoot();
/** The source of `@storefront/attest`, bundled for the browser by {@link buildVerifier}. */
const ATTEST_DIR = join(ROOT, '..', '..', 'packages', 'attest');

/** A served asset: its bytes, type and a short content hash for its URL's `?v=`. */
export interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly version: string;
}

function asset(body: Buffer, type: string): Asset {
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

/** The one style sheet and the one page script, read once. */
export const SITE_CSS = asset(readFileSync(join(ROOT, 'assets', 'site.css')), 'text/css');
export const SITE_JS = asset(readFileSync(join(ROOT, 'assets', 'site.js')), 'text/javascript');

/**
 * The browser verifier: `verifyReceipt` of `@storefront/attest` (the same checks as
 * `storefront-verify` and `POST /x402/verify`) and the hash checks of a log inclusion
 * proof (`src/browser.ts`) bundled with esbuild into one minified script that sets
 * `globalThis.StorefrontVerify`. `node:crypto`'s sha256 is swapped for
 * the pure-JS sha256 of ethers' browser build. About 73 KB, 28 KB gzipped
 * (docs/decisions.md, "Pages (issue 18)": how `/verify` checks a receipt in the browser).
 */
export async function buildVerifier(): Promise<Asset> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(ATTEST_DIR, 'src', 'browser.ts')],
    absWorkingDir: ATTEST_DIR,
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'StorefrontVerify',
    platform: 'browser',
    target: 'es2020',
    conditions: ['@storefront/source'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'browser-sha256',
        setup(b) {
          b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: 'sha256', namespace: 'shim' }));
          b.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({
            resolveDir: ATTEST_DIR,
            loader: 'js',
            contents: `import { getBytes, sha256 } from 'ethers';
export function createHash() {
  const parts = [];
  return {
    update(input) { parts.push(typeof input === 'string' ? new TextEncoder().encode(input) : input); return this; },
    digest(encoding) {
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) { bytes.set(p, at); at += p.length; }
      const hex = sha256(bytes);
      return encoding === 'hex' ? hex.slice(2) : getBytes(hex);
    },
  };
}
function browserHasNo(name) {
  return () => { throw new Error(name + ' is not available in the browser bundle'); };
}
export const createPrivateKey = browserHasNo('createPrivateKey');
export const createPublicKey = browserHasNo('createPublicKey');
export const sign = browserHasNo('sign');
export const verify = browserHasNo('verify');`,
          }));
        },
      },
    ],
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild wrote no verifier bundle');
  return asset(Buffer.from(output.contents), 'text/javascript');
}

let verifier: Promise<Asset> | null = null;

/** The verifier bundle, built on first use and kept. */
export function verifierAsset(): Promise<Asset> {
  verifier ??= buildVerifier().catch((error: unknown) => {
    verifier = null;
    throw error;
  });
  return verifier;
}

/** The URL of an asset, versioned by its content so a change is fetched again. */
export function assetUrl(name: 'site.css' | 'site.js'): string {
  return `/assets/${name}?v=${(name === 'site.css' ? SITE_CSS : SITE_JS).version}`;
}

/** How long browsers keep an asset: a day (their URLs on the pages carry `?v=`). */
export const ASSET_CACHE = 'public, max-age=86400';

/** `GET /assets/site.css`, `/assets/site.js` and `/assets/verifier.js`. */
export function assetRoutes(): Router {
  const router = Router();
  const send = (res: import('express').Response, file: Asset) => {
    res.setHeader('Cache-Control', ASSET_CACHE);
    res.type(file.type).send(file.body);
  };
  router.get('/assets/site.css', (_req, res) => send(res, SITE_CSS));
  router.get('/assets/site.js', (_req, res) => send(res, SITE_JS));
  router.get('/assets/verifier.js', async (_req, res) => send(res, await verifierAsset()));
  return router;
}
