import {
  canonicalize,
  capString,
  type ErrorCode,
  type FetchedDocument,
  fail,
  joinRows,
  ok,
  type ProductResult,
  StorefrontError,
  sha256Hex,
} from '@storefront/core';
import { loadHtml, type PageVerdict, pageVerdict } from '@storefront/html';
import { extractLinks } from '@storefront/links';
import { isAllowed, parseRobots } from '@storefront/robots';
import { extractText } from '@storefront/text';
import {
  CRAWL_MAX_CONTENT_CHARS,
  CRAWL_MAX_PAGE_LINKS,
  CRAWL_MAX_PAGES,
  CRAWL_MAX_SKIPPED,
  WALK_ROUND_MAX_FETCHES,
} from './limits.js';
import { readLimit } from './map-site.js';
import { originOf, robotsPath, siteUrl } from './site-url.js';
import type {
  CrawlData,
  CrawlOptions,
  CrawlPage,
  CrawlState,
  FetchOutcome,
  WalkPlan,
  WalkStop,
} from './types.js';

/**
 * Plan a bounded breadth-first crawl of the site of `url`: robots.txt of its origin
 * first, then the start page, then same-origin links in the order they were found, each
 * checked against robots.txt for `options.userAgent` before it is fetched, at most
 * `limit` pages. Hand each round's outcomes to {@link stepCrawl}, the last state to
 * {@link finishCrawl}.
 *
 * @example
 *   let plan = startCrawl('https://shop.example/', { userAgent: 'ShopBot/1' });
 *   while (plan.fetch.length > 0) plan = stepCrawl(plan.state, await fetchAll(plan.fetch));
 *   const result = finishCrawl(plan.state, 'done');
 */
export function startCrawl(url: string, options: Readonly<CrawlOptions>): WalkPlan<CrawlState> {
  const limit = readLimit(options?.limit, CRAWL_MAX_PAGES, 'limit');
  const format = options?.format ?? 'text';
  if (format !== 'text' && format !== 'markdown') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`format\` to be text or markdown, got \`${String(format)}\``,
    );
  }
  const userAgent = options?.userAgent;
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    throw new StorefrontError('invalid_params', 'Expected `userAgent` to be a non-empty string');
  }
  const start = siteUrl(typeof url === 'string' ? url : '');
  if (start === null) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`url\` to be an absolute http or https URL, got \`${String(url).slice(0, 100)}\``,
    );
  }
  const state: CrawlState = {
    start,
    origin: originOf(start),
    format,
    limit,
    userAgent,
    robotsOrigin: null,
    robots: null,
    robotsInfo: null,
    attempts: 0,
    pending: [],
    pendingRobots: false,
    queue: [start],
    seen: { [start]: true },
    pages: [],
    skipped: [],
    skippedCount: 0,
    startFailure: null,
  };
  return plan(state);
}

/**
 * Read one round's outcomes (in the order asked) into a new state and plan the next:
 * robots.txt sets the rules (2xx: its groups for our user agent; 4xx: allow all; 5xx
 * or unreachable: disallow all, RFC 9309 §2.3.1); a page adds its record and queues
 * its unseen same-origin links. Pure: `state` is not changed.
 */
export function stepCrawl(
  state: CrawlState,
  outcomes: readonly FetchOutcome[],
): WalkPlan<CrawlState> {
  const next = structuredClone(state);
  const round = next.pending;
  next.pending = [];
  if (next.pendingRobots) {
    next.pendingRobots = false;
    readRobots(next, outcomes[0] ?? notFetched());
  } else {
    round.forEach((url, index) => {
      readPage(next, url, outcomes[index] ?? notFetched());
    });
  }
  return plan(next);
}

/**
 * The crawl: its pages in breadth-first order. `text` is one `hash<TAB>url` row per
 * page, where `hash` is the page's own `hash` field, the sha256 of the RFC 8785 JSON of
 * the page without it. With no page read, the start page's failure is the result.
 */
export function finishCrawl(state: CrawlState, stop: WalkStop): ProductResult<CrawlData> {
  if (state.pages.length === 0 || state.startFailure !== null) {
    const failure = state.startFailure ?? {
      error: 'timeout',
      message: 'The call ran out of time before the start page was read.',
      status: null,
    };
    return fail(failure.error as ErrorCode, failure.message);
  }
  const data: CrawlData = {
    origin: state.origin,
    format: state.format,
    count: state.pages.length,
    pages: state.pages,
    skipped: state.skipped,
    skippedCount: state.skippedCount,
    robots: state.robotsInfo,
    stop,
  };
  const text = joinRows(state.pages.map((page) => [page.hash, page.url]));
  const first = state.pages[0] as CrawlPage;
  return ok(text, data, { url: first.url, status: first.status });
}

/** The sha256 a page's row carries: of its RFC 8785 JSON without `hash`. */
export function pageHash(page: Omit<CrawlPage, 'hash'> & { readonly hash?: string }): string {
  const { hash: _hash, ...rest } = page;
  return sha256Hex(canonicalize(rest as never));
}

