import { describe, expect, it } from 'vitest';
import { isAllowed, matchRobots, normalizeRobotsPath, parseRobots } from '../src/index.js';

/**
 * One matcher case: the file, the crawler's product token, the path, the expected
 * answer and, when a rule decides, the line of that rule (null: no rule decided).
 */
interface Case {
  readonly robots: string;
  readonly agent: string;
  readonly path: string;
  readonly allowed: boolean;
  readonly line?: number | null;
}

function table(title: string, cases: readonly (readonly [string, Case])[]): void {
  describe(title, () => {
    it.each(cases.map(([name, c]) => ({ name, ...c })))('$name', (c) => {
      const robots = parseRobots(c.robots);
      const match = matchRobots(robots, c.agent, c.path);
      expect(match.allowed).toBe(c.allowed);
      expect(isAllowed(robots, c.agent, c.path)).toBe(c.allowed);
      if (c.line !== undefined) expect(match.rule?.line ?? null).toBe(c.line);
    });
  });
}

const c = (
  robots: string,
  agent: string,
  path: string,
  allowed: boolean,
  line?: number | null,
): Case =>
  line === undefined ? { robots, agent, path, allowed } : { robots, agent, path, allowed, line };

// RFC 9309 §5.1, verbatim (the figure ends with an "EOF" marker line, kept on purpose:
// it is an unknown record and must be ignored).
const RFC_5_1 = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

table('RFC 9309 §5.1 simple example', [
  ['foobot may fetch /example/page.html', c(RFC_5_1, 'foobot', '/example/page.html', true, 8)],
  ['foobot may fetch /example/allowed.gif', c(RFC_5_1, 'foobot', '/example/allowed.gif', true, 9)],
  ['foobot may not fetch /', c(RFC_5_1, 'foobot', '/', false, 7)],
  [
    'foobot may not fetch /example/other.html',
    c(RFC_5_1, 'foobot', '/example/other.html', false, 7),
  ],
  [
    'foobot may not fetch /publications/ (no * inheritance)',
    c(RFC_5_1, 'foobot', '/publications/x', false, 7),
  ],
  [
    'foobot: the Allow is a prefix, so /example/page.html.bak is allowed',
    c(RFC_5_1, 'foobot', '/example/page.html.bak', true, 8),
  ],
  ['FooBot matches foobot case-insensitively', c(RFC_5_1, 'FooBot', '/', false, 7)],
  [
    'barbot may not fetch /example/page.html',
    c(RFC_5_1, 'barbot', '/example/page.html', false, 13),
  ],
  [
    'bazbot may not fetch /example/page.html',
    c(RFC_5_1, 'bazbot', '/example/page.html', false, 13),
  ],
  ['barbot may fetch /example/other.html', c(RFC_5_1, 'barbot', '/example/other.html', true, null)],
  ['bazbot may fetch a .gif (no * inheritance)', c(RFC_5_1, 'bazbot', '/image.gif', true, null)],
  [
    'quxbot (empty group at the end) may fetch anything',
    c(RFC_5_1, 'quxbot', '/example/page.html', true, null),
  ],
  ['quxbot does not fall back to * for .gif', c(RFC_5_1, 'quxbot', '/a.gif', true, null)],
  ['another bot gets * : /example/ is disallowed', c(RFC_5_1, 'otherbot', '/example/x', false, 3)],
  ['another bot gets * : a .gif is disallowed', c(RFC_5_1, 'otherbot', '/pics/cat.gif', false, 2)],
  [
    'another bot gets * : $ ends the .gif match',
    c(RFC_5_1, 'otherbot', '/cat.gif?size=2', true, null),
  ],
  [
    'another bot gets * : /publications/ is allowed',
    c(RFC_5_1, 'otherbot', '/publications/x.html', true, 4),
  ],
  [
    'another bot gets * : the longer Allow beats *.gif$',
    c(RFC_5_1, 'otherbot', '/publications/a.gif', true, 4),
  ],
  [
    'another bot gets * : the longer Disallow beats *.gif$ too',
    c(RFC_5_1, 'otherbot', '/example/a.gif', false, 3),
  ],
  ['another bot gets * : / is allowed', c(RFC_5_1, 'otherbot', '/', true, null)],
  ['the EOF marker line is ignored', c(RFC_5_1, 'EOF', '/example/x', false, 3)],
]);

