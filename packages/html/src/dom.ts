import type { HtmlElement, HtmlNode, HtmlParent, HtmlText } from './types.js';

/** True for element nodes. */
export function isElement(node: HtmlNode): node is HtmlElement {
  return 'tagName' in node;
}

/** True for text nodes. */
export function isText(node: HtmlNode): node is HtmlText {
  return node.nodeName === '#text';
}

/** The value of an attribute (names are lower-case in HTML), or null. */
export function getAttr(element: HtmlElement, name: string): string | null {
  const attrs = element.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (attr.name === name && attr.namespace === undefined) return attr.value;
  }
  return null;
}

/** The child nodes of a node; a `<template>`'s content counts as its children. */
export function childrenOf(node: HtmlNode): readonly HtmlNode[] {
  if (!('childNodes' in node)) return [];
  if (node.nodeName === 'template' && 'content' in node) {
    return (node as unknown as { content: HtmlParent }).content.childNodes;
  }
  return node.childNodes;
}

/** What a {@link walk} visitor returns: `skip` leaves the node's children out. */
// biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing is a void function.
export type WalkAction = 'skip' | undefined | void;

/** Callbacks of {@link walk}. */
export interface Visitor {
  enter?(node: HtmlNode): WalkAction;
  leave?(node: HtmlNode): void;
}

/**
 * Visit every node below `root` (and `root` itself) in document order, without recursion,
 * so ten thousand levels of nesting cost nothing but a longer stack array.
 */
export function walk(root: HtmlNode, visitor: Visitor): void {
  const { enter, leave } = visitor;
  // Each frame is a node, its children and the index of its next child to visit.
  const nodes: HtmlNode[] = [];
  const lists: (readonly HtmlNode[])[] = [];
  const indexes: number[] = [];
  if (enter?.(root) === 'skip') {
    leave?.(root);
    return;
  }
  nodes.push(root);
  lists.push(childrenOf(root));
  indexes.push(0);
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const children = lists[top]!;
    const index = indexes[top]!;
    if (index >= children.length) {
      const node = nodes.pop()!;
      lists.pop();
      indexes.pop();
      leave?.(node);
      continue;
    }
    indexes[top] = index + 1;
    const child = children[index]!;
    if (enter?.(child) === 'skip') {
      leave?.(child);
      continue;
    }
    const below = childrenOf(child);
    if (below.length === 0) {
      leave?.(child);
      continue;
    }
    nodes.push(child);
    lists.push(below);
    indexes.push(0);
  }
}

/** Every element below `root` (excluding `root`) whose tag name is in `names`, in document order. */
export function findAll(root: HtmlNode, names: ReadonlySet<string> | string): HtmlElement[] {
  const found: HtmlElement[] = [];
  const match =
    typeof names === 'string' ? (tag: string) => tag === names : (tag: string) => names.has(tag);
  walk(root, {
    enter(node) {
      if (node !== root && isElement(node) && match(node.tagName)) found.push(node);
    },
  });
  return found;
}

/** The first element below `root` with a tag name in `names`, or null. */
export function findFirst(root: HtmlNode, name: string): HtmlElement | null {
  let found: HtmlElement | null = null;
  walk(root, {
    enter(node) {
      if (found !== null) return 'skip';
      if (node !== root && isElement(node) && node.tagName === name) {
        found = node;
        return 'skip';
      }
    },
  });
  return found;
}

/** The concatenated text of every text node below `node`, as the DOM's `textContent`. */
export function textContent(node: HtmlNode): string {
  if (isText(node)) return node.value;
  let text = '';
  walk(node, {
    enter(child) {
      if (isText(child)) text += child.value;
    },
  });
  return text;
}

/**
 * A run of ASCII whitespace other than one lone space: a lone space is already what a
 * run collapses to, so matching only the other runs leaves most of a text's spaces to
 * the regular expression engine's scan, not to a replacement each (about ten times
 * faster on prose than replacing every run).
 */
const WHITESPACE_TO_COLLAPSE = /[\t\n\f\r][\t\n\f\r ]*| [\t\n\f\r ]+/g;

/**
 * Every run of ASCII whitespace (HTML's definition: tab, LF, FF, CR, space) as one space,
 * as a browser renders inline text; the ends are kept. Other spaces, such as U+00A0, are
 * content and stay.
 */
export function collapseSpaces(text: string): string {
  return text.replace(WHITESPACE_TO_COLLAPSE, ' ');
}

/**
 * Collapse runs of ASCII whitespace to one space ({@link collapseSpaces}) and trim the
 * ends. Other spaces, such as U+00A0, are content and stay.
 */
export function collapseWhitespace(text: string): string {
  return collapseSpaces(text).trim();
}
