import { Tokenizer } from 'htmlparser2';
import type { HtmlDocumentNode, HtmlElement, HtmlNode, HtmlParent, HtmlText } from './types.js';

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** Elements the tree builder notes as it creates them (what `load` needs besides the tree). */
export interface Created {
  /** `<article>`, `<main>` and `role="main"` elements. */
  readonly holders: HtmlElement[];
  /** HTML `<title>` elements. */
  readonly titles: HtmlElement[];
  /** `<base>` elements with an `href`. */
  readonly bases: HtmlElement[];
  /** Whether an SVG or MathML `<title>` was created (it can hold elements). */
  foreignTitle: boolean;
}

/** Elements that go to `<head>` while no body content has been seen (HTML §13.2.6.4.4). */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
]);

/** Void elements (HTML §13.1.2): they never have children, so they never stay open. */
const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * HTML's special elements (HTML §13.2.4.2): an end tag does not close an element across
 * one of them, and list items stop their search at them.
 */
const SPECIAL: ReadonlySet<string> = new Set([
  'address',
  'applet',
  'area',
  'article',
  'aside',
  'base',
  'basefont',
  'bgsound',
  'blockquote',
  'body',
  'br',
  'button',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dir',
  'div',
  'dl',
  'dt',
  'embed',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'iframe',
  'img',
  'input',
  'keygen',
  'li',
  'link',
  'listing',
  'main',
  'marquee',
  'menu',
  'meta',
  'nav',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'p',
  'param',
  'plaintext',
  'pre',
  'script',
  'search',
  'section',
  'select',
  'source',
  'style',
  'summary',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'track',
  'ul',
  'wbr',
  'xmp',
]);

/** Elements an element "in scope" is not looked for past (HTML §13.2.4.2). */
const SCOPE: ReadonlySet<string> = new Set([
  'applet',
  'caption',
  'html',
  'table',
  'td',
  'th',
  'marquee',
  'object',
  'template',
]);
const BUTTON_SCOPE: ReadonlySet<string> = new Set([...SCOPE, 'button']);
const TABLE_SCOPE: ReadonlySet<string> = new Set(['html', 'table', 'template']);
const LIST_ITEM_SCOPE: ReadonlySet<string> = new Set([...SCOPE, 'ol', 'ul']);

/** The scope an end tag looks for its element in, where it is not the default one. */
const END_TAG_SCOPES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['p', BUTTON_SCOPE],
  ['li', LIST_ITEM_SCOPE],
  ...['table', 'tbody', 'thead', 'tfoot', 'tr'].map((tag) => [tag, TABLE_SCOPE] as const),
]);

/** Start tags that close an open `<p>` in button scope first (HTML §13.2.6.4.7). */
const CLOSES_P: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'search',
  'section',
  'summary',
  'ul',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'listing',
  'form',
  'table',
  'hr',
  'xmp',
  'plaintext',
  'li',
  'dd',
  'dt',
]);

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Start tags that end the current node when it is one of the listed (htmlparser2's rule). */
const CLOSES_CURRENT: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['option', ['option']],
      ['optgroup', ['optgroup', 'option']],
      ['rt', ['rt', 'rp']],
      ['rp', ['rt', 'rp']],
      ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
        (tag) =>
          [
            tag,
            ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'],
          ] as const,
      ),
    ] as const
  ).map(([tag, closes]) => [tag, new Set<string>(closes)]),
);

/** Formatting elements (HTML §13.2.4.3), closed by their end tag wherever they are open. */
const FORMATTING: ReadonlySet<string> = new Set([
  'a',
  'b',
  'big',
  'code',
  'em',
  'font',
  'i',
  'nobr',
  's',
  'small',
  'strike',
  'strong',
  'tt',
  'u',
]);

/** Elements whose first newline right after the start tag is dropped (HTML §13.2.6.4.7). */
const LEADING_NEWLINE: ReadonlySet<string> = new Set(['pre', 'textarea', 'listing']);

/** SVG and MathML elements whose children are HTML again (HTML integration points). */
const SVG_HTML_POINTS: ReadonlySet<string> = new Set(['foreignObject', 'desc', 'title']);
const MATHML_HTML_POINTS: ReadonlySet<string> = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
]);

