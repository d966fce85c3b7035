import { isIP } from 'node:net';
import {
  type ConnectionOptions,
  connect,
  type DetailedPeerCertificate,
  type TLSSocket,
} from 'node:tls';
import type { HstsFacts, TlsFacts } from '@storefront/tls-audit';
import type { Probes } from './index.js';

/** Most bytes of the HEAD answer's head read for HSTS. */
export const HSTS_MAX_HEAD_BYTES = 32 * 1024;
/** Longest the HEAD for HSTS may take after the handshake (ms), within the call's budget. */
export const HSTS_HEAD_TIMEOUT_MS = 3000;

/** Options of {@link gatherTls}. */
export interface GatherTlsOptions {
  /** Aborts the handshake and the HEAD (the call's deadline or its caller leaving). */
  readonly signal: AbortSignal;
  /** The user agent of the HEAD. */
  readonly userAgent?: string;
}

/**
 * The facts of a TLS audit of `domain`: the name goes through the fetcher's SSRF check
 * (`probes.guard`, resolving through the configured resolver), the handshake is made
 * with the checked address and `servername` = the domain, not rejecting any
 * certificate, verifying against `probes.tlsCa` (Node's `tls.rootCertificates`) and
 * asking for an OCSP staple; then one `HEAD /` on the same connection reads HSTS.
 * Never rejects: a refusal or a failed handshake is in the facts.
 */
export async function gatherTls(
  domain: string,
  probes: Probes,
  options: GatherTlsOptions,
): Promise<TlsFacts> {
  const port = probes.tlsPort;
  const target = await probes.guard.check(domain, port);
  if (!target.ok) return { ok: false, domain, port, error: target.error, message: target.message };
  const { signal } = options;
  if (signal.aborted) return timedOut(domain, port);

  return new Promise<TlsFacts>((resolve) => {
    let stapled = false;
    let settled = false;
    // `requestOCSP` reaches the TLSSocket through `connect` (Node's types omit it).
    const connectOptions: ConnectionOptions & { requestOCSP: boolean } = {
      host: target.address,
      port,
      ...(isIP(domain) === 0 ? { servername: domain } : {}),
      rejectUnauthorized: false,
      // Node's roots, and old protocols allowed so that they can be reported (and graded down).
      secureContext: probes.tlsContext,
      requestOCSP: true,
      ALPNProtocols: ['http/1.1'],
      // `authorized` is the chain's verdict alone: the audit matches the name itself.
      checkServerIdentity: () => undefined,
    };
    const socket: TLSSocket = connect(connectOptions);
    const finish = (facts: TlsFacts) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(facts);
    };
    const onAbort = () => finish(timedOut(domain, port));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('OCSPResponse', (response: Buffer) => {
      // Null when the server stapled nothing.
      stapled = response !== null && response !== undefined && response.length > 0;
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, domain, port, ...handshakeFailure(domain, port, error) });
    });
    socket.once('secureConnect', () => {
      const chain = chainOf(socket.getPeerCertificate(true));
      const cipher = socket.getCipher();
      const authorizationError = socket.authorizationError as unknown;
      const handshake = {
        domain,
        port,
        chain,
        protocol: socket.getProtocol(),
        cipher:
          cipher === undefined || cipher === null
            ? null
            : { name: cipher.name, standardName: cipher.standardName, version: cipher.version },
        authorized: socket.authorized,
        authorizationError:
          socket.authorized || authorizationError === undefined || authorizationError === null
            ? null
            : authorizationError instanceof Error
              ? ((authorizationError as NodeJS.ErrnoException).code ?? authorizationError.message)
              : String(authorizationError),
        ocspStapled: stapled,
      };
      socket.removeAllListeners('error');
      readHsts(socket, domain, signal, options.userAgent ?? 'storefront-tls-audit/1').then(
        (hsts) => {
          if (settled) return;
          finish({ ok: true, ...handshake, ocspStapled: stapled, hsts });
        },
      );
    });
  });
}

function timedOut(domain: string, port: number): TlsFacts {
  return {
    ok: false,
    domain,
    port,
    error: 'timeout',
    message: `The TLS handshake with \`${domain}:${port}\` did not finish within the call's budget`,
  };
}

function handshakeFailure(
  domain: string,
  port: number,
  error: NodeJS.ErrnoException,
): { error: string; message: string } {
  const code = error.code ?? '';
  const where = `\`${domain}:${port}\``;
  if (code === 'ECONNREFUSED')
    return { error: 'connection_refused', message: `${where} refused the connection` };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { error: 'connection_refused', message: `${where} could not be reached` };
  }
  if (code === 'ETIMEDOUT')
    return { error: 'timeout', message: `Connecting to ${where} timed out` };
  // Anything else before the handshake finished: the TLS exchange itself failed.
  const reason = code === '' ? 'handshake error' : code;
  return { error: 'tls_error', message: `The TLS handshake with ${where} failed (${reason})` };
}

/** The certificates, leaf first, as base64 DER; stops where an issuer repeats (the root). */
function chainOf(leaf: DetailedPeerCertificate): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = leaf;
  while (cert?.raw !== undefined && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    out.push(cert.raw.toString('base64'));
    cert = cert.issuerCertificate;
  }
  return out;
}

/** One `HEAD /` on the connection; its status and `Strict-Transport-Security` values. */
function readHsts(
  socket: TLSSocket,
  domain: string,
  signal: AbortSignal,
  userAgent: string,
): Promise<HstsFacts> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    let done = false;
    const finish = (facts: HstsFacts) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(facts);
    };
    const fail = (error: string) => finish({ status: null, values: [], error });
    const onAbort = () => fail('timeout');
    const timer = setTimeout(onAbort, HSTS_HEAD_TIMEOUT_MS);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () => fail('connection_reset'));
    socket.on('end', () => fail('connection_reset'));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > HSTS_MAX_HEAD_BYTES) fail('protocol_error');
        return;
      }
      const lines = buffered.subarray(0, end).toString('latin1').split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      if (status === null) return fail('protocol_error');
      const values: string[] = [];
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (
          colon > 0 &&
          line.slice(0, colon).trim().toLowerCase() === 'strict-transport-security'
        ) {
          values.push(line.slice(colon + 1).trim());
        }
      }
      finish({ status: Number(status[1]), values, error: null });
    });
    const host = isIP(domain) === 6 ? `[${domain}]` : domain;
    socket.write(
      `HEAD / HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${userAgent}\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
    );
  });
}
