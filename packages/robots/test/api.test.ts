import { canonicalize, type ErrorCode, StorefrontError } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as robotsPackage from '../src/index.js';
import {
  AI_CRAWLERS,
  auditRobots,
  CRAWLER_PURPOSES,
  extractProductToken,
  type FileOutcome,
  matchRobots,
  parseAiTxt,
  parseAuditOrigin,
  parseAuditPath,
  parseLlmsTxt,
  parseRobots,
  ROBOTS_AUDIT_VERSION,
  ROBOTS_MAX_RULE_LENGTH,
  ROBOTS_MAX_WARNINGS,
  type RobotsErrorCode,
  type RobotsInput,
} from '../src/index.js';

const encode = (text: string) => new TextEncoder().encode(text);
const response = (
  status: number,
  text = '',
  contentType: string | null = 'text/plain',
): FileOutcome => ({
  ok: true,
  doc: { status, bytes: encode(text), contentType },
});
const failure = (
  error: Extract<FileOutcome, { ok: false }>['error'],
  status?: number,
): FileOutcome => (status === undefined ? { ok: false, error } : { ok: false, error, status });

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(robotsPackage).sort()).toStrictEqual([
      'AI_CRAWLERS',
      'AI_TXT_MAX_BYTES',
      'AI_TXT_MAX_LISTED_FILE_TYPES',
      'AUDIT_DOMAIN_MAX_LENGTH',
      'AUDIT_PATH_MAX_LENGTH',
      'CRAWLER_PURPOSES',
      'LLMS_TXT_MAX_BYTES',
      'LLMS_TXT_MAX_LINKS',
      'ROBOTS_AUDIT_VERSION',
      'ROBOTS_MAX_BYTES',
      'ROBOTS_MAX_CONTENT_TYPE_CHARS',
      'ROBOTS_MAX_FIELD_CHARS',
      'ROBOTS_MAX_PATH_LENGTH',
      'ROBOTS_MAX_REDIRECTS',
      'ROBOTS_MAX_RULES',
      'ROBOTS_MAX_RULE_LENGTH',
      'ROBOTS_MAX_SITEMAPS',
      'ROBOTS_MAX_WARNINGS',
      'auditRobots',
      'extractProductToken',
      'isAllowed',
      'matchRobots',
      'normalizeRobotsPath',
      'parseAiTxt',
      'parseAuditOrigin',
      'parseAuditPath',
      'parseLlmsTxt',
      'parseRobots',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('keeps the caps the spec and security.md name', () => {
    expect(robotsPackage.ROBOTS_MAX_BYTES).toBe(512_000);
    expect(robotsPackage.ROBOTS_MAX_RULES).toBe(2000);
    expect(robotsPackage.ROBOTS_MAX_RULE_LENGTH).toBe(2048);
    expect(robotsPackage.ROBOTS_MAX_REDIRECTS).toBe(5);
    expect(robotsPackage.AUDIT_DOMAIN_MAX_LENGTH).toBe(2048);
    expect(robotsPackage.AUDIT_PATH_MAX_LENGTH).toBe(1024);
    expect(ROBOTS_AUDIT_VERSION).toBe('robots-audit/1');
  });
});

