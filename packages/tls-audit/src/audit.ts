import { X509Certificate } from 'node:crypto';
import {
  canonicalize,
  type ErrorCode,
  fail,
  gradeSummary,
  ok,
  type ProductResult,
} from '@storefront/core';
import { parseCertTime, parseIsoTime, signatureAlgorithmOf, WEAK_SIGNATURES } from './der.js';
import { TLS_MAX_CHAIN, TLS_MAX_CHARS, TLS_MAX_NAMES, TLS_MIN_DAYS_LEFT } from './limits.js';
import { TLS_GRADE_CUTOFFS, TLS_RUBRIC, TLS_RUBRIC_CHECKS } from './rubric.js';
import type { TlsCertificate, TlsCheck, TlsData, TlsFacts, TlsFinding } from './types.js';

const DAY_MS = 86_400_000;
/** HSTS `max-age` of one year (RFC 6797 §11.2 recommends long ones; preload lists ask a year). */
const HSTS_YEAR = 31_536_000;
/** Curve sizes in bits, by the names Node reports. */
const CURVE_BITS: Readonly<Record<string, number>> = {
  prime256v1: 256,
  'P-256': 256,
  secp384r1: 384,
  'P-384': 384,
  secp521r1: 521,
  'P-521': 521,
  secp256k1: 256,
};
const FAILURE_CODES: ReadonlySet<string> = new Set([
  'invalid_url',
  'blocked_ssrf',
  'dns_failure',
  'timeout',
  'connection_refused',
  'connection_reset',
  'tls_error',
  'protocol_error',
]);

/** Options of {@link auditTls}. */
export interface AuditTlsOptions {
  /** The time of the audit (ISO-8601 UTC): validity and days left are counted from it. */
  readonly at: string;
}

/**
 * Grade the facts of one TLS handshake under {@link TLS_RUBRIC}: a pure function of
 * `facts` and `at` (the same input gives the same bytes). Fails with the gatherer's code
 * when there was no handshake, and `tls_error` when the server sent no certificate that
 * parses.
 */
