import { buildPdf, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import { keepingBuiltins } from '../src/engine.js';
import { extractPdf, loadPdfjs } from '../src/index.js';

// Its own file: Vitest runs each file in a fresh process, so pdf.js is loaded here first.
describe('loading pdf.js', () => {
  it('leaves the built-ins the rest of the thread shares as they were', async () => {
    const shared = {
      push: Array.prototype.push,
      parse: JSON.parse,
      toString: Function.prototype.toString,
    };
    expect(globalThis).not.toHaveProperty('pdfjsLib');
    await loadPdfjs();
    expect(globalThis).toHaveProperty('pdfjsLib');
    expect(Array.prototype.push).toBe(shared.push);
    expect(JSON.parse).toBe(shared.parse);
    expect(Function.prototype.toString).toBe(shared.toString);
  });

  it('still reads a PDF with the built-ins put back', async () => {
    const bytes = buildPdf({ pages: [{ lines: [{ text: 'Kept', y: 700 }] }] });
    const result = await extractPdf(makeDocument(bytes), { format: 'text' });
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.data.pages[0]?.text).toBe('Kept');
  });
});

describe('keepingBuiltins', () => {
  it('puts back a replaced method and keeps values other code set meanwhile', async () => {
    const holder = globalThis as { storefrontCounter?: number };
    holder.storefrontCounter = 1;
    const push = Array.prototype.push;
    const listeners = process.listenerCount('storefront-test');
    const loaded = await keepingBuiltins(async () => {
      Array.prototype.push = function replaced(this: unknown[], ...items: unknown[]) {
        return push.apply(this, items);
      };
      holder.storefrontCounter = 2;
      process.on('storefront-test', () => {});
      return 'loaded';
    });
    expect(loaded).toBe('loaded');
    expect(Array.prototype.push).toBe(push);
    expect(holder.storefrontCounter).toBe(2);
    expect(process.listenerCount('storefront-test')).toBe(listeners + 1);
    process.removeAllListeners('storefront-test');
    delete holder.storefrontCounter;
  });
});
