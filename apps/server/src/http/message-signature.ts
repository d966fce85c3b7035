import { createHash, createPublicKey, hkdfSync, randomBytes } from 'node:crypto';
import { type Ed25519Sign, ed25519PrivateKey, ed25519Signer } from './ed25519.js';
import { splitTarget } from './request-target.js';

/**
 * RFC 9421 HTTP Message Signatures of the service's paid answers and webhook requests
 * (docs/decisions.md, "Signed HTTP answers (RFC 9421)"): one Ed25519 key derived from the
 * signer key, a `Content-Digest` (RFC 9530, SHA-256) of the body, and the signature base
 * of RFC 9421 §2.5 built here; tests verify it with an independent library.
 */

/** The public half of an HTTP-signature key as a JWK (RFC 8037). */
export interface Ed25519PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
}

/** The key that signs HTTP answers, with its public JWK and RFC 7638 thumbprint (`kid`). */
export interface HttpSignatureKey {
  readonly kid: string;
  readonly jwk: Ed25519PublicJwk;
  /** Signs a signature base with the key (`ed25519Signer`). */
  readonly sign: Ed25519Sign;
  /** Which Ed25519 implementation signs (libsodium where it loads). */
  readonly backend: 'libsodium' | 'node:crypto';
}

/** The label and `tag` of every signature the service makes. */
export const SIGNATURE_LABEL = 'sig1';
export const SIGNATURE_TAG = 'storefront';

/** The HTTP-signature key of a signer key (HKDF-SHA256, info `http-message-signature/1`). */
export function httpSignatureKey(signerPrivateKey: string): HttpSignatureKey {
  const key = Buffer.from(signerPrivateKey.replace(/^0x/, ''), 'hex');
  const seed = Buffer.from(hkdfSync('sha256', key, 'storefront', 'http-message-signature/1', 32));
  return ed25519Key(seed);
}

/** A random HTTP-signature key (an app built without a signer key: tests). */
export function randomHttpSignatureKey(): HttpSignatureKey {
  return ed25519Key(randomBytes(32));
}

/** The Ed25519 key of a 32-byte seed, with its public JWK and RFC 7638 thumbprint. */
export function ed25519Key(seed: Buffer): HttpSignatureKey {
  const { x } = createPublicKey(ed25519PrivateKey(seed)).export({ format: 'jwk' });
  const jwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: x as string };
  const { sign, backend } = ed25519Signer(seed);
  return { kid: jwkThumbprint(jwk), jwk, sign, backend };
}

/** The RFC 7638 thumbprint of an Ed25519 JWK: SHA-256 of its required members, base64url. */
export function jwkThumbprint(jwk: Ed25519PublicJwk): string {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The `Content-Digest` field value (RFC 9530) of `body`: `sha-256=:<base64>:`. */
export function contentDigest(body: string | Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** One covered component: its serialized identifier (`"@path";req`) and its value. */
type Component = readonly [identifier: string, value: string];

/**
 * The signature base (RFC 9421 §2.5) of `components` under `params` (the serialized
 * `@signature-params` value), and that value's own line last; no trailing newline.
 */
export function signatureBase(components: readonly Component[], params: string): string {
  let base = '';
  for (const [identifier, value] of components) base += `${identifier}: ${value}\n`;
  return `${base}"@signature-params": ${params}`;
}

/** The serialized `@signature-params` value (an inner list with its parameters). */
function signatureParams(
  identifiers: readonly string[],
  key: HttpSignatureKey,
  created: number,
): string {
  const list = `(${identifiers.join(' ')})`;
  return `${list};created=${created};keyid="${key.kid}";alg="ed25519";tag="${SIGNATURE_TAG}"`;
}

/** The headers that carry a signature: `Signature-Input` and `Signature`. */
export interface SignatureHeaders {
  readonly 'signature-input': string;
  readonly signature: string;
}

function signed(
  components: readonly Component[],
  key: HttpSignatureKey,
  created: number,
): SignatureHeaders {
  const params = signatureParams(
    components.map(([identifier]) => identifier),
    key,
    created,
  );
  const value = key.sign(Buffer.from(signatureBase(components, params)));
  return {
    'signature-input': `${SIGNATURE_LABEL}=${params}`,
    signature: `${SIGNATURE_LABEL}=:${value.toString('base64')}:`,
  };
}

/** The `@path` and `@query` (RFC 9421 §2.2.6, §2.2.7) of a request target. */
function pathAndQuery(target: string): { path: string; query: string } {
  const { path, query } = splitTarget(target);
  return { path: path === '' ? '/' : path, query: query === null ? '?' : `?${query}` };
}

/** What an answer's signature covers. */
export interface SignedAnswer {
  readonly status: number;
  /** The request's method and target (`req.url`, as received). */
  readonly method: string;
  readonly target: string;
  /** The content-digest of the body as sent (`contentDigest`). */
  readonly digest: string;
  /** The payment response header (name in lower case, value) when the answer has one. */
  readonly payment?: readonly [name: string, value: string] | undefined;
  /** The `Response-Provenance` header's value when the answer has one. */
  readonly provenance?: string | undefined;
  /** Unix seconds; default now. */
  readonly created?: number;
}

/**
 * The signature of an answer: `@status`, `content-digest`, the request's `@method`,
 * `@path` and `@query` (`;req`), the payment response header and the
 * `Response-Provenance` header where present.
 */
export function signAnswer(key: HttpSignatureKey, answer: SignedAnswer): SignatureHeaders {
  const { path, query } = pathAndQuery(answer.target);
  const components: Component[] = [
    ['"@status"', String(answer.status)],
    ['"content-digest"', answer.digest],
    ['"@method";req', answer.method.toUpperCase()],
    ['"@path";req', path],
    ['"@query";req', query],
  ];
  if (answer.payment !== undefined) {
    components.push([`"${answer.payment[0]}"`, answer.payment[1].trim()]);
  }
  if (answer.provenance !== undefined) {
    components.push(['"response-provenance"', answer.provenance.trim()]);
  }
  return signed(components, key, answer.created ?? Math.floor(Date.now() / 1000));
}

/** What a signed request (a webhook delivery) covers. */
export interface SignedRequest {
  readonly method: string;
  readonly targetUri: string;
  readonly digest: string;
  readonly webhookId: string;
  /** Unix seconds. */
  readonly created: number;
}

/** The signature of a webhook request: `@method`, `@target-uri`, `content-digest`, `webhook-id`. */
export function signRequest(key: HttpSignatureKey, request: SignedRequest): SignatureHeaders {
  return signed(
    [
      ['"@method"', request.method.toUpperCase()],
      ['"@target-uri"', request.targetUri],
      ['"content-digest"', request.digest],
      ['"webhook-id"', request.webhookId],
    ],
    key,
    request.created,
  );
}

/** The payment response headers an answer may carry, in lower case (v2, v1). */
const PAYMENT_RESPONSE_HEADERS = ['payment-response', 'x-payment-response'] as const;

/**
 * The payment response header of an answer, as [lower-case name, value]: `header` reads
 * one header by name, in any case (`res.getHeader`).
 */
export function paymentResponseOf(
  header: (name: string) => string | number | readonly string[] | undefined,
): readonly [string, string] | undefined {
  for (const name of PAYMENT_RESPONSE_HEADERS) {
    const value = header(name);
    if (value !== undefined) return [name, Array.isArray(value) ? value.join(', ') : String(value)];
  }
  return undefined;
}