// RFC 9309 §5.2.
const RFC_5_2 = `User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
`;

table('RFC 9309 §5.2 longest match', [
  ['the longer Disallow wins', c(RFC_5_2, 'foobot', '/example/page/disallowed.gif', false, 3)],
  ['the Allow covers the rest of the folder', c(RFC_5_2, 'foobot', '/example/page/', true, 2)],
  ['a sibling file is allowed', c(RFC_5_2, 'foobot', '/example/page/allowed.gif', true, 2)],
  [
    'the Disallow is a prefix too',
    c(RFC_5_2, 'foobot', '/example/page/disallowed.gif.html', false, 3),
  ],
  ['outside both rules: allowed by default', c(RFC_5_2, 'foobot', '/example/', true, null)],
  [
    'the group does not apply to other bots',
    c(RFC_5_2, 'barbot', '/example/page/disallowed.gif', true, null),
  ],
]);

table('RFC 9309 §2.2.1 user-agent lines and groups', [
  [
    'duplicate groups for one agent are merged (figure 2)',
    c(
      'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n',
      'ExampleBot',
      '/baz',
      false,
      6,
    ),
  ],
  [
    'merged groups keep the first group rules',
    c(
      'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n',
      'ExampleBot',
      '/bar/x',
      false,
      3,
    ),
  ],
  [
    'merged groups: longest match across groups',
    c(
      'user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /\n\nuser-agent: a\nallow: /x/y\n',
      'a',
      '/x/y/z',
      true,
      8,
    ),
  ],
  [
    'merged groups: a tie across groups goes to allow',
    c('user-agent: a\ndisallow: /x\n\nuser-agent: a\nallow: /x\n', 'a', '/x', true, 5),
  ],
  [
    'merging is case-insensitive',
    c(
      'user-agent: ExampleBot\ndisallow: /foo\n\nuser-agent: examplebot\ndisallow: /baz\n',
      'EXAMPLEBOT',
      '/baz',
      false,
      5,
    ),
  ],
  [
    'the * group applies when no group matches (figure 3)',
    c(
      'user-agent: *\ndisallow: /something\n\nuser-agent: foobot\ndisallow: /else\n',
      'ExampleBot',
      '/something',
      false,
      2,
    ),
  ],
  [
    'a matching group replaces the * group entirely',
    c(
      'user-agent: *\ndisallow: /something\n\nuser-agent: foobot\ndisallow: /else\n',
      'foobot',
      '/something',
      true,
      null,
    ),
  ],
  [
    'several * groups are merged',
    c('user-agent: *\ndisallow: /a\n\nuser-agent: *\ndisallow: /b\n', 'x', '/b', false, 5),
  ],
  [
    'no group matches and no * group: allowed',
    c('user-agent: foobot\ndisallow: /\n', 'barbot', '/', true, null),
  ],
  ['no groups at all: allowed', c('# nothing here\n', 'barbot', '/private', true, null)],
  ['an empty file allows everything', c('', 'barbot', '/private', true, null)],
  [
    'agent matching is case-insensitive (file upper, crawler lower)',
    c('User-agent: GOOGLEBOT\nDisallow: /\n', 'googlebot', '/', false, 2),
  ],
  [
    'agent matching is case-insensitive (file lower, crawler mixed)',
    c('User-agent: gptbot\nDisallow: /\n', 'GPTBot', '/', false, 2),
  ],
  [
    'a version after the token still names the token',
    c('User-agent: ExampleBot/1.0\nDisallow: /\n', 'ExampleBot', '/', false, 2),
  ],
  [
    'the crawler may pass its whole User-Agent value',
    c(
      'User-agent: ExampleBot\nDisallow: /\n',
      'ExampleBot/1.0 (+https://www.example.com/bot)',
      '/',
      false,
      2,
    ),
  ],
  [
    'tokens are whole: a longer token is another agent',
    c('User-agent: Googlebot\nDisallow: /\n', 'Googlebot-News', '/', true, null),
  ],
  [
    'tokens are whole: a shorter token is another agent',
    c('User-agent: Googlebot-News\nDisallow: /\n', 'Googlebot', '/', true, null),
  ],
  [
    'tokens are not prefixes of the file value',
    c('User-agent: foobotx\nDisallow: /\n', 'foobot', '/', true, null),
  ],
  [
    'hyphens and underscores belong to the token',
    c('User-agent: foo_bar-baz\nDisallow: /\n', 'foo_bar-baz', '/', false, 2),
  ],
  [
    'a specific group wins even listed after *',
    c('User-agent: *\nAllow: /\n\nUser-agent: bot\nDisallow: /\n', 'bot', '/x', false, 5),
  ],
  [
    'several agents share one group',
    c('User-agent: a\nUser-agent: b\nDisallow: /x\n', 'b', '/x', false, 3),
  ],
  [
    'blank lines between user-agent lines keep one group',
    c('User-agent: a\n\nUser-agent: b\nDisallow: /x\n', 'a', '/x', false, 4),
  ],
  [
    'comment lines between user-agent lines keep one group',
    c('User-agent: a\n# b too\nUser-agent: b\nDisallow: /x\n', 'a', '/x', false, 4),
  ],
  [
    'a user-agent line after a rule starts a new group',
    c('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n', 'a', '/y', true, null),
  ],
  [
    '...and the new group holds only the later rules',
    c('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n', 'b', '/x', true, null),
  ],
  [
    'an empty Disallow still closes the agent list',
    c('User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /y\n', 'a', '/y', true, null),
  ],
  [
    '* followed by a comment is the catch-all',
    c('User-agent: * # everyone\nDisallow: /x\n', 'bot', '/x', false, 2),
  ],
  ['*bot is not the catch-all', c('User-agent: *bot\nDisallow: /x\n', 'bot', '/x', true, null)],
  [
    'a user-agent value starting with a digit names no one',
    c('User-agent: 2bot\nDisallow: /x\n', 'bot', '/x', true, null),
  ],
  ['the crawler * uses the * group', c('User-agent: *\nDisallow: /x\n', '*', '/x', false, 2)],
  [
    'an empty crawler token uses the * group',
    c('User-agent: *\nDisallow: /x\n', '', '/x', false, 2),
  ],
  [
    'a crawler token of punctuation uses the * group',
    c('User-agent: *\nDisallow: /x\n\nUser-agent: bot\nAllow: /\n', '!!!', '/x', false, 2),
  ],
]);

