import { StorefrontError, URL_MAX_CHARS } from '@storefront/core';
import {
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_RULE_LENGTH,
  ROBOTS_MAX_RULES,
  ROBOTS_MAX_SITEMAPS,
  ROBOTS_MAX_WARNINGS,
} from './limits.js';
import { type CompiledPattern, compilePattern } from './pattern.js';
import { extractProductToken } from './product-token.js';
import { type ClippedText, clipText, readBody } from './read-text.js';
import type {
  ParsedRobots,
  RobotsGroup,
  RobotsRule,
  RobotsWarning,
  RobotsWarningIssue,
} from './types.js';

type Directive = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay';

/**
 * Directive names, compared case-insensitively (RFC 9309 §2.2: ABNF strings are
 * case-insensitive). Common misspellings are accepted as RFC 9309 §2.2.4 permits for
 * other records and as major crawlers do for these ones.
 */
const DIRECTIVES: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  ['user-agent', 'user-agent'],
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['sitemap', 'sitemap'],
  ['site-map', 'sitemap'],
  ['crawl-delay', 'crawl-delay'],
]);

/** Longest crawl delay kept, in seconds (a day); larger values are reported and ignored. */
const MAX_CRAWL_DELAY = 86_400;

/** Longest `Sitemap:` URL kept, as for any URL the service handles (core's `URL_MAX_CHARS`). */
const MAX_SITEMAP_LENGTH = URL_MAX_CHARS;

interface MutableGroup {
  agents: string[];
  line: number;
  rules: RobotsRule[];
  crawlDelay: number | null;
}

/**
 * The compiled patterns of a parse, in rule order (group by group), so `match-robots`
 * does not compile them again. One entry per parse keeps the collector's work small.
 */
export const compiledRules = new WeakMap<ParsedRobots, readonly CompiledPattern[]>();

/**
 * Parse a robots.txt file (RFC 9309). Accepts the body as bytes (decoded as UTF-8, a
 * BOM honoured) or as text. At most `ROBOTS_MAX_BYTES` are read (§2.5); the rest is
 * ignored. Lines end with CR, LF or CRLF; `#` starts a comment; blank lines and
 * unknown records never end a group (§2.2.4); rules before the first `User-agent:` line
 * are ignored (§2.2.2); an empty `Disallow:` allows everything. Never throws on content.
 *
 * @example
 *   const robots = parseRobots('User-agent: *\nDisallow: /private/\n');
 *   isAllowed(robots, 'GPTBot', '/private/x'); // false
 */
export function parseRobots(input: string | Uint8Array): ParsedRobots {
  if (typeof input === 'string') return parseRobotsText(clipText(input, ROBOTS_MAX_BYTES));
  if (input instanceof Uint8Array) return parseRobotsText(readBody(input, ROBOTS_MAX_BYTES));
  throw new StorefrontError(
    'invalid_params',
    `Expected robots.txt as a string or a Uint8Array, got \`${input === null ? 'null' : typeof input}\``,
  );
}