export function auditTls(facts: TlsFacts, options: AuditTlsOptions): ProductResult<TlsData> {
  if (!facts.ok) {
    const code = (FAILURE_CODES.has(facts.error) ? facts.error : 'tls_error') as ErrorCode;
    return fail(code, facts.message.toWellFormed());
  }
  const now = parseIsoTime(options.at);
  if (now === null)
    throw new Error(`Expected \`at\` to be an ISO-8601 UTC time, got \`${options.at}\``);
  let truncated = false;
  const cut = (value: string): string => {
    const clean = value.toWellFormed();
    if (clean.length <= TLS_MAX_CHARS) return clean;
    truncated = true;
    return clean.slice(0, TLS_MAX_CHARS);
  };
  if (facts.chain.length > TLS_MAX_CHAIN) truncated = true;
  const parsed: { cert: X509Certificate; der: Uint8Array }[] = [];
  for (const base64 of facts.chain.slice(0, TLS_MAX_CHAIN)) {
    const der = new Uint8Array(Buffer.from(base64, 'base64'));
    try {
      parsed.push({ cert: new X509Certificate(der), der });
    } catch {
      break;
    }
  }
  const leaf = parsed[0];
  if (leaf === undefined) {
    return fail('tls_error', `\`${facts.domain}\` sent no certificate that could be read`);
  }
  const chain: TlsCertificate[] = parsed.map(({ cert, der }) => {
    const from = parseCertTime(cert.validFrom);
    const to = parseCertTime(cert.validTo);
    const names = subjectAltNames(cert.subjectAltName);
    if (names.length > TLS_MAX_NAMES) truncated = true;
    const key = cert.publicKey;
    const details = key.asymmetricKeyDetails ?? {};
    const keyBits =
      details.modulusLength ??
      (details.namedCurve === undefined ? null : (CURVE_BITS[details.namedCurve] ?? null)) ??
      (key.asymmetricKeyType === 'ed25519' ? 256 : key.asymmetricKeyType === 'ed448' ? 456 : null);
    return {
      subject: cut(oneLine(cert.subject)),
      issuer: cut(oneLine(cert.issuer)),
      subjectAltNames: names.slice(0, TLS_MAX_NAMES).map(cut),
      validFrom: from?.iso ?? cut(cert.validFrom),
      validTo: to?.iso ?? cut(cert.validTo),
      daysLeft: to === null ? 0 : Math.floor((to.ms - now.ms) / DAY_MS),
      keyType: key.asymmetricKeyType ?? 'unknown',
      keyBits,
      signatureAlgorithm: signatureAlgorithmOf(der) ?? 'unknown',
      serialNumber: cert.serialNumber.toLowerCase(),
      fingerprintSha256: cert.fingerprint256.toLowerCase(),
      ca: cert.ca,
      selfIssued: cert.subject === cert.issuer,
    };
  });
  const first = chain[0] as TlsCertificate;
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(facts.domain) || facts.domain.includes(':');
  const nameMatches = isIp
    ? leaf.cert.checkIP(facts.domain.replace(/^\[(.*)\]$/, '$1')) !== undefined
    : leaf.cert.checkHost(facts.domain) !== undefined;
  const from = parseCertTime(leaf.cert.validFrom);
  const to = parseCertTime(leaf.cert.validTo);
  const validNow = from !== null && to !== null && from.ms <= now.ms && now.ms <= to.ms;
  const hsts = readHsts(facts.hsts.values, cut);
  const protocolOk = facts.protocol === 'TLSv1.3' || facts.protocol === 'TLSv1.2';
  const strongKey =
    first.keyType === 'rsa' || first.keyType === 'rsa-pss'
      ? (first.keyBits ?? 0) >= 2048
      : first.keyType === 'ec'
        ? (first.keyBits ?? 0) >= 256
        : first.keyType === 'ed25519' || first.keyType === 'ed448';
  const weakSignature =
    WEAK_SIGNATURES.has(first.signatureAlgorithm) || first.signatureAlgorithm === 'unknown';
  const cipherName = facts.cipher?.standardName ?? facts.cipher?.name ?? '';
  const forwardSecretAead =
    facts.protocol === 'TLSv1.3' ||
    (/(ECDHE|DHE)/.test(cipherName) && /(GCM|CHACHA20|CCM)/.test(cipherName));
  const trustError = facts.authorized ? null : cut(facts.authorizationError ?? 'UNKNOWN');

  const verdicts: Record<string, [boolean, string, string]> = {
    trusted: [
      facts.authorized,
      facts.authorized
        ? 'Chains to a trusted root'
        : `Does not chain to a trusted root (${trustError})`,
      'Serve the full chain (leaf and intermediates) issued by a publicly trusted CA',
    ],
    name: [
      nameMatches,
      nameMatches
        ? `Valid for \`${facts.domain}\``
        : `Not valid for \`${facts.domain}\` (names: ${first.subjectAltNames.slice(0, 5).join(', ') || 'none'})`,
      `Get a certificate whose subjectAltName lists \`${facts.domain}\``,
    ],
    'valid-now': [
      validNow,
      validNow
        ? `Valid until ${first.validTo}`
        : first.daysLeft < 0
          ? `Expired on ${first.validTo}`
          : `Not valid before ${first.validFrom}`,
      'Renew the certificate and deploy it (automate renewal with ACME)',
    ],
    'days-left': [
      first.daysLeft >= TLS_MIN_DAYS_LEFT,
      `${first.daysLeft} days left`,
      `Renew before fewer than ${TLS_MIN_DAYS_LEFT} days are left (ACME clients renew at 30)`,
    ],
    protocol: [
      protocolOk,
      facts.protocol ?? 'unknown',
      'Enable TLS 1.2 and 1.3 and disable TLS 1.0 and 1.1 (RFC 8996)',
    ],
    key: [
      strongKey,
      `${first.keyType}${first.keyBits === null ? '' : ` ${first.keyBits} bits`}`,
      'Use an RSA key of at least 2048 bits or an ECDSA P-256 key',
    ],
    signature: [
      !weakSignature,
      first.signatureAlgorithm,
      'Reissue the certificate signed with SHA-256 or stronger',
    ],
    cipher: [
      forwardSecretAead,
      cipherName || 'unknown',
      'Prefer ECDHE key exchange with AES-GCM or ChaCha20-Poly1305',
    ],
    'ocsp-stapling': [
      facts.ocspStapled,
      facts.ocspStapled ? 'Stapled' : 'No OCSP response stapled',
      'Turn on OCSP stapling (nginx `ssl_stapling on`, Apache `SSLUseStapling On`)',
    ],
    hsts: [
      (hsts.maxAge ?? 0) >= HSTS_YEAR,
      hsts.present
        ? `\`${hsts.value}\``
        : facts.hsts.error === null
          ? 'Not sent'
          : `No answer to HEAD / (${facts.hsts.error})`,
      'Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on HTTPS answers',
    ],
  };
  const checks: TlsCheck[] = [];
  const findings: TlsFinding[] = [];
  let criticalFailed = false;
  for (const row of TLS_RUBRIC_CHECKS) {
    const [pass, note, remediate] = verdicts[row.id] as [boolean, string, string];
    checks.push({ id: row.id, label: row.label, pass, weight: row.weight, note: cut(note) });
    if (pass) continue;
    if (row.critical) criticalFailed = true;
    findings.push({ check: row.id, severity: row.severity, remediate: cut(remediate) });
  }
  const data: TlsData = {
    domain: cut(facts.domain),
    port: facts.port,
    chain,
    nameMatches,
    trusted: facts.authorized,
    trustError,
    protocol: facts.protocol === null ? null : cut(facts.protocol),
    cipher:
      facts.cipher === null
        ? null
        : {
            name: cut(facts.cipher.name),
            standardName: cut(facts.cipher.standardName),
            version: cut(facts.cipher.version),
          },
    ocspStapled: facts.ocspStapled,
    hsts: { ...hsts, status: facts.hsts.status, error: facts.hsts.error },
    ...gradeSummary(checks, { cutoffs: TLS_GRADE_CUTOFFS, criticalFailed }),
    checks,
    findings,
    rubric: TLS_RUBRIC,
    ...(truncated ? { truncatedFields: true as const } : {}),
  };
  return ok(canonicalize(data), data);
}