describe('auditRobots result shape', () => {
  const result = auditRobots({
    origin: 'example.com',
    robotsTxt: response(
      200,
      'User-agent: GPTBot\nDisallow: /\nSitemap: https://example.com/s.xml\n',
    ),
    llmsTxt: response(200, '# Example\n> A test site.\n'),
    aiTxt: response(404),
  });

  it('has exactly the spec data fields, with the spec types', () => {
    if (!result.ok) throw new Error('expected ok');
    const { data } = result;
    expect(Object.keys(data).sort()).toStrictEqual([
      'evaluatedPath',
      'host',
      'origin',
      'policies',
      'summary',
      'verdicts',
      'version',
    ]);
    expect(data).toMatchObject({
      version: 'robots-audit/1',
      host: 'example.com',
      origin: 'https://example.com',
      evaluatedPath: '/',
    });
    expect(Object.keys(data.policies).sort()).toStrictEqual(['ai.txt', 'llms.txt', 'robots.txt']);
    for (const verdict of data.verdicts) {
      expect(Object.keys(verdict).sort()).toStrictEqual([
        'agent',
        'decidedBy',
        'purpose',
        'reason',
        'rule',
        'vendor',
        'verdict',
      ]);
      expect(['allowed', 'blocked']).toContain(verdict.verdict);
      expect(verdict.rule === null || typeof verdict.rule === 'string').toBe(true);
    }
    expect(Object.keys(data.summary).sort()).toStrictEqual([
      'allowed',
      'blocked',
      'blockedAgents',
      'hasAiTxt',
      'hasLlmsTxt',
      'hasRobotsTxt',
      'sitemaps',
    ]);
    expect(data.summary).toStrictEqual({
      allowed: AI_CRAWLERS.length - 1,
      blocked: 1,
      blockedAgents: ['GPTBot'],
      sitemaps: ['https://example.com/s.xml'],
      hasLlmsTxt: true,
      hasAiTxt: false,
      hasRobotsTxt: true,
    });
  });

  it('signs the canonical JSON of data', () => {
    if (!result.ok) throw new Error('expected ok');
    expect(result.text).toBe(canonicalize(result.data));
  });

  it('cites the deciding line with its group', () => {
    if (!result.ok) throw new Error('expected ok');
    const gptbot = result.data.verdicts.find((v) => v.agent === 'GPTBot');
    expect(gptbot).toStrictEqual({
      agent: 'GPTBot',
      vendor: 'OpenAI',
      purpose: 'training',
      verdict: 'blocked',
      reason: 'disallow-rule',
      decidedBy: 'robots.txt',
      rule: 'line 2 (user-agent: gptbot): Disallow: /',
    });
  });

  it('takes safe-fetch documents as they are', () => {
    const doc = makeDocument('User-agent: *\nDisallow: /\n', {
      url: 'https://example.com/robots.txt',
      contentType: 'text/plain',
    });
    const fromDoc = auditRobots({ origin: 'https://example.com', robotsTxt: { ok: true, doc } });
    expect(fromDoc.ok && fromDoc.data.summary.blocked).toBe(AI_CRAWLERS.length);
  });
});

