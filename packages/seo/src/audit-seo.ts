import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  gradeSummary,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { extractLinks } from '@storefront/links';
import { collectMetadata } from '@storefront/metadata';
import { type CheckContext, RULES } from './checks.js';
import { SEO_MAX_NOTE_CHARS, SEO_MAX_VALUE_CHARS } from './limits.js';
import { SEO_GRADE_CUTOFFS, SEO_RUBRIC, SEO_RUBRIC_CHECKS } from './rubric.js';
import { scanPage } from './scan.js';
import type { SeoCheck, SeoData, SeoFinding } from './types.js';

/**
 * Audit a page's on-page SEO against {@link SEO_RUBRIC}: one pass/fail check per rubric
 * row (title, description, headings, canonical, robots directives, hreflang, image
 * `alt`, structured data, Open Graph, Twitter card, internal links, mixed content),
 * each with the value it saw, a score, a letter grade, and one finding with a fix per
 * failed check. Reads the HTML and the `X-Robots-Tag` header; fetches nothing. `text` is
 * the canonical JSON of `data`.
 *
 * @example
 *   const result = auditSeo(doc);
 *   if (result.ok) console.log(result.data.grade, result.data.percentage);
 */
export function auditSeo(doc: FetchedDocument): ProductResult<SeoData> {
  const scheme = schemeOf(doc.url);
  if (scheme === null) {
    return fail(
      'invalid_url',
      `Expected the document URL to be http or https, got \`${String(doc.url).slice(0, 200)}\``,
    );
  }
  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message);
  const { page } = loaded;
  if (page.kind !== 'html') {
    return fail(
      'unsupported_content_type',
      `Cannot audit the page: content type \`${String(doc.contentType).slice(0, 200)}\` is plain text, not HTML.`,
    );
  }
  const links = extractLinks(doc);
  const facts = scanPage(page);
  const context: CheckContext = {
    url: page.url,
    https: scheme === 'https:',
    facts,
    metadata: collectMetadata(page),
    xRobotsTag: headerValue(doc.headers, 'x-robots-tag'),
    internalLinks: links.ok ? links.data.internalCount : 0,
    externalLinks: links.ok ? links.data.externalCount : 0,
  };

  const checks: SeoCheck[] = [];
  const findings: SeoFinding[] = [];
  let cut = false;
  const cap = (text: string, max: number): string => {
    const whole = text.toWellFormed();
    const capped = capString(whole, max);
    if (capped !== whole) cut = true;
    return capped;
  };
  for (const row of SEO_RUBRIC_CHECKS) {
    const rule = RULES[row.id];
    if (rule === undefined)
      throw new StorefrontError('internal_error', `No rule for rubric row \`${row.id}\``);
    const verdict = rule(context);
    checks.push({
      id: row.id,
      label: row.label,
      pass: verdict.pass,
      weight: row.weight,
      value: verdict.value === null ? null : cap(verdict.value, SEO_MAX_VALUE_CHARS),
      note: cap(verdict.note, SEO_MAX_NOTE_CHARS),
    });
    if (!verdict.pass) {
      findings.push({
        id: row.id,
        severity: row.severity,
        remediate: cap(verdict.remediate, SEO_MAX_NOTE_CHARS),
      });
    }
  }
  const data: { -readonly [K in keyof SeoData]: SeoData[K] } = {
    ...gradeSummary(checks, { cutoffs: SEO_GRADE_CUTOFFS }),
    checks,
    findings,
    counts: {
      h1: facts.h1.length,
      headings: facts.headings.length,
      images: facts.images,
      imagesWithAlt: facts.imagesWithAlt,
      internalLinks: context.internalLinks,
      externalLinks: context.externalLinks,
      jsonLdBlocks: facts.jsonLdBlocks,
      jsonLdInvalid: facts.jsonLdInvalid.length,
      hreflang: facts.hreflang.length,
      mixedContent: facts.insecure.length,
    },
    rubric: SEO_RUBRIC,
  };
  // Only when a value was cut, so results of ordinary pages keep their shape.
  if (cut) data.truncatedFields = true;
  return ok(canonicalize(data), data);
}

/** A response header by lower-cased name, trimmed; null when absent or empty. */
function headerValue(headers: Readonly<Record<string, string>>, name: string): string | null {
  if (!Object.hasOwn(headers, name)) return null;
  const value = headers[name];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim().toWellFormed();
  return trimmed === '' ? null : trimmed;
}

function schemeOf(url: unknown): 'http:' | 'https:' | null {
  if (typeof url !== 'string') return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? protocol : null;
  } catch {
    return null;
  }
}