table('RFC 9309 §2.2.2 allow, disallow and the most specific match', [
  [
    'a Disallow prefix blocks deeper paths',
    c('User-agent: *\nDisallow: /private\n', 'bot', '/private/a/b', false, 2),
  ],
  [
    'a Disallow prefix blocks longer names too',
    c('User-agent: *\nDisallow: /private\n', 'bot', '/private-stuff', false, 2),
  ],
  [
    'a trailing slash limits the prefix to the folder',
    c('User-agent: *\nDisallow: /private/\n', 'bot', '/private', true, null),
  ],
  [
    'a path that is a prefix of the rule does not match',
    c('User-agent: *\nDisallow: /private/file\n', 'bot', '/private/', true, null),
  ],
  [
    'matching starts at the first octet',
    c('User-agent: *\nDisallow: /b\n', 'bot', '/a/b', true, null),
  ],
  [
    'the longest match wins: Allow longer',
    c('User-agent: *\nDisallow: /a\nAllow: /a/b\n', 'bot', '/a/b/c', true, 3),
  ],
  [
    'the longest match wins: Disallow longer',
    c('User-agent: *\nAllow: /a\nDisallow: /a/b\n', 'bot', '/a/b/c', false, 3),
  ],
  [
    'order in the file does not matter',
    c('User-agent: *\nAllow: /a/b\nDisallow: /a\n', 'bot', '/a/b', true, 2),
  ],
  [
    'allow wins a tie of equal patterns',
    c('User-agent: *\nDisallow: /page\nAllow: /page\n', 'bot', '/page', true, 3),
  ],
  [
    'allow wins a tie whatever the order',
    c('User-agent: *\nAllow: /page\nDisallow: /page\n', 'bot', '/page', true, 2),
  ],
  [
    'allow wins a tie of equal length, different patterns',
    c('User-agent: *\nDisallow: /*.php\nAllow: /a/b.p\n', 'bot', '/a/b.php', true, 3),
  ],
  [
    'Allow: / and Disallow: / tie: allowed',
    c('User-agent: *\nDisallow: /\nAllow: /\n', 'bot', '/x', true, 3),
  ],
  [
    'Disallow: / blocks everything',
    c('User-agent: *\nDisallow: /\n', 'bot', '/any/thing?x=1', false, 2),
  ],
  ['Disallow: / blocks the root', c('User-agent: *\nDisallow: /\n', 'bot', '/', false, 2)],
  ['an empty Disallow allows everything', c('User-agent: *\nDisallow:\n', 'bot', '/x', true, null)],
  [
    'an empty Disallow with spaces allows everything',
    c('User-agent: *\nDisallow:    \n', 'bot', '/x', true, null),
  ],
  [
    'an empty Disallow does not undo another rule',
    c('User-agent: *\nDisallow:\nDisallow: /x\n', 'bot', '/x', false, 3),
  ],
  [
    'an empty Allow changes nothing',
    c('User-agent: *\nAllow:\nDisallow: /\n', 'bot', '/x', false, 3),
  ],
  ['no rule matches: allowed', c('User-agent: *\nDisallow: /x\n', 'bot', '/y', true, null)],
  [
    'a group without rules allows everything',
    c('User-agent: bot\n\nUser-agent: *\n', 'bot', '/y', true, null),
  ],
  [
    'duplicate rules are harmless',
    c('User-agent: *\nDisallow: /x\nDisallow: /x\n', 'bot', '/x', false, 2),
  ],
  [
    'rules before the first user-agent line are ignored',
    c('Disallow: /\nUser-agent: *\nDisallow: /x\n', 'bot', '/y', true, null),
  ],
  [
    'rules before the first user-agent are ignored even alone',
    c('Disallow: /\n', 'bot', '/', true, null),
  ],
  [
    'paths are case-sensitive (rule lower)',
    c('User-agent: *\nDisallow: /private\n', 'bot', '/Private', true, null),
  ],
  [
    'paths are case-sensitive (rule upper)',
    c('User-agent: *\nDisallow: /Private\n', 'bot', '/private', true, null),
  ],
  [
    'paths are case-sensitive (exact case)',
    c('User-agent: *\nDisallow: /Private\n', 'bot', '/Private', false, 2),
  ],
  [
    'the query is part of the path',
    c('User-agent: *\nDisallow: /search?q=\n', 'bot', '/search?q=shoes', false, 2),
  ],
  [
    'the query does not match without ?',
    c('User-agent: *\nDisallow: /search?q=\n', 'bot', '/search', true, null),
  ],
  [
    '/robots.txt is implicitly allowed',
    c('User-agent: *\nDisallow: /\n', 'bot', '/robots.txt', true, null),
  ],
  [
    '/robots.txt is allowed even when named',
    c('User-agent: *\nDisallow: /robots.txt\n', 'bot', '/robots.txt', true, null),
  ],
  [
    '/robots.txt with a query is an ordinary path',
    c('User-agent: *\nDisallow: /\n', 'bot', '/robots.txt?x', false, 2),
  ],
  [
    '/robots.txt.bak is an ordinary path',
    c('User-agent: *\nDisallow: /\n', 'bot', '/robots.txt.bak', false, 2),
  ],
  [
    '/ROBOTS.TXT is an ordinary path',
    c('User-agent: *\nDisallow: /\n', 'bot', '/ROBOTS.TXT', false, 2),
  ],
]);