describe('auditRobots failures (ok:false, never charged)', () => {
  const refused: RobotsErrorCode[] = ['blocked_ssrf', 'invalid_url', 'internal_error'];
  it.each(refused)(
    'fails with %s when robots.txt was not fetched, even if others answered',
    (code) => {
      const result = auditRobots({
        origin: 'example.com',
        robotsTxt: failure(code),
        llmsTxt: response(200, '# Hi\n'),
        aiTxt: response(404),
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toBe(code);
      expect(result.data?.policies?.['robots.txt'].state).toBe('not-fetched');
      expect(result.data?.verdicts).toBeUndefined();
    },
  );

  const silent: RobotsErrorCode[] = [
    'dns_failure',
    'timeout',
    'connection_refused',
    'connection_reset',
    'tls_error',
    'protocol_error',
    'body_too_large',
  ];
  it.each(silent)('fails with %s when the host answered none of the three requests', (code) => {
    const result = auditRobots({
      origin: 'example.com',
      robotsTxt: failure(code),
      llmsTxt: failure('timeout'),
      aiTxt: null,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(code);
      expect(result.message).toContain(code);
      expect(result.data?.policies?.['robots.txt'].state).toBe('unreachable');
    }
  });

  it('produces every code of RobotsErrorCode', () => {
    const all: RobotsErrorCode[] = [...refused, ...silent];
    expect(new Set(all).size).toBe(10);
  });

  it('gives the RFC verdict (all blocked) when robots.txt failed but another file answered', () => {
    const result = auditRobots({
      origin: 'example.com',
      robotsTxt: failure('timeout'),
      llmsTxt: response(404),
      aiTxt: failure('timeout'),
    });
    expect(result.ok && result.data.summary.blocked).toBe(AI_CRAWLERS.length);
  });

  it('counts a failure that carries a status as an answer (a server error)', () => {
    const result = auditRobots({
      origin: 'example.com',
      robotsTxt: failure('protocol_error', 200),
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data.verdicts.every((v) => v.reason === 'unreachable')).toBe(true);
      expect(result.data.policies['robots.txt'].statusRule).toContain('§2.3.1.4');
    }
  });

  it.each(['too_many_redirects', 'redirect_loop'] as const)(
    'counts %s as an answer that makes robots.txt unavailable (RFC 9309 §2.3.1.2)',
    (code) => {
      const result = auditRobots({ origin: 'example.com', robotsTxt: failure(code) });
      expect(result.ok && result.data.verdicts.every((v) => v.verdict === 'allowed')).toBe(true);
    },
  );
});

describe('auditRobots status rules (RFC 9309 §2.3.1)', () => {
  it.each([
    [200, 'parsed', 'blocked'],
    [204, 'parsed', 'blocked'],
    [301, 'unavailable', 'allowed'],
    [304, 'unavailable', 'allowed'],
    [400, 'unavailable', 'allowed'],
    [401, 'unavailable', 'allowed'],
    [403, 'unavailable', 'allowed'],
    [404, 'unavailable', 'allowed'],
    [410, 'unavailable', 'allowed'],
    [429, 'unavailable', 'allowed'],
    [500, 'unreachable', 'blocked'],
    [502, 'unreachable', 'blocked'],
    [503, 'unreachable', 'blocked'],
    [599, 'unreachable', 'blocked'],
    [0, 'unreachable', 'blocked'],
    [600, 'unreachable', 'blocked'],
  ] as const)('HTTP %i: robots.txt is %s and GPTBot is %s', (status, state, verdict) => {
    const result = auditRobots({
      origin: 'example.com',
      robotsTxt: response(status, 'User-agent: *\nDisallow: /\n'),
    });
    if (!result.ok) throw new Error('expected ok');
    expect(result.data.policies['robots.txt'].state).toBe(state);
    expect(result.data.verdicts.find((v) => v.agent === 'GPTBot')?.verdict).toBe(verdict);
  });

  it('follows at most 5 redirects (RFC 9309 §2.3.1.2)', () => {
    const hops = (n: number): FileOutcome => ({
      ok: true,
      doc: {
        status: 200,
        bytes: encode('User-agent: *\nDisallow: /\n'),
        redirects: Array.from({ length: n }, (_, i) => `https://h${i}.example/robots.txt`),
      },
    });
    const five = auditRobots({ origin: 'example.com', robotsTxt: hops(5) });
    const six = auditRobots({ origin: 'example.com', robotsTxt: hops(6) });
    expect(five.ok && five.data.policies['robots.txt'].state).toBe('parsed');
    expect(six.ok && six.data.policies['robots.txt'].state).toBe('unavailable');
  });
});

describe('auditRobots misuse throws invalid_params', () => {
  const good: RobotsInput = { origin: 'example.com', robotsTxt: response(404) };
  const cases: [string, () => unknown, RegExp][] = [
    ['input not an object', () => auditRobots(null as never), /audit input to be an object/],
    ['robotsTxt missing', () => auditRobots({ origin: 'example.com' } as never), /`robotsTxt`/],
    [
      'doc.bytes not bytes',
      () =>
        auditRobots({
          ...good,
          robotsTxt: { ok: true, doc: { status: 200, bytes: 'x' } } as never,
        }),
      /doc.bytes/,
    ],
    [
      'doc.status not an integer',
      () =>
        auditRobots({
          ...good,
          robotsTxt: { ok: true, doc: { status: 2.5, bytes: new Uint8Array() } },
        }),
      /doc.status/,
    ],
    [
      'an unknown error code',
      () => auditRobots({ ...good, llmsTxt: { ok: false, error: 'ECONNREFUSED' } as never }),
      /ECONNREFUSED/,
    ],
    ['ok missing', () => auditRobots({ ...good, aiTxt: { error: 'timeout' } as never }), /`aiTxt`/],
    ['options not an object', () => auditRobots(good, 'x' as never), /options of `auditRobots`/],
    ['an unknown option', () => auditRobots(good, { crawler: 'x' } as never), /`crawler`/],
    ['path not a string', () => auditRobots(good, { path: 7 as never }), /`path`/],
    ['path too long', () => auditRobots(good, { path: `/${'a'.repeat(1024)}` }), /at most 1024/],
    [
      'origin with another scheme',
      () => auditRobots({ ...good, origin: 'ftp://example.com' }),
      /`ftp:` scheme/,
    ],
    ['origin empty', () => auditRobots({ ...good, origin: ' ' }), /empty/],
    ['parseRobots of a number', () => parseRobots(7 as never), /string or a Uint8Array/],
    ['parseLlmsTxt of null', () => parseLlmsTxt(null as never), /got `null`/],
    ['parseAiTxt of an object', () => parseAiTxt({} as never), /got `object`/],
    ['matchRobots with a number', () => matchRobots(parseRobots(''), 7 as never, '/'), /strings/],
  ];
  it.each(cases)('%s', (_name, run, message) => {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StorefrontError);
    expect((caught as StorefrontError).code).toBe('invalid_params' satisfies ErrorCode);
    expect((caught as StorefrontError).message).toMatch(message);
  });
});

describe('parseAuditOrigin', () => {
  it.each([
    ['example.com', 'https://example.com', 'example.com'],
    ['Example.COM', 'https://example.com', 'example.com'],
    ['  example.com  ', 'https://example.com', 'example.com'],
    ['example.com/some/page?q=1#x', 'https://example.com', 'example.com'],
    ['example.com:8443', 'https://example.com:8443', 'example.com:8443'],
    ['example.com:443/x', 'https://example.com', 'example.com'],
    ['http://example.com', 'http://example.com', 'example.com'],
    ['http://example.com:80/', 'http://example.com', 'example.com'],
    ['HTTPS://Example.com/a', 'https://example.com', 'example.com'],
    ['//example.com/a', 'https://example.com', 'example.com'],
    ['bücher.example', 'https://xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['[2001:db8::1]:8080', 'https://[2001:db8::1]:8080', '[2001:db8::1]:8080'],
    ['203.0.113.9', 'https://203.0.113.9', '203.0.113.9'],
  ])('%j is %s', (domain, origin, host) => {
    expect(parseAuditOrigin(domain)).toStrictEqual({ ok: true, origin, host });
  });

  it.each([
    ['', /empty string/],
    ['   ', /empty string/],
    ['ftp://example.com', /`ftp:` scheme/],
    ['mailto:someone@example.com', /`mailto:` scheme/],
    ['javascript:alert(1)', /`javascript:` scheme/],
    ['file:///etc/passwd', /`file:` scheme/],
    ['https://user:secret@example.com', /without credentials/],
    ['user@example.com', /without credentials/],
    ['http://', /domain name or an http\(s\) URL/],
    ['exa mple.com', /domain name or an http\(s\) URL/],
    [`${'a'.repeat(2049)}`, /at most 2048/],
  ])('refuses %j', (domain, message) => {
    const result = parseAuditOrigin(domain);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a value that is not a string', () => {
    expect(parseAuditOrigin(['example.com'])).toStrictEqual({
      ok: false,
      message: 'Expected `domain` to be a string, got `array`',
    });
  });
});

describe('parseAuditPath', () => {
  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/', '/'],
    ['blog', '/blog'],
    ['/Café?x=%7e#top', '/Caf%C3%A9?x=~'],
    ['https://other.example/a?b', '/a?b'],
  ])('%j is %j', (path, expected) => {
    expect(parseAuditPath(path)).toStrictEqual({ ok: true, path: expected });
  });

  it('refuses more than 1024 characters and non-strings', () => {
    expect(parseAuditPath('/'.repeat(1025)).ok).toBe(false);
    expect(parseAuditPath('/'.repeat(1024)).ok).toBe(true);
    // 1024 characters of 3-byte UTF-8 become 9216 once percent-encoded.
    expect(parseAuditPath(`/${'€'.repeat(227)}`).ok).toBe(true);
    const grown = parseAuditPath(`/${'€'.repeat(228)}`);
    expect(grown.ok).toBe(false);
    if (!grown.ok)
      expect(grown.message).toMatch(/at most 2048 characters once percent-encoded, got 2053/);
    expect(parseAuditPath(3)).toStrictEqual({
      ok: false,
      message: 'Expected `path` to be a string, got `number`',
    });
  });
});

describe('AI_CRAWLERS', () => {
  const required = [
    'GPTBot',
    'ChatGPT-User',
    'OAI-SearchBot',
    'ClaudeBot',
    'Claude-User',
    'Claude-SearchBot',
    'anthropic-ai',
    'Google-Extended',
    'GoogleOther',
    'CCBot',
    'PerplexityBot',
    'Perplexity-User',
    'Bytespider',
    'Applebot-Extended',
    'Meta-ExternalAgent',
    'Meta-ExternalFetcher',
    'Amazonbot',
    'cohere-ai',
    'DuckAssistBot',
    'MistralAI-User',
    'YouBot',
    'Diffbot',
    'Timpibot',
    'ImagesiftBot',
    'omgili',
  ];

  it('lists every required crawler', () => {
    const tokens = AI_CRAWLERS.map((crawler) => crawler.token);
    for (const token of required) expect(tokens).toContain(token);
  });

  it('holds valid, unique product tokens (RFC 9309 §2.2.1)', () => {
    const keys = AI_CRAWLERS.map((crawler) => crawler.token.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    for (const crawler of AI_CRAWLERS) {
      expect(crawler.token).toMatch(/^[A-Za-z_-]+$/);
      expect(extractProductToken(crawler.token)).toBe(crawler.token);
    }
  });

  it('gives each crawler a vendor, a known purpose and a note', () => {
    for (const crawler of AI_CRAWLERS) {
      expect(crawler.vendor).not.toBe('');
      expect(CRAWLER_PURPOSES).toContain(crawler.purpose);
      expect(crawler.note.length).toBeGreaterThan(20);
    }
  });

  it('is ordered by vendor, then token', () => {
    const order = AI_CRAWLERS.map(
      (crawler) => `${crawler.vendor.toLowerCase()}\u0000${crawler.token.toLowerCase()}`,
    );
    expect(order).toStrictEqual([...order].sort());
  });

  it('is frozen', () => {
    expect(Object.isFrozen(AI_CRAWLERS)).toBe(true);
    expect(Object.isFrozen(AI_CRAWLERS[0])).toBe(true);
  });
});

describe('extractProductToken', () => {
  it.each([
    ['GPTBot', 'GPTBot'],
    ['GPTBot/1.2', 'GPTBot'],
    ['Mozilla/5.0 (compatible; GPTBot/1.2)', 'Mozilla'],
    ['  ExampleBot ', 'ExampleBot'],
    ['foo_bar-baz', 'foo_bar-baz'],
    ['*', '*'],
    ['* ', '*'],
    ['*\tx', '*'],
    ['*bot', ''],
    ['2bot', ''],
    ['', ''],
    ['bot2', 'bot'],
  ])('%j gives %j', (value, token) => {
    expect(extractProductToken(value)).toBe(token);
  });
});

describe('parseRobots', () => {
  it('keeps groups, rules, sitemaps and crawl delays', () => {
    const robots = parseRobots(
      'Sitemap: https://example.com/a.xml\nUser-agent: A\nUser-agent: b/2\nCrawl-delay: 2.5\nCrawl-delay: 9\nDisallow: /x  # why\nAllow: /x/y\n\nUser-agent: *\nDisallow:\n',
    );
    expect(robots.groups).toStrictEqual([
      {
        agents: ['A', 'b'],
        line: 2,
        rules: [
          { type: 'disallow', value: '/x', pattern: '/x', line: 6 },
          { type: 'allow', value: '/x/y', pattern: '/x/y', line: 7 },
        ],
        crawlDelay: 2.5,
      },
      { agents: ['*'], line: 9, rules: [], crawlDelay: null },
    ]);
    expect(robots.sitemaps).toStrictEqual(['https://example.com/a.xml']);
    expect(robots.lines).toBe(10);
    expect(robots.rules).toBe(2);
    expect(robots.warnings).toStrictEqual([]);
  });

  it('shows patterns in their compared form', () => {
    const robots = parseRobots(
      'User-agent: *\nDisallow: /café/%7e*%2a$\nDisallow: /a%24\nDisallow: x\n',
    );
    expect(robots.groups[0]?.rules.map((rule) => rule.pattern)).toStrictEqual([
      '/caf%C3%A9/~*%2A$',
      '/a%24',
      '/x',
    ]);
  });

  it('ignores rules longer than ROBOTS_MAX_RULE_LENGTH', () => {
    const long = `/${'a'.repeat(ROBOTS_MAX_RULE_LENGTH)}`;
    const robots = parseRobots(
      `User-agent: *\nDisallow: ${long}\nDisallow: /${'b'.repeat(2046)}\n`,
    );
    expect(robots.rules).toBe(1);
    expect(robots.warnings).toStrictEqual([{ line: 2, issue: 'rule-too-long' }]);
  });

  it('caps the rules at 2,000 and the warnings list at ROBOTS_MAX_WARNINGS', () => {
    const lines = Array.from({ length: 2100 }, (_, i) => `Disallow: /${i}`);
    const robots = parseRobots(`User-agent: *\n${lines.join('\n')}\n`);
    expect(robots.rules).toBe(2000);
    expect(robots.warningCount).toBe(100);
    expect(robots.warnings).toHaveLength(ROBOTS_MAX_WARNINGS);
    expect(robots.warnings[0]).toStrictEqual({ line: 2002, issue: 'too-many-rules' });
  });

  it('reads bytes as UTF-8 and honours a UTF-16 byte order mark', () => {
    const utf8 = parseRobots(encode('\uFEFFUser-agent: *\nDisallow: /ü\n'));
    expect(utf8.groups[0]?.rules[0]?.pattern).toBe('/%C3%BC');
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...[...'User-agent: *\nDisallow: /ü\n'].flatMap((ch) => [ch.charCodeAt(0), 0]),
    ]);
    expect(parseRobots(utf16).groups[0]?.rules[0]?.pattern).toBe('/%C3%BC');
  });

  it('falls back to windows-1252 for bytes that are not UTF-8', () => {
    const robots = parseRobots(
      new Uint8Array([...encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]),
    );
    expect(robots.groups[0]?.rules[0]?.value).toBe('/café');
  });
});

