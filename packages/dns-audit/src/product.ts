import { GRADE_SUMMARY_SCHEMA, type JsonSchema, type ReceiptRule } from '@storefront/core';

const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const BOOLEAN = { type: 'boolean' } as const;
const INTEGER = { type: 'integer' } as const;
const STRINGS = { type: 'array', items: STRING } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `auditDns` result. */
export const resultSchema = {
  type: 'object',
  required: [
    'domain',
    'records',
    'outcomes',
    'spf',
    'dmarc',
    'mtaSts',
    'tlsRpt',
    'dnssec',
    'queries',
    ...GRADE_SUMMARY_SCHEMA.required,
    'checks',
    'findings',
    'rubric',
  ],
  properties: {
    domain: STRING,
    records: {
      type: 'object',
      required: ['A', 'AAAA', 'CNAME', 'NS', 'MX', 'CAA', 'TXT'],
      properties: {
        A: STRINGS,
        AAAA: STRINGS,
        CNAME: STRINGS,
        NS: STRINGS,
        MX: { type: 'array', items: { type: 'object', required: ['preference', 'exchange'] } },
        CAA: { type: 'array', items: { type: 'object', required: ['flags', 'tag', 'value'] } },
        TXT: STRINGS,
      },
    },
    outcomes: { type: 'object', additionalProperties: STRING },
    spf: {
      type: 'object',
      required: [
        'record',
        'count',
        'valid',
        'problem',
        'lookups',
        'lookupLimitExceeded',
        'lookupsComplete',
        'all',
        'references',
      ],
      properties: {
        record: NULLABLE_STRING,
        count: INTEGER,
        valid: BOOLEAN,
        problem: NULLABLE_STRING,
        lookups: INTEGER,
        lookupLimitExceeded: BOOLEAN,
        lookupsComplete: BOOLEAN,
        all: { enum: ['-', '~', '?', '+', null] },
        references: { type: 'array', items: { type: 'object' } },
      },
    },
    dmarc: {
      type: 'object',
      required: [
        'record',
        'valid',
        'problem',
        'policy',
        'subdomainPolicy',
        'percent',
        'aggregateReports',
        'forensicReports',
      ],
      properties: {
        record: NULLABLE_STRING,
        valid: BOOLEAN,
        problem: NULLABLE_STRING,
        policy: NULLABLE_STRING,
        subdomainPolicy: NULLABLE_STRING,
        percent: { type: ['integer', 'null'] },
        aggregateReports: STRINGS,
        forensicReports: STRINGS,
      },
    },
    mtaSts: { type: 'object', required: ['present', 'record', 'id'] },
    tlsRpt: { type: 'object', required: ['present', 'record', 'reports'] },
    dnssec: {
      type: 'object',
      required: ['authenticated'],
      properties: { authenticated: BOOLEAN },
    },
    queries: INTEGER,
    ...GRADE_SUMMARY_SCHEMA.properties,
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'label', 'pass', 'weight', 'note'],
        properties: { id: STRING, label: STRING, pass: BOOLEAN, weight: INTEGER, note: STRING },
      },
    },
    findings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['check', 'severity', 'remediate'],
        properties: {
          check: STRING,
          severity: { enum: ['high', 'medium', 'low'] },
          remediate: STRING,
        },
      },
    },
    rubric: STRING,
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