table('RFC 9309 §2.2.2 percent-encoding (Table 1 and RFC 3986 octets)', [
  [
    'Table 1 row 1: /foo/bar?baz=quz matches itself',
    c('User-agent: *\nDisallow: /foo/bar?baz=quz\n', 'bot', '/foo/bar?baz=quz', false, 2),
  ],
  [
    'Table 1 row 2: an encoded query value matches its encoded form',
    c(
      'User-agent: *\nDisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar\n',
      'bot',
      '/foo/bar?baz=https%3A%2F%2Ffoo.bar',
      false,
      2,
    ),
  ],
  [
    'Table 1 row 2: hex case does not matter',
    c(
      'User-agent: *\nDisallow: /foo/bar?baz=https%3a%2f%2ffoo.bar\n',
      'bot',
      '/foo/bar?baz=https%3A%2F%2Ffoo.bar',
      false,
      2,
    ),
  ],
  [
    'Table 1 row 3: a raw UTF-8 rule matches the encoded path',
    c('User-agent: *\nDisallow: /foo/bar/ツ\n', 'bot', '/foo/bar/%E3%83%84', false, 2),
  ],
  [
    'Table 1 row 3: a raw UTF-8 path matches the raw rule',
    c('User-agent: *\nDisallow: /foo/bar/ツ\n', 'bot', '/foo/bar/ツ', false, 2),
  ],
  [
    'Table 1 row 4: an encoded rule matches the raw path',
    c('User-agent: *\nDisallow: /foo/bar/%E3%83%84\n', 'bot', '/foo/bar/ツ', false, 2),
  ],
  [
    'Table 1 row 4: lower-case hex in the path',
    c('User-agent: *\nDisallow: /foo/bar/%E3%83%84\n', 'bot', '/foo/bar/%e3%83%84', false, 2),
  ],
  [
    'Table 1 row 5: encoded unreserved octets are decoded in the path',
    c('User-agent: *\nDisallow: /foo/bar/baz\n', 'bot', '/foo/bar/%62%61%7A', false, 2),
  ],
  [
    'Table 1 row 5: ...and in the rule',
    c('User-agent: *\nDisallow: /foo/bar/%62%61%7A\n', 'bot', '/foo/bar/baz', false, 2),
  ],
  [
    '%2F is not /: an encoded slash in the path',
    c('User-agent: *\nDisallow: /a/b\n', 'bot', '/a%2Fb', true, null),
  ],
  [
    '%2F is not /: an encoded slash in the rule',
    c('User-agent: *\nDisallow: /a%2Fb\n', 'bot', '/a/b', true, null),
  ],
  ['%2F matches %2f', c('User-agent: *\nDisallow: /a%2Fb\n', 'bot', '/a%2fb', false, 2)],
  ['%3F is not ?', c('User-agent: *\nDisallow: /a?b\n', 'bot', '/a%3Fb', true, null)],
  [
    '%7E and ~ are the same (unreserved)',
    c('User-agent: *\nDisallow: /~joe/\n', 'bot', '/%7Ejoe/notes', false, 2),
  ],
  [
    '%2D and - are the same (unreserved)',
    c('User-agent: *\nDisallow: /a%2Db\n', 'bot', '/a-b', false, 2),
  ],
  [
    'a space in a rule matches %20',
    c('User-agent: *\nDisallow: /a b\n', 'bot', '/a%20b', false, 2),
  ],
  [
    '%20 in a rule matches a raw space',
    c('User-agent: *\nDisallow: /a%20b\n', 'bot', '/a b', false, 2),
  ],
  [
    'é raw in the path, encoded in the rule',
    c('User-agent: *\nDisallow: /caf%C3%A9\n', 'bot', '/café', false, 2),
  ],
  [
    'é decomposed is another octet sequence',
    c('User-agent: *\nDisallow: /café\n', 'bot', '/cafe\u0301', true, null),
  ],
  [
    'a stray % is compared as %25',
    c('User-agent: *\nDisallow: /100%\n', 'bot', '/100%25', false, 2),
  ],
  [
    'a full URL as the path uses its path and query',
    c('User-agent: *\nDisallow: /a?b\n', 'bot', 'https://example.com/a?b=1#frag', false, 2),
  ],
  [
    'the fragment of a path is dropped',
    c('User-agent: *\nDisallow: /a$\n', 'bot', '/a#section', false, 2),
  ],
]);

