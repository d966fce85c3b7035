import { GRADE_SUMMARY_SCHEMA, type JsonSchema, type ReceiptRule } from '@storefront/core';

const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const NULLABLE_INTEGER = { type: ['integer', 'null'] } as const;
const BOOLEAN = { type: 'boolean' } as const;
const INTEGER = { type: 'integer' } as const;

/** One certificate of the chain, leaf first. */
const CERTIFICATE = {
  type: 'object',
  required: [
    'subject',
    'issuer',
    'subjectAltNames',
    'validFrom',
    'validTo',
    'daysLeft',
    'keyType',
    'keyBits',
    'signatureAlgorithm',
    'serialNumber',
    'fingerprintSha256',
    'ca',
    'selfIssued',
  ],
  properties: {
    subject: STRING,
    issuer: STRING,
    subjectAltNames: { type: 'array', items: STRING },
    validFrom: STRING,
    validTo: STRING,
    daysLeft: INTEGER,
    keyType: STRING,
    keyBits: NULLABLE_INTEGER,
    signatureAlgorithm: STRING,
    serialNumber: STRING,
    fingerprintSha256: STRING,
    ca: BOOLEAN,
    selfIssued: BOOLEAN,
  },
} as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `auditTls` result. */
export const resultSchema = {
  type: 'object',
  required: [
    'domain',
    'port',
    'chain',
    'nameMatches',
    'trusted',
    'trustError',
    'protocol',
    'cipher',
    'ocspStapled',
    'hsts',
    ...GRADE_SUMMARY_SCHEMA.required,
    'checks',
    'findings',
    'rubric',
  ],
  properties: {
    domain: STRING,
    port: INTEGER,
    chain: { type: 'array', items: CERTIFICATE },
    nameMatches: BOOLEAN,
    trusted: BOOLEAN,
    trustError: NULLABLE_STRING,
    protocol: NULLABLE_STRING,
    cipher: {
      type: ['object', 'null'],
      required: ['name', 'standardName', 'version'],
      properties: { name: STRING, standardName: STRING, version: STRING },
    },
    ocspStapled: BOOLEAN,
    hsts: {
      type: 'object',
      required: ['present', 'value', 'maxAge', 'includeSubDomains', 'preload', 'status', 'error'],
      properties: {
        present: BOOLEAN,
        value: NULLABLE_STRING,
        maxAge: NULLABLE_INTEGER,
        includeSubDomains: BOOLEAN,
        preload: BOOLEAN,
        status: NULLABLE_INTEGER,
        error: NULLABLE_STRING,
      },
    },
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
