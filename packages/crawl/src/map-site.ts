import {
  canonicalize,
  type ErrorCode,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import { findAll, getAttr, loadHtml } from '@storefront/html';
import { extractLinks } from '@storefront/links';
import { parseRobots } from '@storefront/robots';
import {
  MAP_MAX_COLLECTED,
  MAP_MAX_FETCHES,
  MAP_MAX_URLS,
  WALK_ROUND_MAX_FETCHES,
} from './limits.js';
import { readSitemap } from './read-sitemap.js';
import { originOf, siteOf, siteUrl, siteUrlOf } from './site-url.js';
import type {
  FetchOutcome,
  MapData,
  MapOptions,
  MapPending,
  MapSource,
  MapSourceKind,
  MapState,
  WalkPlan,
  WalkStop,
} from './types.js';

const FEED_TYPES: ReadonlySet<string> = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
]);

/**
 * Plan a map of the site of `url` without crawling it: the first round reads
 * `<origin>/robots.txt` and the start page. Hand each round's outcomes to
 * {@link stepMap}, and the last state to {@link finishMap}.
 *
 * @example
 *   let plan = startMap('https://shop.example/');
 *   while (plan.fetch.length > 0) plan = stepMap(plan.state, await fetchAll(plan.fetch));
 *   const result = finishMap(plan.state, 'done');
 */
export function startMap(url: string, options?: Readonly<MapOptions> | null): WalkPlan<MapState> {
  const limit = readLimit(options?.limit, MAP_MAX_URLS, 'limit');
  const start = siteUrl(typeof url === 'string' ? url : '');
  if (start === null) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`url\` to be an absolute http or https URL, got \`${String(url).slice(0, 100)}\``,
    );
  }
  const origin = originOf(start);
  const robots = `${origin}/robots.txt`;
  const state: MapState = {
    start,
    origin,
    site: siteOf(start),
    limit,
    fetches: 0,
    pending: [],
    queue: [
      { url: robots, role: 'robots.txt', via: null },
      { url: start, role: 'page', via: null },
    ],
    known: [robots, start],
    unread: [],
    sources: [],
    urls: [],
    lastmods: [],
    beyondCollect: 0,
    offSite: 0,
    startUrl: start,
    startStatus: null,
    startError: null,
  };
  return plan(state);
}

/**
 * Read one round's outcomes (in the order the plan asked for them) into a new state and
 * plan the next round: sitemaps named by robots.txt (`/sitemap.xml` when it names none),
 * by sitemap indexes and by the start page's feed links, at most `MAP_MAX_FETCHES`
 * documents in all. Pure: `state` is not changed.
 */
export function stepMap(state: MapState, outcomes: readonly FetchOutcome[]): WalkPlan<MapState> {
  // Copies of what a step changes; the strings and records inside are never changed.
  const next: MapState = {
    ...state,
    pending: [],
    queue: [...state.queue],
    known: [...state.known],
    unread: [...state.unread],
    sources: [...state.sources],
    urls: [...state.urls],
    lastmods: [...state.lastmods],
  };
  const work: Work = {
    state: next,
    index: new Map(next.urls.map((url, i) => [url, i])),
    known: new Set(next.known),
    unread: new Set(next.unread),
  };
  state.pending.forEach((pending, index) => {
    read(work, pending, outcomes[index] ?? notFetched());
  });
  return plan(work);
}

/** A step's state with the lookups it needs, written back to plain arrays by {@link plan}. */
interface Work {
  readonly state: MapState;
  readonly index: Map<string, number>;
  readonly known: Set<string>;
  readonly unread: Set<string>;
}

/**
 * The map: the collected same-site URLs in code-unit order, at most `limit`, with the
 * sources read and what was cut. `text` is the RFC 8785 JSON of `data`. When no URL at
 * all was found and the start page failed, its failure is the result.
 */
export function finishMap(state: MapState, stop: WalkStop): ProductResult<MapData> {
  const unread = new Set(state.unread);
  for (const left of [...state.pending, ...state.queue]) {
    if (unread.size < MAP_MAX_COLLECTED) unread.add(left.url);
  }
  if (state.urls.length === 0 && state.startError !== null) {
    return fail(state.startError.error as ErrorCode, state.startError.message);
  }
  const order = state.urls.map((_, i) => i);
  order.sort((a, b) => compare(state.urls[a] as string, state.urls[b] as string));
  const kept = order.slice(0, state.limit);
  const data: MapData = {
    origin: state.origin,
    count: kept.length,
    urls: kept.map((i) => ({ url: state.urls[i] as string, lastmod: state.lastmods[i] ?? null })),
    sources: state.sources,
    cut: {
      beyondLimit: state.urls.length - kept.length,
      beyondCollect: state.beyondCollect,
      offSite: state.offSite,
      unreadSources: unread.size,
    },
    stop,
  };
  return ok(canonicalize(data as never), data, { url: state.startUrl, status: state.startStatus });
}

/** Move queued sources into the next round, within the fetch cap; the rest stay unread. */
function plan(work: MapState | Work): WalkPlan<MapState> {
  const state = 'index' in work ? work.state : work;
  while (state.queue.length > 0 && state.pending.length < WALK_ROUND_MAX_FETCHES) {
    if (state.fetches >= MAP_MAX_FETCHES) break;
    state.pending.push(state.queue.shift() as MapPending);
    state.fetches++;
  }
  if ('index' in work) {
    if (state.pending.length === 0) {
      for (const left of state.queue) noteUnread(work, left.url);
      state.queue = [];
    }
    state.known = [...work.known];
    state.unread = [...work.unread];
  }
  return { state, fetch: state.pending.map((pending) => pending.url) };
}