/** SVG element names in their camel case (HTML §13.2.6.5). */
const SVG_TAG_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'altGlyph',
    'altGlyphDef',
    'altGlyphItem',
    'animateColor',
    'animateMotion',
    'animateTransform',
    'clipPath',
    'feBlend',
    'feColorMatrix',
    'feComponentTransfer',
    'feComposite',
    'feConvolveMatrix',
    'feDiffuseLighting',
    'feDisplacementMap',
    'feDistantLight',
    'feDropShadow',
    'feFlood',
    'feFuncA',
    'feFuncB',
    'feFuncG',
    'feFuncR',
    'feGaussianBlur',
    'feImage',
    'feMerge',
    'feMergeNode',
    'feMorphology',
    'feOffset',
    'fePointLight',
    'feSpecularLighting',
    'feSpotLight',
    'feTile',
    'feTurbulence',
    'foreignObject',
    'glyphRef',
    'linearGradient',
    'radialGradient',
    'textPath',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * The deepest an element can be opened (Blink's `kMaximumHTMLParserDOMTreeDepth`): an
 * element that would open deeper ends the current node first, so it opens beside it, as
 * in Chrome. Every search of the open elements is then bounded, and a page of a
 * hundred thousand unclosed elements costs linear time.
 */
export const MAX_TREE_DEPTH = 512;

type Mode = 'initial' | 'in-head' | 'after-head' | 'in-body';

const ASCII_WHITESPACE_ONLY = /^[\t\n\f\r ]*$/;
const LEADING_WHITESPACE = /^[\t\n\f\r ]*/;

type Attr = { name: string; value: string };

/**
 * The tree of an HTML document in parse5's default tree shape (the shape every product
 * reads), built from htmlparser2's tokenizer (docs/decisions.md, "The HTML tree from
 * htmlparser2's tokenizer"). It keeps what of HTML's tree construction a reader of
 * pages meets: one `<html>` with a `<head>` and a `<body>`, always; head elements before
 * the body in `<head>`; content after `</body>` still in the body; a second `<html>` or
 * `<body>` tag adding its attributes to the first; a second `<form>` inside a form
 * ignored; the end tags HTML implies (`<p>`, `<li>`, headings, table cells, options);
 * `</p>` and `</br>` without a start tag; SVG and MathML namespaces and SVG's camel-case
 * names; `<template>` children in its content; the first newline of `<pre>`,
 * `<textarea>` and `<listing>` dropped; `<noscript>` as raw text (a parse with scripting
 * on, as a browser's); CR LF as LF; the first of two attributes with one name. The
 * tokenizer reads character references, comments and the raw text of `<script>`,
 * `<style>`, `<title>`, `<textarea>` and the like. Not kept: misnested formatting
 * elements are closed where their end tag is, not re-opened (no adoption agency), and
 * misplaced table content stays where it is (no foster parenting); the text and its order
 * are the same, only the nesting can differ. The open elements are a stack that grows
 * at its end, so a page of deeply nested elements costs linear time.
 */
export function buildTree(input: string, created: Created): HtmlDocumentNode {
  const source = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
  const builder = new TreeBuilder(source, created);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, builder);
  tokenizer.write(source);
  tokenizer.end();
  return builder.finish();
}

class TreeBuilder {
  readonly #source: string;
  readonly #created: Created;
  readonly document: HtmlDocumentNode;
  #html: HtmlElement | null = null;
  #head: HtmlElement | null = null;
  #body: HtmlElement | null = null;
  #mode: Mode = 'initial';
  /** Open elements below the base (`<head>` or `<body>`), innermost last. */
  readonly #stack: HtmlElement[] = [];
  /** Where children go: the innermost open element, or the base. */
  #current: HtmlParent;
  /** Open `<form>` elements. */
  #forms = 0;
  /** The start tag being read: its name, its attributes (null: the tag is ignored). */
  #tagName = '';
  #attrs: Attr[] | null = null;
  #attribName = '';
  #attribValue = '';
  /** The element whose first newline is dropped, until anything follows its start tag. */
  #newlineAfter: HtmlElement | null = null;
  /** The `<noscript>` being read as raw text, and where its text starts. */
  #rawNoscript: HtmlElement | null = null;
  #rawStart = 0;
  /** The text node last appended, while nothing has been appended after it. */
  #lastText: HtmlText | null = null;

