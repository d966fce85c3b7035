import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  claimOf,
  endSigned,
  INLINE_SOURCE,
  notarize,
  notarizeRoute,
  PROVENANCE_HEADER,
  questionOfTarget,
  serviceSigner,
  silentLogger,
} from './server-deps.js';

/** The fixed time the bare side and the in-process loop notarize at. */
export const WITNESSED_AT = '2026-03-14T12:00:00.000Z';

/**
 * The bare side's `/notarize` route (bench/README.md, "Service overhead"): `notarize()`
 * on the query's `content`, answered as the key door's envelope without its receipt,
 * unsigned and unmetered.
 */
export function bareNotarize(
  baseUrl: string,
): (
  req: { readonly query: Record<string, unknown> },
  res: { json(body: unknown): unknown },
) => void {
  return (req, res) => {
    const content = String(req.query.content ?? '');
    const result = notarize({ content, witnessedAt: WITNESSED_AT }, { baseUrl });
    if (!result.ok) throw new Error(`notarize refused the content: ${result.error}`);
    res.json({
      ok: true,
      url: INLINE_SOURCE,
      status: 200,
      text: result.text,
      fetchedAt: WITNESSED_AT,
      data: result.data,
    });
  };
}

/**
 * The bare route doing the two signatures every paid answer of the service carries, and
 * nothing else of the service: the receipt (EIP-191, the service's signer with its native
 * backend) in the body, and the answer's RFC 9421 signature (`endSigned`). Against the
 * key door, what is left is the metering, the claim and the pipeline.
 *
 * `claim`: the floor (bench/README.md, "Service overhead"): also the answer's
 * `response-provenance` claim (`claimOf`, the service's one place for it) in its header,
 * which the RFC 9421 signature covers: the three proofs every paid answer carries
 * (docs/decisions.md, "Signed HTTP answers (RFC 9421)" and "Response provenance"), and
 * nothing else. Against the key door, what is left is the metering and the
 * pipeline.
 */
export async function signedBareNotarize(
  baseUrl: string,
  signerPrivateKey: string,
  dataDir: string,
  options: { readonly claim?: boolean } = {},
): Promise<
  (req: IncomingMessage & { readonly query: Record<string, unknown> }, res: ServerResponse) => void
> {
  const { signer, httpSignatureKey } = await serviceSigner(
    { signerPrivateKey, dataDir },
    silentLogger(),
  );
  return (req, res) => {
    const content = String(req.query.content ?? '');
    const result = notarize({ content, witnessedAt: WITNESSED_AT }, { baseUrl });
    if (!result.ok) throw new Error(`notarize refused the content: ${result.error}`);
    const envelope = { url: INLINE_SOURCE, status: 200, fetchedAt: WITNESSED_AT };
    const attestation = signer.sign(result.text, { route: 'notarize', ...envelope });
    const body = { ok: true, ...envelope, text: result.text, data: result.data, attestation };
    if (options.claim === true) {
      const claim = claimOf(questionOfTarget(req.url ?? '/'), notarizeRoute, body, new Date());
      if (claim === null) throw new Error('the floor made no response-provenance claim');
      res.setHeader(
        PROVENANCE_HEADER,
        Buffer.from(JSON.stringify(claim), 'utf8').toString('base64'),
      );
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    void endSigned(req, res, httpSignatureKey, 200, JSON.stringify(body));
  };
}
