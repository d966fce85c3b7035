import { type CspPolicy, restrictsFraming, scriptSources, scriptWeaknesses } from './csp.js';
import { type HeaderMap, headerValue, splitList } from './header-map.js';
import { parseHsts } from './hsts.js';
import { type CookieFlags, missingCookieFlags, parseSetCookies } from './set-cookie.js';

/** What every rule sees. */
export interface CheckContext {
  /** Whether the final URL is https. */
  readonly https: boolean;
  readonly headers: HeaderMap;
  /** The enforced `Content-Security-Policy` value, or null. */
  readonly csp: string | null;
  /** The policies of {@link csp}. */
  readonly policies: readonly CspPolicy[];
  /** The `Content-Security-Policy-Report-Only` value, or null. */
  readonly reportOnly: string | null;
}

/** One rule's verdict; `remediate` is used only when the check fails. */
export interface Evaluation {
  readonly present: boolean;
  readonly pass: boolean;
  readonly value: string | null;
  readonly note: string;
  readonly remediate: string;
}

const ONE_YEAR = 31_536_000;
const HSTS_VALUE = '`Strict-Transport-Security: max-age=31536000; includeSubDomains`';
const CSP_VALUE =
  "`Content-Security-Policy: default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`";
const COOKIE_FLAGS = '`Secure; HttpOnly; SameSite=Lax`';
/** Cookie names listed in a note before "and N more". */
const MAX_NAMED_COOKIES = 10;

