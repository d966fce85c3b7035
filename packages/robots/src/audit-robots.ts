import {
  canonicalize,
  capString,
  fail,
  ok,
  type ProductResult,
  readOptions,
  StorefrontError,
  typeName,
  UPSTREAM_ERROR_CODES,
} from '@storefront/core';
import { parseAuditOrigin, parseAuditPath } from './audit-target.js';
import { AI_CRAWLERS } from './crawlers.js';
import { aiFile, answered, llmsFile, NOT_FETCHED_ERRORS, robotsFile } from './file-policies.js';
import { ROBOTS_AUDIT_VERSION, ROBOTS_MAX_FIELD_CHARS } from './limits.js';
import { matchRobots } from './match-robots.js';
import type {
  CrawlerInfo,
  CrawlerVerdict,
  FetchErrorCode,
  FileOutcome,
  ParsedAiTxt,
  ParsedRobots,
  RobotsData,
  RobotsErrorCode,
  RobotsInput,
  RobotsMatch,
  RobotsOptions,
  RobotsTxtPolicy,
} from './types.js';

/** The codes of {@link FetchErrorCode}, derived from core's list, to check input at run time. */
const FETCH_ERROR_CODES: ReadonlySet<string> = new Set<FetchErrorCode>([
  ...UPSTREAM_ERROR_CODES.filter((code) => code !== 'upstream_http_error'),
  'internal_error',
]);

/** Purposes ai.txt speaks for: it asks datasets and model training to leave content out. */
const AI_TXT_PURPOSES: ReadonlySet<CrawlerInfo['purpose']> = new Set(['training', 'dataset']);

/**
 * The AI-crawler permission audit of `GET /buy/robots`: one verdict per crawler of
 * `AI_CRAWLERS` for the evaluated path, from the origin's robots.txt (RFC 9309, status
 * rules included), ai.txt (for training and dataset crawlers) and llms.txt (reported,
 * never a permission). The caller fetches the three files and passes what each fetch
 * gave. `text` is the RFC 8785 canonical JSON of `data`.
 *
 * Fails (`ok:false`, with the policies as partial data) only when no verdict would say
 * anything about the site: robots.txt was refused or failed on our side (`blocked_ssrf`,
 * `invalid_url`, `internal_error`), or the host answered none of the requests (the
 * robots.txt error code, e.g. `dns_failure`). Throws `StorefrontError` (`invalid_params`)
 * for a `domain` or `path` that {@link parseAuditOrigin} / {@link parseAuditPath} refuse
 * and for malformed input.
 *
 * @example
 *   const result = auditRobots({
 *     origin: 'example.com',
 *     robotsTxt: { ok: true, doc: { status: 200, bytes: new TextEncoder().encode('User-agent: GPTBot\nDisallow: /\n') } },
 *     llmsTxt: { ok: true, doc: { status: 404, bytes: new Uint8Array() } },
 *     aiTxt: { ok: false, error: 'timeout' },
 *   });
 *   if (result.ok) console.log(result.data.summary.blockedAgents); // ['GPTBot']
 */
