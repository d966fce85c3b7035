import { capString } from '@storefront/core';
import {
  AI_TXT_MAX_BYTES,
  AI_TXT_MAX_LISTED_FILE_TYPES,
  LLMS_TXT_MAX_BYTES,
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_CONTENT_TYPE_CHARS,
  ROBOTS_MAX_FIELD_CHARS,
  ROBOTS_MAX_REDIRECTS,
} from './limits.js';
import { parseAiText } from './parse-ai-txt.js';
import { parseLlmsText } from './parse-llms-txt.js';
import { parseRobotsText } from './parse-robots.js';
import { agentKey } from './product-token.js';
import { looksLikeHtml, readBody } from './read-text.js';
import type {
  AiTxtPolicy,
  FetchErrorCode,
  FileOutcome,
  FilePolicyFetch,
  LlmsTxtPolicy,
  ParsedAiTxt,
  ParsedRobots,
  RobotsTxtPolicy,
} from './types.js';

/** Agents listed per policy; more are counted in `groups` but not named. */
const MAX_LISTED_AGENTS = 200;
/** Sections listed in the llms.txt policy. */
const MAX_LISTED_SECTIONS = 100;

/** Errors that mean the service did not try, or failed on its own side: no verdict follows. */
export const NOT_FETCHED_ERRORS: ReadonlySet<FetchErrorCode> = new Set<FetchErrorCode>([
  'blocked_ssrf',
  'invalid_url',
  'internal_error',
]);

/** Errors after which the host did answer, with redirects (RFC 9309 §2.3.1.2). */
const REDIRECT_ERRORS: ReadonlySet<FetchErrorCode> = new Set<FetchErrorCode>([
  'too_many_redirects',
  'redirect_loop',
]);

/** Whether the host produced any HTTP response for this fetch. */
export function answered(outcome: FileOutcome | null | undefined): boolean {
  if (outcome === null || outcome === undefined) return false;
  if (outcome.ok) return true;
  return outcome.status !== undefined || REDIRECT_ERRORS.has(outcome.error);
}

/** robots.txt: its fetch, the RFC 9309 §2.3.1 status rule that applies, and its rules. */
export interface RobotsFile {
  readonly policy: RobotsTxtPolicy;
  readonly robots: ParsedRobots | null;
}

/**
 * Apply RFC 9309 §2.3.1 to the robots.txt fetch: 2xx is parsed (§2.3.1.1); more than
 * five redirects, a final 3xx, or 4xx mean "unavailable", everything allowed (§2.3.1.2,
 * §2.3.1.3); 5xx or a network failure mean "unreachable", complete disallow (§2.3.1.4).
 */
export function robotsFile(origin: string, outcome: FileOutcome): RobotsFile {
  const fetch = fetchState(`${origin}/robots.txt`, outcome);
  const done = (
    state: RobotsTxtPolicy['state'],
    statusRule: string,
    robots: ParsedRobots | null = null,
    parsed: RobotsTxtPolicy['parsed'] = null,
  ): RobotsFile => ({ policy: { fetch, state, statusRule, parsed }, robots });

  if (!outcome.ok) {
    const code = outcome.error;
    if (REDIRECT_ERRORS.has(code)) {
      return done(
        'unavailable',
        `RFC 9309 §2.3.1.2: the fetch failed with ${code}, more than ${ROBOTS_MAX_REDIRECTS} consecutive redirects; the file is unavailable and every path is allowed`,
      );
    }
    if (NOT_FETCHED_ERRORS.has(code)) {
      return done(
        'not-fetched',
        `the fetch was not made or not completed (${code}); no RFC 9309 status rule applies`,
      );
    }
    return done(
      'unreachable',
      `RFC 9309 §2.3.1.4: the fetch failed with ${code}, a network error; the file is unreachable and every path is disallowed`,
    );
  }
  const { status } = outcome.doc;
  const hops = outcome.doc.redirects?.length ?? 0;
  if (hops > ROBOTS_MAX_REDIRECTS) {
    return done(
      'unavailable',
      `RFC 9309 §2.3.1.2: the file was reached after ${hops} redirects, more than ${ROBOTS_MAX_REDIRECTS}; it is unavailable and every path is allowed`,
    );
  }
  if (status >= 200 && status <= 299) {
    const contentType = outcome.doc.contentType ?? null;
    const clipped = readBody(outcome.doc.bytes, ROBOTS_MAX_BYTES, contentType);
    const robots = parseRobotsText(clipped);
    return done(
      'parsed',
      `RFC 9309 §2.3.1.1: HTTP ${status}; the file was parsed and its rules apply`,
      robots,
      {
        lines: robots.lines,
        groups: robots.groups.length,
        rules: robots.rules,
        agents: listedAgents(robots),
        sitemaps: robots.sitemaps.length,
        bytes: robots.bytes,
        truncated: robots.truncated,
        looksLikeHtml: looksLikeHtml(clipped.text, contentType),
        warnings: robots.warnings,
        warningCount: robots.warningCount,
      },
    );
  }
  if (status >= 300 && status <= 399) {
    return done(
      'unavailable',
      `RFC 9309 §2.3.1.2: HTTP ${status} was not followed to a file; it is unavailable and every path is allowed`,
    );
  }
  if (status >= 400 && status <= 499) {
    return done(
      'unavailable',
      `RFC 9309 §2.3.1.3: HTTP ${status}; the file is unavailable and every path is allowed`,
    );
  }
  if (status >= 500 && status <= 599) {
    return done(
      'unreachable',
      `RFC 9309 §2.3.1.4: HTTP ${status}, a server error; the file is unreachable and every path is disallowed`,
    );
  }
  return done(
    'unreachable',
    `RFC 9309 §2.3.1.4: HTTP ${status} is not a valid status and counts as a server error; every path is disallowed`,
  );
}

