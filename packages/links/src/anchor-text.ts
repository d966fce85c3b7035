import { MAX_LINK_TEXT_CHARS } from './limits.js';

/** Runs of HTML whitespace plus U+00A0 (a `&nbsp;` is layout, not text, in an anchor). */
const SPACE_RUN = /[\t\n\f\r \u00a0]+/g;

/**
 * Text gathered for one anchor, kept collapsed as it grows (no leading space, never two
 * spaces in a row) and bounded to one character beyond {@link MAX_LINK_TEXT_CHARS}, so an
 * anchor wrapped around megabytes of text costs no more than a short one.
 */
export class TextAccumulator {
  #value = '';

  /** Add raw text: whitespace runs become one space. */
  add(raw: string): void {
    if (this.#value.length > MAX_LINK_TEXT_CHARS || raw === '') return;
    this.#push(raw.replace(SPACE_RUN, ' '));
  }

  /** Add a word boundary (a `<br>` or the edge of a block). */
  separate(): void {
    if (this.#value !== '' && !this.#value.endsWith(' ')) this.#push(' ');
  }

  /** Add text that another accumulator already collapsed. */
  addCollapsed(other: TextAccumulator): void {
    if (this.#value.length > MAX_LINK_TEXT_CHARS) return;
    this.#push(other.#value);
  }

  /** The final text: trimmed and cut to {@link MAX_LINK_TEXT_CHARS} without splitting a surrogate pair. */
  finish(): string {
    let value = this.#value;
    if (value.length > MAX_LINK_TEXT_CHARS) {
      let end = MAX_LINK_TEXT_CHARS;
      const code = value.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--;
      value = value.slice(0, end);
    }
    return value.endsWith(' ') ? value.slice(0, -1) : value;
  }

  #push(collapsed: string): void {
    let piece = collapsed;
    if (piece.startsWith(' ') && (this.#value === '' || this.#value.endsWith(' '))) {
      piece = piece.slice(1);
    }
    if (piece === '') return;
    const room = MAX_LINK_TEXT_CHARS + 1 - this.#value.length;
    this.#value += piece.length > room ? piece.slice(0, room) : piece;
  }
}

/** Collapse whitespace (as {@link TextAccumulator} does) in an attribute value such as `aria-label`. */
export function collapseAttribute(value: string | null): string {
  if (value === null) return '';
  const accumulator = new TextAccumulator();
  accumulator.add(value);
  return accumulator.finish();
}
