import {
  canonicalize,
  joinRows,
  type ReceiptRule,
  StorefrontError,
  sha256Hex,
} from '@storefront/core';
import { ruleProblem } from './rules.js';

/** What re-deriving `text` from a result's fields by a receipt rule found. */
export interface FieldCheck {
  /**
   * True when the text re-derived from the fields equals `text`; false when it differs;
   * null when no field restates `text` (rule `none`, `record` without `extract`).
   */
  readonly fields: boolean | null;
  /** Result fields (paths such as `extract`, `data.links`) that the text binds. */
  readonly covered: readonly string[];
  /** Why `fields` is false; null otherwise. */
  readonly problem: string | null;
}

type Rec = Record<string, unknown>;

/** A rule's verdict: the fields it checked, and the first mismatch (null when none). */
interface RuleVerdict {
  readonly covered: readonly string[];
  readonly problem: string | null;
}

/** The fields of a receipt's signed envelope, compared by the envelope check. */
export const ENVELOPE_FIELDS = ['url', 'status', 'fetchedAt'] as const;

/** Keys that are neither covered nor uncovered: the verdict, the receipt and its text. */
const BOOKKEEPING: ReadonlySet<string> = new Set(['ok', 'attestation', 'text']);

const HASH = /^0x[0-9a-f]{64}$/;

/**
 * `text` is the RFC 8785 JSON of `data`, less the `omit` keys of `data` (telemetry such
 * as availability's `responseMs`, which is not signed).
 */
function checkCanonicalData(result: Rec, text: string, omit: readonly string[]): RuleVerdict {
  if (omit.length === 0) {
    return {
      covered: ['data'],
      problem: sameText(canonical(result.data), text)
        ? null
        : '`text` is not the canonical JSON of `data`: `data` was changed after signing.',
    };
  }
  const data = result.data;
  const signed = isRecord(data)
    ? Object.fromEntries(Object.entries(data).filter(([key]) => !omit.includes(key)))
    : data;
  const without = omit.map((key) => `\`${key}\``).join(', ');
  return {
    covered: isRecord(signed) ? Object.keys(signed).map((key) => `data.${key}`) : ['data'],
    problem: sameText(canonical(signed), text)
      ? null
      : `\`text\` is not the canonical JSON of \`data\` without ${without}: \`data\` was changed after signing.`,
  };
}

