/**
 * Scoring of main-content extraction, written once for every extractor and set.
 *
 * Shingle score (as the public article-extraction benchmarks do): the text is cut
 * into Unicode word tokens (`[\p{L}\p{N}_]+`, lowercased), the tokens into 4-gram
 * shingles, and the shingles are kept as a SET (a repeated 4-gram counts once).
 * precision = |pred ∩ gold| / |pred|, recall = |pred ∩ gold| / |gold|, F1 their
 * harmonic mean. A text shorter than 4 tokens is one shingle of all its tokens.
 *
 * An empty prediction against a non-empty gold scores precision 0, recall 0, F1 0:
 * returning nothing is a failure, not an abstention. A page whose gold is empty is
 * not scored (the caller skips it and counts it).
 */

/** Shingle length in tokens. */
export const SHINGLE_SIZE = 4;

const TOKEN = /[\p{L}\p{N}_]+/gu;

/** One page's shingle score. */
export interface ShingleScore {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Lowercased Unicode word tokens of a text. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** The set of `size`-token shingles of a text. */
export function shingles(text: string, size = SHINGLE_SIZE): Set<string> {
  const words = tokens(text);
  const out = new Set<string>();
  if (words.length === 0) return out;
  if (words.length < size) {
    out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + size <= words.length; i++) out.add(words.slice(i, i + size).join(' '));
  return out;
}

/** Precision, recall and F1 of a prediction's shingles against the gold's. */
export function shingleScore(predicted: string, gold: ReadonlySet<string>): ShingleScore {
  const pred = shingles(predicted);
  if (pred.size === 0 || gold.size === 0) return { precision: 0, recall: 0, f1: 0 };
  let common = 0;
  for (const s of pred) if (gold.has(s)) common++;
  const precision = common / pred.size;
  const recall = common / gold.size;
  const f1 = common === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Snippet checks of one page: how many must-contain were found, must-not-contain kept out. */
export interface SnippetScore {
  readonly withFound: number;
  readonly withTotal: number;
  readonly withoutFound: number;
  readonly withoutTotal: number;
}

/** Whitespace collapsed, so a snippet matches across line breaks. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The trafilatura-style snippet check: each must-contain snippet should occur in the
 * output, each must-not-contain snippet should not (whitespace-insensitive, exact case).
 */
export function snippetScore(
  predicted: string,
  must: readonly string[],
  mustNot: readonly string[],
): SnippetScore {
  const text = squash(predicted);
  const has = (s: string) => text.includes(squash(s));
  return {
    withFound: must.filter(has).length,
    withTotal: must.length,
    withoutFound: mustNot.filter(has).length,
    withoutTotal: mustNot.length,
  };
}

/**
 * Markdown as plain text for scoring, as the DOM's `textContent` reads the same HTML:
 * images are dropped (an alt text is not text on the page), links become their text,
 * emphasis and strike markers and backslash escapes are dropped. `_` is a word
 * character for the tokenizer, so underscore emphasis must go; `*`, `#`, `>` and `|`
 * are not word characters and need no stripping.
 */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/^\s*\[[^\]]+\]:\s+\S+.*$/gm, '')
    .replace(/(?<![\p{L}\p{N}_\\])(_{1,3}|\*{1,3}|~~)(?=\S)/gu, '')
    .replace(/(?<=\S)(?<!\\)(_{1,3}|\*{1,3}|~~)(?![\p{L}\p{N}_])/gu, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
}