describe('parseLlmsTxt', () => {
  const text = `# Example Shop

> Hand-made mugs.
> Shipped from Lisbon.

Orders ship within a week.

## Docs

- [API](https://shop.example/api.md): the order API
- [Guide [beta]](<https://shop.example/guide.md> "Guide"): how to start
- [Bare](https://shop.example/bare.md)
* https://shop.example/plain.md

\`\`\`
## not a section
- [no](https://shop.example/no.md)
\`\`\`

## Optional

- [History](https://shop.example/history.md) - how it began
`;

  it('reads the title, summary, details and sections', () => {
    const llms = parseLlmsTxt(text);
    expect(llms.title).toBe('Example Shop');
    expect(llms.summary).toBe('Hand-made mugs. Shipped from Lisbon.');
    expect(llms.details).toBe('Orders ship within a week.');
    expect(llms.valid).toBe(true);
    expect(llms.linkCount).toBe(5);
    expect(llms.sections.map((s) => [s.title, s.optional, s.line])).toStrictEqual([
      ['Docs', false, 8],
      ['Optional', true, 20],
    ]);
    expect(llms.sections[0]?.links).toStrictEqual([
      { name: 'API', url: 'https://shop.example/api.md', notes: 'the order API', line: 10 },
      {
        name: 'Guide [beta]',
        url: 'https://shop.example/guide.md',
        notes: 'how to start',
        line: 11,
      },
      { name: 'Bare', url: 'https://shop.example/bare.md', notes: null, line: 12 },
      {
        name: 'https://shop.example/plain.md',
        url: 'https://shop.example/plain.md',
        notes: null,
        line: 13,
      },
    ]);
    expect(llms.sections[1]?.links[0]?.notes).toBe('how it began');
  });

  it('tolerates a file without a title', () => {
    const llms = parseLlmsTxt('- [A](https://x.example/a)\n');
    expect(llms.title).toBeNull();
    expect(llms.valid).toBe(false);
    expect(llms.sections).toStrictEqual([
      {
        title: null,
        optional: false,
        line: 1,
        links: [{ name: 'A', url: 'https://x.example/a', notes: null, line: 1 }],
      },
    ]);
  });

  it('reads long lines of spaces and hashes without backtracking, clipping the title', () => {
    const line = `# ${' '.repeat(100_000)}#${' '.repeat(100_000)}x ##`;
    const title = parseLlmsTxt(line).title ?? '';
    expect(title.length).toBe(1000);
    expect(title.startsWith('#   ')).toBe(true);
    expect(parseLlmsTxt('## Docs ##\n').sections[0]?.title).toBe('Docs');
    expect(parseLlmsTxt('# C#\n').title).toBe('C#');
  });
});