/** `text` is the string at the dotted path `field` (`data.markdown`). */
function checkEquals(result: Rec, text: string, field: string): RuleVerdict {
  let value: unknown = result;
  for (const key of field.split('.')) {
    value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  return {
    covered: [field],
    problem: value === text ? null : `\`${field}\` differs from the signed text.`,
  };
}

/** The change claim: claimVersion, url, changed, fromHash, toHash, fetchedAt. */
function checkChangeClaim(result: Rec, text: string): RuleVerdict {
  const lines = text.split('\n');
  const version = lines[0] ?? '';
  const { changed, fromHash, toHash } = result;
  const typed =
    typeof changed === 'boolean' &&
    (fromHash === null || (typeof fromHash === 'string' && HASH.test(fromHash))) &&
    typeof toHash === 'string' &&
    HASH.test(toHash);
  const claim =
    typed && version.startsWith('claimVersion:')
      ? rows([
          version,
          `url:${stringOr(result.url, lines[1]?.slice('url:'.length))}`,
          `changed:${changed}`,
          `fromHash:${fromHash ?? 'none'}`,
          `toHash:${toHash}`,
          `fetchedAt:${stringOr(result.fetchedAt, lines[5]?.slice('fetchedAt:'.length))}`,
        ])
      : null;
  return {
    covered: ['changed', 'fromHash', 'toHash'],
    problem:
      claim === text
        ? null
        : '`changed`, `fromHash`, `toHash`, `url` or `fetchedAt` differ from the signed change claim.',
  };
}

/** `text` is the RFC 8785 JSON of `{extract, text}`: the record and the page text. */
function checkRecord(result: Rec, text: string): RuleVerdict {
  const signed = parseJson(text);
  const problem =
    !isRecord(signed) ||
    typeof signed.text !== 'string' ||
    Object.keys(signed).sort().join() !== 'extract,text'
      ? '`text` is not the canonical JSON of {extract, text}, so it cannot cover `extract`.'
      : sameText(canonical({ extract: result.extract, text: signed.text }), text)
        ? null
        : '`extract` differs from the record in the signed text.';
  return { covered: ['extract'], problem };
}

/** The rows of a fixed-order `name:value` statement, or null when a value would break a line. */
function rows(lines: readonly string[]): string | null {
  try {
    return joinRows(lines);
  } catch {
    return null;
  }
}

/**
 * The crawl's rows (`hash<TAB>url`, one per page, in crawl order), where each page's
 * `hash` is the sha256 of the RFC 8785 JSON of the page without `hash`: every field of
 * every page is bound, and so is `count`.
 */
function checkCrawl(result: Rec, text: string): RuleVerdict {
  const data = dataOf(result);
  const covered = ['data.count', 'data.pages'];
  const pages = Array.isArray(data.pages) ? data.pages : null;
  if (pages === null || !pages.every((page) => isRecord(page) && typeof page.url === 'string')) {
    return { covered, problem: '`data.pages` is not a list of pages.' };
  }
  const cells: [string, string][] = [];
  for (const page of pages as Rec[]) {
    const { hash, ...rest } = page;
    const json = canonical(rest);
    const derived = json === null ? null : sha256Hex(json);
    if (derived === null || hash !== derived) {
      return { covered, problem: `The page \`${String(page.url)}\` differs from its signed hash.` };
    }
    cells.push([derived, page.url as string]);
  }
  if (rowsOfCells(cells) !== text) {
    return { covered, problem: '`data.pages` differ from the signed page rows.' };
  }
  if (data.count !== pages.length) {
    return { covered, problem: '`data.count` is not the number of signed pages.' };
  }
  return { covered, problem: null };
}

/**
 * The notarization statement: statementVersion, algorithm, contentHash, byteLength,
 * source, sourceKind, subject, witnessedAt. `subject` is not a result field; it is read
 * from the text and must agree with `sourceKind`.
 */
function checkNotarize(result: Rec, text: string): RuleVerdict {
  const data = dataOf(result);
  const covered = [
    'data.algorithm',
    'data.contentHash',
    'data.byteLength',
    'data.source',
    'data.sourceKind',
    'data.witnessedAt',
    'data.statementVersion',
  ];
  const subjectLine = text.split('\n')[6] ?? '';
  const subject = subjectLine.slice('subject:'.length);
  const { statementVersion, algorithm, contentHash, byteLength, source, sourceKind, witnessedAt } =
    data;
  const typed =
    typeof statementVersion === 'string' &&
    typeof algorithm === 'string' &&
    typeof contentHash === 'string' &&
    HASH.test(contentHash) &&
    Number.isSafeInteger(byteLength) &&
    (byteLength as number) >= 0 &&
    typeof source === 'string' &&
    typeof witnessedAt === 'string' &&
    ((sourceKind === 'inline' && subject === 'inline-text') ||
      (sourceKind === 'url' && (subject === 'page-text' || subject === 'page-body')));
  const statement = typed
    ? rows([
        `statementVersion:${statementVersion}`,
        `algorithm:${algorithm}`,
        `contentHash:${contentHash}`,
        `byteLength:${byteLength}`,
        `source:${source}`,
        `sourceKind:${sourceKind}`,
        subjectLine,
        `witnessedAt:${witnessedAt}`,
      ])
    : null;
  let problem: string | null = null;
  if (statement !== text) {
    problem = '`data` differs from the signed notarization statement.';
  } else if ('url' in result && result.url !== source) {
    problem = '`data.source` differs from the result’s `url`.';
  } else if ('fetchedAt' in result && result.fetchedAt !== witnessedAt) {
    problem = '`data.witnessedAt` differs from the result’s `fetchedAt`.';
  }
  return { covered, problem };
}

/**
 * The link rows (`anchor text<TAB>url`, one per link) bind each link's url and text;
 * everything else in `data` follows from those and the signed page url: each link's
 * origin and internal flag (same host, `www.`-insensitive), the counts, `byOrigin`
 * and `thirdPartyOrigins`. So all of `data` is re-derived and compared.
 */
function checkLinks(result: Rec, text: string): RuleVerdict {
  const data = dataOf(result);
  const covered = [
    'data.pageOrigin',
    'data.total',
    'data.internalCount',
    'data.externalCount',
    'data.originCount',
    'data.links',
    'data.byOrigin',
    'data.thirdPartyOrigins',
  ];
  const links = Array.isArray(data.links) ? data.links : null;
  const cells = links?.every(
    (link) => isRecord(link) && typeof link.url === 'string' && typeof link.text === 'string',
  )
    ? (links as { url: string; text: string }[]).map((link) => [link.text, link.url] as const)
    : null;
  const joined = cells === null ? null : rowsOfCells(cells);
  if (joined !== text) {
    return { covered, problem: '`data.links` differ from the signed link rows.' };
  }
  const page = typeof result.url === 'string' ? parseUrl(result.url) : null;
  if (page === null) {
    return { covered, problem: 'The result has no http(s) `url` to derive the link graph from.' };
  }
  const derived = linkGraph(page, cells as readonly (readonly [string, string])[]);
  if (derived === null) {
    return { covered, problem: 'A link in `data.links` is not an absolute http(s) URL.' };
  }
  for (const key of covered) {
    const name = key.slice('data.'.length);
    if (!sameText(canonical(data[name]), canonical(derived[name]))) {
      return {
        covered,
        problem: `\`${key}\` does not follow from the signed link rows and page url.`,
      };
    }
  }
  return { covered, problem: null };
}

function rowsOfCells(cells: readonly (readonly [string, string])[]): string | null {
  try {
    return joinRows(cells);
  } catch {
    return null;
  }
}

/** The link graph `@storefront/links` builds from its sorted rows and the page url. */
function linkGraph(page: URL, cells: readonly (readonly [string, string])[]): Rec | null {
  const pageHost = bareHost(page.hostname);
  const links: { url: string; text: string; origin: string; internal: boolean }[] = [];
  for (const [text, url] of cells) {
    const target = parseUrl(url);
    if (target === null) return null;
    links.push({
      url,
      text,
      origin: target.origin,
      internal: bareHost(target.hostname) === pageHost,
    });
  }
  const byOrigin: { origin: string; count: number; internal: boolean }[] = [];
  for (const link of links) {
    const last = byOrigin[byOrigin.length - 1];
    if (last !== undefined && last.origin === link.origin) last.count++;
    else byOrigin.push({ origin: link.origin, count: 1, internal: link.internal });
  }
  const thirdPartyOrigins = byOrigin
    .filter((group) => !group.internal)
    .map((group) => group.origin);
  byOrigin.sort(
    (a, b) => b.count - a.count || (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0),
  );
  const internalCount = links.filter((link) => link.internal).length;
  return {
    pageOrigin: page.origin,
    total: links.length,
    internalCount,
    externalCount: links.length - internalCount,
    originCount: byOrigin.length,
    links,
    byOrigin,
    thirdPartyOrigins,
  };
}

/**
 * Re-derive `text` from the fields of `result` by a receipt rule (a route's, from
 * {@link RECEIPT_RULES}, a product package or a service-attestation document) and
 * compare. Total for any result; throws a {@link StorefrontError} (`invalid_params`)
 * only when `rule` is not a receipt rule (misuse).
 *
 * @example
 *   checkFields(result, { kind: 'canonical-json' }).fields // false when `data` was edited
 */
export function checkFields(result: unknown, rule: ReceiptRule): FieldCheck {
  const problem = ruleProblem(rule);
  if (problem !== null) {
    throw new StorefrontError('invalid_params', `Expected a receipt rule, but ${problem}`);
  }
  if (rule.kind === 'none') return NOTHING_RESTATED;
  const input = isRecord(result) ? result : {};
  const text = input.text;
  if (typeof text !== 'string') {
    return { fields: false, covered: [], problem: 'The result has no `text` to compare with.' };
  }
  const verdict = applyRule(rule, input, text);
  if (verdict === null) return NOTHING_RESTATED;
  return { fields: verdict.problem === null, covered: verdict.covered, problem: verdict.problem };
}

const NOTHING_RESTATED: FieldCheck = Object.freeze({ fields: null, covered: [], problem: null });

/** One kind's check; null when no field of this result restates `text`. */
function applyRule(rule: ReceiptRule, result: Rec, text: string): RuleVerdict | null {
  switch (rule.kind) {
    case 'canonical-json':
      return checkCanonicalData(result, text, rule.omit ?? []);
    case 'equals':
      return checkEquals(result, text, rule.field);
    case 'record':
      return 'extract' in result ? checkRecord(result, text) : null;
    case 'link-rows':
      return checkLinks(result, text);
    case 'change-claim':
      return checkChangeClaim(result, text);
    case 'notarization':
      return checkNotarize(result, text);
    case 'page-rows':
      return checkCrawl(result, text);
    case 'none':
      return null;
  }
}

/**
 * True when the result shows nothing but `text`, its receipt and envelope fields (a bare
 * `{text, attestation}`): no field is there to restate `text`.
 */
export function isBare(result: unknown): boolean {
  const input = isRecord(result) ? result : {};
  return Object.keys(input).every(
    (key) =>
      BOOKKEEPING.has(key) ||
      key === 'page' ||
      key === 'slice' ||
      (ENVELOPE_FIELDS as readonly string[]).includes(key),
  );
}

/**
 * The result's fields that a receipt does not cover, given the ones it does: every
 * top-level field (and every field of `data`) besides `ok`, `text`, `attestation` and
 * the covered ones, in the result's order.
 */
export function uncoveredFields(result: unknown, covered: readonly string[]): string[] {
  if (!isRecord(result)) return [];
  const isCovered = (path: string) =>
    covered.some((entry) => entry === path || path.startsWith(`${entry}.`));
  const out: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (BOOKKEEPING.has(key) || isCovered(key)) continue;
    if (key === 'data' && isRecord(value)) {
      for (const inner of Object.keys(value)) {
        if (!isCovered(`data.${inner}`)) out.push(`data.${inner}`);
      }
    } else {
      out.push(key);
    }
  }
  return out;
}

function canonical(value: unknown): string | null {
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

function sameText(derived: string | null, text: string | null): boolean {
  return derived !== null && derived === text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseUrl(value: string): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

function bareHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

function stringOr(value: unknown, fallback: string | undefined): string {
  return typeof value === 'string' ? value : (fallback ?? '');
}

/** The result's `data`; an empty record when it has none, so every check stays total. */
function dataOf(result: Rec): Rec {
  return isRecord(result.data) ? result.data : {};
}

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