function read(work: Work, pending: MapPending, outcome: FetchOutcome): void {
  const { state } = work;
  const failure = failureOf(outcome);
  if (pending.role === 'page' && failure !== null) {
    state.startStatus = failure.status;
    state.startError = { error: failure.error, message: failure.message };
  }
  if (failure !== null) {
    if (pending.role === 'robots.txt') queueSitemap(work, `${state.origin}/sitemap.xml`, 'default');
    record(
      state,
      pending,
      pending.role === 'page' ? 'page' : roleKind(pending),
      failure.status,
      failure.error,
      0,
    );
    return;
  }
  const doc = (outcome as { doc: FetchedDocument }).doc;
  if (pending.role === 'robots.txt') {
    const { sitemaps } = parseRobots(doc.bytes);
    for (const sitemap of sitemaps) queueSitemap(work, sitemap, pending.url, true);
    if (sitemaps.length === 0) queueSitemap(work, `${state.origin}/sitemap.xml`, 'default');
    record(state, pending, 'robots.txt', doc.status, null, sitemaps.length);
  } else if (pending.role === 'page') {
    readPage(work, pending, doc);
  } else {
    const sitemap = readSitemap(doc);
    if (!sitemap.ok) {
      record(state, pending, 'sitemap', doc.status, sitemap.error, 0);
      return;
    }
    let entries = 0;
    for (const entry of sitemap.entries) {
      const target = siteUrlOf(entry.loc, doc.url);
      if (target === null) continue;
      entries++;
      if (sitemap.kind === 'sitemap-index') queueSitemap(work, target.url, pending.url);
      else addUrl(work, target.url, target.site, entry.lastmod);
    }
    record(state, pending, sitemap.kind, doc.status, null, entries);
  }
}

/** The start page: its own URL, its links, and the feeds it announces. */
function readPage(work: Work, pending: MapPending, doc: FetchedDocument): void {
  const { state } = work;
  state.startStatus = doc.status;
  const final = siteUrl(doc.url) ?? pending.url;
  state.startUrl = final;
  addUrl(work, final, siteOf(final), null);
  const links = extractLinks(doc);
  if (!links.ok) {
    record(state, pending, 'page', doc.status, links.error, 1);
    return;
  }
  for (const link of links.data.links) addUrl(work, link.url, siteOf(link.url), null);
  const loaded = loadHtml(doc);
  let feeds = 0;
  if (loaded.ok) {
    for (const element of findAll(loaded.page.document, 'link')) {
      const rel = (getAttr(element, 'rel') ?? '').toLowerCase().split(/\s+/);
      const type = (getAttr(element, 'type') ?? '').toLowerCase().trim();
      const href = getAttr(element, 'href');
      if (!rel.includes('alternate') || !FEED_TYPES.has(type) || href === null) continue;
      const url = siteUrl(href, loaded.page.baseUrl);
      if (url === null) continue;
      feeds++;
      queueSitemap(work, url, final);
    }
  }
  record(state, pending, 'page', doc.status, null, 1 + links.data.links.length + feeds);
}

/** Queue a sitemap once; robots.txt may name one on another host, an index or a page may not. */
function queueSitemap(work: Work, url: string, via: string, anyHost = false): void {
  const { state } = work;
  if (!anyHost && siteOf(url) !== state.site) {
    state.offSite++;
    return;
  }
  if (work.known.has(url)) return;
  work.known.add(url);
  state.queue.push({ url, role: 'sitemap', via });
}

function addUrl(work: Work, url: string, site: string, lastmod: string | null): void {
  const { state } = work;
  if (site !== state.site) {
    state.offSite++;
    return;
  }
  const at = work.index.get(url);
  if (at !== undefined) {
    if (state.lastmods[at] === null && lastmod !== null) state.lastmods[at] = lastmod;
    return;
  }
  if (state.urls.length >= MAP_MAX_COLLECTED) {
    state.beyondCollect++;
    return;
  }
  work.index.set(url, state.urls.length);
  state.urls.push(url);
  state.lastmods.push(lastmod);
}

function noteUnread(work: Work, url: string): void {
  if (work.unread.size < MAP_MAX_COLLECTED) work.unread.add(url);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function record(
  state: MapState,
  pending: MapPending,
  kind: MapSourceKind,
  status: number | null,
  error: string | null,
  entries: number,
): void {
  const source: MapSource = { url: pending.url, kind, via: pending.via, status, error, entries };
  state.sources.push(source);
}

function roleKind(pending: MapPending): MapSourceKind {
  return pending.role === 'robots.txt' ? 'robots.txt' : 'sitemap';
}

/** A failed fetch or a non-2xx answer, as the source's error. */
function failureOf(
  outcome: FetchOutcome,
): { error: string; message: string; status: number | null } | null {
  if (!outcome.ok) {
    return {
      error: outcome.error,
      message: outcome.message ?? outcome.error,
      status: outcome.status ?? null,
    };
  }
  const { status } = outcome.doc;
  if (status >= 200 && status <= 299) return null;
  return { error: 'upstream_http_error', message: `The page answered HTTP ${status}`, status };
}

function notFetched(): FetchOutcome {
  return { ok: false, error: 'timeout', message: 'The document was not fetched.' };
}

/** An integer option from 1 to `max`; `max` when absent. */
export function readLimit(value: unknown, max: number, name: string): number {
  if (value === undefined || value === null) return max;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`${name}\` to be an integer from 1 to ${max}, got \`${String(value)}\``,
    );
  }
  return value;
}