/** The rule of each rubric row, by row id. */
export const RULES: Readonly<Record<string, (context: CheckContext) => Evaluation>> = {
  'hsts-max-age': (context) => {
    const value = headerValue(context.headers, 'strict-transport-security');
    const base = { present: value !== null, value };
    if (!context.https) return { ...base, ...plainHttp(value) };
    const remediate = `Send ${HSTS_VALUE}`;
    if (value === null) return { ...base, pass: false, note: 'Not sent', remediate };
    const policy = parseHsts(value);
    if (!policy.valid) {
      return { ...base, pass: false, note: invalidHsts(policy.reason), remediate };
    }
    if (policy.maxAge === 0) {
      return {
        ...base,
        pass: false,
        note: '`max-age=0` tells browsers to forget the policy',
        remediate,
      };
    }
    if (policy.maxAge < ONE_YEAR) {
      return {
        ...base,
        pass: false,
        note: `\`max-age=${policy.maxAgeText}\` is shorter than one year (31536000 seconds)`,
        remediate,
      };
    }
    return { ...base, pass: true, note: `\`max-age=${policy.maxAgeText}\``, remediate };
  },

  'hsts-subdomains': (context) => {
    const value = headerValue(context.headers, 'strict-transport-security');
    const base = { present: value !== null, value };
    if (!context.https) return { ...base, ...plainHttp(value) };
    const remediate = `Once every subdomain serves HTTPS, send ${HSTS_VALUE}`;
    if (value === null) return { ...base, pass: false, note: 'Not sent', remediate };
    const policy = parseHsts(value);
    if (!policy.valid) {
      return { ...base, pass: false, note: invalidHsts(policy.reason), remediate };
    }
    if (policy.maxAge === 0) {
      return { ...base, pass: false, note: '`max-age=0` disables the policy', remediate };
    }
    return policy.includeSubDomains
      ? { ...base, pass: true, note: '`includeSubDomains` is set', remediate }
      : { ...base, pass: false, note: '`includeSubDomains` is missing', remediate };
  },

  'csp-scripts': (context) => {
    const base = { present: context.csp !== null, value: context.csp };
    if (context.csp === null) {
      if (context.reportOnly !== null) {
        return {
          ...base,
          pass: false,
          note: 'Only `Content-Security-Policy-Report-Only` is sent: it reports but blocks nothing, so it earns no points',
          remediate: `Once its reports are clean, send the policy as \`Content-Security-Policy\` instead of \`Content-Security-Policy-Report-Only\`, for example ${CSP_VALUE}`,
        };
      }
      return { ...base, pass: false, note: 'Not sent', remediate: `Send ${CSP_VALUE}` };
    }
    const restricting = context.policies.filter((policy) => scriptSources(policy) !== null);
    if (restricting.length === 0) {
      return {
        ...base,
        pass: false,
        note: 'The policy has neither `script-src` nor `default-src`, so scripts are not restricted',
        remediate: `Add \`default-src 'self'; script-src 'self'\` to the policy, for example ${CSP_VALUE}`,
      };
    }
    const policy = restricting[0] as CspPolicy;
    const directive = policy.has('script-src') ? 'script-src' : 'default-src';
    return {
      ...base,
      pass: true,
      note: `Scripts are governed by \`${directive}\``,
      remediate: `Send ${CSP_VALUE}`,
    };
  },

  'csp-unsafe': (context) => {
    const base = { present: context.csp !== null, value: context.csp };
    const remediate =
      "Remove 'unsafe-inline', 'unsafe-eval' and wildcard sources from `script-src`; load scripts by nonce or hash, for example `Content-Security-Policy: script-src 'nonce-{random}' 'strict-dynamic'; object-src 'none'; base-uri 'none'`";
    if (context.csp === null) {
      return {
        ...base,
        pass: false,
        note:
          context.reportOnly === null
            ? 'No enforced policy'
            : 'No enforced policy (`Content-Security-Policy-Report-Only` does not count)',
        remediate,
      };
    }
    const lists = context.policies
      .map((policy) => scriptSources(policy))
      .filter((list): list is readonly string[] => list !== null);
    if (lists.length === 0) {
      return { ...base, pass: false, note: 'Scripts are not restricted at all', remediate };
    }
    // Every enforced policy must allow a script, so the strictest policy decides (CSP3 §4.1).
    const weaknesses = lists.map(scriptWeaknesses);
    if (weaknesses.some((found) => found.length === 0)) {
      return {
        ...base,
        pass: true,
        note: 'Script sources allow no inline script, eval or wildcard',
        remediate,
      };
    }
    return {
      ...base,
      pass: false,
      note: `Script sources allow ${(weaknesses[0] as string[]).map((w) => `\`${w}\``).join(', ')}`,
      remediate,
    };
  },

  nosniff: (context) => {
    const value = headerValue(context.headers, 'x-content-type-options');
    const base = { present: value !== null, value };
    const remediate = 'Send `X-Content-Type-Options: nosniff`';
    if (value === null) return { ...base, pass: false, note: 'Not sent', remediate };
    // Fetch §2.2.2 "determine nosniff": the first list value, compared case-insensitively.
    const first = (splitList(value)[0] ?? '').toLowerCase();
    return first === 'nosniff'
      ? { ...base, pass: true, note: '`nosniff`', remediate }
      : { ...base, pass: false, note: 'The value is not `nosniff`', remediate };
  },

  clickjacking: (context) => {
    const value = headerValue(context.headers, 'x-frame-options');
    const remediate =
      "Send `Content-Security-Policy: frame-ancestors 'none'` (or `'self'` if the site frames itself), or `X-Frame-Options: DENY`";
    const ancestors = context.policies
      .map((policy) => policy.get('frame-ancestors'))
      .filter((list): list is readonly string[] => list !== undefined);
    const present = value !== null || ancestors.length > 0;
    // HTML §7.1.7: X-Frame-Options is ignored when an enforced policy has frame-ancestors.
    if (ancestors.length > 0) {
      const restricted = ancestors.find(restrictsFraming);
      return restricted === undefined
        ? {
            present,
            value,
            pass: false,
            note: 'CSP `frame-ancestors` allows any site to frame the page (X-Frame-Options is then ignored)',
            remediate,
          }
        : {
            present,
            value,
            pass: true,
            note: `CSP \`frame-ancestors ${restricted.join(' ')}\``.replace(/ `$/, '`'),
            remediate,
          };
    }
    if (value === null) return { present, value, pass: false, note: 'Not sent', remediate };
    const distinct = [...new Set(splitList(value).map((part) => part.toLowerCase()))].sort();
    if (distinct.length !== 1) {
      return {
        present,
        value,
        pass: false,
        note: 'Conflicting values: browsers ignore the header',
        remediate,
      };
    }
    const only = distinct[0] as string;
    if (only === 'deny' || only === 'sameorigin') {
      return { present, value, pass: true, note: `\`${only.toUpperCase()}\``, remediate };
    }
    return {
      present,
      value,
      pass: false,
      note: only.startsWith('allow-from')
        ? '`ALLOW-FROM` is obsolete and ignored by browsers'
        : 'The value is neither `DENY` nor `SAMEORIGIN`',
      remediate,
    };
  },

  referrer: (context) => {
    const value = headerValue(context.headers, 'referrer-policy');
    const base = { present: value !== null, value };
    const remediate = 'Send `Referrer-Policy: strict-origin-when-cross-origin` (or `no-referrer`)';
    if (value === null) {
      return {
        ...base,
        pass: false,
        note: 'Not sent: the policy is left to each browser’s default',
        remediate,
      };
    }
    // Referrer Policy §8.1: the last recognised token of the list wins.
    let policy: string | null = null;
    for (const token of splitList(value)) {
      const lower = token.toLowerCase();
      if (KNOWN_REFERRER_POLICIES.has(lower)) policy = lower;
    }
    if (policy === null) {
      return { ...base, pass: false, note: 'No recognised policy value', remediate };
    }
    return SAFE_REFERRER_POLICIES.has(policy)
      ? { ...base, pass: true, note: `\`${policy}\``, remediate }
      : {
          ...base,
          pass: false,
          note: `\`${policy}\` sends the full URL or the origin over downgrades or to other sites`,
          remediate,
        };
  },

  permissions: (context) => {
    const value = headerValue(context.headers, 'permissions-policy');
    const base = { present: value !== null, value };
    const remediate = 'Send `Permissions-Policy: camera=(), microphone=(), geolocation=()`';
    if (value === null) {
      const legacy = headerValue(context.headers, 'feature-policy') !== null;
      return {
        ...base,
        pass: false,
        note: legacy ? 'Not sent; the obsolete `Feature-Policy` does not count' : 'Not sent',
        remediate,
      };
    }
    const features = splitList(value).filter((member) =>
      /^[a-z*][a-z0-9_\-.*]*\s*(=|$)/.test(member),
    );
    return features.length > 0
      ? {
          ...base,
          pass: true,
          note: `${features.length} feature${features.length === 1 ? '' : 's'} set`,
          remediate,
        }
      : { ...base, pass: false, note: 'No valid feature in the value', remediate };
  },

  coop: (context) =>
    structuredToken(
      context,
      'cross-origin-opener-policy',
      ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups'],
      'Send `Cross-Origin-Opener-Policy: same-origin` (or `same-origin-allow-popups` if the page opens cross-origin pop-ups it talks to)',
    ),

  corp: (context) => {
    const value = headerValue(context.headers, 'cross-origin-resource-policy');
    const base = { present: value !== null, value };
    const remediate = 'Send `Cross-Origin-Resource-Policy: same-origin` (or `same-site`)';
    if (value === null) return { ...base, pass: false, note: 'Not sent', remediate };
    // Fetch §3.7: the combined value is compared byte for byte.
    if (value === 'same-origin' || value === 'same-site') {
      return { ...base, pass: true, note: `\`${value}\``, remediate };
    }
    return {
      ...base,
      pass: false,
      note:
        value === 'cross-origin'
          ? '`cross-origin` lets any site load the page'
          : 'Not a recognised value: browsers ignore it',
      remediate,
    };
  },

  cookies: (context) => {
    const joined = context.headers.get('set-cookie') ?? '';
    const cookies = parseSetCookies(joined);
    if (cookies.length === 0) {
      return {
        present: false,
        value: null,
        pass: true,
        note: 'No cookies are set',
        remediate: `Add ${COOKIE_FLAGS} to every Set-Cookie`,
      };
    }
    const value = cookies.map((cookie) => cookie.redacted).join('\n');
    const failing: { cookie: CookieFlags; missing: string[] }[] = [];
    for (const cookie of cookies) {
      const missing = missingCookieFlags(cookie);
      if (missing.length > 0) failing.push({ cookie, missing });
    }
    const count = `${cookies.length} cookie${cookies.length === 1 ? '' : 's'}`;
    if (failing.length === 0) {
      return {
        present: true,
        value,
        pass: true,
        note: `${count}, all Secure, HttpOnly and SameSite`,
        remediate: `Add ${COOKIE_FLAGS} to every Set-Cookie`,
      };
    }
    const shown = failing.slice(0, MAX_NAMED_COOKIES);
    const more = failing.length - shown.length;
    const lacks = shown
      .map(({ cookie, missing }) => `${displayName(cookie)} lacks ${missing.join(', ')}`)
      .join('; ');
    const names = shown.map(({ cookie }) => displayName(cookie)).join(', ');
    const http = context.https ? '' : ' (the page is plain HTTP, so no cookie can be Secure)';
    return {
      present: true,
      value,
      pass: false,
      note: `${count}: ${lacks}${more > 0 ? `; and ${more} more` : ''}${http}`,
      remediate: `Add ${COOKIE_FLAGS} to the Set-Cookie of ${names}${more > 0 ? ` and ${more} more` : ''}${context.https ? '' : ', and serve the site over HTTPS'}`,
    };
  },

  server: (context) => versionLeak(context, 'server', 'Server'),
  'powered-by': (context) => versionLeak(context, 'x-powered-by', 'X-Powered-By'),
};

