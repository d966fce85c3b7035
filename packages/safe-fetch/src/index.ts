export { classifyAddress } from './address-policy.js';
export { parseAllowList } from './allow-list.js';
export { DEFAULT_MAX_BODY_BYTES, DRAIN_LIMIT_BYTES } from './body.js';
export { UPSTREAM_ERROR_CODES } from './errors.js';
export {
  createFetcher,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
} from './fetcher.js';
export {
  type ConnectGuard,
  type ConnectGuardOptions,
  createConnectGuard,
  type GuardedTarget,
} from './guard.js';
export type {
  AllowEntry,
  Fetcher,
  FetcherOptions,
  FetchInit,
  FetchTiming,
  LookupFunction,
  SafeFetchFailure,
  SafeFetchResult,
  SafeFetchSuccess,
  UpstreamErrorCode,
} from './types.js';
export {
  type CheckUrlOptions,
  checkUrl,
  DEFAULT_ALLOWED_PORTS,
  MAX_URL_LENGTH,
  type UrlCheck,
} from './url-policy.js';
