import { typeName } from '@storefront/core';
import {
  AUDIT_DOMAIN_MAX_LENGTH,
  AUDIT_PATH_MAX_LENGTH,
  ROBOTS_MAX_PATH_LENGTH,
} from './limits.js';
import { normalizeRobotsPath } from './percent-encoding.js';

/** `host:port` at the start of a bare domain, which is not a URL scheme. */
const HOST_PORT = /^[A-Za-z0-9.-]+:\d+(?:[/?#]|$)/;

/** The outcome of {@link parseAuditOrigin}. */
export type AuditOrigin =
  | { readonly ok: true; readonly origin: string; readonly host: string }
  | { readonly ok: false; readonly message: string };

/** The outcome of {@link parseAuditPath}. */
export type AuditPath =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly message: string };

/**
 * Turn the `domain` parameter of `/buy/robots` ("a domain or a URL; only the origin is
 * used") into the origin to audit, or say why it cannot be one. A bare domain
 * (`example.com`, `example.com:8443/x`, `//example.com`) gets `https:`; a URL must be
 * http or https and carry no credentials. Path, query and fragment are dropped; the host
 * is lower-cased and IDNA-encoded by the WHATWG URL parser. At most
 * {@link AUDIT_DOMAIN_MAX_LENGTH} characters once surrounding whitespace is trimmed. Meant
 * for the server's 400 validation: it never throws.
 *
 * @example
 *   parseAuditOrigin('Example.COM/some/page?q=1') // { ok: true, origin: 'https://example.com', host: 'example.com' }
 */
export function parseAuditOrigin(domain: unknown): AuditOrigin {
  if (typeof domain !== 'string') {
    return refuse(`Expected \`domain\` to be a string, got \`${typeName(domain)}\``);
  }
  const value = domain.trim();
  if (value === '')
    return refuse('Expected `domain` to be a domain name or an http(s) URL, got an empty string');
  if (value.length > AUDIT_DOMAIN_MAX_LENGTH) {
    return refuse(
      `Expected \`domain\` to have at most ${AUDIT_DOMAIN_MAX_LENGTH} characters, got ${value.length}`,
    );
  }
  let candidate: string;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  if (value.startsWith('//')) candidate = `https:${value}`;
  else if (scheme && (value.startsWith('//', scheme[0].length) || !HOST_PORT.test(value))) {
    // A scheme (`ftp://x`, `mailto:x`), not a `host:port`.
    const name = (scheme[1] as string).toLowerCase();
    if (name !== 'http' && name !== 'https') {
      return refuse(
        `Expected \`domain\` to be a domain name or an http or https URL, got the \`${clip(name)}:\` scheme`,
      );
    }
    candidate = value;
  } else candidate = `https://${value}`;
  if (!URL.canParse(candidate)) {
    return refuse(
      `Expected \`domain\` to be a domain name or an http(s) URL, got \`${clip(value)}\``,
    );
  }
  const url = new URL(candidate);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse(`Expected \`domain\` to be an http or https URL, got \`${clip(url.protocol)}\``);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('Expected `domain` without credentials (`user:pass@`), got one with credentials');
  }
  if (url.hostname === '') {
    return refuse(`Expected \`domain\` to name a host, got \`${clip(value)}\``);
  }
  return { ok: true, origin: url.origin, host: url.host };
}

/**
 * Check the `path` parameter of `/buy/robots` and normalise it as verdicts compare it
 * (see `normalizeRobotsPath`): absent or empty is `/`. At most {@link AUDIT_PATH_MAX_LENGTH}
 * characters, and at most {@link ROBOTS_MAX_PATH_LENGTH} once percent-encoded.
 *
 * @example
 *   parseAuditPath('/Café?x=%7e') // { ok: true, path: '/Caf%C3%A9?x=~' }
 */
export function parseAuditPath(path: unknown): AuditPath {
  if (path === undefined || path === null) return { ok: true, path: '/' };
  if (typeof path !== 'string') {
    return refuse(`Expected \`path\` to be a string, got \`${typeName(path)}\``);
  }
  if (path.length > AUDIT_PATH_MAX_LENGTH) {
    return refuse(
      `Expected \`path\` to have at most ${AUDIT_PATH_MAX_LENGTH} characters, got ${path.length}`,
    );
  }
  const normalized = normalizeRobotsPath(path);
  if (normalized.length > ROBOTS_MAX_PATH_LENGTH) {
    return refuse(
      `Expected \`path\` to have at most ${ROBOTS_MAX_PATH_LENGTH} characters once percent-encoded, got ${normalized.length}`,
    );
  }
  return { ok: true, path: normalized };
}

function refuse(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function clip(text: string): string {
  const safe = text.toWellFormed();
  return safe.length > 80 ? `${safe.slice(0, 80)}…` : safe;
}
