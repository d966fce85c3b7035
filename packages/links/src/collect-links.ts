import {
  BLOCK_TAGS,
  getAttr,
  type HtmlElement,
  type HtmlNode,
  isElement,
  isText,
  walk,
} from '@storefront/html';
import { collapseAttribute, TextAccumulator } from './anchor-text.js';
import { MAX_LINKS } from './limits.js';
import { type LinkTarget, linkTarget } from './link-target.js';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * Subtrees that hold no hyperlinks and no anchor text: scripts and styles are code, and a
 * `<template>` is inert. (`<noscript>` content is raw text because pages are parsed with
 * scripting enabled, as a current browser does.)
 */
const SKIPPED_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'template', 'noscript']);

/** One unique link while the document is read. */
export interface LinkEntry {
  readonly target: LinkTarget;
  /** Document order of the first anchor with this URL. */
  readonly first: number;
  /** Visible text of the earliest anchor (by start tag) that has any, and that anchor's order. */
  text: string;
  textOrder: number;
  /** Fallback text (`<img alt>`, `aria-label`, `title`) of the earliest anchor that has one. */
  fallback: string;
  fallbackOrder: number;
}

interface Frame {
  readonly node: HtmlElement;
  readonly order: number;
  readonly entry: LinkEntry | null;
  readonly text: TextAccumulator;
  readonly alt: TextAccumulator;
}

/**
 * Read every HTML `<a href>` of a document in one iterative pass: resolve it, keep the
 * first {@link MAX_LINKS} distinct URLs, and work out each anchor's text. Anchors can nest
 * (through `<object>` or a table cell); an inner anchor's text is part of the outer one's,
 * as in the DOM's `textContent`, and each anchor's text is bounded, so the pass stays
 * linear in the size of the document.
 *
 * @returns the unique links in the order their first anchor starts.
 */
export function collectLinks(root: HtmlNode, baseUrl: string, pageUrl: string): LinkEntry[] {
  const entries: LinkEntry[] = [];
  const byUrl = new Map<string, LinkEntry>();
  const frames: Frame[] = [];
  let anchors = 0;

  walk(root, {
    enter(node) {
      if (isText(node)) {
        frames[frames.length - 1]?.text.add(node.value);
        return;
      }
      if (!isElement(node)) return;
      const tag = node.tagName;
      if (SKIPPED_TAGS.has(tag)) return 'skip';
      const top = frames[frames.length - 1];
      if (tag === 'a' && node.namespaceURI === HTML_NAMESPACE) {
        const href = getAttr(node, 'href');
        if (href !== null) {
          const order = anchors++;
          const target = linkTarget(href, baseUrl, pageUrl);
          let entry: LinkEntry | null = null;
          if (typeof target !== 'string') {
            entry = byUrl.get(target.url) ?? null;
            if (entry === null && entries.length < MAX_LINKS) {
              entry = {
                target,
                first: order,
                text: '',
                textOrder: Infinity,
                fallback: '',
                fallbackOrder: Infinity,
              };
              byUrl.set(target.url, entry);
              entries.push(entry);
            }
          }
          frames.push({
            node,
            order,
            entry,
            text: new TextAccumulator(),
            alt: new TextAccumulator(),
          });
          return;
        }
      }
      if (top === undefined) return;
      if (tag === 'img') {
        top.alt.separate();
        top.alt.add(getAttr(node, 'alt') ?? '');
      } else if (tag === 'br' || BLOCK_TAGS.has(tag)) {
        top.text.separate();
      }
    },
    leave(node) {
      const top = frames[frames.length - 1];
      if (top === undefined) return;
      if (top.node !== node) {
        if (isElement(node) && BLOCK_TAGS.has(node.tagName)) top.text.separate();
        return;
      }
      frames.pop();
      const text = top.text.finish();
      const entry = top.entry;
      if (entry !== null) {
        if (text !== '' && top.order < entry.textOrder) {
          entry.text = text;
          entry.textOrder = top.order;
        }
        if (top.order < entry.fallbackOrder) {
          const fallback =
            top.alt.finish() ||
            collapseAttribute(getAttr(top.node, 'aria-label')) ||
            collapseAttribute(getAttr(top.node, 'title'));
          if (fallback !== '') {
            entry.fallback = fallback;
            entry.fallbackOrder = top.order;
          }
        }
      }
      const parent = frames[frames.length - 1];
      if (parent !== undefined) {
        parent.text.addCollapsed(top.text);
        parent.alt.separate();
        parent.alt.addCollapsed(top.alt);
      }
    },
  });
  return entries;
}
