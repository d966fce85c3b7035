import { fileURLToPath } from 'node:url';
import { runFolderFixtures } from '@storefront/test-utils';
import { describe } from 'vitest';
import {
  type CrawlOptions,
  finishCrawl,
  finishMap,
  type MapOptions,
  startCrawl,
  startMap,
  stepCrawl,
  stepMap,
} from '../src/index.js';
import { readInput, walk } from './walk.js';

/**
 * Golden runners: one folder per behaviour. `input.json` is `{url, options?, site,
 * maxRounds?}`, where `site` maps each URL to its response (`status`, `contentType`,
 * `body` or `file`, `gzip`, `redirectTo`) or `{error}`; other URLs answer 404.
 * `maxRounds` stops the walk early, as the call deadline does. `expected.txt` is exactly
 * the signed `text`; `expected.json` the rest of the result. `vitest -u` rewrites them.
 */
describe('map fixtures', () => {
  runFolderFixtures(fileURLToPath(new URL('fixtures/map', import.meta.url)), (folder) => {
    const input = readInput(folder);
    const { maxRounds } = input;
    return walk(startMap(input.url, input.options as MapOptions), stepMap, finishMap, input.site, {
      folder,
      ...(maxRounds === undefined ? {} : { maxRounds }),
    }).result;
  });
});

describe('crawl fixtures', () => {
  runFolderFixtures(fileURLToPath(new URL('fixtures/crawl', import.meta.url)), (folder) => {
    const input = readInput(folder);
    const { maxRounds } = input;
    const options = {
      userAgent: 'Storefront/1 (+https://storefront.example/bot)',
      ...input.options,
    };
    return walk(
      startCrawl(input.url, options as CrawlOptions),
      stepCrawl,
      finishCrawl,
      input.site,
      {
        folder,
        ...(maxRounds === undefined ? {} : { maxRounds }),
      },
    ).result;
  });
});