table('RFC 9309 §2.2.3 special characters', [
  [
    '# starts a comment after a rule',
    c('User-agent: *\nDisallow: /a # not /a#b\n', 'bot', '/a', false, 2),
  ],
  [
    '# makes the rest of the pattern a comment',
    c('User-agent: *\nDisallow: /a#b\n', 'bot', '/a', false, 2),
  ],
  [
    'a comment-only line changes nothing',
    c('User-agent: *\n# Disallow: /\n', 'bot', '/', true, null),
  ],
  [
    '$ anchors: the exact path matches',
    c('User-agent: *\nDisallow: /this/path/exactly$\n', 'bot', '/this/path/exactly', false, 2),
  ],
  [
    '$ anchors: a longer path does not match',
    c(
      'User-agent: *\nDisallow: /this/path/exactly$\n',
      'bot',
      '/this/path/exactly/more',
      true,
      null,
    ),
  ],
  [
    '$ anchors: a query makes the path longer',
    c('User-agent: *\nDisallow: /this$\n', 'bot', '/this?x', true, null),
  ],
  ['/$ matches only the root', c('User-agent: *\nDisallow: /$\n', 'bot', '/', false, 2)],
  ['/$ does not match a page', c('User-agent: *\nDisallow: /$\n', 'bot', '/page', true, null)],
  [
    '$ in the middle is an ordinary character',
    c('User-agent: *\nDisallow: /a$b\n', 'bot', '/a$b/c', false, 2),
  ],
  [
    '$ in the middle does not anchor',
    c('User-agent: *\nDisallow: /a$b\n', 'bot', '/a', true, null),
  ],
  [
    '* matches any characters',
    c('User-agent: *\nAllow: /this/*/exactly\nDisallow: /\n', 'bot', '/this/a/b/exactly', true, 2),
  ],
  ['* matches zero characters', c('User-agent: *\nDisallow: /a*b\n', 'bot', '/ab', false, 2)],
  ['* can span slashes', c('User-agent: *\nDisallow: /a*/z\n', 'bot', '/a/b/c/z', false, 2)],
  [
    '* then a literal that is absent',
    c('User-agent: *\nDisallow: /a*z\n', 'bot', '/a/b/c', true, null),
  ],
  [
    'leading * matches anywhere',
    c('User-agent: *\nDisallow: *private\n', 'bot', '/x/private/y', false, 2),
  ],
  ['*.gif$ matches a gif', c('User-agent: *\nDisallow: /*.gif$\n', 'bot', '/a/b.gif', false, 2)],
  [
    '*.gif$ does not match .gifs',
    c('User-agent: *\nDisallow: /*.gif$\n', 'bot', '/a/b.gifs', true, null),
  ],
  [
    '*.gif$ uses the last .gif',
    c('User-agent: *\nDisallow: /*.gif$\n', 'bot', '/a.gif/b.gif', false, 2),
  ],
  [
    'a trailing * is the same as none',
    c('User-agent: *\nDisallow: /fish*\n', 'bot', '/fishheads', false, 2),
  ],
  [
    'a trailing * still needs the prefix',
    c('User-agent: *\nDisallow: /fish*\n', 'bot', '/Fish', true, null),
  ],
  [
    '/*.php matches in a folder',
    c('User-agent: *\nDisallow: /*.php\n', 'bot', '/folder/filename.php?parameters', false, 2),
  ],
  [
    '/*.php is case-sensitive',
    c('User-agent: *\nDisallow: /*.php\n', 'bot', '/windows.PHP', true, null),
  ],
  [
    '/*.php$ refuses a query',
    c('User-agent: *\nDisallow: /*.php$\n', 'bot', '/filename.php?parameters', true, null),
  ],
  [
    '/fish*.php matches across',
    c(
      'User-agent: *\nDisallow: /fish*.php\n',
      'bot',
      '/fishheads/catfish.php?parameters',
      false,
      2,
    ),
  ],
  [
    '/fish*.php is case-sensitive',
    c('User-agent: *\nDisallow: /fish*.php\n', 'bot', '/Fish.PHP', true, null),
  ],
  ['** is the same as *', c('User-agent: *\nDisallow: /a**b\n', 'bot', '/a/x/b', false, 2)],
  ['* alone matches everything', c('User-agent: *\nDisallow: *\n', 'bot', '/x', false, 2)],
  ['*$ matches everything', c('User-agent: *\nDisallow: *$\n', 'bot', '/x', false, 2)],
  ['/*$ matches everything', c('User-agent: *\nDisallow: /*$\n', 'bot', '/x/y', false, 2)],
  [
    'an anchored tail may not overlap the prefix',
    c('User-agent: *\nDisallow: /ab*ba$\n', 'bot', '/aba', true, null),
  ],
  [
    'an anchored tail right after the prefix',
    c('User-agent: *\nDisallow: /ab*ba$\n', 'bot', '/abba', false, 2),
  ],
  [
    'a middle piece must come after the previous one',
    c('User-agent: *\nDisallow: /*b*a$\n', 'bot', '/ab', true, null),
  ],
  ['middle pieces in order', c('User-agent: *\nDisallow: /*a*b*c\n', 'bot', '/xaybzc', false, 2)],
  [
    'middle pieces out of order',
    c('User-agent: *\nDisallow: /*a*b*c\n', 'bot', '/xcybza', true, null),
  ],
  [
    'repeated pieces need repeated occurrences',
    c('User-agent: *\nDisallow: /*aa*aa$\n', 'bot', '/aaa', true, null),
  ],
  [
    'repeated pieces with enough occurrences',
    c('User-agent: *\nDisallow: /*aa*aa$\n', 'bot', '/aaaa', false, 2),
  ],
  [
    'Table 3: %2A in a pattern matches a literal *',
    c(
      'User-agent: *\nDisallow: /path/file-with-a-%2A.html\n',
      'bot',
      'https://www.example.com/path/file-with-a-*.html',
      false,
      2,
    ),
  ],
  [
    'Table 3: %2A is not a wildcard',
    c(
      'User-agent: *\nDisallow: /path/file-with-a-%2A.html\n',
      'bot',
      '/path/file-with-a-x.html',
      true,
      null,
    ),
  ],
  [
    'Table 3: %24 in a pattern matches a literal $',
    c(
      'User-agent: *\nDisallow: /path/foo-%24\n',
      'bot',
      'https://www.example.com/path/foo-$',
      false,
      2,
    ),
  ],
  [
    'Table 3: %24 is not an anchor',
    c('User-agent: *\nDisallow: /path/foo-%24\n', 'bot', '/path/foo-$/more', false, 2),
  ],
  [
    'Table 3: %24 does not match the end of the path',
    c('User-agent: *\nDisallow: /path/foo-%24\n', 'bot', '/path/foo-', true, null),
  ],
  [
    'the longer of two wildcards patterns wins',
    c(
      'User-agent: *\nAllow: /*.html\nDisallow: /*/private/*\n',
      'bot',
      '/a/private/b.html',
      false,
      3,
    ),
  ],
  [
    'length counts the wildcard characters',
    c('User-agent: *\nAllow: /p*\nDisallow: /pa\n', 'bot', '/pa', true, 2),
  ],
]);

