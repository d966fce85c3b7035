import { capString, StorefrontError, URL_MAX_CHARS } from '@storefront/core';
import { LLMS_TXT_MAX_BYTES, LLMS_TXT_MAX_LINKS } from './limits.js';
import { type ClippedText, clipText, readBody } from './read-text.js';
import type { LlmsTxtLink, LlmsTxtSection, ParsedLlmsTxt } from './types.js';

/** Characters kept of the title, the summary and each link's name and notes; longer ones end with `…`. */
const MAX_FIELD = 1000;
/** Characters kept of the details text; longer text ends with `…`. */
const MAX_DETAILS = 4000;
/** Sections kept; links of later sections still count in `linkCount`. */
const MAX_SECTIONS = 500;

interface MutableSection {
  title: string | null;
  optional: boolean;
  line: number;
  links: LlmsTxtLink[];
}

/**
 * Parse an llms.txt file (the llmstxt.org format): an `# H1` title, an optional `>`
 * blockquote summary, optional free text, then `## H2` sections whose list items are
 * `[name](url)` links optionally followed by `: notes`. Deviations are tolerated: text
 * before the title, a summary after some text, `*`/`+`/numbered bullets, `<url>` and
 * `"title"` forms, bare URLs as items, links before the first section, and `###`
 * sub-headings (their links stay in the enclosing section). Fenced code blocks are
 * skipped. At most `LLMS_TXT_MAX_BYTES` are read. Never throws on content.
 *
 * @example
 *   parseLlmsTxt('# Shop\n> Hand-made mugs.\n## Docs\n- [API](https://x.test/api.md): endpoints\n').sections[0]?.links[0]?.notes // 'endpoints'
 */
export function parseLlmsTxt(input: string | Uint8Array): ParsedLlmsTxt {
  if (typeof input === 'string') return parseLlmsText(clipText(input, LLMS_TXT_MAX_BYTES));
  if (input instanceof Uint8Array) return parseLlmsText(readBody(input, LLMS_TXT_MAX_BYTES));
  throw new StorefrontError(
    'invalid_params',
    `Expected llms.txt as a string or a Uint8Array, got \`${input === null ? 'null' : typeof input}\``,
  );
}

/** Parse text already clipped to the parse limit. */
export function parseLlmsText(clipped: ClippedText): ParsedLlmsTxt {
  const lines = clipped.text.split(/\r\n|\r|\n/);
  let title: string | null = null;
  let titleFirst = false;
  let sawContent = false;
  let summaryLines: string[] | null = null;
  let summaryDone = false;
  const details: string[] = [];
  const sections: MutableSection[] = [];
  let current: MutableSection | null = null;
  let inSections = false;
  let fence: string | null = null;
  let linkCount = 0;
  let kept = 0;

  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    const lineNumber = index + 1;
    const trimmed = raw.trim();
    // Fenced code: nothing inside is a heading, a quote or a link.
    const fenceMark = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (fence !== null) {
      if (
        fenceMark !== undefined &&
        fenceMark[0] === fence[0] &&
        fenceMark.length >= fence.length
      ) {
        fence = null;
      }
      if (!inSections) details.push(raw);
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      if (!inSections) details.push(raw);
      sawContent = true;
      continue;
    }
    if (trimmed === '') {
      if (summaryLines !== null) summaryDone = true;
      if (!inSections && details.length > 0) details.push('');
      continue;
    }
    const heading = atxHeading(trimmed);
    if (heading) {
      const { level } = heading;
      const text = clip(heading.text, MAX_FIELD);
      if (level === 1 && title === null) {
        title = text;
        titleFirst = !sawContent;
        sawContent = true;
        continue;
      }
      if (level === 2) {
        inSections = true;
        current = null;
        if (sections.length < MAX_SECTIONS) {
          current = {
            title: text,
            optional: text.toLowerCase() === 'optional',
            line: lineNumber,
            links: [],
          };
          sections.push(current);
        }
        sawContent = true;
        continue;
      }
      // Other headings are part of the current section or of the details.
      if (!inSections) details.push(raw);
      sawContent = true;
      continue;
    }
    if (!inSections && !summaryDone && trimmed.startsWith('>')) {
      const quoted = trimmed.replace(/^(>[ \t]?)+/, '').trim();
      if (summaryLines === null) summaryLines = [];
      if (quoted !== '') summaryLines.push(quoted);
      sawContent = true;
      continue;
    }
    if (summaryLines !== null) summaryDone = true;
    sawContent = true;
    const link = listLink(trimmed, lineNumber);
    if (link !== null) {
      linkCount++;
      if (!inSections) {
        // Links before any "##" section: tolerated, kept in an untitled section.
        if (sections.length === 0) {
          current = { title: null, optional: false, line: lineNumber, links: [] };
          sections.push(current);
        }
      }
      if (current !== null && kept < LLMS_TXT_MAX_LINKS) {
        current.links.push(link);
        kept++;
      }
      continue;
    }
    if (!inSections) details.push(raw);
  }

  const detailText = details.join('\n').trim();
  const summary = summaryLines === null ? null : clip(summaryLines.join(' '), MAX_FIELD);
  const result: LlmsTxtSection[] = sections.map((section) => ({ ...section }));
  return {
    title,
    summary: summary === '' ? null : summary,
    details: detailText === '' ? null : clip(detailText, MAX_DETAILS),
    sections: result,
    linkCount,
    valid: title !== null && titleFirst,
    truncated: clipped.truncated,
  };
}