describe('parseAiTxt', () => {
  it('reads file types from the * group', () => {
    const ai = parseAiTxt(
      '# Spawning AI\nUser-Agent: *\nDisallow: *.JPG\nDisallow: /*.png$\nDisallow: /images/\nAllow: *.txt\n\nUser-Agent: GPTBot\nDisallow: *.mp3\n',
    );
    expect(ai.format).toBe('robots-style');
    expect(ai.blockedFileTypes).toStrictEqual(['jpg', 'png']);
    expect(ai.allowedFileTypes).toStrictEqual(['txt']);
    expect(ai.disallowsRoot).toBe(false);
    expect(matchRobots(ai.robots, 'GPTBot', '/song.mp3').allowed).toBe(false);
  });

  it('sees a full opt-out', () => {
    expect(parseAiTxt('User-Agent: *\nDisallow: /\n').disallowsRoot).toBe(true);
    expect(parseAiTxt('User-Agent: *\nDisallow: *\n').disallowsRoot).toBe(true);
    expect(parseAiTxt('User-Agent: GPTBot\nDisallow: /\n').disallowsRoot).toBe(false);
  });

  it('calls a file without groups unrecognised', () => {
    expect(parseAiTxt('# About this site\nWe welcome AI assistants.\n').format).toBe(
      'unrecognised',
    );
  });
});