table('Syntax tolerance (RFC 9309 §2.2 ABNF, §2.2.4, §2.3.1.5)', [
  [
    'directive names are case-insensitive',
    c('USER-AGENT: *\nDISALLOW: /x\n', 'bot', '/x', false, 2),
  ],
  ['mixed-case directive names', c('uSeR-aGeNt: *\ndIsAlLoW: /x\n', 'bot', '/x', false, 2)],
  ['no space after the colon', c('User-agent:*\nDisallow:/x\n', 'bot', '/x', false, 2)],
  [
    'spaces and tabs around key and value',
    c(' \tUser-agent \t: \t* \t\n\t Disallow\t :  /x \t\n', 'bot', '/x', false, 2),
  ],
  ['CRLF line endings', c('User-agent: *\r\nDisallow: /x\r\n', 'bot', '/x', false, 2)],
  ['CR line endings', c('User-agent: *\rDisallow: /x\r', 'bot', '/x', false, 2)],
  [
    'mixed line endings count lines alike',
    c('User-agent: a\r\n\rUser-agent: *\nDisallow: /x\r\n', 'bot', '/x', false, 4),
  ],
  ['a UTF-8 BOM is ignored', c('\uFEFFUser-agent: *\nDisallow: /x\n', 'bot', '/x', false, 2)],
  ['no final newline', c('User-agent: *\nDisallow: /x', 'bot', '/x', false, 2)],
  [
    'unknown records are ignored',
    c('User-agent: *\nNoindex: /x\nDisallow: /y\n', 'bot', '/x', true, null),
  ],
  [
    'unknown records do not end a group',
    c('User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n', 'a', '/x', false, 4),
  ],
  [
    'a Sitemap line does not end a group',
    c('User-agent: a\nSitemap: https://example.com/s.xml\nDisallow: /x\n', 'a', '/x', false, 3),
  ],
  [
    'a Sitemap line between agents keeps one group',
    c(
      'User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n',
      'a',
      '/x',
      false,
      4,
    ),
  ],
  [
    'Host and Clean-param records are ignored',
    c(
      'User-agent: *\nHost: example.com\nClean-param: ref /x\nDisallow: /z\n',
      'bot',
      '/z',
      false,
      4,
    ),
  ],
  [
    'a line without a colon: "Disallow /x"',
    c('User-agent: *\nDisallow /x\n', 'bot', '/x', false, 2),
  ],
  [
    'a line without a colon and three words is ignored',
    c('User-agent: *\nDisallow /x /y\n', 'bot', '/x', true, null),
  ],
  ['"Disalow" is read as Disallow', c('User-agent: *\nDisalow: /x\n', 'bot', '/x', false, 2)],
  ['"Dissallow" is read as Disallow', c('User-agent: *\nDissallow: /x\n', 'bot', '/x', false, 2)],
  ['"Useragent" is read as User-agent', c('Useragent: *\nDisallow: /x\n', 'bot', '/x', false, 2)],
  [
    '"User agent" is read as User-agent',
    c('User agent: bot\nDisallow: /x\n', 'bot', '/x', false, 2),
  ],
  [
    'a pattern without a leading slash is read from the root',
    c('User-agent: *\nDisallow: private\n', 'bot', '/private/a', false, 2),
  ],
  [
    'an HTML page is no rules at all',
    c('<!doctype html>\n<html><body>Disallow: /x</body></html>\n', 'bot', '/x', true, null),
  ],
  [
    'a line of garbage does not stop parsing',
    c('User-agent: *\n%%%%\nDisallow: /x\n', 'bot', '/x', false, 3),
  ],
  [
    'a NUL byte inside a value is encoded',
    c('User-agent: *\nDisallow: /a\u0000b\n', 'bot', '/a%00b', false, 2),
  ],
  [
    'a huge Crawl-delay is ignored, not fatal',
    c('User-agent: *\nCrawl-delay: 99999999999999999999\nDisallow: /x\n', 'bot', '/x', false, 3),
  ],
  [
    'a negative Crawl-delay is ignored, not fatal',
    c('User-agent: *\nCrawl-delay: -5\nDisallow: /x\n', 'bot', '/x', false, 3),
  ],
]);

describe('path normalisation', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['page', '/page'],
    ['/a%2fb', '/a%2Fb'],
    ['/%7e%7E', '/~~'],
    ['/%41%5a%30', '/AZ0'],
    ['/ツ', '/%E3%83%84'],
    ['/😀', '/%F0%9F%98%80'],
    ['/\uD800', '/%EF%BF%BD'],
    ['/a b', '/a%20b'],
    ['/<>"{}|\\^`', '/%3C%3E%22%7B%7D%7C%5C%5E%60'],
    ['/%', '/%25'],
    ['/%g1', '/%25g1'],
    ['/%2A%24', '/*$'],
    ['/x#y', '/x'],
    ['https://example.com', '/'],
    ['HTTPS://example.com/A?b=c#d', '/A?b=c'],
    ["/!$&'()*+,;=:@", "/!$&'()*+,;=:@"],
  ])('%j becomes %j', (input, expected) => {
    expect(normalizeRobotsPath(input)).toBe(expected);
    expect(normalizeRobotsPath(expected)).toBe(expected);
  });
});
