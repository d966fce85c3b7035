import { canonicalize, MERKLE_TREE, merkleRoot } from '@storefront/core';
import { describe, expect, it } from 'vitest';
import { createSigner, generatePrivateKey, MANIFEST_ROUTE, verifyManifest } from '../src/index.js';

// A crawl job verifies as one: its manifest's receipt, each page's, and the Merkle root.

const signer = createSigner(generatePrivateKey());
const fetchedAt = '2026-11-29T00:00:00.000Z';

function page(i: number): Record<string, unknown> {
  const text = `Page ${i}\n\nThe text of page ${i}.`;
  const url = `https://shop.example/p/${i}`;
  return {
    ok: true,
    url,
    status: 200,
    text,
    fetchedAt,
    data: { words: 6 },
    attestation: signer.sign(text, { route: 'fetch', url, status: 200, fetchedAt }),
  };
}

function manifestOf(pages: Record<string, unknown>[]): Record<string, unknown> {
  const hashes = pages
    .filter((p) => p.ok === true)
    .map((p) => (p.attestation as { contentHash: string }).contentHash);
  const data = {
    jobId: 'job_000000000000000000000001',
    url: 'https://shop.example/',
    route: 'fetch',
    format: 'text',
    pages: hashes.length,
    tree: MERKLE_TREE,
    merkleRoot: merkleRoot(hashes),
  };
  const text = canonicalize(data);
  return {
    ok: true,
    url: data.url,
    fetchedAt,
    text,
    data,
    attestation: signer.sign(text, {
      route: MANIFEST_ROUTE,
      url: data.url,
      status: null,
      fetchedAt,
    }),
  };
}

const failed: Record<string, unknown> = {
  ok: false,
  url: 'https://shop.example/gone',
  error: 'upstream_http_error',
};
const pages = [page(0), page(1), failed, page(2)];
const manifest = manifestOf(pages);

describe('verifyManifest', () => {
  it('accepts the pages of the manifest, failed pages included, against the pinned key', () => {
    const verified = verifyManifest(manifest, pages, signer.address);
    expect(verified.problems).toEqual([]);
    expect(verified).toMatchObject({
      valid: true,
      merkleRoot: true,
      pages: { checked: 4, invalid: [] },
    });
  });

  it('refuses an edited page, a missing or reordered page, and an edited manifest', () => {
    const edited = pages.map((p, i) => (i === 1 ? { ...p, text: `${String(p.text)}!` } : p));
    expect(verifyManifest(manifest, edited, signer.address)).toMatchObject({
      valid: false,
      pages: { invalid: [1] },
    });
    expect(verifyManifest(manifest, pages.slice(1), signer.address).valid).toBe(false);
    const swapped = [pages[1], pages[0], failed, pages[3]];
    expect(verifyManifest(manifest, swapped, signer.address)).toMatchObject({
      valid: false,
      merkleRoot: false,
    });
    const data = { ...(manifest.data as object), pages: 4 };
    expect(verifyManifest({ ...manifest, data }, pages, signer.address).valid).toBe(false);
  });

  it('refuses a manifest signed by another key', () => {
    const other = createSigner(generatePrivateKey());
    expect(verifyManifest(manifest, pages, other.address)).toMatchObject({ valid: false });
  });
});

describe('storefront-verify --pages', () => {
  it('verifies a job answer and its pages answers, and refuses an edited page', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { runCli, EXIT } = await import('../src/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'verify-pages-'));
    const job = join(dir, 'job.json');
    const answers = join(dir, 'pages.json');
    writeFileSync(job, JSON.stringify({ ok: true, jobId: 'job_1', status: 'completed', manifest }));
    writeFileSync(
      answers,
      JSON.stringify([{ pages: pages.slice(0, 2) }, { pages: pages.slice(2) }]),
    );
    const out: string[] = [];
    const io = {
      stdin: async () => '',
      stdout: (line: string) => out.push(line),
      stderr: (line: string) => out.push(line),
      fetchText: async () => '',
    };
    expect(await runCli([job, '--pages', answers, '--pin', signer.address], io)).toBe(EXIT.valid);
    expect(out.at(-1)).toBe(`valid (${signer.keyId})`);
    writeFileSync(
      answers,
      JSON.stringify(pages.map((p, i) => (i === 0 ? { ...p, text: 'x' } : p))),
    );
    out.length = 0;
    expect(await runCli([job, '--pages', answers, '--pin', signer.address], io)).toBe(EXIT.invalid);
    expect(out).toContain('merkleRoot   FAIL  the pages do not give the signed root');
  });
});
