import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { getServers } from 'node:dns';
import { isIP, Socket } from 'node:net';
import {
  type DnsAnswer,
  type DnsQuery,
  type DnsRecordType,
  normalizeName,
} from '@storefront/dns-audit';
import * as packet from 'dns-packet';

/** Options of {@link createDnsClient}. */
export interface DnsClientOptions {
  /**
   * The resolver, `host:port`, `[v6]:port` or a bare address (port 53); default the
   * first server of the system's configuration (`dns.getServers()`).
   */
  readonly server?: string | undefined;
  /** How long one query waits for its answer (ms, default 2000). */
  readonly timeoutMs?: number | undefined;
}

/** A resolver address as a socket takes it. */
export interface ResolverAddress {
  readonly host: string;
  readonly port: number;
  readonly family: 4 | 6;
}

/** The EDNS(0) payload size asked for: the DNS flag day 2020 value, which avoids fragments. */
const UDP_PAYLOAD = 1232;

/**
 * Parse a resolver address: `127.0.0.1:5353`, `[::1]:5353`, `::1` or `9.9.9.9`. Throws
 * on anything else (a host name would need a resolver of its own).
 */
export function parseResolver(value: string): ResolverAddress {
  const text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text);
  const host = bracketed?.[1] ?? v4?.[1] ?? (isIP(text) === 6 ? text : null);
  const port = Number(bracketed?.[2] ?? v4?.[2] ?? 53);
  if (host === null || isIP(host) === 0 || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `Expected a resolver like \`127.0.0.1:5353\`, \`[::1]:53\` or \`9.9.9.9\`, got \`${value}\``,
    );
  }
  return { host, port, family: isIP(host) === 6 ? 6 : 4 };
}

/**
 * A small DNS client over UDP (TCP when an answer comes back truncated) that asks one
 * resolver with RD and AD set (RFC 6840 §5.7), so that the answer's AD flag says
 * whether the resolver validated it. A query never rejects: a timeout, an abort or an
 * unreadable answer is an answer with `rcode` `TIMEOUT` or `ERROR`.
 */
export function createDnsClient(options: DnsClientOptions = {}): DnsQuery {
  const server = parseResolver(options.server ?? getServers()[0] ?? '127.0.0.1');
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (name, type, signal) => {
    const id = randomInt(0, 65536);
    const query = packet.encode({
      type: 'query',
      id,
      flags: packet.RECURSION_DESIRED | packet.AUTHENTIC_DATA,
      questions: [{ type, name, class: 'IN' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: UDP_PAYLOAD, flags: 0 } as never],
    });
    let response = await exchangeUdp(server, query, id, timeoutMs, signal);
    if (response !== null && typeof response !== 'string' && response.flag_tc) {
      response = await exchangeTcp(server, query, id, timeoutMs, signal);
    }
    return answerOf(name, type, response);
  };
}

/** The answer of one query from its response, or the failure. */
function answerOf(
  name: string,
  type: DnsRecordType,
  response: packet.DecodedPacket | 'TIMEOUT' | 'ERROR' | null,
): DnsAnswer {
  const asked = normalizeName(name);
  if (response === null || typeof response === 'string') {
    return { name: asked, type, rcode: response ?? 'ERROR', ad: false, records: [] };
  }
  const rcode = String((response as { rcode?: unknown }).rcode ?? 'ERROR');
  const records: string[] = [];
  for (const answer of response.answers ?? []) {
    if (answer.type !== type) continue;
    const text = presentation(answer);
    if (text !== null) records.push(text);
  }
  return { name: asked, type, rcode, ad: response.flag_ad, records };
}

/** A record's data in presentation form, or null for data this audit does not read. */
function presentation(answer: packet.Answer): string | null {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return String(answer.data);
    case 'CNAME':
    case 'NS':
      return normalizeName(String(answer.data));
    case 'MX': {
      const { preference, exchange } = answer.data;
      return `${preference ?? 0} ${normalizeName(exchange) || '.'}`;
    }
    case 'CAA': {
      const { flags, tag, value } = answer.data;
      return `${flags ?? 0} ${tag} "${value}"`;
    }
    case 'TXT': {
      const data = answer.data;
      const chunks = Array.isArray(data) ? data : [data];
      // RFC 7208 §3.3: the strings of one record are joined without spaces.
      return chunks.map((chunk) => Buffer.from(chunk).toString('utf8')).join('');
    }
    default:
      return null;
  }
}

function matches(response: packet.DecodedPacket, id: number): boolean {
  return response.id === id && response.type === 'response';
}

function exchangeUdp(
  server: ResolverAddress,
  query: Buffer,
  id: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<packet.DecodedPacket | 'TIMEOUT' | 'ERROR'> {
  return new Promise((resolve) => {
    const socket = createSocket(server.family === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (result: packet.DecodedPacket | 'TIMEOUT' | 'ERROR') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.close();
      resolve(result);
    };
    const onAbort = () => finish('TIMEOUT');
    const timer = setTimeout(onAbort, timeoutMs);
    if (signal?.aborted) return finish('TIMEOUT');
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () => finish('ERROR'));
    socket.on('message', (message, from) => {
      // Only the resolver asked may answer, with the query's id (RFC 5452 §9.1).
      if (from.port !== server.port) return;
      let decoded: packet.DecodedPacket;
      try {
        decoded = packet.decode(message);
      } catch {
        return;
      }
      if (matches(decoded, id)) finish(decoded);
    });
    socket.send(query, server.port, server.host, (error) => {
      if (error) finish('ERROR');
    });
  });
}

/** Most bytes read from a TCP answer: the largest DNS message plus its length prefix. */
const MAX_TCP_BYTES = 65_537;

function exchangeTcp(
  server: ResolverAddress,
  query: Buffer,
  id: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<packet.DecodedPacket | 'TIMEOUT' | 'ERROR'> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let done = false;
    let buffered = Buffer.alloc(0);
    const finish = (result: packet.DecodedPacket | 'TIMEOUT' | 'ERROR') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = () => finish('TIMEOUT');
    const timer = setTimeout(onAbort, timeoutMs);
    if (signal?.aborted) return finish('TIMEOUT');
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () => finish('ERROR'));
    socket.on('close', () => finish('ERROR'));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_TCP_BYTES) return finish('ERROR');
      if (buffered.length < 2) return;
      const length = buffered.readUInt16BE(0);
      if (buffered.length < length + 2) return;
      try {
        const decoded = packet.decode(buffered.subarray(2, length + 2));
        finish(matches(decoded, id) ? decoded : 'ERROR');
      } catch {
        finish('ERROR');
      }
    });
    socket.connect(server.port, server.host, () => {
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(query.length);
      socket.write(Buffer.concat([prefix, query]));
    });
  });
}
