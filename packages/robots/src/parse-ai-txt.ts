import { StorefrontError } from '@storefront/core';
import { AI_TXT_MAX_BYTES } from './limits.js';
import { matchRobots } from './match-robots.js';
import { parseRobotsText } from './parse-robots.js';
import { agentKey } from './product-token.js';
import { type ClippedText, clipText, readBody } from './read-text.js';
import type { ParsedAiTxt, ParsedRobots } from './types.js';

/**
 * Parse an ai.txt file in the Spawning format. Spawning's generator writes robots.txt
 * syntax over file types, for example:
 *
 * ```text
 * # Spawning AI
 * # Prevent datasets from using the following file types
 *
 * User-Agent: *
 * Disallow: *.jpg
 * Disallow: *.mp3
 * Allow: *.txt
 * ```
 *
 * and `Disallow: /` opts everything out. The file is read with the robots.txt parser
 * (same grammar, limits, case rules, `*`/`$` wildcards, longest match, `Allow` wins
 * ties), so it can be matched with `matchRobots(result.robots, agent, path)`. On top,
 * the `*` group's `*.ext` and `/*.ext` rules (optionally ending in `$`) are listed as
 * blocked or allowed file types. A file without any `User-Agent:` line (for example a
 * Markdown "ai.txt" of another convention) is `unrecognised`. Never throws on content.
 *
 * @example
 *   parseAiTxt('User-Agent: *\nDisallow: *.jpg\n').blockedFileTypes // ['jpg']
 */
export function parseAiTxt(input: string | Uint8Array): ParsedAiTxt {
  if (typeof input === 'string') return parseAiText(clipText(input, AI_TXT_MAX_BYTES));
  if (input instanceof Uint8Array) return parseAiText(readBody(input, AI_TXT_MAX_BYTES));
  throw new StorefrontError(
    'invalid_params',
    `Expected ai.txt as a string or a Uint8Array, got \`${input === null ? 'null' : typeof input}\``,
  );
}

/** Parse text already clipped to the parse limit. */
export function parseAiText(clipped: ClippedText): ParsedAiTxt {
  const robots = parseRobotsText(clipped);
  const blocked = new Set<string>();
  const allowed = new Set<string>();
  for (const group of robots.groups) {
    if (!group.agents.some((agent) => agentKey(agent) === '*')) continue;
    for (const rule of group.rules) {
      const extension = fileType(rule.value);
      if (extension === null) continue;
      (rule.type === 'disallow' ? blocked : allowed).add(extension);
    }
  }
  return {
    format: robots.groups.length > 0 ? 'robots-style' : 'unrecognised',
    robots,
    blockedFileTypes: [...blocked].sort(),
    allowedFileTypes: [...allowed].sort(),
    disallowsRoot: disallowsRoot(robots),
  };
}

/** `*.jpg`, `/*.JPG$` → `jpg`; anything else → null. */
function fileType(value: string): string | null {
  const match = /^\/?\*\.([A-Za-z0-9]{1,16})\$?$/.exec(value);
  return match ? (match[1] as string).toLowerCase() : null;
}

function disallowsRoot(robots: ParsedRobots): boolean {
  const hasStar = robots.groups.some((group) => group.agents.some((agent) => agent === '*'));
  return hasStar && !matchRobots(robots, '*', '/').allowed;
}
