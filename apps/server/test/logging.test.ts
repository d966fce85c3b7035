import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/middleware/logging.js';

describe('redactUrl', () => {
  it.each([
    ['/api/dev/subscribe?key=mk_live_abc&tier=pro', '/api/dev/subscribe?key=[redacted]&tier=pro'],
    ['/x?tier=pro&KEY=mk_test_1#f', '/x?tier=pro&KEY=[redacted]#f'],
    ['/x?token=t&api_key=k', '/x?token=[redacted]&api_key=[redacted]'],
    ['/buy/fetch?url=https://a.example/?key=1', '/buy/fetch?url=https://a.example/?key=[redacted]'],
    ['/healthz', '/healthz'],
    ['/x?monkey=1', '/x?monkey=1'],
  ])('logs %s as %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
