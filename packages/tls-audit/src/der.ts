/** Names of the signature algorithms a certificate is likely to carry, by OID. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'ED25519',
  '1.3.101.113': 'ED448',
};

/** Signature algorithms this audit counts as weak (MD5, SHA-1). */
export const WEAK_SIGNATURES: ReadonlySet<string> = new Set([
  'md5WithRSAEncryption',
  'sha1WithRSAEncryption',
  'ecdsa-with-SHA1',
]);

interface Tlv {
  readonly tag: number;
  /** Where the value starts. */
  readonly start: number;
  readonly length: number;
}

function readTlv(der: Uint8Array, at: number): Tlv | null {
  const tag = der[at];
  let lengthByte = der[at + 1];
  if (tag === undefined || lengthByte === undefined) return null;
  let start = at + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) return null;
    length = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = der[start + i];
      if (lengthByte === undefined) return null;
      length = length * 256 + lengthByte;
    }
    start += count;
  }
  return start + length <= der.length ? { tag, start, length } : null;
}

function oidText(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (arcs.length === 0)
        arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/**
 * The outer signature algorithm of a DER certificate (`Certificate.signatureAlgorithm`,
 * RFC 5280 §4.1.1.2), by name when known, else its OID; null when the DER is not a
 * certificate.
 */
export function signatureAlgorithmOf(der: Uint8Array): string | null {
  const certificate = readTlv(der, 0);
  if (certificate?.tag !== 0x30) return null;
  const tbs = readTlv(der, certificate.start);
  if (tbs?.tag !== 0x30) return null;
  const algorithm = readTlv(der, tbs.start + tbs.length);
  if (algorithm?.tag !== 0x30) return null;
  const oid = readTlv(der, algorithm.start);
  if (oid?.tag !== 0x06) return null;
  const text = oidText(der.subarray(oid.start, oid.start + oid.length));
  return SIGNATURE_ALGORITHMS[text] ?? text;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Days since 1970-01-01 of a civil date (proleptic Gregorian), without `Date`. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** A point in time: epoch milliseconds and its ISO-8601 form (whole seconds, UTC). */
export interface Instant {
  readonly ms: number;
  readonly iso: string;
}

function instant(y: number, mo: number, d: number, h: number, mi: number, s: number): Instant {
  const ms = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + s * 1000;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return { ms, iso: `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}Z` };
}

/** An OpenSSL time as X509Certificate prints it (`Nov  7 13:00:00 2026 GMT`), or null. */
export function parseCertTime(text: string): Instant | null {
  const match = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)? (\d{4}) GMT$/.exec(
    text,
  );
  if (match === null) return null;
  const month = MONTHS.indexOf(match[1] as string) + 1;
  if (month === 0) return null;
  const [d, h, mi, s, y] = [match[2], match[3], match[4], match[5], match[6]].map(
    Number,
  ) as number[];
  return instant(y as number, month, d as number, h as number, mi as number, s as number);
}

/** An ISO-8601 UTC time (`2026-11-27T14:00:00.000Z`), or null. */
export function parseIsoTime(text: string): Instant | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?Z$/.exec(text);
  if (match === null) return null;
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map(Number) as number[];
  const base = instant(
    y as number,
    mo as number,
    d as number,
    h as number,
    mi as number,
    s as number,
  );
  const fraction = Number((match[7] ?? '0').padEnd(3, '0'));
  return { ms: base.ms + fraction, iso: base.iso };
}
