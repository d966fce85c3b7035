import {
  BLOCK_TAGS,
  collapseSpaces,
  getAttr,
  type HtmlElement,
  type HtmlNode,
  type HtmlPage,
  resolveUrl,
  selectContent,
  textContent,
} from '@storefront/html';
import type {
  AlignType,
  Blockquote,
  Code,
  Delete,
  Emphasis,
  Heading,
  Link,
  List,
  ListItem,
  Paragraph,
  Root,
  Strong,
  Table,
  TableCell,
  TableRow,
  ThematicBreak,
} from 'mdast';
import { MARKDOWN_MAX_NESTING, MARKDOWN_MAX_TABLE_COLUMNS } from './limits.js';

/** A node that holds phrasing content while it is being filled. */
type PhrasingParent = Paragraph | Heading | TableCell | Emphasis | Strong | Delete | Link;
/** A node that holds blocks. */
type FlowParent = Root | Blockquote | ListItem;
/** A block that goes into a {@link FlowParent}. */
type BlockContent = Paragraph | Heading | Code | ThematicBreak | Blockquote | List | Table;
type MarkType = 'emphasis' | 'strong' | 'delete' | 'link';

/** An inline formatting element that is open in the HTML walk. */
interface Mark {
  readonly type: MarkType;
  readonly url: string;
  readonly title: string | null;
  /** The mdast node standing for it in the current phrasing block, once text arrived. */
  node: Emphasis | Strong | Delete | Link | null;
}

const ROOT = 0;
const BLOCKQUOTE = 1;
const LIST = 2;
const ITEM = 3;

/** An open block container. */
interface Container {
  readonly kind: typeof ROOT | typeof BLOCKQUOTE | typeof LIST | typeof ITEM;
  readonly node: Root | Blockquote | List | ListItem;
  /** The node it was appended to (null for the root). */
  readonly parent: { children: unknown[] } | null;
  /** A list item made up for content that sits directly in a list. */
  readonly implicit: boolean;
}

/** An open data table. */
interface TableContext {
  readonly node: Table;
  readonly align: AlignType[];
  /** Per column: how many further rows a `rowspan` still covers. */
  pending: number[];
  /** Columns covered by a `rowspan` from an earlier row, in the current row. */
  occupied: boolean[];
  row: TableRow | null;
}