export function auditRobots(
  input: RobotsInput,
  options?: Readonly<RobotsOptions> | null,
): ProductResult<RobotsData> {
  checkInput(input);
  const path = parseAuditPath(checkOptions(options));
  if (!path.ok) throw new StorefrontError('invalid_params', path.message);
  const target = parseAuditOrigin(input.origin);
  if (!target.ok) throw new StorefrontError('invalid_params', target.message);

  const robots = robotsFile(target.origin, input.robotsTxt);
  const llms = llmsFile(target.origin, input.llmsTxt);
  const ai = aiFile(target.origin, input.aiTxt);
  const cut = { found: false };
  const base = {
    version: ROBOTS_AUDIT_VERSION,
    host: target.host,
    origin: target.origin,
    evaluatedPath: path.path,
    policies: capFields(
      { 'robots.txt': robots.policy, 'llms.txt': llms, 'ai.txt': ai.policy },
      cut,
    ),
  };

  const outcome = input.robotsTxt;
  if (!outcome.ok && NOT_FETCHED_ERRORS.has(outcome.error)) {
    return fail<RobotsData>(
      outcome.error as RobotsErrorCode,
      `robots.txt of ${target.origin} was not read (${outcome.error}); no verdict can be given`,
      base,
    );
  }
  if (!answered(outcome) && !answered(input.llmsTxt) && !answered(input.aiTxt)) {
    // RFC 9309 §2.3.1.4 would make this "disallow everything", but a host that answered
    // nothing tells us about our connection to it, not about its policy.
    const code = (outcome.ok ? 'internal_error' : outcome.error) as RobotsErrorCode;
    return fail<RobotsData>(
      code,
      `${target.origin} did not answer (robots.txt: ${code}); no file could be read`,
      base,
    );
  }

  const verdicts = AI_CRAWLERS.map((crawler) =>
    verdictFor(crawler, robots.policy.state, robots.robots, ai.ai, path.path),
  );
  const blockedAgents = verdicts.filter((v) => v.verdict === 'blocked').map((v) => v.agent);
  const data: { -readonly [K in keyof RobotsData]: RobotsData[K] } = {
    ...base,
    verdicts: capFields(verdicts, cut),
    summary: {
      allowed: verdicts.length - blockedAgents.length,
      blocked: blockedAgents.length,
      blockedAgents,
      sitemaps: capFields(robots.robots?.sitemaps ?? [], cut),
      hasLlmsTxt: llms.state === 'found',
      hasAiTxt: ai.policy.state === 'found',
      hasRobotsTxt:
        robots.policy.state === 'parsed' && robots.policy.parsed?.looksLikeHtml === false,
    },
  };
  // Only when a value was cut, so audits of ordinary files keep their shape.
  if (cut.found) data.truncatedFields = true;
  return ok(canonicalize(data), data);
}

/**
 * A copy of plain audit data (objects, arrays, strings, numbers, booleans, null; a few
 * levels deep) with every string cut at {@link ROBOTS_MAX_FIELD_CHARS}; `cut.found` turns
 * true when one was.
 */
function capFields<T>(value: T, cut: { found: boolean }): T {
  if (typeof value === 'string') {
    const capped = capString(value, ROBOTS_MAX_FIELD_CHARS);
    if (capped !== value) cut.found = true;
    return capped as T;
  }
  if (Array.isArray(value)) return value.map((item) => capFields(item, cut)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = capFields(item, cut);
    return out as T;
  }
  return value;
}

/**
 * The rubric (`robots-audit/1`), in order:
 * 1. The path `/robots.txt` is always allowed (RFC 9309 §2.2.2).
 * 2. robots.txt status rules (§2.3.1): unreachable blocks every crawler; unavailable
 *    allows every crawler.
 * 3. A parsed robots.txt decides by group and longest match (§2.2).
 * 4. A crawler robots.txt allows (or an unavailable robots.txt leaves free) is still
 *    blocked when it trains models or builds datasets and ai.txt disallows the path for
 *    its token, by the same matching rules.
 */