  constructor(source: string, created: Created) {
    this.#source = source;
    this.#created = created;
    this.document = {
      nodeName: '#document',
      mode: 'no-quirks' as HtmlDocumentNode['mode'],
      childNodes: [],
    };
    this.#current = this.document;
  }

  finish(): HtmlDocumentNode {
    if (this.#rawNoscript !== null) this.#endNoscript(this.#source.length);
    if (this.#body === null) this.#enterBody(null);
    return this.document;
  }

  // The tokenizer's callbacks.

  onopentagname(start: number, end: number): void {
    this.#newlineAfter = null;
    let name = this.#source.slice(start, end).toLowerCase();
    if (this.isInForeignContext()) name = SVG_TAG_NAMES.get(name) ?? name;
    else if (name === 'image') name = 'img';
    this.#tagName = name;
    // A second form inside a form is ignored, attributes and all (HTML §13.2.6.4.7).
    this.#attrs = name === 'form' && this.#forms > 0 ? null : [];
  }

  onattribname(start: number, end: number): void {
    this.#attribName = this.#source.slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    this.#attribValue += this.#source.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    this.#attribValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    const attrs = this.#attrs;
    const name = this.#attribName;
    if (attrs !== null && !attrs.some((attr) => attr.name === name)) {
      attrs.push({ name, value: this.#attribValue });
    }
    this.#attribValue = '';
  }

  onopentagend(end: number): void {
    this.#open(end);
  }

  onselfclosingtag(end: number): void {
    const foreign = this.isInForeignContext();
    const element = this.#open(end);
    // In SVG and MathML `/>` closes the element; in HTML it means nothing.
    if (foreign && element !== null && this.#stack[this.#stack.length - 1] === element) {
      this.#pop();
    }
  }

  onclosetag(start: number, end: number): void {
    this.#newlineAfter = null;
    const name = this.#source.slice(start, end).toLowerCase();
    if (this.#rawNoscript !== null) {
      if (name !== 'noscript') return;
      this.#endNoscript(this.#source.lastIndexOf('<', start));
    }
    if (name === 'html' || name === 'body') return;
    if (name === 'head') {
      if (this.#mode === 'in-head') {
        this.#stack.length = 0;
        this.#mode = 'after-head';
        this.#current = this.#ensureHtml();
      }
      return;
    }
    if (VOID_ELEMENTS.has(name)) {
      // `</br>` is a `<br>`; any other void end tag is ignored.
      if (name === 'br') {
        this.#tagName = 'br';
        this.#attrs = [];
        this.#open(end);
      }
      return;
    }
    const stack = this.#stack;
    const at = this.#endTagTarget(name);
    if (at >= 0) {
      while (stack.length > at) this.#pop();
      if (this.#mode === 'after-head' && stack.length === 0) this.#current = this.#ensureHtml();
      return;
    }
    // `</p>` without an open `<p>` is an empty `<p>`.
    if (name === 'p' && this.#mode === 'in-body') {
      this.#tagName = 'p';
      this.#attrs = [];
      const p = this.#open(end);
      if (p !== null && stack[stack.length - 1] === p) this.#pop();
    }
  }

  ontext(start: number, end: number): void {
    this.#text(this.#source.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    this.#text(String.fromCodePoint(codePoint));
  }

  oncomment(start: number, end: number, offset: number): void {
    this.#comment(this.#source.slice(start, end - offset));
  }

  oncdata(start: number, end: number, offset: number): void {
    const value = this.#source.slice(start, end - offset);
    // CDATA is text in SVG and MathML, a comment in HTML.
    if (this.isInForeignContext()) this.#text(value);
    else this.#comment(`[CDATA[${value}]]`);
  }

  ondeclaration(start: number, end: number): void {
    if (this.#html !== null || this.#rawNoscript !== null) return;
    const name = /^doctype\s+([^\s>]+)/i.exec(this.#source.slice(start, end))?.[1] ?? '';
    this.#append(this.document, {
      nodeName: '#documentType',
      name: name.toLowerCase(),
      publicId: '',
      systemId: '',
      parentNode: null,
    } as unknown as HtmlNode);
  }

  onprocessinginstruction(start: number, end: number): void {
    // HTML has no processing instructions: `<?…>` is a comment.
    this.#comment(this.#source.slice(start, end));
  }

  onend(): void {}

  /** True inside SVG or MathML, outside their HTML integration points. */
  isInForeignContext(): boolean {
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) return false;
    const ns = top.namespaceURI;
    if (ns === SVG_NS) return !SVG_HTML_POINTS.has(top.tagName);
    if (ns === MATHML_NS) return !MATHML_HTML_POINTS.has(top.tagName);
    return false;
  }

  // The tree.

  /** Insert the start tag just read; returns the element, or null when the tag changed none. */
  #open(end: number): HtmlElement | null {
    const name = this.#tagName;
    const attrs = this.#attrs;
    this.#tagName = '';
    this.#attrs = null;
    if (attrs === null || this.#rawNoscript !== null) return null;
    if (name === 'html') {
      if (this.#html === null) {
        const html = this.#element('html', HTML_NS, attrs);
        this.#html = html;
        this.#append(this.document, html);
        if (this.#mode === 'initial') this.#current = html;
      } else this.#merge(this.#html, attrs);
      return null;
    }
    if (this.#mode !== 'in-body') {
      if (name === 'head') {
        if (this.#head === null && this.#mode === 'initial') {
          const head = this.#element('head', HTML_NS, attrs);
          this.#head = head;
          this.#append(this.#ensureHtml(), head);
          this.#mode = 'in-head';
          this.#current = head;
        }
        return null;
      }
      if (name === 'body') {
        this.#enterBody(attrs);
        return null;
      }
      if (HEAD_ELEMENTS.has(name) && this.#stack.length === 0) {
        // Before the body (after `</head>` too), head elements go to the head.
        this.#current = this.#ensureHead();
        if (this.#mode === 'initial') this.#mode = 'in-head';
      } else if (this.#mode !== 'in-head' || this.#stack.length === 0) {
        this.#enterBody(null);
      }
    } else if (name === 'body') {
      this.#merge(this.#body as HtmlElement, attrs);
      return null;
    } else if (name === 'head') {
      return null;
    }
    this.#closeImplied(name);
    // `<html>` and `<body>` (or `<head>`) are the first two levels.
    if (this.#stack.length >= MAX_TREE_DEPTH - 2 && !VOID_ELEMENTS.has(name)) this.#pop();
    const element = this.#element(name, this.#namespaceFor(name), attrs);
    this.#append(this.#current, element);
    if (VOID_ELEMENTS.has(name)) {
      if (this.#mode === 'after-head' && this.#stack.length === 0) {
        this.#current = this.#ensureHtml();
      }
      return element;
    }
    this.#stack.push(element);
    this.#current = element;
    if (name === 'form') this.#forms += 1;
    if (element.namespaceURI === HTML_NS) {
      if (name === 'noscript') {
        this.#rawNoscript = element;
        this.#rawStart = end + 1;
      } else if (LEADING_NEWLINE.has(name)) this.#newlineAfter = element;
    }
    return element;
  }

  /** Close what a start tag of `name` implies is over (HTML §13.2.6.4.7, in body). */
  #closeImplied(name: string): void {
    const stack = this.#stack;
    if (name === 'li' || name === 'dd' || name === 'dt') {
      // The list item open nearest, unless a special element other than address, div
      // and p comes first.
      for (let i = stack.length - 1; i >= 0; i--) {
        const tag = (stack[i] as HtmlElement).tagName;
        if (name === 'li' ? tag === 'li' : tag === 'dd' || tag === 'dt') {
          while (stack.length > i) this.#pop();
          break;
        }
        if (SPECIAL.has(tag) && tag !== 'address' && tag !== 'div' && tag !== 'p') break;
      }
    }
    if (CLOSES_P.has(name)) {
      const at = this.#inScope('p', BUTTON_SCOPE);
      if (at >= 0) while (stack.length > at) this.#pop();
      if (HEADINGS.has(name)) {
        const top = stack[stack.length - 1];
        if (top !== undefined && HEADINGS.has(top.tagName)) this.#pop();
      }
      return;
    }
    if (name === 'a') {
      // A second `<a>` ends the first (the adoption agency's effect on the text).
      const at = this.#inScope('a', SCOPE);
      if (at >= 0) while (stack.length > at) this.#pop();
      return;
    }
    if (name === 'td' || name === 'th' || name === 'tr') {
      for (let i = stack.length - 1; i >= 0; i--) {
        const tag = (stack[i] as HtmlElement).tagName;
        if (TABLE_SCOPE.has(tag)) break;
        if (tag === 'td' || tag === 'th' || (name === 'tr' && tag === 'tr')) {
          while (stack.length > i) this.#pop();
          break;
        }
      }
      return;
    }
    if (name === 'tbody' || name === 'thead' || name === 'tfoot') {
      for (let i = stack.length - 1; i >= 0; i--) {
        const tag = (stack[i] as HtmlElement).tagName;
        if (TABLE_SCOPE.has(tag)) break;
        if (tag === 'tbody' || tag === 'thead' || tag === 'tfoot') {
          while (stack.length > i) this.#pop();
          break;
        }
      }
      return;
    }
    const closes = CLOSES_CURRENT.get(name);
    if (closes !== undefined) {
      while (stack.length > 0 && closes.has((stack[stack.length - 1] as HtmlElement).tagName)) {
        this.#pop();
      }
    }
  }

  /** Where on the stack an HTML element `name` is open in `scope`, or -1. */
  #inScope(name: string, scope: ReadonlySet<string>): number {
    const stack = this.#stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      if (element.namespaceURI !== HTML_NS) {
        if (SVG_HTML_POINTS.has(element.tagName) || MATHML_HTML_POINTS.has(element.tagName)) {
          return -1;
        }
        continue;
      }
      if (element.tagName === name) return i;
      if (scope.has(element.tagName)) return -1;
    }
    return -1;
  }

  /**
   * Where on the stack the element an end tag `name` closes is, or -1 when the tag is
   * ignored (HTML §13.2.6.4.7): a special element only when open in scope; a formatting
   * element wherever it is open; any other the nearest one, unless a special element
   * comes first. In SVG and MathML, the nearest of that name.
   */
  #endTagTarget(name: string): number {
    const stack = this.#stack;
    const svgName = SVG_TAG_NAMES.get(name);
    if (SPECIAL.has(name)) return this.#inScope(name, END_TAG_SCOPES.get(name) ?? SCOPE);
    for (let i = stack.length - 1; i >= 0; i--) {
      const element = stack[i] as HtmlElement;
      const tag = element.tagName;
      if (tag === name || (svgName !== undefined && tag === svgName)) return i;
      if (element.namespaceURI !== HTML_NS) continue;
      if (FORMATTING.has(name) ? SCOPE.has(tag) : SPECIAL.has(tag)) return -1;
    }
    return -1;
  }

  #pop(): void {
    const stack = this.#stack;
    const popped = stack.pop();
    if (popped !== undefined && popped.tagName === 'form') this.#forms -= 1;
    this.#current = stack.length > 0 ? (stack[stack.length - 1] as HtmlElement) : this.#base();
    this.#lastText = null;
  }

  #base(): HtmlParent {
    if (this.#mode === 'in-body') return this.#body as HtmlElement;
    if (this.#mode === 'in-head') return this.#head as HtmlElement;
    return this.#ensureHtml();
  }

  #text(data: string): void {
    if (this.#rawNoscript !== null || data === '') return;
    let text = data;
    if (this.#newlineAfter !== null) {
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      this.#newlineAfter = null;
      if (text === '') return;
    }
    if (this.#mode !== 'in-body' && this.#stack.length === 0) {
      if (ASCII_WHITESPACE_ONLY.test(text)) {
        if (this.#mode === 'in-head') this.#insertText(text);
        return;
      }
      const leading = LEADING_WHITESPACE.exec(text)?.[0] ?? '';
      if (leading !== '' && this.#mode === 'in-head') this.#insertText(leading);
      this.#enterBody(null);
      text = text.slice(leading.length);
    }
    this.#insertText(text);
  }

  #insertText(data: string): void {
    const last = this.#lastText;
    const parent = contentOf(this.#current);
    if (last !== null && last.parentNode === parent) {
      last.value += data;
      return;
    }
    const node = { nodeName: '#text', value: data, parentNode: null } as unknown as HtmlText;
    this.#append(this.#current, node);
    this.#lastText = node;
  }

  #comment(data: string): void {
    this.#newlineAfter = null;
    if (this.#rawNoscript !== null) return;
    const node = { nodeName: '#comment', data, parentNode: null } as unknown as HtmlNode;
    this.#append(this.#current, node);
  }

  #endNoscript(end: number): void {
    const raw = this.#source.slice(this.#rawStart, Math.max(this.#rawStart, end));
    this.#rawNoscript = null;
    if (raw !== '') this.#insertText(raw);
  }

  #append(parent: HtmlParent, node: HtmlNode): void {
    const target = contentOf(parent);
    (target.childNodes as HtmlNode[]).push(node);
    (node as { parentNode: HtmlParent | null }).parentNode = target;
    this.#lastText = null;
  }

  #element(tagName: string, namespaceURI: string, attrs: Attr[]): HtmlElement {
    const element = {
      nodeName: tagName,
      tagName,
      attrs,
      namespaceURI,
      childNodes: [],
      parentNode: null,
    } as unknown as HtmlElement;
    if (tagName === 'template' && namespaceURI === HTML_NS) {
      (element as unknown as { content: HtmlParent }).content = {
        nodeName: '#document-fragment',
        childNodes: [],
      } as unknown as HtmlParent;
    }
    this.#note(element);
    return element;
  }

  #note(element: HtmlElement): void {
    const created = this.#created;
    const tag = element.tagName;
    if (tag === 'article' || tag === 'main') created.holders.push(element);
    else if (tag === 'base') {
      if (attrOf(element, 'href') !== undefined) created.bases.push(element);
    } else if (tag === 'title') {
      if (element.namespaceURI === HTML_NS) created.titles.push(element);
      else created.foreignTitle = true;
    } else if (element.attrs.length > 0 && attrOf(element, 'role') === 'main') {
      created.holders.push(element);
    }
  }

