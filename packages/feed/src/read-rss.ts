import {
  childrenNamed,
  dublinCoreDates,
  firstText,
  httpUrl,
  linkTarget,
  pickDate,
  plainText,
  rssText,
} from './fields.js';
import { FEED_MAX_TITLE_CHARS } from './limits.js';
import { NS } from './namespaces.js';
import { capMarked, cutCodePoints } from './text.js';
import type { FeedData, FeedItem, ReadLimits } from './types.js';
import { XmlElement } from './xml-tree.js';

const DC: ReadonlySet<string> = new Set([NS.dc]);
const CONTENT: ReadonlySet<string> = new Set([NS.content]);
const ATOM: ReadonlySet<string> = new Set([NS.atom]);

/** The element vocabularies of RSS 1.0 and RSS 0.90 (and none, for feeds that forget it). */
export const RDF_CORE: ReadonlySet<string> = new Set([NS.rss10, NS.rss090, '']);

/**
 * Read an RSS feed: RSS 2.0 and 0.9x (`<rss>`, items in `<channel>`) or RSS 1.0 and
 * 0.90 (`<rdf:RDF>`, items beside `<channel>`). `core` is the namespace set of the
 * format's own elements. Items are taken in document order from every `<channel>` and
 * from the root itself (a common mistake), up to `limits.maxItems`.
 */
export function readRss(root: XmlElement, core: ReadonlySet<string>, limits: ReadLimits): FeedData {
  const channels = childrenNamed(root, 'channel', core);
  const channel = channels[0];
  const feedTitle =
    channel === undefined
      ? ''
      : firstText(
          [...childrenNamed(channel, 'title', core), ...childrenNamed(channel, 'title', DC)],
          rssText,
        );

  const elements: XmlElement[] = [];
  for (const child of root.children) {
    if (elements.length >= limits.maxItems) break;
    if (!(child instanceof XmlElement) || !core.has(child.ns)) continue;
    if (child.local === 'item') {
      elements.push(child);
    } else if (child.local === 'channel') {
      for (const item of childrenNamed(child, 'item', core)) {
        if (elements.length >= limits.maxItems) break;
        elements.push(item);
      }
    }
  }
  const items = elements.map((element) => readItem(element, core, limits));
  return {
    feedTitle: capMarked(feedTitle, FEED_MAX_TITLE_CHARS),
    kind: 'rss',
    count: items.length,
    items,
  };
}

function readItem(item: XmlElement, core: ReadonlySet<string>, limits: ReadLimits): FeedItem {
  const title = firstText(
    [...childrenNamed(item, 'title', core), ...childrenNamed(item, 'title', DC)],
    rssText,
  );
  const summary = firstText(
    [
      ...childrenNamed(item, 'description', core),
      ...childrenNamed(item, 'description', DC),
      ...childrenNamed(item, 'encoded', CONTENT),
    ],
    rssText,
  );
  // `pubDate`, then the Dublin Core dates (`dcterms:issued`, `dc:date`, `dcterms:date`,
  // `dcterms:created`, `dcterms:modified`).
  const { published, publishedRaw } = pickDate([
    ...childrenNamed(item, 'pubDate', core),
    ...dublinCoreDates(item),
  ]);
  return {
    title: capMarked(title, FEED_MAX_TITLE_CHARS),
    link: itemLink(item, core),
    published,
    publishedRaw,
    summary: cutCodePoints(summary, limits.maxSummaryChars),
  };
}

/**
 * The first usable of: `<link>` (resolved against its `xml:base` or the feed URL), an
 * `<atom:link>` that is an alternate, a `<guid>` that is a permalink (`isPermaLink` absent
 * or not `false`, and an absolute http(s) URL: a guid is an identifier, never resolved),
 * and RSS 1.0's `rdf:about`, also absolute.
 */
function itemLink(item: XmlElement, core: ReadonlySet<string>): string {
  for (const link of childrenNamed(item, 'link', core)) {
    const url = httpUrl(plainText(link), link.base);
    if (url !== '') return url;
  }
  for (const link of childrenNamed(item, 'link', ATOM)) {
    const rel = (link.attr('rel') ?? 'alternate').trim().toLowerCase();
    if (rel !== 'alternate') continue;
    const url = httpUrl(linkTarget(link), link.base);
    if (url !== '') return url;
  }
  for (const guid of childrenNamed(item, 'guid', core)) {
    if ((guid.attr('isPermaLink') ?? '').trim().toLowerCase() === 'false') continue;
    const url = httpUrl(plainText(guid), null);
    if (url !== '') return url;
  }
  return httpUrl(item.attrNS(NS.rdf, 'about'), null);
}
