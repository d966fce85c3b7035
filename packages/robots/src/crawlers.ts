import type { CrawlerInfo } from './types.js';

/** The purposes a crawler can have, in the order they are documented. */
export const CRAWLER_PURPOSES = [
  'training',
  'dataset',
  'search',
  'user-triggered',
  'research',
] as const;

function crawler(
  token: string,
  vendor: string,
  purpose: CrawlerInfo['purpose'],
  note: string,
): CrawlerInfo {
  return Object.freeze({ token, vendor, purpose, note });
}

/**
 * The AI crawlers the audit gives a verdict for, ordered by vendor then token. `token`
 * is the product token robots.txt groups name (RFC 9309 §2.2.1); notes summarise what
 * each vendor documents. Add a crawler here and a verdict appears for it; bump
 * `ROBOTS_AUDIT_VERSION` when the table changes.
 */
export const AI_CRAWLERS: readonly CrawlerInfo[] = Object.freeze([
  crawler(
    'Amazonbot',
    'Amazon',
    'training',
    'Amazon documents that Amazonbot improves its products and services, such as Alexa answers, and that its data may be used to train Amazon AI models.',
  ),
  crawler(
    'anthropic-ai',
    'Anthropic',
    'training',
    'An older Anthropic token that many robots.txt files still name; Anthropic now documents ClaudeBot, Claude-User and Claude-SearchBot.',
  ),
  crawler(
    'Claude-SearchBot',
    'Anthropic',
    'search',
    "Crawls to improve the quality of search results in Claude's search features.",
  ),
  crawler(
    'Claude-User',
    'Anthropic',
    'user-triggered',
    'Fetches a page when a Claude user asks a question that needs it.',
  ),
  crawler(
    'ClaudeBot',
    'Anthropic',
    'training',
    "Collects public web content that may be used to train Anthropic's models.",
  ),
  crawler(
    'Applebot',
    'Apple',
    'search',
    "Apple's search crawler (Siri, Spotlight, Safari); whether what it crawls may train Apple's models is controlled by Applebot-Extended.",
  ),
  crawler(
    'Applebot-Extended',
    'Apple',
    'training',
    'Not a crawler of its own: a token that lets a site refuse the use of pages Applebot crawled for training Apple foundation models; it does not affect search.',
  ),
  crawler(
    'Bytespider',
    'ByteDance',
    'training',
    "ByteDance's crawler; the data it collects is reported to train ByteDance's language models.",
  ),
  crawler(
    'cohere-ai',
    'Cohere',
    'user-triggered',
    "Token seen fetching pages for Cohere's chat products when a user asks; Cohere's training crawler is cohere-training-data-crawler.",
  ),
  crawler(
    'cohere-training-data-crawler',
    'Cohere',
    'training',
    "Collects web content to train Cohere's language models.",
  ),
  crawler(
    'CCBot',
    'Common Crawl',
    'dataset',
    'Builds the Common Crawl open web archive, a corpus widely used to train language models.',
  ),
  crawler(
    'Diffbot',
    'Diffbot',
    'dataset',
    "Crawls to build Diffbot's Knowledge Graph and extracted web data, which it offers to customers including AI applications.",
  ),
  crawler(
    'DuckAssistBot',
    'DuckDuckGo',
    'user-triggered',
    'Fetches pages in real time for DuckAssist answers, which cite their sources; DuckDuckGo states the data is not used to train AI models.',
  ),
  crawler(
    'Google-Extended',
    'Google',
    'training',
    'Not a crawler of its own: a token that controls whether content Google crawls may train Gemini models and ground Gemini answers; it does not affect Google Search.',
  ),
  crawler(
    'GoogleOther',
    'Google',
    'research',
    'Generic crawler Google product teams use for one-off crawls, for example internal research and development.',
  ),
  crawler(
    'ImagesiftBot',
    'ImageSift',
    'dataset',
    "Collects publicly available images for ImageSift's reverse image search and related image products.",
  ),
  crawler(
    'FacebookBot',
    'Meta',
    'training',
    "Crawls public web pages to improve language models for Meta's speech recognition technology.",
  ),
  crawler(
    'Meta-ExternalAgent',
    'Meta',
    'training',
    'Crawls for uses such as training AI models or improving products by indexing content directly.',
  ),
  crawler(
    'Meta-ExternalFetcher',
    'Meta',
    'user-triggered',
    "Fetches individual links when a user of Meta's AI products asks; Meta notes it may bypass robots.txt because the fetch is user-initiated.",
  ),
  crawler(
    'MistralAI-User',
    'Mistral AI',
    'user-triggered',
    'Fetches pages when a Le Chat user asks; Mistral states it does not crawl the web to train models.',
  ),
  crawler(
    'ChatGPT-User',
    'OpenAI',
    'user-triggered',
    'Fetches pages when a ChatGPT user or a custom GPT asks; not automatic crawling. OpenAI notes robots.txt rules may not apply to these user-initiated requests.',
  ),
  crawler(
    'GPTBot',
    'OpenAI',
    'training',
    "Crawls content that may be used to train OpenAI's generative AI foundation models.",
  ),
  crawler(
    'OAI-SearchBot',
    'OpenAI',
    'search',
    "Finds and surfaces sites in ChatGPT's search features; OpenAI states it is not used to train models.",
  ),
  crawler(
    'Perplexity-User',
    'Perplexity',
    'user-triggered',
    'Fetches pages when a Perplexity user asks; Perplexity states it generally ignores robots.txt because the fetch is user-requested.',
  ),
  crawler(
    'PerplexityBot',
    'Perplexity',
    'search',
    "Indexes sites to surface and link them in Perplexity's answers; Perplexity states it is not used to train foundation models.",
  ),
  crawler(
    'Timpibot',
    'Timpi',
    'dataset',
    "Crawls for Timpi's decentralised web index, whose data Timpi offers to others, including for AI training.",
  ),
  crawler(
    'omgili',
    'Webz.io',
    'dataset',
    'Crawler of Webz.io (formerly Omgili) collecting forum and discussion content for the web datasets it sells, including for AI training.',
  ),
  crawler('YouBot', 'You.com', 'search', "Crawls for You.com's AI search and assistant answers."),
]);
