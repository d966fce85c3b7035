import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

/** The record types the stub serves. */
export type StubRecordType = 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'CAA' | 'TXT';

/**
 * One name of a stub zone: its records in presentation form (`10 mx.example.com` for MX,
 * `0 issue "ca.example"` for CAA, the whole string for TXT), or `nxdomain`, or `drop`
 * (the query is never answered: a timeout). `ad` sets the AD flag on its answers.
 */
export interface StubName {
  readonly records?: Partial<Record<StubRecordType, readonly string[]>>;
  readonly nxdomain?: boolean;
  readonly drop?: boolean;
  readonly ad?: boolean;
}

/** A running stub resolver on loopback UDP. */
export interface StubDns {
  /** `127.0.0.1:PORT`, as `DNS_RESOLVER` takes it. */
  readonly server: string;
  readonly port: number;
  /** Queries received, as `name TYPE`, in arrival order. */
  readonly queries: readonly string[];
  close(): Promise<void>;
}

/**
 * A DNS server for tests on 127.0.0.1 (UDP): answers from `zone`, NXDOMAIN for names
 * under a `nxdomain` entry's name, no answer at all for a `drop` name, and NOERROR with
 * no records (NODATA) for a known name without records of the asked type. A name not in
 * the zone is NXDOMAIN.
 */
export async function startStubDns(
  zone: Readonly<Record<string, StubName>>,
  port = 0,
): Promise<StubDns> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, from) => {
    let query: packet.DecodedPacket;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    queries.push(`${name} ${question.type}`);
    const entry = zone[name];
    if (entry?.drop) return;
    const type = question.type as StubRecordType;
    const answers = (entry?.records?.[type] ?? []).map((value) => answerOf(name, type, value));
    const nxdomain = entry === undefined || entry.nxdomain === true;
    const flags =
      packet.RECURSION_DESIRED |
      packet.RECURSION_AVAILABLE |
      (entry?.ad ? packet.AUTHENTIC_DATA : 0) |
      (nxdomain ? 3 : 0);
    const response = packet.encode({
      type: 'response',
      id: query.id ?? 0,
      flags,
      questions: [question],
      answers,
    });
    socket.send(response, from.port, from.address);
  });
  socket.bind(port, '127.0.0.1');
  await once(socket, 'listening');
  const bound = (socket.address() as AddressInfo).port;
  return {
    server: `127.0.0.1:${bound}`,
    port: bound,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function answerOf(name: string, type: StubRecordType, value: string): packet.Answer {
  const base = { name, ttl: 300, class: 'IN' as const };
  switch (type) {
    case 'MX': {
      const [preference, exchange] = value.split(' ');
      return { ...base, type, data: { preference: Number(preference), exchange: exchange ?? '.' } };
    }
    case 'CAA': {
      const match = /^(\d+) (issue|issuewild|iodef) "(.*)"$/.exec(value);
      if (match === null) throw new Error(`Bad CAA record \`${value}\``);
      return {
        ...base,
        type,
        data: { flags: Number(match[1]), tag: match[2] as 'issue', value: match[3] as string },
      };
    }
    case 'TXT': {
      // Strings of at most 255 bytes, as a zone file splits a long record.
      const chunks: string[] = [];
      for (let at = 0; at < value.length; at += 255) chunks.push(value.slice(at, at + 255));
      return { ...base, type, data: chunks.length === 0 ? [''] : chunks };
    }
    default:
      return { ...base, type, data: value } as packet.Answer;
  }
}

/** One answer of {@link zoneQuery}, in the shape a DNS audit gathers. */
export interface ZoneAnswer {
  readonly name: string;
  readonly type: StubRecordType;
  readonly rcode: string;
  readonly ad: boolean;
  readonly records: readonly string[];
}

/**
 * The answers {@link startStubDns} would give for `zone`, without a socket: for tests
 * of code that takes a query function. A `drop` name answers `TIMEOUT`.
 */
export function zoneQuery(
  zone: Readonly<Record<string, StubName>>,
): (name: string, type: StubRecordType) => Promise<ZoneAnswer> {
  return (raw, type) => {
    const name = raw.toLowerCase().replace(/\.$/, '');
    const entry = zone[name];
    const rcode =
      entry?.drop === true
        ? 'TIMEOUT'
        : entry === undefined || entry.nxdomain === true
          ? 'NXDOMAIN'
          : 'NOERROR';
    const records = rcode === 'NOERROR' ? [...(entry?.records?.[type] ?? [])] : [];
    return Promise.resolve({ name, type, rcode, ad: entry?.ad === true, records });
  };
}
