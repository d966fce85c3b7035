import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** Parse markdown as a GFM reader does (micromark + mdast-util-gfm). */
export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** mdast-util-gfm's after-parse transforms: GFM autolink literals found in text. */
const transforms = gfmFromMarkdown().flatMap((extension) => extension.transforms ?? []);

/**
 * The oracle's normal form of a tree, applied to both sides before comparing:
 * - `position`, `spread` and `data` dropped (layout, not content);
 * - adjacent text nodes merged, empty text nodes dropped;
 * - absent optional fields (`title`, `lang`, `meta`, `checked`, `start` of bullet lists,
 *   `align` entries) set to null;
 * - with `autolinks` (for the built tree only): GFM autolink literals. mdast-util-gfm
 *   turns URL- and email-like text into links after parsing, whatever escapes the
 *   source had (GitHub does the same), so the built tree gets that transform once, as
 *   the parsed tree did. It is not idempotent, so it is never run twice on one tree.
 */
export function normalize(tree: Root, { autolinks }: { autolinks: boolean }): Root {
  const copy = clean(tree) as Root;
  if (!autolinks) return copy;
  for (const transform of transforms) transform(copy);
  return clean(copy) as Root;
}

function clean(node: Nodes): Nodes {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'position' || key === 'spread' || key === 'data' || key === 'children') continue;
    out[key] = value;
  }
  switch (node.type) {
    case 'link':
    case 'image':
      out.title = node.title ?? null;
      break;
    case 'code':
      out.lang = node.lang || null;
      out.meta = node.meta || null;
      break;
    case 'listItem':
      out.checked = node.checked ?? null;
      break;
    case 'list':
      out.ordered = Boolean(node.ordered);
      out.start = node.ordered ? (node.start ?? 1) : null;
      break;
    case 'table':
      out.align = (node.align ?? []).map((value) => value ?? null);
      break;
  }
  if ('children' in node) {
    const children: Nodes[] = [];
    for (const child of node.children as Nodes[]) {
      const cleaned = clean(child);
      if (cleaned.type === 'text') {
        if (cleaned.value === '') continue;
        const last = children[children.length - 1];
        if (last !== undefined && last.type === 'text') {
          last.value += cleaned.value;
          continue;
        }
      }
      children.push(cleaned);
    }
    out.children = children;
  }
  return out as unknown as Nodes;
}