// What to do when an element's frame is left.
const SKIP = -1;
const NONE = 0;
const BLOCK = 1;
const MARK = 2;
const HEADING = 3;
const CONTAINER = 4;
const TABLE = 5;
const ROW = 6;
const CELL = 7;
const BLOCK_MARK = 8;

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-(\S+)/;
const SAFE_LANGUAGE = /^[\w+#.-]{1,40}$/;
const TEXT_ALIGN = /(?:^|;)\s*text-align\s*:\s*(left|right|center)\b/i;

const EMPHASIS_TAGS: ReadonlySet<string> = new Set(['em', 'i', 'cite', 'dfn', 'var']);
const STRONG_TAGS: ReadonlySet<string> = new Set(['strong', 'b']);
const DELETE_TAGS: ReadonlySet<string> = new Set(['del', 's', 'strike']);
const CODE_TAGS: ReadonlySet<string> = new Set(['code', 'kbd', 'samp', 'tt']);
const HEADING_DEPTH: Readonly<Record<string, Heading['depth']>> = {
  h1: 1,
  h2: 2,
  h3: 3,
  h4: 4,
  h5: 5,
  h6: 6,
};

/** Options of {@link toMdast}. */
export interface BuildOptions {
  /**
   * Stop once the finished blocks hold more than this many characters of content (text,
   * code, alt text, image URLs), outside any table. Every character of content takes at
   * least one byte of markdown, so with a value above the output cap the markdown up to
   * the cap is the same as with the whole tree, and huge pages are not built in full.
   */
  readonly stopAfter?: number;
}

/**
 * Build the mdast of a page's content in one iterative pass over the parse5 tree: start
 * at the root of `selectContent(page)`, leave out every element it leaves out, collapse
 * whitespace as a browser renders it, resolve link and image URLs against the page's
 * base URL, and map each element to its GitHub-flavoured markdown node.
 *
 * The tree is normalised so that it has one markdown spelling: no empty inline nodes,
 * no whitespace at the edges of emphasis, adjacent same-kind emphasis merged, breaks
 * only between content, no empty blocks, rectangular tables.
 */
export function toMdast(
  page: HtmlPage,
  { stopAfter = Number.POSITIVE_INFINITY }: BuildOptions = {},
): Root {
  if (page.kind === 'text') return textToMdast(page);
  const { root, leaves } = selectContent(page);
  const builder = new Builder(page.baseUrl, stopAfter, leaves);
  builder.run(root);
  return builder.root;
}

/**
 * text/plain: paragraphs split at blank lines; each line trimmed, its inner whitespace
 * collapsed, and the lines of a paragraph kept as soft line breaks.
 */
function textToMdast(page: HtmlPage): Root {
  const root: Root = { type: 'root', children: [] };
  const body = page.body;
  if (body === null) return root;
  const text = textContent(body).replace(/\0/g, '\uFFFD');
  let lines: string[] = [];
  const flush = () => {
    if (lines.length > 0) {
      root.children.push({
        type: 'paragraph',
        children: [{ type: 'text', value: lines.join('\n') }],
      });
      lines = [];
    }
  };
  for (const raw of text.split('\n')) {
    const line = collapseSpaces(raw).trim();
    if (line === '') flush();
    else lines.push(line);
  }
  flush();
  return root;
}

class Builder {
  readonly root: Root = { type: 'root', children: [] };
  private readonly base: string;

  private readonly containers: Container[] = [];
  /** Lists and blockquotes open, for {@link MARKDOWN_MAX_NESTING}. */
  private nesting = 0;

  /** The flow parent of the paragraph being filled. */
  private targetParent: FlowParent | null = null;
  /** The phrasing block being filled (paragraph, heading or cell), or null. */
  private target: Paragraph | Heading | TableCell | null = null;
  /** The open phrasing nodes of `target`: `target` then the materialised marks. */
  private chain: PhrasingParent[] = [];
  /** Open inline formatting, at most one per type (a nested same-type mark is ignored). */
  private readonly marks: Mark[] = [];
  private materialized = 0;
  /** Collapsed whitespace waiting for the next content. */
  private space = false;
  /** `<br>`s waiting for the next content. */
  private breaks = 0;
  /** Inside a heading or table cell: blocks inside become spaces. */
  private inlineOnly = 0;

  private readonly tables: TableContext[] = [];
  /** Resolved URLs by raw attribute value: pages repeat their links. */
  private readonly urls = new Map<string, string | null>();

  /** Characters of content in the tree, and the count at which the walk stops. */
  private units = 0;
  private readonly stopAfter: number;
  private stopped = false;

  private readonly leaves: (element: HtmlElement) => boolean;

  constructor(base: string, stopAfter: number, leaves: (element: HtmlElement) => boolean) {
    this.base = base;
    this.stopAfter = stopAfter;
    this.leaves = leaves;
    this.containers.push({ kind: ROOT, node: this.root, parent: null, implicit: false });
  }

  run(root: HtmlNode): void {
    if (!('childNodes' in root)) return;
    // An explicit stack of frames: element, next child index, leave action, action data.
    const elements: HtmlNode[] = [root];
    const indexes: number[] = [0];
    const actions: number[] = [NONE];
    const data: unknown[] = [null];
    while (elements.length > 0 && !this.stopped) {
      const top = elements.length - 1;
      const parent = elements[top] as HtmlElement;
      const children = parent.childNodes;
      const index = indexes[top]!;
      if (index >= children.length) {
        this.leave(actions[top]!, data[top]);
        elements.pop();
        indexes.pop();
        actions.pop();
        data.pop();
        continue;
      }
      indexes[top] = index + 1;
      const child = children[index]!;
      if (child.nodeName === '#text') {
        this.text((child as { value: string }).value);
        continue;
      }
      if (!('tagName' in child)) continue;
      this.enterData = null;
      const action = this.enter(child);
      if (action === SKIP) continue;
      if (child.childNodes.length === 0) {
        this.leave(action, this.enterData);
        continue;
      }
      elements.push(child);
      indexes.push(0);
      actions.push(action);
      data.push(this.enterData);
    }
    this.closePhrasing();
  }

  private enterData: unknown = null;

  private enter(element: HtmlElement): number {
    const tag = element.tagName;
    if (tag === 'input') {
      this.checkbox(element);
      return SKIP;
    }
    if (this.leaves(element)) return SKIP;
    switch (tag) {
      case 'br':
        this.lineBreak();
        return SKIP;
      case 'wbr':
        return SKIP;
      case 'img':
        this.image(element);
        return SKIP;
      case 'hr':
        this.rule();
        return SKIP;
      case 'pre':
        if (this.inlineOnly > 0) return this.block();
        this.codeBlock(element);
        return SKIP;
      case 'a':
        return this.link(element);
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return this.heading(HEADING_DEPTH[tag]!);
      case 'ul':
      case 'ol':
      case 'dir':
        return this.list(element, tag === 'ol');
      case 'li':
        return this.listItem();
      case 'blockquote':
        return this.blockquote();
      case 'table':
        return this.table(element);
      case 'tr':
        return this.row(element);
      case 'td':
      case 'th':
        return this.cell(element);
      case 'dt':
      case 'summary':
        this.block();
        return this.pushMark('strong', '', null) === MARK ? BLOCK_MARK : BLOCK;
      case 'figcaption':
        this.block();
        return this.pushMark('emphasis', '', null) === MARK ? BLOCK_MARK : BLOCK;
    }
    if (CODE_TAGS.has(tag)) {
      this.inlineCode(element);
      return SKIP;
    }
    if (EMPHASIS_TAGS.has(tag)) return this.pushMark('emphasis', '', null);
    if (STRONG_TAGS.has(tag)) return this.pushMark('strong', '', null);
    if (DELETE_TAGS.has(tag)) return this.pushMark('delete', '', null);
    if (BLOCK_TAGS.has(tag)) return this.block();
    return NONE;
  }

  private leave(action: number, data: unknown): void {
    switch (action) {
      case BLOCK:
        this.block();
        return;
      case MARK:
        this.popMark();
        return;
      case BLOCK_MARK:
        this.popMark();
        this.block();
        return;
      case HEADING:
        this.leaveHeading(data as { node: Heading; parent: FlowParent });
        return;
      case CONTAINER:
        this.leaveContainer(data as Container);
        return;
      case TABLE:
        this.leaveTable();
        return;
      case ROW:
        this.leaveRow();
        return;
      case CELL:
        this.leaveCell(data as number);
        return;
    }
  }

  // ---- Phrasing ----------------------------------------------------------------------

  private text(raw: string): void {
    // One scan decides the common cases: all whitespace (between tags), or nothing to
    // collapse (no tab, newline, form feed, carriage return or double space).
    let collapse = false;
    let blank = true;
    for (let i = 0; i < raw.length; i++) {
      const code = raw.charCodeAt(i);
      if (code === 32) {
        if (raw.charCodeAt(i + 1) === 32) collapse = true;
      } else if (code === 10 || code === 9 || code === 13 || code === 12) {
        collapse = true;
      } else {
        blank = false;
        if (collapse) break;
      }
    }
    if (blank) {
      if (raw.length > 0) this.space = true;
      return;
    }
    let value = collapse ? collapseSpaces(raw) : raw;
    if (value.indexOf('\0') !== -1) value = value.replace(/\0/g, '\uFFFD');
    const leading = value.charCodeAt(0) === 32;
    const trailing = value.charCodeAt(value.length - 1) === 32;
    if (leading) this.space = true;
    if (leading || trailing) value = value.slice(leading ? 1 : 0, trailing ? -1 : undefined);
    this.appendText(value);
    this.space = trailing;
  }

  /** Append non-empty text without leading or trailing collapsible whitespace. */
  private appendText(value: string): void {
    this.units += value.length;
    const top = this.content();
    const children = top.children;
    const last = children[children.length - 1];
    if (last !== undefined && last.type === 'text') last.value += value;
    else children.push({ type: 'text', value });
  }

  /**
   * Make room for content: open a paragraph when none is open, emit the whitespace or
   * breaks waiting since the last content, open the marks not yet in this block, and
   * return the node the content goes into.
   */
  private content(): PhrasingParent {
    const chain = this.chain;
    if (this.target === null) {
      const paragraph: Paragraph = { type: 'paragraph', children: [] };
      this.targetParent = this.appendBlock(paragraph);
      this.target = paragraph;
      chain.length = 0;
      chain.push(paragraph);
      this.materialized = 0;
    } else if (this.target.children.length === 0) {
      // Nothing written yet in this heading or cell: leading whitespace is dropped.
    } else if (this.breaks > 0) {
      const top = chain[chain.length - 1]!;
      top.children.push({ type: 'break' });
      if (this.breaks > 1) top.children.push({ type: 'break' });
    } else if (this.space) {
      const top = chain[chain.length - 1]!;
      const last = top.children[top.children.length - 1];
      if (last !== undefined && last.type === 'text') last.value += ' ';
      else top.children.push({ type: 'text', value: ' ' });
    }
    this.space = false;
    this.breaks = 0;
    const marks = this.marks;
    for (let i = this.materialized; i < marks.length; i++) {
      const mark = marks[i]!;
      const top = chain[chain.length - 1]!;
      const last = top.children[top.children.length - 1];
      let node: Emphasis | Strong | Delete | Link;
      if (mark.type !== 'link' && last !== undefined && last.type === mark.type) {
        // `<em>a</em><em>b</em>`: one emphasis, as `*a**b*` would not parse back.
        node = last as Emphasis | Strong | Delete;
      } else {
        node =
          mark.type === 'link'
            ? { type: 'link', url: mark.url, title: mark.title, children: [] }
            : { type: mark.type, children: [] };
        top.children.push(node);
      }
      mark.node = node;
      chain.push(node);
    }
    this.materialized = marks.length;
    return chain[chain.length - 1]!;
  }

  private pushMark(type: MarkType, url: string, title: string | null): number {
    const marks = this.marks;
    for (let i = 0; i < marks.length; i++) if (marks[i]!.type === type) return NONE;
    marks.push({ type, url, title, node: null });
    return MARK;
  }

  private popMark(): void {
    const mark = this.marks.pop()!;
    const chain = this.chain;
    if (mark.node !== null && chain[chain.length - 1] === mark.node) {
      chain.pop();
      settle(mark.node, chain[chain.length - 1]!);
    }
    mark.node = null;
    if (this.materialized > this.marks.length) this.materialized = this.marks.length;
  }

  /** End the phrasing block: the next content starts a new paragraph. */
  private closePhrasing(): void {
    const chain = this.chain;
    for (let i = chain.length - 1; i > 0; i--) settle(chain[i]!, chain[i - 1]!);
    const target = this.target;
    if (
      target !== null &&
      target.type === 'paragraph' &&
      this.targetParent !== null &&
      isBlank(target)
    ) {
      // `<p>&nbsp;</p>` spacers: a paragraph of non-breaking or other Unicode spaces.
      removeLast(this.targetParent.children, target);
      this.units -= (target.children[0] as { value: string }).value.length;
    }
    // Every block is finished here; a table in progress is not in the tree yet.
    if (this.units > this.stopAfter && this.tables.length === 0) this.stopped = true;
    this.targetParent = null;
    this.target = null;
    this.chain.length = 0;
    this.materialized = 0;
    for (const mark of this.marks) mark.node = null;
    this.space = false;
    this.breaks = 0;
  }

  /** A block boundary: ends the paragraph, or is a space inside a heading or cell. */
  private block(): number {
    if (this.inlineOnly > 0) this.space = true;
    else this.closePhrasing();
    return BLOCK;
  }

  private lineBreak(): void {
    if (this.inlineOnly > 0) {
      this.space = true;
      return;
    }
    if (this.target === null) return;
    this.breaks++;
    this.space = false;
  }

  private resolve(href: string): string | null {
    let url = this.urls.get(href);
    if (url === undefined) {
      url = resolveUrl(href, this.base);
      this.urls.set(href, url);
    }
    return url;
  }

  private link(element: HtmlElement): number {
    const href = getAttr(element, 'href');
    if (href === null) return NONE;
    const url = this.resolve(href);
    // Unresolvable and script links keep their text and lose the link.
    if (url === null || url.startsWith('javascript:')) return NONE;
    return this.pushMark('link', url, collapsedAttr(element, 'title'));
  }

  private image(element: HtmlElement): void {
    let src = getAttr(element, 'src');
    const lazy = getAttr(element, 'data-src');
    if (lazy !== null && (src === null || src.trim() === '' || /^\s*data:/i.test(src))) src = lazy;
    const alt = collapsedAttr(element, 'alt') ?? '';
    const url = src === null || src.trim() === '' ? null : this.resolve(src);
    if (url === null || url.startsWith('data:') || url.startsWith('javascript:')) {
      // No usable picture: its alternative text stands in for it.
      if (alt !== '') this.text(alt);
      return;
    }
    this.units += alt.length + url.length;
    this.content().children.push({
      type: 'image',
      url,
      title: collapsedAttr(element, 'title'),
      alt,
    });
  }

  private inlineCode(element: HtmlElement): void {
    const raw = collapseSpaces(collectText(element, ' ', this.leaves));
    const value = raw.trim();
    if (value === '') {
      if (raw !== '') this.space = true;
      return;
    }
    if (raw.charCodeAt(0) === 32) this.space = true;
    this.units += value.length;
    // GFM cannot write `\|` inside code in a table cell, and `]:` inside code in a link
    // label would make a paragraph starting with the link read as a link reference
    // definition (block parsing ends the label at the first `]`); plain text can.
    if (
      (this.target?.type === 'tableCell' && value.includes('\\|')) ||
      (value.includes(']:') && this.marks.some((mark) => mark.type === 'link'))
    ) {
      this.appendText(value);
    } else {
      const children = this.content().children;
      const last = children[children.length - 1];
      // Adjacent code spans would read as one span with a fence inside: join them.
      if (last !== undefined && last.type === 'inlineCode') last.value += value;
      else children.push({ type: 'inlineCode', value });
    }
    this.space = raw.charCodeAt(raw.length - 1) === 32;
  }

  // ---- Blocks ------------------------------------------------------------------------

  /**
   * Append a block to the open container (content directly in a list gets an item of
   * its own) and return the container.
   */
  private appendBlock(node: BlockContent): FlowParent {
    let parent: FlowParent;
    const top = this.containers[this.containers.length - 1]!;
    if (top.kind === LIST) {
      parent = { type: 'listItem', spread: false, checked: null, children: [] };
      (top.node as List).children.push(parent);
      this.containers.push({ kind: ITEM, node: parent, parent: top.node, implicit: true });
    } else {
      parent = top.node as FlowParent;
    }
    // A task marker needs a paragraph to sit in: a checkbox before any other block is not one.
    if (parent.type === 'listItem' && parent.children.length === 0 && node.type !== 'paragraph') {
      parent.checked = null;
    }
    parent.children.push(node);
    return parent;
  }

  private rule(): void {
    if (this.inlineOnly > 0) {
      this.space = true;
      return;
    }
    this.closePhrasing();
    this.appendBlock({ type: 'thematicBreak' });
  }

  private codeBlock(element: HtmlElement): void {
    this.closePhrasing();
    const value = collectText(element, '\n', this.leaves)
      .replace(/\0/g, '\uFFFD')
      .replace(/^\n+|\s+$/g, '');
    if (value === '') return;
    let lang = language(element);
    if (lang === null) {
      for (const child of element.childNodes) {
        if ('tagName' in child) {
          if (child.tagName === 'code') lang = language(child);
          break;
        }
      }
    }
    const code: Code = { type: 'code', lang, meta: null, value };
    this.appendBlock(code);
    this.units += value.length;
  }

  private heading(depth: Heading['depth']): number {
    if (this.inlineOnly > 0) return this.block();
    this.closePhrasing();
    const node: Heading = { type: 'heading', depth, children: [] };
    const parent = this.appendBlock(node);
    this.target = node;
    this.chain.push(node);
    this.inlineOnly++;
    this.enterData = { node, parent };
    return HEADING;
  }

  private leaveHeading({ node, parent }: { node: Heading; parent: FlowParent }): void {
    this.inlineOnly--;
    this.closePhrasing();
    if (node.children.length === 0) {
      removeLast(parent.children, node);
    } else if (isBlank(node)) {
      removeLast(parent.children, node);
      this.units -= (node.children[0] as { value: string }).value.length;
    }
  }

  private blockquote(): number {
    if (this.inlineOnly > 0 || this.nesting >= MARKDOWN_MAX_NESTING) return this.block();
    this.closePhrasing();
    const node: Blockquote = { type: 'blockquote', children: [] };
    const parent = this.appendBlock(node);
    return this.pushContainer({ kind: BLOCKQUOTE, node, parent, implicit: false });
  }

  private list(element: HtmlElement, ordered: boolean): number {
    if (this.inlineOnly > 0 || this.nesting >= MARKDOWN_MAX_NESTING) return this.block();
    this.closePhrasing();
    let start: number | null = null;
    if (ordered) {
      const value = Number.parseInt(getAttr(element, 'start') ?? '1', 10);
      // CommonMark list numbers have at most nine digits and are never negative.
      start = Number.isFinite(value) ? Math.min(Math.max(value, 0), 999_999_999) : 1;
    }
    const node: List = { type: 'list', ordered, start, spread: false, children: [] };
    const parent = this.appendBlock(node);
    return this.pushContainer({ kind: LIST, node, parent, implicit: false });
  }

  private listItem(): number {
    if (this.inlineOnly > 0) return this.block();
    let top = this.containers[this.containers.length - 1]!;
    if (top.kind === ITEM && top.implicit) {
      this.closePhrasing();
      this.popContainer();
      top = this.containers[this.containers.length - 1]!;
    }
    // An `<li>` outside a list, or in a list flattened by the nesting cap, is a block.
    if (top.kind !== LIST) return this.block();
    this.closePhrasing();
    const node: ListItem = { type: 'listItem', spread: false, checked: null, children: [] };
    (top.node as List).children.push(node);
    this.containers.push({ kind: ITEM, node, parent: top.node, implicit: false });
    this.enterData = this.containers[this.containers.length - 1];
    return CONTAINER;
  }

  private checkbox(element: HtmlElement): void {
    if (getAttr(element, 'type')?.trim().toLowerCase() !== 'checkbox') return;
    const top = this.containers[this.containers.length - 1]!;
    // Only a checkbox before any content of its list item makes a task item.
    if (top.kind !== ITEM || this.inlineOnly > 0 || this.target !== null) return;
    const item = top.node as ListItem;
    if (item.children.length === 0 && item.checked === null) {
      item.checked = getAttr(element, 'checked') !== null;
    }
  }

  private pushContainer(container: Container): number {
    this.containers.push(container);
    this.nesting++;
    this.enterData = container;
    return CONTAINER;
  }

  private leaveContainer(container: Container): void {
    this.closePhrasing();
    let top = this.containers[this.containers.length - 1]!;
    if (top !== container && top.kind === ITEM && top.implicit) {
      this.popContainer();
      top = this.containers[this.containers.length - 1]!;
    }
    if (top === container) this.popContainer();
    if (container.kind !== ITEM) this.nesting--;
  }

  private popContainer(): void {
    const container = this.containers.pop()!;
    const node = container.node;
    if (node.type === 'list' && node.ordered && node.start !== null && node.start !== undefined) {
      // The last item's number must still have at most nine digits.
      node.start = Math.max(0, Math.min(node.start, 1_000_000_000 - node.children.length));
    }
    if (node.children.length === 0 && container.parent !== null) {
      removeLast(container.parent.children, node);
    }
  }

  // ---- Tables ------------------------------------------------------------------------

  private table(element: HtmlElement): number {
    if (this.inlineOnly > 0 || isLayoutTable(element)) return this.block();
    this.closePhrasing();
    const node: Table = { type: 'table', align: [], children: [] };
    this.tables.push({ node, align: [], pending: [], occupied: [], row: null });
    return TABLE;
  }

  private leaveTable(): void {
    this.closePhrasing();
    const context = this.tables.pop()!;
    if (context.row !== null) this.leaveRow();
    const rows = context.node.children;
    let width = 0;
    for (const row of rows) if (row.children.length > width) width = row.children.length;
    if (width === 0) return;
    for (const row of rows) while (row.children.length < width) row.children.push(emptyCell());
    const align = context.align;
    while (align.length < width) align.push(null);
    align.length = width;
    context.node.align = align;
    this.appendBlock(context.node);
  }

  private currentTable(): TableContext | null {
    if (this.inlineOnly > 0) return null;
    return this.tables[this.tables.length - 1] ?? null;
  }

  private row(element: HtmlElement): number {
    const context = this.currentTable();
    if (context === null) return this.block();
    if (context.row !== null) this.leaveRow();
    context.row = { type: 'tableRow', children: [] };
    // Columns a rowspan from above still covers in this row.
    const pending = context.pending;
    context.occupied = pending.map((count) => count > 0);
    for (let i = 0; i < pending.length; i++) if (pending[i]! > 0) pending[i]!--;
    this.enterData = element;
    return ROW;
  }

  private leaveRow(): void {
    const context = this.tables[this.tables.length - 1];
    if (context === undefined || context.row === null) return;
    const row = context.row;
    const occupied = context.occupied;
    for (let column = row.children.length; column < occupied.length; column++) {
      if (occupied[column]) while (row.children.length <= column) row.children.push(emptyCell());
    }
    if (row.children.length > 0) context.node.children.push(row);
    context.row = null;
  }

  private cell(element: HtmlElement): number {
    const context = this.currentTable();
    if (context === null) return this.block();
    if (context.row === null) {
      // A cell outside a row (only through odd trees): it starts one.
      context.row = { type: 'tableRow', children: [] };
      context.occupied = [];
    }
    this.closePhrasing();
    const row = context.row;
    const cells = row.children;
    while (cells.length < context.occupied.length && context.occupied[cells.length]) {
      cells.push(emptyCell());
    }
    let cell: TableCell;
    let span = 1;
    const column = cells.length;
    if (column >= MARKDOWN_MAX_TABLE_COLUMNS) {
      cell = cells[cells.length - 1]!;
      this.space = cell.children.length > 0;
    } else {
      cell = emptyCell();
      cells.push(cell);
      span = Math.min(spanAttr(element, 'colspan', 1000), MARKDOWN_MAX_TABLE_COLUMNS - column);
      const rowspan = spanAttr(element, 'rowspan', 65534);
      for (let i = column; i < column + span; i++) context.pending[i] = rowspan - 1;
      for (let i = context.pending.length; i < column; i++) context.pending[i] = 0;
      const align = cellAlign(element);
      if (align !== null) {
        while (context.align.length <= column) context.align.push(null);
        if (context.align[column] === null) context.align[column] = align;
      }
    }
    this.target = cell;
    this.chain.push(cell);
    this.inlineOnly++;
    this.enterData = span;
    return CELL;
  }

  private leaveCell(span: number): void {
    this.inlineOnly--;
    this.closePhrasing();
    const row = this.tables[this.tables.length - 1]?.row;
    if (row === null || row === undefined) return;
    for (let i = 1; i < span; i++) row.children.push(emptyCell());
  }
}

/**
 * Put a just-closed inline node (the last child of `parent`) in the one form markdown
 * reads back: strong around a lone emphasis becomes emphasis around strong (`***x***`
 * parses that way), merged into an emphasis right before it.
 */
function settle(node: PhrasingParent, parent: PhrasingParent): void {
  if (
    node.type !== 'strong' ||
    node.children.length !== 1 ||
    node.children[0]!.type !== 'emphasis'
  ) {
    return;
  }
  const emphasis = node.children[0] as Emphasis;
  node.children = emphasis.children;
  emphasis.children = [node];
  const siblings = parent.children;
  const previous = siblings[siblings.length - 2];
  if (previous !== undefined && previous.type === 'emphasis') {
    siblings.pop();
    previous.children.push(node);
  } else {
    siblings[siblings.length - 1] = emphasis;
  }
}

const UNICODE_BLANK = /^\s*$/;

/** A paragraph or heading holding nothing but Unicode whitespace. */
function isBlank(node: Paragraph | Heading): boolean {
  const children = node.children;
  return (
    children.length === 1 && children[0]!.type === 'text' && UNICODE_BLANK.test(children[0]!.value)
  );
}

function emptyCell(): TableCell {
  return { type: 'tableCell', children: [] };
}

function removeLast(children: unknown[], node: unknown): void {
  if (children[children.length - 1] === node) children.pop();
}

function collapsedAttr(element: HtmlElement, name: string): string | null {
  const value = getAttr(element, name);
  if (value === null) return null;
  const collapsed = collapseSpaces(value).trim().replace(/\0/g, '\uFFFD');
  return collapsed === '' ? null : collapsed;
}

function spanAttr(element: HtmlElement, name: string, max: number): number {
  const value = Number.parseInt(getAttr(element, name) ?? '', 10);
  return Number.isFinite(value) && value >= 1 ? Math.min(value, max) : 1;
}

function cellAlign(element: HtmlElement): 'left' | 'right' | 'center' | null {
  let value = getAttr(element, 'align')?.trim().toLowerCase() ?? null;
  if (value === null) {
    const style = getAttr(element, 'style');
    const match = style === null ? null : TEXT_ALIGN.exec(style);
    value = match === null ? null : match[1]!.toLowerCase();
  }
  if (value === null) {
    const row = element.parentNode;
    if (row !== null && 'tagName' in row && row.tagName === 'tr') {
      value = getAttr(row, 'align')?.trim().toLowerCase() ?? null;
    }
  }
  return value === 'left' || value === 'right' || value === 'center' ? value : null;
}

function language(element: HtmlElement): string | null {
  const match = LANGUAGE_CLASS.exec(getAttr(element, 'class') ?? '');
  if (match === null) return null;
  const lang = match[1]!;
  return SAFE_LANGUAGE.test(lang) ? lang : null;
}

/**
 * A table that lays out a page rather than holding data: `role="presentation"`, a single
 * column, or one holding another table. Its cells are read as plain blocks.
 */
function isLayoutTable(table: HtmlElement): boolean {
  const role = getAttr(table, 'role')?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  let widest = 0;
  const countRow = (row: HtmlElement) => {
    let cells = 0;
    for (const child of row.childNodes) {
      if ('tagName' in child && (child.tagName === 'td' || child.tagName === 'th')) cells++;
    }
    if (cells > widest) widest = cells;
  };
  for (const child of table.childNodes) {
    if (!('tagName' in child)) continue;
    if (child.tagName === 'tr') countRow(child);
    else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') {
      for (const row of child.childNodes)
        if ('tagName' in row && row.tagName === 'tr') countRow(row);
    }
  }
  if (widest <= 1) return true;
  return containsTable(table);
}

/** Whether a table has another table inside it (iterative; stops at the first). */
function containsTable(table: HtmlElement): boolean {
  const stack: HtmlNode[] = [...table.childNodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('tagName' in node)) continue;
    if (node.tagName === 'table') return true;
    for (const child of node.childNodes) stack.push(child);
  }
  return false;
}

/**
 * The text under an element, boilerplate (buttons, hidden spans) left out, with `<br>`
 * as `lineBreak`. Iterative, as the subtree can be deep; `inSection` tells whether the
 * element sits in a sectioning element.
 */
function collectText(
  element: HtmlElement,
  lineBreak: string,
  leaves: (element: HtmlElement) => boolean,
): string {
  let out = '';
  const stack: HtmlNode[] = [];
  for (let i = element.childNodes.length - 1; i >= 0; i--) stack.push(element.childNodes[i]!);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === '#text') {
      out += (node as { value: string }).value;
      continue;
    }
    if (!('tagName' in node)) continue;
    if (node.tagName === 'br') {
      out += lineBreak;
      continue;
    }
    if (leaves(node)) continue;
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}