function verdictFor(
  crawler: CrawlerInfo,
  state: RobotsTxtPolicy['state'],
  robots: ParsedRobots | null,
  ai: ParsedAiTxt | null,
  path: string,
): CrawlerVerdict {
  const base = { agent: crawler.token, vendor: crawler.vendor, purpose: crawler.purpose };
  // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed", whatever the file says.
  if (path === '/robots.txt') {
    return {
      ...base,
      verdict: 'allowed',
      reason: 'robots-txt-path',
      decidedBy: 'robots.txt',
      rule: null,
    };
  }
  if (state === 'unreachable' || state === 'not-fetched') {
    return {
      ...base,
      verdict: 'blocked',
      reason: 'unreachable',
      decidedBy: 'robots.txt',
      rule: null,
    };
  }
  let verdict: CrawlerVerdict = {
    ...base,
    verdict: 'allowed',
    reason: 'unavailable',
    decidedBy: 'robots.txt',
    rule: null,
  };
  if (robots !== null) {
    verdict = fromMatch(base, matchRobots(robots, crawler.token, path), 'robots.txt');
    if (verdict.verdict === 'blocked') return verdict;
  }
  if (ai !== null && ai.format === 'robots-style' && AI_TXT_PURPOSES.has(crawler.purpose)) {
    const match = matchRobots(ai.robots, crawler.token, path);
    if (!match.allowed) return fromMatch(base, match, 'ai.txt');
  }
  return verdict;
}

function fromMatch(
  base: Pick<CrawlerVerdict, 'agent' | 'vendor' | 'purpose'>,
  match: RobotsMatch,
  file: CrawlerVerdict['decidedBy'],
): CrawlerVerdict {
  if (match.reason === 'rule' && match.rule !== null) {
    const { rule } = match;
    const directive = rule.type === 'allow' ? 'Allow' : 'Disallow';
    return {
      ...base,
      verdict: match.allowed ? 'allowed' : 'blocked',
      reason: match.allowed ? 'allow-rule' : 'disallow-rule',
      decidedBy: file,
      rule: `line ${rule.line} (user-agent: ${match.group}): ${directive}: ${rule.value.toWellFormed()}`,
    };
  }
  return {
    ...base,
    verdict: 'allowed',
    reason: match.reason === 'no-matching-group' ? 'no-matching-group' : 'no-matching-rule',
    decidedBy: file,
    rule: null,
  };
}

function checkOptions(options: unknown): unknown {
  return readOptions(options, ['path'], 'auditRobots').path;
}

function checkInput(input: unknown): asserts input is RobotsInput {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected the audit input to be an object, got \`${typeName(input)}\``,
    );
  }
  const record = input as Record<string, unknown>;
  checkOutcome('robotsTxt', record.robotsTxt, false);
  checkOutcome('llmsTxt', record.llmsTxt, true);
  checkOutcome('aiTxt', record.aiTxt, true);
}

function checkOutcome(
  name: string,
  value: unknown,
  optional: boolean,
): asserts value is FileOutcome {
  if (optional && (value === undefined || value === null)) return;
  const expected = `Expected \`${name}\` to be a fetch outcome ({ ok: true, doc: { status, bytes } } or { ok: false, error })`;
  if (value === null || typeof value !== 'object') {
    throw new StorefrontError('invalid_params', `${expected}, got \`${typeName(value)}\``);
  }
  const outcome = value as Record<string, unknown>;
  if (outcome.ok === true) {
    const doc = outcome.doc as Record<string, unknown> | null | undefined;
    if (doc === null || typeof doc !== 'object') {
      throw new StorefrontError('invalid_params', `${expected}, got no \`doc\``);
    }
    if (typeof doc.status !== 'number' || !Number.isInteger(doc.status)) {
      throw new StorefrontError(
        'invalid_params',
        `${expected}, got a \`doc.status\` that is not an integer`,
      );
    }
    if (!(doc.bytes instanceof Uint8Array)) {
      throw new StorefrontError(
        'invalid_params',
        `${expected}, got a \`doc.bytes\` that is not a Uint8Array`,
      );
    }
    return;
  }
  if (outcome.ok === false) {
    if (typeof outcome.error !== 'string' || !FETCH_ERROR_CODES.has(outcome.error)) {
      throw new StorefrontError(
        'invalid_params',
        `${expected}, got the error \`${String(outcome.error)}\`, which is not an upstream error code`,
      );
    }
    return;
  }
  throw new StorefrontError('invalid_params', `${expected}, got \`ok: ${String(outcome.ok)}\``);
}