  /** A second `<html>` or `<body>` tag: its attributes the first lacks are added to it. */
  #merge(target: HtmlElement, attrs: readonly Attr[]): void {
    for (const attr of attrs) {
      if (attrOf(target, attr.name) === undefined) target.attrs.push(attr);
    }
    const holders = this.#created.holders;
    if (attrOf(target, 'role') === 'main' && !holders.includes(target)) holders.push(target);
  }

  #namespaceFor(tagName: string): string {
    const parent = this.#stack[this.#stack.length - 1];
    const ns = parent?.namespaceURI ?? HTML_NS;
    const integration =
      (ns === SVG_NS && SVG_HTML_POINTS.has((parent as HtmlElement).tagName)) ||
      (ns === MATHML_NS && MATHML_HTML_POINTS.has((parent as HtmlElement).tagName));
    if (ns === HTML_NS || integration) {
      if (tagName === 'svg') return SVG_NS;
      if (tagName === 'math') return MATHML_NS;
      return HTML_NS;
    }
    return ns;
  }

  #ensureHtml(): HtmlElement {
    if (this.#html === null) {
      const html = this.#element('html', HTML_NS, []);
      this.#html = html;
      this.#append(this.document, html);
    }
    return this.#html;
  }

  #ensureHead(): HtmlElement {
    if (this.#head === null) {
      const head = this.#element('head', HTML_NS, []);
      this.#head = head;
      this.#append(this.#ensureHtml(), head);
    }
    return this.#head;
  }

  #enterBody(attrs: Attr[] | null): void {
    this.#ensureHead();
    // Whatever is still open in the head ends with it.
    this.#stack.length = 0;
    this.#forms = 0;
    if (this.#body === null) {
      const body = this.#element('body', HTML_NS, attrs ?? []);
      this.#body = body;
      this.#append(this.#ensureHtml(), body);
    } else if (attrs !== null) this.#merge(this.#body, attrs);
    this.#mode = 'in-body';
    this.#current = this.#body;
  }
}

/** Where a node's children go: a `<template>`'s content, any other parent itself. */
function contentOf(parent: HtmlParent): HtmlParent {
  return parent.nodeName === 'template' && 'content' in parent
    ? (parent as unknown as { content: HtmlParent }).content
    : parent;
}

function attrOf(element: HtmlElement, name: string): string | undefined {
  for (const attr of element.attrs) if (attr.name === name) return attr.value;
  return undefined;
}
