import { BLOCK_TAGS, getAttr, type HtmlElement, isElement, isText, walk } from '@storefront/html';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * Subtrees whose text is not cell content: code, inert templates (`<noscript>` holds raw
 * markup, as pages are parsed with scripting enabled) and the option lists of menus.
 */
const SKIPPED_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'select',
  'datalist',
]);

/** Runs of HTML whitespace plus U+00A0, which tables use as an "empty" filler. */
const SPACE_RUN = /[\t\n\f\r \u00a0]+/g;

/**
 * The text of a table cell (or caption): every text node below it in document order,
 * whitespace runs (U+00A0 included) collapsed to one space, each `<br>` and each block
 * edge (`<p>`, `<div>`, `<li>`, …) a line break, runs of breaks and spaces around them
 * collapsed to one `\n`, ends trimmed. Scripts, styles, templates, `<select>` menus and
 * nested tables (which are tables of their own) are left out; a nested table counts as a
 * block edge. A cell with no text at all gets the `alt` text of its images (a ✓ icon with
 * `alt="yes"`), so icon-only cells are not empty.
 */
export function cellText(cell: HtmlElement): string {
  const parts: string[] = [];
  const alts: string[] = [];
  walk(cell, {
    enter(node) {
      if (isText(node)) {
        parts.push(node.value.replace(SPACE_RUN, ' '));
        return;
      }
      if (!isElement(node) || node === cell) return;
      const tag = node.tagName;
      if (SKIPPED_TAGS.has(tag)) return 'skip';
      if (tag === 'table' && node.namespaceURI === HTML_NAMESPACE) {
        parts.push('\n');
        return 'skip';
      }
      if (tag === 'img') {
        const alt = getAttr(node, 'alt');
        if (alt !== null) alts.push(alt.replace(SPACE_RUN, ' '));
      } else if (tag === 'br' || BLOCK_TAGS.has(tag)) {
        parts.push('\n');
      }
    },
    leave(node) {
      if (node !== cell && isElement(node) && BLOCK_TAGS.has(node.tagName)) parts.push('\n');
    },
  });
  const text = tidy(parts.join(''));
  return text === '' && alts.length > 0 ? tidy(alts.join(' ')) : text;
}

/** One space per run, one `\n` per run of breaks (spaces around them dropped), ends trimmed. */
function tidy(text: string): string {
  return text
    .replace(/ {2,}/g, ' ')
    .replace(/ ?\n[ \n]*/g, '\n')
    .replace(/^[ \n]+|[ \n]+$/g, '');
}

/** A cell's text on one line, for column names: line breaks become spaces. */
export function oneLine(text: string): string {
  return text.replace(/\n/g, ' ');
}