/**
 * An ATX heading (`## Text ##`): 1 to 6 `#`, then whitespace or the end of the line; a
 * closing run of `#` after whitespace is dropped. Scanned by hand: a pattern with a lazy
 * group and optional trailing groups backtracks quadratically on long lines of spaces.
 */
function atxHeading(line: string): { level: number; text: string } | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 0x23) level++;
  if (level === 0 || level > 6) return null;
  if (level < line.length && line[level] !== ' ' && line[level] !== '\t') return null;
  let text = line.slice(level).trim();
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x23) end--;
  if (end === 0) text = '';
  else if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t')) {
    text = text.slice(0, end).trim();
  }
  return { level, text };
}

/**
 * A list item holding a link: `- [name](url)`, `- [name](<url> "title"): notes`, or a bare
 * `- https://…`. Returns null for anything else. Scanned by hand, no backtracking.
 */
function listLink(line: string, lineNumber: number): LlmsTxtLink | null {
  const bullet = /^(?:[-*+]|\d{1,9}[.)])[ \t]+/.exec(line);
  if (!bullet) return null;
  const item = line.slice(bullet[0].length);
  if (/^https?:\/\/\S+$/i.test(item)) {
    return { name: clip(item, MAX_FIELD), url: item, notes: null, line: lineNumber };
  }
  if (item[0] !== '[') return null;
  // The name ends at the "]" that balances the opening bracket.
  let depth = 0;
  let close = -1;
  for (let i = 0; i < item.length; i++) {
    const char = item[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (char === '[') depth++;
    else if (char === ']') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close === -1 || item[close + 1] !== '(') return null;
  const end = item.indexOf(')', close + 2);
  if (end === -1) return null;
  let target = item.slice(close + 2, end).trim();
  if (target.startsWith('<')) {
    const angle = target.indexOf('>');
    target = angle === -1 ? target.slice(1) : target.slice(1, angle);
  } else {
    const space = target.search(/[ \t]/);
    if (space !== -1) target = target.slice(0, space);
  }
  if (target === '') return null;
  const name = item.slice(1, close).trim();
  let rest = item.slice(end + 1).trim();
  if (rest.startsWith(':')) rest = rest.slice(1).trim();
  else if (/^[-–—][ \t]/.test(rest)) rest = rest.slice(1).trim();
  return {
    name: clip(name, MAX_FIELD),
    url: clip(target, URL_MAX_CHARS),
    notes: rest === '' ? null : clip(rest, MAX_FIELD),
    line: lineNumber,
  };
}

/** Cut at `max` on a code point boundary, marked with `…` (`capString` of @storefront/core). */
function clip(text: string, max: number): string {
  return capString(text, max);
}
