import type { JsonSchema, ReceiptRule } from '@storefront/core';

const STRINGS = { type: 'array', items: { type: 'string' } } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `auditRobots` result. */
export const resultSchema = {
  type: 'object',
  required: ['version', 'host', 'origin', 'evaluatedPath', 'policies', 'verdicts', 'summary'],
  properties: {
    version: { type: 'string' },
    host: { type: 'string' },
    origin: { type: 'string' },
    evaluatedPath: { type: 'string' },
    policies: {
      type: 'object',
      required: ['robots.txt', 'llms.txt', 'ai.txt'],
      properties: {
        'robots.txt': { type: 'object' },
        'llms.txt': { type: 'object' },
        'ai.txt': { type: 'object' },
      },
    },
    verdicts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['agent', 'vendor', 'purpose', 'verdict', 'reason', 'decidedBy', 'rule'],
        properties: {
          agent: { type: 'string' },
          vendor: { type: 'string' },
          purpose: { type: 'string' },
          verdict: { enum: ['allowed', 'blocked'] },
          reason: { type: 'string' },
          decidedBy: { type: 'string' },
          rule: { type: ['string', 'null'] },
        },
      },
    },
    summary: {
      type: 'object',
      required: [
        'allowed',
        'blocked',
        'blockedAgents',
        'sitemaps',
        'hasLlmsTxt',
        'hasAiTxt',
        'hasRobotsTxt',
      ],
      properties: {
        allowed: { type: 'integer' },
        blocked: { type: 'integer' },
        blockedAgents: STRINGS,
        sitemaps: STRINGS,
        hasLlmsTxt: { type: 'boolean' },
        hasAiTxt: { type: 'boolean' },
        hasRobotsTxt: { type: 'boolean' },
      },
    },
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
