import {
  atomText,
  childrenNamed,
  dublinCoreDates,
  firstText,
  httpUrl,
  linkTarget,
  pickDate,
} from './fields.js';
import { FEED_MAX_TITLE_CHARS } from './limits.js';
import { capMarked, cutCodePoints } from './text.js';
import type { FeedData, FeedItem, ReadLimits } from './types.js';
import type { XmlElement } from './xml-tree.js';

/** RFC 4287 §4.2.7.2: a missing `rel` means `alternate`; the IANA URI form is the same relation. */
const ALTERNATE: ReadonlySet<string> = new Set([
  'alternate',
  'http://www.iana.org/assignments/relation/alternate',
]);

/**
 * Read an Atom 1.0 feed (RFC 4287), tolerating the pre-1.0 namespaces (Atom 0.3, Echo,
 * Pie, the IETF drafts) and a `<feed>` with no namespace. `core` is the namespace set of Atom's elements for this document.
 */
export function readAtom(
  root: XmlElement,
  core: ReadonlySet<string>,
  limits: ReadLimits,
): FeedData {
  // Some Atom drafts put the feed's metadata in a `<head>`.
  const feedTitle = firstText(
    [
      ...childrenNamed(root, 'title', core),
      ...childrenNamed(root, 'head', core).flatMap((head) => childrenNamed(head, 'title', core)),
    ],
    atomText,
  );
  const entries = childrenNamed(root, 'entry', core).slice(0, limits.maxItems);
  const items = entries.map((entry) => readEntry(entry, core, limits));
  return {
    feedTitle: capMarked(feedTitle, FEED_MAX_TITLE_CHARS),
    kind: 'atom',
    count: items.length,
    items,
  };
}

function readEntry(entry: XmlElement, core: ReadonlySet<string>, limits: ReadLimits): FeedItem {
  const title = firstText(childrenNamed(entry, 'title', core), atomText);
  // The summary is the entry's own abstract; the content is the fallback (cut to size).
  const summary = firstText(
    [...childrenNamed(entry, 'summary', core), ...childrenNamed(entry, 'content', core)],
    atomText,
  );
  // `published` (0.3: `issued`) is the publication date; `updated` (0.3: `modified`,
  // `created`) stands in when it is missing; the Dublin Core dates come last.
  const { published, publishedRaw } = pickDate([
    ...['published', 'issued', 'updated', 'modified', 'created'].flatMap((name) =>
      childrenNamed(entry, name, core),
    ),
    ...dublinCoreDates(entry),
  ]);
  return {
    title: capMarked(title, FEED_MAX_TITLE_CHARS),
    link: entryLink(entry, core),
    published,
    publishedRaw,
    summary: cutCodePoints(summary, limits.maxSummaryChars),
  };
}

/**
 * The first `<link rel="alternate">` with a usable target, else the first usable `<link>`
 * without `rel`. The target is `href`, or the link's text when `href` is missing or
 * blank; it is resolved against the `xml:base` in scope (the link's own
 * included) or the feed URL. Only http(s) results count.
 */
function entryLink(entry: XmlElement, core: ReadonlySet<string>): string {
  const links = childrenNamed(entry, 'link', core);
  for (const link of links) {
    const rel = link.attr('rel');
    if (rel === null || !ALTERNATE.has(rel.trim().toLowerCase())) continue;
    const url = httpUrl(linkTarget(link), link.base);
    if (url !== '') return url;
  }
  for (const link of links) {
    if (link.attr('rel') !== null) continue;
    const url = httpUrl(linkTarget(link), link.base);
    if (url !== '') return url;
  }
  return '';
}