function plan(state: CrawlState): WalkPlan<CrawlState> {
  if (state.robotsOrigin !== state.origin) {
    // The rules of the crawl's origin come first (the start, or the start's redirect target).
    state.robotsOrigin = state.origin;
    state.robots = null;
    state.pendingRobots = true;
    return { state, fetch: [`${state.origin}/robots.txt`] };
  }
  while (
    state.queue.length > 0 &&
    state.pending.length < WALK_ROUND_MAX_FETCHES &&
    state.attempts < state.limit
  ) {
    const url = state.queue.shift() as string;
    if (!allowed(state, url)) {
      skip(state, url, 'robots');
      if (url === state.start && state.startFailure === null) {
        const info = state.robotsInfo;
        state.startFailure = {
          error: 'robots_disallowed',
          message:
            info?.mode === 'rules'
              ? `${info.url} disallows ${robotsPath(url)} for ${state.userAgent}`
              : `${info?.url ?? 'robots.txt'} ${info?.status == null ? 'could not be fetched' : `answered HTTP ${info.status}`}, which disallows every path (RFC 9309 §2.3.1.4)`,
          status: null,
        };
      }
      continue;
    }
    state.pending.push(url);
    state.attempts++;
  }
  return { state, fetch: [...state.pending] };
}

function allowed(state: CrawlState, url: string): boolean {
  const mode = state.robotsInfo?.mode ?? 'disallow-all';
  if (mode === 'allow-all') return true;
  if (mode === 'disallow-all' || state.robots === null) return false;
  return isAllowed(state.robots, state.userAgent, robotsPath(url));
}

function readRobots(state: CrawlState, outcome: FetchOutcome): void {
  const url = `${state.origin}/robots.txt`;
  if (!outcome.ok) {
    state.robotsInfo = { url, status: outcome.status ?? null, mode: 'disallow-all' };
    // Unreachable robots.txt disallows everything (RFC 9309 §2.3.1.4); when nothing has
    // been read yet, the fetch's own failure (a refused target, a host that is down) is
    // what the caller needs to hear.
    if (state.pages.length === 0) {
      state.startFailure = {
        error: outcome.error,
        message: `${url} could not be fetched (${outcome.message ?? outcome.error}), which disallows every path (RFC 9309 §2.3.1.4)`,
        status: outcome.status ?? null,
      };
    }
    return;
  }
  const { status } = outcome.doc;
  if (status >= 200 && status <= 299) {
    state.robots = parseRobots(outcome.doc.bytes);
    state.robotsInfo = { url, status, mode: 'rules' };
  } else if (status >= 500) {
    state.robotsInfo = { url, status, mode: 'disallow-all' };
  } else {
    // RFC 9309 §2.3.1.3: "unavailable" (4xx, a final 3xx): crawlers may access any resource.
    state.robotsInfo = { url, status, mode: 'allow-all' };
  }
}

function readPage(state: CrawlState, url: string, outcome: FetchOutcome): void {
  const isStart = url === state.start && state.pages.length === 0;
  if (!outcome.ok) {
    skip(state, url, outcome.error);
    if (isStart) {
      state.startFailure = {
        error: outcome.error,
        message: outcome.message ?? outcome.error,
        status: outcome.status ?? null,
      };
    }
    return;
  }
  const { doc } = outcome;
  const final = siteUrl(doc.url) ?? url;
  if (originOf(final) !== state.origin) {
    if (!isStart) {
      skip(state, url, 'off-site-redirect');
      return;
    }
    // The start redirected to another origin (http to https, a www host): the crawl
    // moves there, and that origin's robots.txt is read before any other page.
    state.origin = originOf(final);
  }
  if (state.pages.some((page) => page.url === final)) {
    skip(state, url, 'duplicate');
    return;
  }
  state.seen[final] = true;
  // A page served with 2xx in the content's place (a challenge, a sign-in wall, …) is not
  // read as a page of the site, and its links are not followed. An error status already
  // says what the page is (below).
  const verdict = doc.status >= 200 && doc.status <= 299 ? verdictOf(doc) : null;
  if (verdict !== null && verdict.verdict !== 'content') {
    skip(state, url, 'not_content');
    if (isStart) {
      state.startFailure = {
        error: 'not_content',
        message: `The start page is a ${verdict.verdict} page, not the content (${verdict.signals.join(', ')})`,
        status: doc.status,
      };
    }
    return;
  }
  const page = pageOf(doc, final, state.format);
  state.pages.push(page);
  if (isStart && (doc.status < 200 || doc.status > 299)) {
    state.startFailure = {
      error: 'upstream_http_error',
      message: `The page answered HTTP ${doc.status}`,
      status: doc.status,
    };
  }
  if (doc.status < 200 || doc.status > 299) return;
  for (const link of page.links) {
    if (state.seen[link] === true || originOf(link) !== state.origin) continue;
    state.seen[link] = true;
    state.queue.push(link);
  }
}

/** The verdict on a page that parses as HTML or text; null otherwise. */
function verdictOf(doc: FetchedDocument): PageVerdict | null {
  const loaded = loadHtml(doc);
  return loaded.ok ? pageVerdict(loaded.page, doc) : null;
}

function pageOf(doc: FetchedDocument, url: string, format: 'text' | 'markdown'): CrawlPage {
  const text = extractText(doc, { format });
  const links = extractLinks(doc);
  const record: Omit<CrawlPage, 'hash'> = {
    url,
    status: doc.status,
    contentType: doc.contentType,
    title: text.ok ? (text.data.title ?? null) : null,
    content: text.ok ? capString(text.text, CRAWL_MAX_CONTENT_CHARS) : '',
    links: links.ok ? links.data.links.slice(0, CRAWL_MAX_PAGE_LINKS).map((link) => link.url) : [],
  };
  return { ...record, hash: pageHash(record) };
}

function skip(state: CrawlState, url: string, reason: string): void {
  state.skippedCount++;
  if (state.skipped.length < CRAWL_MAX_SKIPPED) state.skipped.push({ url, reason });
}

function notFetched(): FetchOutcome {
  return { ok: false, error: 'timeout', message: 'The page was not fetched.' };
}
