import { markCut } from '@storefront/core';
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
  /** True once text was left out because the accumulator was full. */
  #cut = false;

  /** Add raw text: whitespace runs become one space. */
  add(raw: string): void {
    if (raw === '') return;
    if (this.#value.length > MAX_LINK_TEXT_CHARS) {
      this.#cut ||= raw.replace(SPACE_RUN, '') !== '';
      return;
    }
    this.#push(raw.replace(SPACE_RUN, ' '));
  }

  /** Add a word boundary (a `<br>` or the edge of a block). */
  separate(): void {
    if (this.#value !== '' && !this.#value.endsWith(' ')) this.#push(' ');
  }

  /** Add text that another accumulator already collapsed. */
  addCollapsed(other: TextAccumulator): void {
    this.#cut ||= other.#cut;
    if (this.#value.length > MAX_LINK_TEXT_CHARS) {
      this.#cut ||= /[^ ]/.test(other.#value);
      return;
    }
    this.#push(other.#value);
  }

  /**
   * The final text, trimmed. Text longer than {@link MAX_LINK_TEXT_CHARS} keeps its start,
   * cut on a code point boundary, and ends with `…` (`markCut` of @storefront/core).
   */
  finish(): string {
    let value = this.#value;
    if (value.endsWith(' ')) value = value.slice(0, -1);
    return this.#cut || value.length > MAX_LINK_TEXT_CHARS
      ? markCut(value, MAX_LINK_TEXT_CHARS)
      : value;
  }

  #push(collapsed: string): void {
    let piece = collapsed;
    if (piece.startsWith(' ') && (this.#value === '' || this.#value.endsWith(' '))) {
      piece = piece.slice(1);
    }
    if (piece === '') return;
    const room = MAX_LINK_TEXT_CHARS + 1 - this.#value.length;
    if (piece.length > room) {
      // What is left out counts as a cut only when it holds more than a space.
      if (/[^ ]/.test(piece.slice(room))) this.#cut = true;
      this.#value += piece.slice(0, room);
    } else {
      this.#value += piece;
    }
  }
}

/** Collapse whitespace (as {@link TextAccumulator} does) in an attribute value such as `aria-label`. */
export function collapseAttribute(value: string | null): string {
  if (value === null) return '';
  const accumulator = new TextAccumulator();
  accumulator.add(value);
  return accumulator.finish();
}