/** Parse text already clipped to the parse limit. */
export function parseRobotsText(clipped: ClippedText): ParsedRobots {
  const groups: MutableGroup[] = [];
  const sitemaps: string[] = [];
  const seenSitemaps = new Set<string>();
  const warnings: RobotsWarning[] = [];
  let warningCount = 0;
  const warn = (line: number, issue: RobotsWarningIssue) => {
    warningCount++;
    if (warnings.length < ROBOTS_MAX_WARNINGS) warnings.push({ line, issue });
  };

  let current: MutableGroup | null = null;
  // RFC 9309 §2.2 ABNF: group = startgroupline *(startgroupline / emptyline) *(rule / emptyline).
  // A user-agent line after a rule line starts a new group; before one, it joins the group.
  let currentHasRule = false;
  let ruleCount = 0;
  const compiledList: CompiledPattern[] = [];

  const lines = clipped.text.split(/\r\n|\r|\n/);
  // A final line break leaves an empty last element that is not a line.
  const lineCount =
    lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;

  for (let index = 0; index < lineCount; index++) {
    const lineNumber = index + 1;
    const parsed = splitLine(lines[index] as string);
    if (parsed === null) continue;
    if (parsed === 'unparseable') {
      warn(lineNumber, 'unparseable-line');
      continue;
    }
    const { directive, value } = parsed;
    switch (directive) {
      case 'user-agent': {
        if (current === null || currentHasRule) {
          current = { agents: [], line: lineNumber, rules: [], crawlDelay: null };
          groups.push(current);
          currentHasRule = false;
        }
        // RFC 9309 §2.2.1: the product token; `ExampleBot/1.0` names ExampleBot.
        const token = extractProductToken(value);
        if (token === '') warn(lineNumber, 'invalid-user-agent');
        else current.agents.push(token);
        break;
      }
      case 'allow':
      case 'disallow': {
        // RFC 9309 §2.2.2: rules that are not in any group SHOULD be ignored.
        if (current === null) {
          warn(lineNumber, 'rule-outside-group');
          break;
        }
        currentHasRule = true;
        if (value === '') break; // empty-pattern: matches nothing, allows everything
        if (value.length > ROBOTS_MAX_RULE_LENGTH) {
          warn(lineNumber, 'rule-too-long');
          break;
        }
        if (ruleCount >= ROBOTS_MAX_RULES) {
          warn(lineNumber, 'too-many-rules');
          break;
        }
        const first = value.charCodeAt(0);
        if (first !== 0x2f && first !== 0x2a) warn(lineNumber, 'pattern-without-leading-slash');
        const compiled = compilePattern(value);
        const rule: RobotsRule = {
          type: directive,
          value,
          pattern: compiled.canonical,
          line: lineNumber,
        };
        // Rules only ever join the newest group, so this list is in group-by-group order.
        current.rules.push(rule);
        compiledList.push(compiled);
        ruleCount++;
        break;
      }
      case 'sitemap': {
        // RFC 9309 §2.2.4: other records never end a group. Sitemaps are absolute URLs.
        const url = absoluteHttpUrl(value);
        if (url === null) warn(lineNumber, 'invalid-sitemap');
        else if (!seenSitemaps.has(url)) {
          seenSitemaps.add(url);
          if (sitemaps.length < ROBOTS_MAX_SITEMAPS) sitemaps.push(url);
          else warn(lineNumber, 'too-many-sitemaps');
        }
        break;
      }
      case 'crawl-delay': {
        if (current === null) break;
        const seconds = /^\d{1,9}(\.\d{1,9})?$/.test(value) ? Number(value) : Number.NaN;
        if (!(seconds <= MAX_CRAWL_DELAY)) warn(lineNumber, 'invalid-crawl-delay');
        else if (current.crawlDelay === null) current.crawlDelay = seconds;
        break;
      }
    }
  }
  if (clipped.truncated) warn(lineCount + 1, 'parse-limit-reached');

  const frozenGroups: RobotsGroup[] = groups.map((group) => ({
    agents: group.agents,
    line: group.line,
    rules: group.rules,
    crawlDelay: group.crawlDelay,
  }));
  const parsed: ParsedRobots = {
    groups: frozenGroups,
    sitemaps,
    lines: lineCount,
    rules: ruleCount,
    bytes: clipped.bytes,
    truncated: clipped.truncated,
    warnings,
    warningCount,
  };
  compiledRules.set(parsed, compiledList);
  return parsed;
}

/**
 * One line as `key: value` (RFC 9309 §2.2 ABNF, `*WS key *WS ":" *WS value EOL`). The
 * comment is removed first. Returns null for an empty or comment-only line, or for a
 * record this parser does not interpret; `unparseable` for a line that is no record.
 * As major crawlers do, `key value` without a colon is read when the key is known and
 * the line has exactly two words.
 */
function splitLine(raw: string): { directive: Directive; value: string } | 'unparseable' | null {
  const hash = raw.indexOf('#');
  const line = trimWs(hash === -1 ? raw : raw.slice(0, hash));
  if (line === '') return null;
  const colon = line.indexOf(':');
  let key: string;
  let value: string;
  if (colon !== -1) {
    key = trimWs(line.slice(0, colon));
    value = trimWs(line.slice(colon + 1));
  } else {
    const gap = line.search(/[ \t]/);
    if (gap === -1) return 'unparseable';
    key = line.slice(0, gap);
    value = trimWs(line.slice(gap));
    if (/[ \t]/.test(value)) return 'unparseable';
    if (!DIRECTIVES.has(key.toLowerCase())) return 'unparseable';
  }
  const directive = DIRECTIVES.get(key.length <= 11 ? key.toLowerCase() : '');
  if (directive === undefined) return null;
  return { directive, value };
}

/** Trim the RFC 9309 whitespace (`WS = %x20 / %x09`) from both ends. */
function trimWs(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWs(text.charCodeAt(start))) start++;
  while (end > start && isWs(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isWs(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function absoluteHttpUrl(value: string): string | null {
  if (value.length === 0 || value.length > MAX_SITEMAP_LENGTH) return null;
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
