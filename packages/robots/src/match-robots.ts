import { StorefrontError } from '@storefront/core';
import { compiledRules } from './parse-robots.js';
import { type CompiledPattern, compilePattern, matchPattern, type StepCounter } from './pattern.js';
import { normalizeRobotsPath } from './percent-encoding.js';
import { agentKey, extractProductToken } from './product-token.js';
import type { ParsedRobots, RobotsMatch, RobotsRule } from './types.js';

interface IndexedRule {
  readonly rule: RobotsRule;
  readonly compiled: CompiledPattern;
}

/**
 * What matching needs, built once per parsed file: each group's rules ordered most
 * specific first, the groups naming each agent key, and a memo of each group's best
 * rule for the last path asked, so the 28 crawlers of an audit scan every group at most
 * once, whatever the overlap between their groups.
 */
interface RobotsIndex {
  readonly groups: readonly (readonly IndexedRule[])[];
  readonly byAgent: ReadonlyMap<string, readonly number[]>;
  memoPath: string | null;
  memoGeneration: number;
  readonly memoSeen: Int32Array;
  readonly memoBest: (IndexedRule | null)[];
}

const indexes = new WeakMap<ParsedRobots, RobotsIndex>();

/**
 * Index the groups per product token. RFC 9309 §2.2.1: "If there is more than one group
 * matching the user-agent, the matching groups' rules MUST be combined into one group";
 * combining happens when matching, by taking the most specific of each group's best
 * rule. Within a group, rules are ordered so the first that matches decides: longest
 * pattern first (§2.2.2: "The most specific match found MUST be used. The most specific
 * match is the match that has the most octets."), `allow` before `disallow` at equal
 * length ("the 'allow' rule SHOULD be used"), then by line for a stable citation.
 */
function indexOf(robots: ParsedRobots): RobotsIndex {
  const cached = indexes.get(robots);
  if (cached) return cached;
  const groups: IndexedRule[][] = [];
  const byAgent = new Map<string, number[]>();
  // Patterns compiled by parseRobots, in group-by-group rule order; a ParsedRobots built
  // some other way (e.g. read back from JSON) is compiled here.
  const compiled = compiledRules.get(robots);
  let position = 0;
  for (const group of robots.groups) {
    const id = groups.length;
    groups.push(
      group.rules
        .map((rule) => ({ rule, compiled: compiled?.[position++] ?? compilePattern(rule.value) }))
        .sort(mostSpecificFirst),
    );
    for (const key of new Set(group.agents.map(agentKey))) {
      const ids = byAgent.get(key);
      if (ids) ids.push(id);
      else byAgent.set(key, [id]);
    }
  }
  const index: RobotsIndex = {
    groups,
    byAgent,
    memoPath: null,
    memoGeneration: 0,
    memoSeen: new Int32Array(groups.length),
    memoBest: new Array<IndexedRule | null>(groups.length).fill(null),
  };
  indexes.set(robots, index);
  return index;
}

function mostSpecificFirst(a: IndexedRule, b: IndexedRule): number {
  if (a.compiled.length !== b.compiled.length) return b.compiled.length - a.compiled.length;
  if (a.rule.type !== b.rule.type) return a.rule.type === 'allow' ? -1 : 1;
  return a.rule.line - b.rule.line;
}

/** The most specific rule matching `path` across the merged groups `ids`, or null. */
function bestRule(
  index: RobotsIndex,
  ids: readonly number[],
  path: string,
  counter: StepCounter | undefined,
): IndexedRule | null {
  if (index.memoPath !== path) {
    index.memoPath = path;
    index.memoGeneration++;
  }
  let best: IndexedRule | null = null;
  for (const id of ids) {
    let found: IndexedRule | null = null;
    if (index.memoSeen[id] === index.memoGeneration) found = index.memoBest[id] ?? null;
    else {
      for (const entry of index.groups[id] as readonly IndexedRule[]) {
        if (matchPattern(entry.compiled, path, counter)) {
          found = entry;
          break;
        }
      }
      index.memoSeen[id] = index.memoGeneration;
      index.memoBest[id] = found;
    }
    if (found !== null && (best === null || mostSpecificFirst(found, best) < 0)) best = found;
  }
  return best;
}

/**
 * Decide whether the crawler with product token `userAgent` may fetch `path`, and say
 * what decided (RFC 9309 §2.2). The token is compared case-insensitively with each
 * group's tokens; all groups naming it are merged; with none, the `*` groups apply;
 * with neither, everything is allowed. Within the group the longest matching rule
 * wins and `Allow` wins a tie. Paths compare case-sensitively after percent-encoding
 * normalisation; `/robots.txt` itself is always allowed. Total: any strings give an
 * answer. `userAgent` may be a full User-Agent value; its product token is used.
 *
 * @example
 *   matchRobots(parseRobots('User-agent: *\nDisallow: /\n'), 'GPTBot', '/a').rule?.line // 2
 */
export function matchRobots(
  robots: ParsedRobots,
  userAgent: string,
  path: string,
  counter?: StepCounter,
): RobotsMatch {
  if (typeof userAgent !== 'string' || typeof path !== 'string') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`userAgent\` and \`path\` to be strings, got \`${typeof userAgent}\` and \`${typeof path}\``,
    );
  }
  const normalized = normalizeRobotsPath(path);
  // RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
  if (normalized === '/robots.txt') {
    return { allowed: true, reason: 'robots-txt-path', group: null, rule: null, path: normalized };
  }
  const index = indexOf(robots);
  const token = agentKey(extractProductToken(userAgent));
  let group: string | null = null;
  let ids: readonly number[] | undefined;
  if (token !== '' && token !== '*') {
    ids = index.byAgent.get(token);
    if (ids) group = token;
  }
  if (!ids) {
    // §2.2.1: "If no matching group exists, crawlers MUST obey the group with a
    // user-agent line with the '*' value, if present."
    ids = index.byAgent.get('*');
    if (ids) group = '*';
  }
  if (!ids) {
    // §2.2.1: no matching group and no "*" group: no rules apply.
    return {
      allowed: true,
      reason: 'no-matching-group',
      group: null,
      rule: null,
      path: normalized,
    };
  }
  const best = bestRule(index, ids, normalized, counter);
  if (best !== null) {
    const { rule } = best;
    return { allowed: rule.type === 'allow', reason: 'rule', group, rule, path: normalized };
  }
  // §2.2.2: "If no match is found amongst the rules in a group for a matching user-agent
  // or there are no rules in the group, the URI is allowed."
  return { allowed: true, reason: 'no-matching-rule', group, rule: null, path: normalized };
}

/**
 * Whether the crawler with product token `userAgent` may fetch `path` under `robots`
 * (RFC 9309). Total. See {@link matchRobots} for the decision and what made it.
 *
 * @example
 *   isAllowed(parseRobots('User-agent: GPTBot\nDisallow: /\n'), 'gptbot', '/') // false
 */
export function isAllowed(robots: ParsedRobots, userAgent: string, path: string): boolean {
  return matchRobots(robots, userAgent, path).allowed;
}
