import { isSha256Hex, MERKLE_TREE, merkleRoot } from '@storefront/core';
import { type PinnedKeys, type Verification, verifyReceipt } from './verifier.js';

/** The route name a crawl job's manifest is signed for. */
export const MANIFEST_ROUTE = 'crawl-job';

/** The answer of {@link verifyManifest}. */
export interface ManifestVerification {
  /** True when the manifest's receipt, every page's receipt and the Merkle root all check. */
  readonly valid: boolean;
  /** The manifest's own receipt. */
  readonly manifest: Verification;
  /** Pages given, and the indices of those whose receipt failed or names another route. */
  readonly pages: { readonly checked: number; readonly invalid: readonly number[] };
  /** The Merkle root of the delivered pages' content hashes equals the signed one. */
  readonly merkleRoot: boolean;
  /** One sentence per failed check. */
  readonly problems: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Verify a whole crawl job offline: the manifest's receipt (route `crawl-job`, its
 * `text` the RFC 8785 JSON of its `data`), every page's own receipt, and that the
 * RFC 6962 Merkle root of the delivered pages' `contentHash`es, in page order, is the
 * root the manifest signs, over as many pages as it says. `pages` are the results of
 * `GET /jobs/{id}/pages`, in order; failed pages (`ok: false`) carry no receipt and
 * are not leaves.
 *
 * @example
 *   verifyManifest(job.manifest, pages, '0x8ba1…').valid
 */
export function verifyManifest(
  manifest: unknown,
  pages: readonly unknown[],
  pinned: PinnedKeys,
): ManifestVerification {
  const problems: string[] = [];
  const own = verifyReceipt(manifest, pinned, { route: MANIFEST_ROUTE });
  if (!own.valid) problems.push(...own.problems.map((p) => `Manifest: ${p}`));
  const data = isRecord(manifest) && isRecord(manifest.data) ? manifest.data : {};
  const route = typeof data.route === 'string' ? data.route : null;

  const invalid: number[] = [];
  const leaves: string[] = [];
  pages.forEach((page, index) => {
    if (isRecord(page) && page.ok === false) return;
    const check = verifyReceipt(page, pinned, route === null ? {} : { route });
    const hash = isRecord(page) && isRecord(page.attestation) ? page.attestation.contentHash : null;
    if (!check.valid || !isSha256Hex(hash)) {
      invalid.push(index);
      problems.push(`Page ${index}: ${check.problems[0] ?? 'no valid receipt'}`);
      return;
    }
    leaves.push(hash);
  });

  let rootMatches = false;
  if (data.tree !== MERKLE_TREE) {
    problems.push(`The manifest's tree is not ${MERKLE_TREE}.`);
  } else if (data.pages !== leaves.length) {
    problems.push(`The manifest signs ${String(data.pages)} pages; ${leaves.length} were given.`);
  } else {
    const root = merkleRoot(leaves);
    rootMatches = root === data.merkleRoot;
    if (!rootMatches) {
      problems.push(`The pages' Merkle root is ${root}, not ${String(data.merkleRoot)}.`);
    }
  }
  return {
    valid: own.valid && invalid.length === 0 && rootMatches,
    manifest: own,
    pages: { checked: pages.length, invalid },
    merkleRoot: rootMatches,
    problems,
  };
}
