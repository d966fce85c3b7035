import {
  collapseWhitespace,
  contentRoot,
  findFirst,
  getAttr,
  type HtmlPage,
  textContent,
} from '@storefront/html';
import { type CollectedMetadata, collectMetadata, type JsonLdObject } from '@storefront/metadata';
import { isRecord } from './lookup.js';
import { chooseMain } from './main-entity.js';
import { type MicrodataItem, microdataItems } from './microdata.js';

/** The JSON-LD of a page, ready for lookups. */
export interface JsonLdView {
  /** Every JSON-LD object, in document order. */
  readonly items: readonly JsonLdObject[];
  /** The main entity (see `chooseMain`), or null when the page has no JSON-LD object. */
  readonly main: Readonly<Record<string, unknown>> | null;
  /** Replace a bare `{"@id": …}` reference by the object with that `@id`, when there is one. */
  readonly resolve: (node: unknown) => unknown;
}

/**
 * Everything the field rules read from one page, each part computed on first use: the
 * shared metadata collection, the JSON-LD view, the main microdata item, the first
 * `<h1>`. A page whose fields all resolve from `<head>` never walks its body again.
 */
export class PageSources {
  readonly page: HtmlPage;
  #metadata: CollectedMetadata | undefined;
  #jsonLd: JsonLdView | undefined;
  #microdata: MicrodataItem | null | undefined;
  #h1: string | null | undefined;

  constructor(page: HtmlPage) {
    this.page = page;
  }

  get metadata(): CollectedMetadata {
    this.#metadata ??= collectMetadata(this.page);
    return this.#metadata;
  }

  get jsonLd(): JsonLdView {
    this.#jsonLd ??= jsonLdView(this.metadata.jsonLd);
    return this.#jsonLd;
  }

  /** The main top-level microdata item, chosen like the JSON-LD main entity. */
  get microdata(): MicrodataItem | null {
    if (this.#microdata === undefined) this.#microdata = chooseMain(microdataItems(this.page));
    return this.#microdata;
  }

  /** The text of the first `<h1>` in the page's content root, or null. */
  get h1(): string | null {
    if (this.#h1 === undefined) {
      const h1 = this.page.kind === 'html' ? findFirst(contentRoot(this.page), 'h1') : null;
      this.#h1 = h1 === null ? null : collapseWhitespace(textContent(h1)) || null;
    }
    return this.#h1;
  }

  /** The `lang` attribute of `<html>`, or null. */
  get lang(): string | null {
    return this.page.html === null ? null : getAttr(this.page.html, 'lang');
  }
}

const REFERENCE_KEYS: ReadonlySet<string> = new Set(['@id', '@type', '@context']);

function jsonLdView(items: readonly JsonLdObject[]): JsonLdView {
  // `@id` index: the first object with that id that says more than its id.
  const byId = new Map<string, JsonLdObject>();
  for (const item of items) {
    const id = item['@id'];
    if (typeof id === 'string' && !byId.has(id) && !isReference(item)) byId.set(id, item);
  }
  const resolve = (node: unknown): unknown => {
    if (!isRecord(node) || !isReference(node)) return node;
    const id = node['@id'];
    return typeof id === 'string' ? (byId.get(id) ?? node) : node;
  };
  // Candidates: each object, then the objects its `mainEntity` names.
  const candidates: Readonly<Record<string, unknown>>[] = [];
  for (const item of items) {
    candidates.push(item);
    const main = Object.hasOwn(item, 'mainEntity') ? item.mainEntity : undefined;
    for (const member of Array.isArray(main) ? main : [main]) {
      const target = resolve(member);
      if (isRecord(target)) candidates.push(target);
    }
  }
  return { items, main: chooseMain(candidates), resolve };
}

function isReference(node: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(node);
  return keys.includes('@id') && keys.every((key) => REFERENCE_KEYS.has(key));
}