/** llms.txt: found (a 2xx text body) and parsed, or why not. */
export function llmsFile(origin: string, outcome: FileOutcome | null | undefined): LlmsTxtPolicy {
  const url = `${origin}/llms.txt`;
  if (outcome === null || outcome === undefined) {
    return { fetch: notFetched(url), state: 'not-fetched', parsed: null };
  }
  const fetch = fetchState(url, outcome);
  if (!outcome.ok) return { fetch, state: 'unreachable', parsed: null };
  const { status } = outcome.doc;
  if (status < 200 || status > 299) return { fetch, state: 'absent', parsed: null };
  const contentType = outcome.doc.contentType ?? null;
  const clipped = readBody(outcome.doc.bytes, LLMS_TXT_MAX_BYTES, contentType);
  if (clipped.text.trim() === '' || looksLikeHtml(clipped.text, contentType)) {
    return { fetch, state: 'not-llms-txt', parsed: null };
  }
  const llms = parseLlmsText(clipped);
  return {
    fetch,
    state: 'found',
    parsed: {
      title: llms.title,
      summary: llms.summary,
      valid: llms.valid,
      sections: llms.sections
        .slice(0, MAX_LISTED_SECTIONS)
        .map((section) => ({ title: section.title, links: section.links.length })),
      linkCount: llms.linkCount,
      truncated: llms.truncated,
    },
  };
}

/** ai.txt: found (a 2xx text body) and parsed, or why not. */
export interface AiFile {
  readonly policy: AiTxtPolicy;
  readonly ai: ParsedAiTxt | null;
}

/** Read ai.txt. It has no status rules of its own: anything but a 2xx text body is no file. */
export function aiFile(origin: string, outcome: FileOutcome | null | undefined): AiFile {
  const url = `${origin}/ai.txt`;
  if (outcome === null || outcome === undefined) {
    return { policy: { fetch: notFetched(url), state: 'not-fetched', parsed: null }, ai: null };
  }
  const fetch = fetchState(url, outcome);
  if (!outcome.ok) return { policy: { fetch, state: 'unreachable', parsed: null }, ai: null };
  const { status } = outcome.doc;
  if (status < 200 || status > 299) {
    return { policy: { fetch, state: 'absent', parsed: null }, ai: null };
  }
  const contentType = outcome.doc.contentType ?? null;
  const clipped = readBody(outcome.doc.bytes, AI_TXT_MAX_BYTES, contentType);
  if (clipped.text.trim() === '' || looksLikeHtml(clipped.text, contentType)) {
    return { policy: { fetch, state: 'not-ai-txt', parsed: null }, ai: null };
  }
  const ai = parseAiText(clipped);
  return {
    policy: {
      fetch,
      state: 'found',
      parsed: {
        format: ai.format,
        groups: ai.robots.groups.length,
        rules: ai.robots.rules,
        agents: listedAgents(ai.robots),
        blockedFileTypes: ai.blockedFileTypes.slice(0, AI_TXT_MAX_LISTED_FILE_TYPES),
        allowedFileTypes: ai.allowedFileTypes.slice(0, AI_TXT_MAX_LISTED_FILE_TYPES),
        disallowsRoot: ai.disallowsRoot,
        truncated: ai.robots.truncated,
      },
    },
    ai,
  };
}

function fetchState(url: string, outcome: FileOutcome): FilePolicyFetch {
  if (!outcome.ok) {
    return {
      url,
      finalUrl: null,
      redirects: 0,
      status: outcome.status ?? null,
      error: outcome.error,
      contentType: null,
      bytes: 0,
    };
  }
  const { doc } = outcome;
  return {
    url,
    finalUrl: doc.url === undefined ? null : clip(doc.url, ROBOTS_MAX_FIELD_CHARS),
    redirects: doc.redirects?.length ?? 0,
    status: doc.status,
    error: null,
    contentType:
      doc.contentType === undefined || doc.contentType === null
        ? null
        : clip(doc.contentType, ROBOTS_MAX_CONTENT_TYPE_CHARS),
    bytes: doc.bytes.length,
  };
}

function notFetched(url: string): FilePolicyFetch {
  return {
    url,
    finalUrl: null,
    redirects: 0,
    status: null,
    error: null,
    contentType: null,
    bytes: 0,
  };
}

function listedAgents(robots: ParsedRobots): string[] {
  const keys = new Set<string>();
  for (const group of robots.groups) for (const agent of group.agents) keys.add(agentKey(agent));
  return [...keys].sort().slice(0, MAX_LISTED_AGENTS);
}

function clip(text: string, max: number): string {
  return capString(text.toWellFormed(), max);
}
