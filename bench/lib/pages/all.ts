import {
  errorPage,
  landingPage,
  loginPage,
  pricingPage,
  productPage,
  searchResults,
} from './commerce.js';
import { blogIndex, blogPostImages, emailNewsletter, forumThread } from './community.js';
import { baseHrefPage, changelogPage, docsPage, spaShell } from './docs.js';
import { hardLayoutClasses, hardNoLandmarks, hardStubLandmarks } from './hard.js';
import { chineseUtf8, japaneseShiftJis, rtlArabic, windows1252French } from './intl.js';
import type { PageSpec } from './kit.js';
import { ampArticle, legacyTableLayout } from './legacy.js';
import { newsArticle } from './news.js';
import { eventPage, faqPage, jobPosting, recipeBrokenJsonLd, recipePage } from './structured.js';
import { wikiArticle } from './wiki.js';

/** Every page of `fixtures/pages/`, with the module that holds its source. */
export const ALL_PAGES: readonly { readonly spec: PageSpec; readonly module: string }[] = [
  { spec: newsArticle, module: 'news' },
  { spec: productPage, module: 'commerce' },
  { spec: pricingPage, module: 'commerce' },
  { spec: searchResults, module: 'commerce' },
  { spec: landingPage, module: 'commerce' },
  { spec: loginPage, module: 'commerce' },
  { spec: errorPage, module: 'commerce' },
  { spec: recipePage, module: 'structured' },
  { spec: recipeBrokenJsonLd, module: 'structured' },
  { spec: faqPage, module: 'structured' },
  { spec: eventPage, module: 'structured' },
  { spec: jobPosting, module: 'structured' },
  { spec: docsPage, module: 'docs' },
  { spec: changelogPage, module: 'docs' },
  { spec: baseHrefPage, module: 'docs' },
  { spec: spaShell, module: 'docs' },
  { spec: forumThread, module: 'community' },
  { spec: blogPostImages, module: 'community' },
  { spec: blogIndex, module: 'community' },
  { spec: emailNewsletter, module: 'community' },
  { spec: wikiArticle, module: 'wiki' },
  { spec: rtlArabic, module: 'intl' },
  { spec: japaneseShiftJis, module: 'intl' },
  { spec: chineseUtf8, module: 'intl' },
  { spec: windows1252French, module: 'intl' },
  { spec: legacyTableLayout, module: 'legacy' },
  { spec: ampArticle, module: 'legacy' },
  { spec: hardLayoutClasses, module: 'hard' },
  { spec: hardStubLandmarks, module: 'hard' },
  { spec: hardNoLandmarks, module: 'hard' },
];