/** `DNS:a, DNS:b, IP Address:1.2.3.4` → `['a', 'b', '1.2.3.4']`, sorted. */
function subjectAltNames(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names: string[] = [];
  for (const part of value.split(', ')) {
    const match = /^(DNS|IP Address):(.*)$/.exec(part.trim());
    if (match !== null) names.push((match[2] as string).toLowerCase());
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A distinguished name on one line, RDNs joined by `, `. */
function oneLine(name: string): string {
  return name
    .split('\n')
    .filter((line) => line !== '')
    .join(', ');
}

/** The first `Strict-Transport-Security` value (RFC 6797 §8.1), read. */
function readHsts(values: readonly string[], cut: (value: string) => string) {
  const value = values[0];
  if (value === undefined) {
    return { present: false, value: null, maxAge: null, includeSubDomains: false, preload: false };
  }
  const directives = value.split(';').map((d) => d.trim().toLowerCase());
  const maxAgeDirective = directives.find((d) => d.startsWith('max-age'));
  const maxAgeMatch = /^max-age\s*=\s*"?(\d+)"?$/.exec(maxAgeDirective ?? '');
  return {
    present: true,
    value: cut(value.trim()),
    maxAge: maxAgeMatch === null ? null : Math.min(Number(maxAgeMatch[1]), Number.MAX_SAFE_INTEGER),
    includeSubDomains: directives.includes('includesubdomains'),
    preload: directives.includes('preload'),
  };
}
