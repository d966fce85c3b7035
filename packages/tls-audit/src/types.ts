import type { Grade } from '@storefront/core';

/** How the connection to the host went, when it produced no handshake to audit. */
export interface TlsFailure {
  /** A catalogue code: `blocked_ssrf`, `dns_failure`, `timeout`, `connection_refused`, `connection_reset`, `tls_error`. */
  readonly error: string;
  readonly message: string;
}

/** What one HTTPS HEAD on the audited connection's address answered. */
export interface HstsFacts {
  /** The HTTP status, or null when no answer was read. */
  readonly status: number | null;
  /** Every `Strict-Transport-Security` value, in order. */
  readonly values: readonly string[];
  /** Why no answer was read (`timeout`, `protocol_error`, …), or null. */
  readonly error: string | null;
}

/** The facts of one TLS handshake with a host, as gathered. */
export interface TlsHandshakeFacts {
  readonly domain: string;
  readonly port: number;
  /** The certificates the server sent, leaf first, each base64 DER. */
  readonly chain: readonly string[];
  /** `TLSv1.3`, `TLSv1.2`, …: the negotiated protocol. */
  readonly protocol: string | null;
  readonly cipher: {
    readonly name: string;
    readonly standardName: string;
    readonly version: string;
  } | null;
  /** Whether the chain verified against the trusted roots (Node's `tls.rootCertificates`). */
  readonly authorized: boolean;
  /** OpenSSL's reason when it did not (`SELF_SIGNED_CERT_IN_CHAIN`, `CERT_HAS_EXPIRED`, …). */
  readonly authorizationError: string | null;
  /** Whether the server stapled an OCSP response. */
  readonly ocspStapled: boolean;
  readonly hsts: HstsFacts;
}

/** What a TLS audit reads: a handshake's facts, or why there was none. */
export type TlsFacts =
  | ({ readonly ok: true } & TlsHandshakeFacts)
  | ({ readonly ok: false; readonly domain: string; readonly port: number } & TlsFailure);

/** A letter grade, from `A` (best) to `F` (core's `Grade`). */
export type TlsGrade = Grade;
export type TlsSeverity = 'high' | 'medium' | 'low';

/** One certificate of the chain, read. */
export interface TlsCertificate {
  readonly subject: string;
  readonly issuer: string;
  /** DNS names and IP addresses of the subjectAltName extension. */
  readonly subjectAltNames: readonly string[];
  /** ISO-8601. */
  readonly validFrom: string;
  readonly validTo: string;
  /** Whole days from the audit time to `validTo`, rounded down; negative once expired. */
  readonly daysLeft: number;
  /** `rsa`, `ec`, `ed25519`, `rsa-pss`, … */
  readonly keyType: string;
  /** RSA modulus bits, or the curve's size. */
  readonly keyBits: number | null;
  /** `sha256WithRSAEncryption`, `ecdsa-with-SHA384`, … (the OID when unknown). */
  readonly signatureAlgorithm: string;
  readonly serialNumber: string;
  readonly fingerprintSha256: string;
  readonly ca: boolean;
  readonly selfIssued: boolean;
}

export interface TlsCheck {
  readonly id: string;
  readonly label: string;
  readonly pass: boolean;
  readonly weight: number;
  readonly note: string;
}

export interface TlsFinding {
  readonly check: string;
  readonly severity: TlsSeverity;
  readonly remediate: string;
}

/** `data` of a TLS audit. */
export interface TlsData {
  readonly domain: string;
  readonly port: number;
  readonly chain: readonly TlsCertificate[];
  /** Whether the leaf certificate is valid for `domain` (RFC 6125 rules, as Node checks them). */
  readonly nameMatches: boolean;
  readonly trusted: boolean;
  readonly trustError: string | null;
  readonly protocol: string | null;
  readonly cipher: TlsHandshakeFacts['cipher'];
  readonly ocspStapled: boolean;
  readonly hsts: {
    readonly present: boolean;
    readonly value: string | null;
    readonly maxAge: number | null;
    readonly includeSubDomains: boolean;
    readonly preload: boolean;
    readonly status: number | null;
    readonly error: string | null;
  };
  readonly grade: TlsGrade;
  readonly score: number;
  readonly maxScore: number;
  readonly percentage: number;
  readonly passed: number;
  readonly failed: number;
  readonly checks: readonly TlsCheck[];
  readonly findings: readonly TlsFinding[];
  readonly rubric: string;
  /** Present only when a value was cut at its cap. */
  readonly truncatedFields?: true;
}