const KNOWN_REFERRER_POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]);

const SAFE_REFERRER_POLICIES = new Set([
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
]);

/** A version number: digits after a `/`, or a dotted number (`nginx/1.25`, `Jetty(9.4.z)`). */
const VERSION = /\/\s*v?[0-9]|\bv?[0-9]+\.[0-9]/i;

function plainHttp(value: string | null): Omit<Evaluation, 'present' | 'value'> {
  return {
    pass: false,
    note:
      value === null
        ? 'The page is served over plain HTTP, where HSTS cannot apply'
        : 'The page is served over plain HTTP: browsers ignore HSTS there (RFC 6797 §8.1)',
    remediate: `Serve the page over HTTPS, redirect \`http://\` to it, and send ${HSTS_VALUE}`,
  };
}

function invalidHsts(reason: string): string {
  return `Invalid (${reason}): browsers ignore it (RFC 6797 §6.1)`;
}

/** A structured-field token header (RFC 8941 item; parameters after `;` ignored). */
function structuredToken(
  context: CheckContext,
  name: string,
  good: readonly string[],
  remediate: string,
): Evaluation {
  const value = headerValue(context.headers, name);
  const base = { present: value !== null, value };
  if (value === null) return { ...base, pass: false, note: 'Not sent', remediate };
  if (splitList(value).length > 1) {
    return {
      ...base,
      pass: false,
      note: 'Several values: the header is not a single item, so browsers ignore it',
      remediate,
    };
  }
  const token = (value.split(';')[0] ?? '').trim();
  return good.includes(token)
    ? { ...base, pass: true, note: `\`${token}\``, remediate }
    : { ...base, pass: false, note: `\`${token}\` does not isolate the page`, remediate };
}

function versionLeak(context: CheckContext, name: string, display: string): Evaluation {
  const value = headerValue(context.headers, name);
  const base = { present: value !== null, value };
  if (value === null) {
    return { ...base, pass: true, note: 'Not sent', remediate: `Remove the \`${display}\` header` };
  }
  if (!VERSION.test(value)) {
    return {
      ...base,
      pass: true,
      note: 'No version number',
      remediate: `Remove the \`${display}\` header`,
    };
  }
  const product = (/^[^/\s(;,]+/.exec(value)?.[0] ?? '').replace(/`/g, '');
  return {
    ...base,
    pass: false,
    note: 'Reveals a version number',
    remediate:
      name === 'server' && product !== '' && !/[0-9]/.test(product)
        ? `Send \`Server: ${product}\` without a version, or drop the header`
        : `Remove the \`${display}\` header`,
  };
}

function displayName(cookie: CookieFlags): string {
  return cookie.name === '' ? '(unnamed)' : `\`${cookie.name.replace(/`/g, "'")}\``;
}
