import { parseFragment } from 'parse5';
import { NON_CONTENT_TAGS } from './boilerplate.js';
import { collapseWhitespace, isElement, isText, walk } from './dom.js';
import { BLOCK_TAGS } from './text.js';

/** Elements that separate words without being blocks: line breaks and table cells. */
const SEPARATOR_TAGS: ReadonlySet<string> = new Set(['br', 'td', 'th']);

/**
 * The plain text of an HTML fragment such as a feed summary or an escaped description:
 * parsed with parse5's `parseFragment` (so every HTML character reference is decoded
 * exactly as a browser decodes it, and broken markup is recovered the same way), tags
 * removed, the contents of non-content elements ({@link NON_CONTENT_TAGS}: script,
 * style, template, …) left out, block boundaries ({@link BLOCK_TAGS}), `<br>` and table
 * cells turned into spaces, and runs of ASCII whitespace collapsed to one space, trimmed.
 * Iterative, so deeply nested markup cannot overflow the stack.
 *
 * @example
 *   fragmentText('<p>Caf&eacute;</p><p>au&nbsp;lait &amp; <b>cr&egrave;me</b></p>')
 *   // 'Café au\u00a0lait & crème'
 */
export function fragmentText(html: string): string {
  const fragment = parseFragment(html);
  const parts: string[] = [];
  walk(fragment, {
    enter(node) {
      if (isText(node)) {
        parts.push(node.value);
        return;
      }
      if (!isElement(node)) return;
      if (NON_CONTENT_TAGS.has(node.tagName)) return 'skip';
      if (BLOCK_TAGS.has(node.tagName) || SEPARATOR_TAGS.has(node.tagName)) parts.push(' ');
    },
    leave(node) {
      if (isElement(node) && BLOCK_TAGS.has(node.tagName)) parts.push(' ');
    },
  });
  return collapseWhitespace(parts.join(''));
}
