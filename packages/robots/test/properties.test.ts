import { fc, test } from '@fast-check/vitest';
import { bytesArbitrary } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  AI_CRAWLERS,
  auditRobots,
  type FileOutcome,
  isAllowed,
  matchRobots,
  normalizeRobotsPath,
  parseAiTxt,
  parseLlmsTxt,
  parseRobots,
  ROBOTS_MAX_BYTES,
  type StepCounter,
} from '../src/index.js';
import { compilePattern, matchPattern } from '../src/pattern.js';

const anyString = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
});

/** Lines that look like robots.txt, with the odd broken one. */
const robotsLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('User-agent', 'user-agent', 'USER-AGENT', 'Useragent'),
      fc.constantFrom('*', 'a', 'B', 'GPTBot', 'a/1.0', '', '9'),
    )
    .map(([k, v]) => `${k}: ${v}`),
  fc
    .tuple(
      fc.constantFrom('Allow', 'Disallow', 'disallow', 'Disalow'),
      fc.stringMatching(/^[/*$a-b%2F]{0,8}$/),
    )
    .map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom(
    '',
    '# comment',
    'Sitemap: https://example.com/s.xml',
    'Sitemap: /relative',
    'Crawl-delay: 5',
    'Crawl-delay: -1',
    'Host: x',
  ),
  anyString,
);
const robotsText = fc
  .array(robotsLine, { maxLength: 30 })
  .chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((eol) => lines.join(eol)));

describe('isAllowed and matchRobots', () => {
  test.prop([fc.oneof(robotsText, anyString), anyString, anyString])(
    'are total on any text, agent and path',
    (text, agent, path) => {
      const robots = parseRobots(text);
      const match = matchRobots(robots, agent, path);
      expect(typeof match.allowed).toBe('boolean');
      expect(isAllowed(robots, agent, path)).toBe(match.allowed);
      if (match.reason === 'rule') expect(match.rule).not.toBeNull();
      else expect(match.rule).toBeNull();
      if (!match.allowed) expect(match.rule?.type).toBe('disallow');
    },
  );

  test.prop([bytesArbitrary, anyString])('are total on any bytes', (bytes, path) => {
    const robots = parseRobots(bytes);
    expect(typeof isAllowed(robots, 'GPTBot', path)).toBe('boolean');
  });

  test.prop([robotsText, fc.constantFrom('a', 'b', 'GPTBot', 'zzz'), anyString])(
    'give the same answer twice and for a re-parse',
    (text, agent, path) => {
      const first = matchRobots(parseRobots(text), agent, path);
      const second = matchRobots(parseRobots(text), agent, path);
      expect(second).toStrictEqual(first);
      // Plain data: a copy read back from JSON decides the same way.
      const copy = JSON.parse(JSON.stringify(parseRobots(text)));
      expect(matchRobots(copy, agent, path)).toStrictEqual(first);
    },
  );
});

// ---------------------------------------------------------------------------
// The linear matcher against a slow reference
// ---------------------------------------------------------------------------

/** Straight from the definition: `*` is any run of characters, a final `$` ends the path. */
function referenceMatch(pattern: string, path: string): boolean {
  let body = pattern;
  if (body !== '' && body[0] !== '/' && body[0] !== '*') body = `/${body}`;
  const anchored = body.endsWith('$');
  if (anchored) body = body.slice(0, -1);
  const go = (p: number, s: number): boolean => {
    if (p === body.length) return anchored ? s === path.length : true;
    if (body[p] === '*') return go(p + 1, s) || (s < path.length && go(p, s + 1));
    return s < path.length && path[s] === body[p] && go(p + 1, s + 1);
  };
  return go(0, 0);
}

/** Short patterns over a tiny alphabet, so pieces collide and overlap often. */
const patternArbitrary = fc
  .tuple(
    fc.constantFrom('/', '*', 'a', ''),
    fc.array(fc.constantFrom('a', 'b', '/', '*', 'a*', '*a', 'ab'), { maxLength: 5 }),
    fc.boolean(),
  )
  .map(([head, body, anchored]) => head + body.join('') + (anchored ? '$' : ''));
const pathArbitrary = fc.stringMatching(/^\/[ab/]{0,10}$/);

describe('pattern matching', () => {
  test.prop([patternArbitrary, pathArbitrary], { numRuns: 2000 })(
    'equals the recursive reference matcher',
    (pattern, path) => {
      expect(matchPattern(compilePattern(pattern), path)).toBe(referenceMatch(pattern, path));
    },
  );

  /** The reference decision of RFC 9309 §2.2: merge groups, longest match, allow wins ties. */
  function referenceAllowed(text: string, agent: string, path: string): boolean {
    const groups: { agents: string[]; rules: { allow: boolean; pattern: string }[] }[] = [];
    let current: (typeof groups)[number] | null = null;
    let sawRule = false;
    for (const line of text.split('\n')) {
      const [key = '', value = ''] = line.split(': ');
      if (key === 'User-agent') {
        if (current === null || sawRule) {
          current = { agents: [], rules: [] };
          groups.push(current);
          sawRule = false;
        }
        current.agents.push(value.toLowerCase());
      } else if (current !== null) {
        sawRule = true;
        if (value !== '') current.rules.push({ allow: key === 'Allow', pattern: value });
      }
    }
    const pick = (token: string) => groups.filter((g) => g.agents.includes(token));
    let chosen = pick(agent.toLowerCase());
    if (chosen.length === 0) chosen = pick('*');
    let best: { allow: boolean; length: number } | null = null;
    for (const rule of chosen.flatMap((g) => g.rules)) {
      if (!referenceMatch(rule.pattern, path)) continue;
      const length =
        (rule.pattern[0] === '/' || rule.pattern[0] === '*' ? 0 : 1) + rule.pattern.length;
      if (best === null || length > best.length || (length === best.length && rule.allow)) {
        best = { allow: rule.allow, length };
      }
    }
    return best === null || best.allow;
  }

  const ruleLine = fc
    .tuple(fc.constantFrom('Allow', 'Disallow'), patternArbitrary)
    .map(([k, v]) => `${k}: ${v}`);
  const agentLine = fc.constantFrom('*', 'a', 'A', 'b').map((v) => `User-agent: ${v}`);
  const file = fc
    .array(fc.oneof(ruleLine, agentLine), { maxLength: 14 })
    .map((lines) => lines.join('\n'));

  test.prop([file, fc.constantFrom('a', 'b', 'c'), pathArbitrary], { numRuns: 2000 })(
    'decides as the reference: groups, merging, longest match, allow on ties',
    (text, agent, path) => {
      expect(isAllowed(parseRobots(text), agent, path)).toBe(referenceAllowed(text, agent, path));
    },
  );

  test.prop([fc.stringMatching(/^[ab/*]{0,40}\$?$/), fc.stringMatching(/^\/[ab/]{0,400}$/)])(
    'costs at most 2 comparisons per path character plus the pattern length',
    (pattern, path) => {
      const compiled = compilePattern(pattern);
      const counter: StepCounter = { steps: 0 };
      matchPattern(compiled, path, counter);
      // Pieces are searched left to right over disjoint stretches of the path, each with
      // at most two comparisons per character (KMP), plus the prefix and anchored tail.
      expect(counter.steps).toBeLessThanOrEqual(2 * (path.length + compiled.length) + 2);
    },
  );

  it('stays linear on a pathological pattern: 1,000 stars over a 20,000-character path', () => {
    const pattern = `/${'*a'.repeat(1000)}*b$`;
    const path = `/${'a'.repeat(20_000)}`;
    const compiled = compilePattern(pattern);
    const counter: StepCounter = { steps: 0 };
    expect(matchPattern(compiled, path, counter)).toBe(false);
    // A backtracking matcher would need on the order of 20,000^1,000 steps; a regular
    // expression built from the pattern takes seconds for a dozen stars (security.md §3.5).
    expect(counter.steps).toBeLessThanOrEqual(2 * (path.length + pattern.length));
  });

  it('stays linear when a piece almost matches everywhere (KMP, no rescans)', () => {
    const piece = `${'a'.repeat(500)}b`;
    const pattern = `/*${piece}`;
    const path = `/${'a'.repeat(50_000)}`;
    const counter: StepCounter = { steps: 0 };
    expect(matchPattern(compilePattern(pattern), path, counter)).toBe(false);
    expect(counter.steps).toBeLessThanOrEqual(2 * path.length + pattern.length);
  });

  it('scans each group once per path, however many crawlers share it', () => {
    // Each rule's last piece is absent, so each rule reads the whole path.
    const rules = Array.from({ length: 500 }, (_, i) => `Disallow: /*a*${i}b`).join('\n');
    const path = `/${'a'.repeat(1000)}`;
    const once: StepCounter = { steps: 0 };
    matchRobots(parseRobots(`User-agent: *\n${rules}\n`), 'x', path, once);
    expect(once.steps).toBeGreaterThan(500 * 900);

    // Every crawler falls back to the same "*" group.
    const shared = parseRobots(`User-agent: *\n${rules}\n`);
    const fallback: StepCounter = { steps: 0 };
    for (const crawler of AI_CRAWLERS) matchRobots(shared, crawler.token, path, fallback);
    expect(fallback.steps).toBe(once.steps);

    // Every crawler merges one big group naming them all with a small group of its own.
    const names = AI_CRAWLERS.map((crawler) => `User-agent: ${crawler.token}`).join('\n');
    const own = AI_CRAWLERS.map((crawler) => `User-agent: ${crawler.token}\nAllow: /x`).join(
      '\n\n',
    );
    const merged = parseRobots(`${names}\n${rules}\n\n${own}\n`);
    const overlap: StepCounter = { steps: 0 };
    for (const crawler of AI_CRAWLERS) {
      expect(matchRobots(merged, crawler.token, path, overlap).allowed).toBe(true);
    }
    expect(overlap.steps).toBeLessThan(once.steps + AI_CRAWLERS.length * 10);
  });

  it('stays linear over a whole file of such rules', () => {
    const rules = Array.from({ length: 200 }, (_, i) => `Disallow: /*${'a*'.repeat(20)}${i}b$`);
    const robots = parseRobots(`User-agent: *\n${rules.join('\n')}\n`);
    const path = `/${'a'.repeat(2000)}`;
    const counter: StepCounter = { steps: 0 };
    expect(matchRobots(robots, 'bot', path, counter).allowed).toBe(true);
    expect(counter.steps).toBeLessThanOrEqual(200 * 2 * (path.length + 70));
  });
});

describe('normalizeRobotsPath', () => {
  test.prop([anyString])('is idempotent and returns printable ASCII', (input) => {
    const once = normalizeRobotsPath(input);
    expect(normalizeRobotsPath(once)).toBe(once);
    expect(once).toMatch(/^\/[\x21-\x7e]*$/);
  });

  test.prop([
    fc
      .string({ unit: 'grapheme', maxLength: 12 })
      .filter((t) => /^[^:/?#[\]@!$&'()*+,;=%]*$/.test(t)),
  ])(
    'treats text and its encodeURIComponent form alike when no reserved character is involved',
    (text) => {
      const encoded = encodeURIComponent(text);
      expect(normalizeRobotsPath(`/${text}`)).toBe(normalizeRobotsPath(`/${encoded}`));
    },
  );
});

// ---------------------------------------------------------------------------
// Parse limit and other parsers
// ---------------------------------------------------------------------------

describe('parse limit', () => {
  it('reads 500 KiB and drops the line the limit cuts', () => {
    const line = 'Disallow: /private/directory/of/things\n';
    const count = Math.ceil((ROBOTS_MAX_BYTES + 1000) / line.length);
    const text = `User-agent: *\n${line.repeat(count)}`;
    const robots = parseRobots(text);
    expect(robots.truncated).toBe(true);
    expect(robots.bytes).toBeLessThanOrEqual(ROBOTS_MAX_BYTES);
    expect(robots.bytes % line.length).toBe('User-agent: *\n'.length);
    const bytes = parseRobots(new TextEncoder().encode(text));
    expect(bytes.bytes).toBe(robots.bytes);
    expect(bytes.lines).toBe(robots.lines);
  });
});

test.prop([anyString])('parseLlmsTxt and parseAiTxt are total', (text) => {
  const llms = parseLlmsTxt(text);
  expect(llms.linkCount).toBeGreaterThanOrEqual(
    llms.sections.reduce((sum, section) => sum + section.links.length, 0),
  );
  const ai = parseAiTxt(text);
  expect(['robots-style', 'unrecognised']).toContain(ai.format);
});

// ---------------------------------------------------------------------------
// The audit
// ---------------------------------------------------------------------------

const outcomeArbitrary: fc.Arbitrary<FileOutcome> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(200, 204, 301, 304, 403, 404, 410, 429, 500, 503),
        fc.integer({ min: 0, max: 999 }),
      ),
      fc.oneof(
        robotsText.map((t) => new TextEncoder().encode(t)),
        bytesArbitrary,
      ),
      fc.constantFrom(null, 'text/plain', 'text/html', 'text/plain; charset=iso-8859-1'),
      fc.array(fc.constant('https://example.com/r'), { maxLength: 7 }),
    )
    .map(([status, bytes, contentType, redirects]) => ({
      ok: true as const,
      doc: { status, bytes, contentType, redirects },
    })),
  fc
    .tuple(
      fc.constantFrom(
        'dns_failure',
        'timeout',
        'connection_refused',
        'connection_reset',
        'tls_error',
        'protocol_error',
        'too_many_redirects',
        'redirect_loop',
        'body_too_large',
        'blocked_ssrf',
        'invalid_url',
        'internal_error',
      ),
      fc.option(fc.constantFrom(200, 502), { nil: undefined }),
    )
    .map(([error, status]) => ({ ok: false as const, error, status })),
);

describe('auditRobots', () => {
  test.prop([
    outcomeArbitrary,
    fc.option(outcomeArbitrary),
    fc.option(outcomeArbitrary),
    fc.stringMatching(/^\/[a-z/*$%]{0,12}$/),
  ])('is total, deterministic and consistent', (robotsTxt, llmsTxt, aiTxt, path) => {
    const input = { origin: 'https://example.com', robotsTxt, llmsTxt, aiTxt };
    const result = auditRobots(input, { path });
    const again = auditRobots(input, { path });
    expect(again).toStrictEqual(result);
    if (!result.ok) {
      expect(robotsTxt.ok).toBe(false);
      return;
    }
    expect(JSON.parse(result.text)).toStrictEqual(result.data);
    const { verdicts, summary } = result.data;
    expect(verdicts.map((v) => v.agent)).toStrictEqual(AI_CRAWLERS.map((c) => c.token));
    expect(summary.allowed + summary.blocked).toBe(AI_CRAWLERS.length);
    expect(summary.blockedAgents).toStrictEqual(
      verdicts.filter((v) => v.verdict === 'blocked').map((v) => v.agent),
    );
    for (const verdict of verdicts) {
      expect(verdict.rule !== null).toBe(
        verdict.reason === 'allow-rule' || verdict.reason === 'disallow-rule',
      );
      if (verdict.decidedBy === 'ai.txt')
        expect(['training', 'dataset']).toContain(verdict.purpose);
    }
  });

  test.prop([robotsText, fc.constantFrom('/', '/a', '/b/', '/robots.txt')])(
    'gives the robots.txt verdict of isAllowed when ai.txt is absent',
    (text, path) => {
      const result = auditRobots(
        {
          origin: 'example.com',
          robotsTxt: { ok: true, doc: { status: 200, bytes: new TextEncoder().encode(text) } },
        },
        { path },
      );
      if (!result.ok) throw new Error('expected a result');
      const robots = parseRobots(text);
      for (const verdict of result.data.verdicts) {
        expect(verdict.verdict === 'allowed').toBe(isAllowed(robots, verdict.agent, path));
      }
    },
  );

  test.prop([robotsText])('gives the same text whatever the key order of the input', (text) => {
    const robotsTxt = {
      ok: true as const,
      doc: { status: 200, bytes: new TextEncoder().encode(text) },
    };
    const one = auditRobots({ origin: 'example.com', robotsTxt, llmsTxt: null });
    const two = auditRobots({ llmsTxt: null, robotsTxt, origin: 'example.com' });
    expect(one.ok && two.ok && one.text === two.text).toBe(true);
  });
});
