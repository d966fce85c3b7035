import { isChrome, NON_CONTENT_TAGS } from './boilerplate.js';
import { collapseWhitespace, getAttr, isElement, isText, textContent, walk } from './dom.js';
import { countWords } from './text.js';
import type { HtmlElement, HtmlNode, HtmlPage } from './types.js';

/** The version of the rules below; it changes whenever a rule, a phrase or a threshold does. */
export const PAGE_VERDICT_RUBRIC = 'page-verdict/1';

/**
 * What a fetched page is: the real page (`content`), or one of the pages served in its
 * place: a bot-protection interstitial or CAPTCHA wall (`challenge`), an access-denied
 * page (`blocked`), a sign-in wall (`login`), a subscriber stub (`paywall`), a
 * client-rendered app whose HTML holds no content (`shell`), an error or soft-404 page
 * (`error`), or a parked domain (`parked`).
 */
export type PageKind =
  | 'content'
  | 'challenge'
  | 'blocked'
  | 'login'
  | 'paywall'
  | 'shell'
  | 'error'
  | 'parked';

/** Every {@link PageKind}, `content` first. */
export const PAGE_KINDS: readonly PageKind[] = [
  'content',
  'challenge',
  'blocked',
  'login',
  'paywall',
  'shell',
  'error',
  'parked',
];

/** A page's verdict and the evidence for it. */
export interface PageVerdict {
  readonly verdict: PageKind;
  /**
   * The signals that fired, sorted: `<kind>:<name>` for the evidence of a kind (the
   * decided kind's, and any other kind's that fired but lost to it or to `content`).
   */
  readonly signals: readonly string[];
  /**
   * Words of visible text outside the site's chrome (nav, header, footer, hidden parts),
   * counted up to 600 (no rule needs more: 600 means 600 or more).
   */
  readonly words: number;
  /** {@link PAGE_VERDICT_RUBRIC}. */
  readonly rubric: string;
}

/** The response a page came with: what {@link pageVerdict} reads besides the tree. */
export interface PageResponse {
  /** The HTTP status of the final response. */
  readonly status: number;
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL first asked for, when the page was reached by redirects. */
  readonly requestedUrl?: string;
}

/**
 * Below this many words outside the chrome a page can be something other than content.
 * Interstitials, walls, stubs and error pages say a sentence or two; with the site's own
 * chrome left out, the ones seen stay well under it, and real articles well over it.
 */
const SHORT_WORDS = 150;
/** A paywall stub keeps a headline and a teaser: up to this many words. */
const STUB_WORDS = 250;
/** A vendor's interstitial: its own markers, and no more text than this. */
const INTERSTITIAL_WORDS = 200;
/** An app shell: at most this many visible words in the whole body. */
const SHELL_WORDS = 25;
/** Past this many words outside the chrome, no rule can decide anything but `content`. */
const LONG_WORDS = 600;
/** Visible text kept for the phrase rules (they read the start of a short page). */
const PHRASE_CHARS = 3000;
/** Inline script text read for vendor markers, per script. */
const SCRIPT_CHARS = 4000;

/** Hosts and paths of the bot-protection vendors' challenge resources (script, iframe, form). */
const CHALLENGE_RESOURCES: readonly (readonly [string, RegExp])[] = [
  ['cloudflare', /\/cdn-cgi\/challenge-platform\/(?:h\/[a-z]\/)?(?:orchestrate|flow)\b/i],
  ['datadome', /(?:^|[/.])captcha-delivery\.com\b/i],
  ['perimeterx', /(?:captcha\.px-cdn\.net|captcha\.px-cloud\.net|\/captcha\/captcha\.js)/i],
  ['incapsula', /\/_Incapsula_Resource\b/i],
  [
    'aws-waf',
    /(?:\.token\.awswaf\.com|\.captcha\.awswaf\.com|\/challenge\.js\b.*awswaf|awswaf.*\/challenge\.js)/i,
  ],
  ['akamai', /\/_sec\/(?:cp_challenge|verify)\b/i],
  ['kasada', /\/ips\.js(?:\?|$)/i],
  ['ddos-guard', /(?:check\.ddos-guard\.net|\/\.well-known\/ddos-guard\/)/i],
  ['sucuri', /sucuri_cloudproxy/i],
  ['anubis', /\/\.within\.website\/x\/cmd\/anubis\//],
];

/** Scripts of CAPTCHA widgets (a wall when the page says little else, like the widgets). */
const CAPTCHA_SCRIPTS =
  /(?:google\.com|recaptcha\.net)\/recaptcha\/(?:api|enterprise)\.js|hcaptcha\.com\/1\/api\.js|challenges\.cloudflare\.com\/turnstile\//i;

/** DataDome's bootstrap of a banned visitor (`t: 'bv'`), not of a challenge. */
const DATADOME_BANNED = /\bvar\s+dd\s*=\s*\{[^}]*['"]t['"]\s*:\s*['"]bv['"]/;

/** Inline-script markers of the vendors' challenge pages. */
const CHALLENGE_SCRIPTS: readonly (readonly [string, RegExp])[] = [
  [
    'cloudflare',
    /\b_cf_chl_opt\b|\bcf_chl_prog\b|\bcpo\.src\s*=\s*['"]\/cdn-cgi\/challenge-platform/,
  ],
  ['datadome', /\bvar\s+dd\s*=\s*\{[^}]*['"]?(?:rt|cid)['"]?\s*:/],
  ['perimeterx', /\b_pxAppId\b[\s\S]*\b_pxJsClientSrc\b|\b_pxHostUrl\b[\s\S]*captcha/i],
  ['kasada', /\bKPSDK\b/],
  ['sucuri', /\bsucuri_cloudproxy_js\b/],
  ['aws-waf', /\bAwsWafIntegration\b|\bawsWafCookieDomainList\b|\bgokuProps\b/],
  ['ddos-guard', /\bddos-guard\b/i],
];

/** Element ids and classes of challenge widgets and forms. */
const CHALLENGE_IDS: readonly (readonly [string, RegExp])[] = [
  [
    'cloudflare',
    /^(?:challenge-form|challenge-running|challenge-stage|cf-challenge-running|cf-chl-widget-\w+|challenge-body-text)$/,
  ],
  ['perimeterx', /^px-captcha(?:-wrapper|-modal)?$/],
  ['akamai', /^sec-(?:if-)?cpt-(?:container|if)$/],
  ['incapsula', /^main-iframe$/],
];

/** CAPTCHA widgets (a wall when the page says little else). */
const CAPTCHA_WIDGETS =
  /^(?:g-recaptcha|h-captcha|cf-turnstile|frc-captcha|captcha(?:-container|-box|-form)?)$/;

/** Titles and headings of challenge interstitials, in the languages their vendors serve. */
const CHALLENGE_PHRASES =
  /\b(?:just a moment\.\.\.|one moment, please|checking (?:your|if the site connection is secure|the site connection)|(?:verify|verifying|confirm) (?:that )?you are (?:a )?human|are you a (?:human|robot)|i'?m not a robot|not a robot|press (?:&|and) hold|human verification|security check(?:point)?|unusual traffic|bot (?:check|detection|protection)|ddos protection|please (?:complete|solve) (?:the|this) (?:security check|captcha|challenge)|enable javascript and cookies to continue|pardon our interruption|please wait while we verify|checking your browser|making sure you(?:'|’)re not a (?:bot|robot)|(?:you(?:'|’)re|you are) not a (?:bot|robot)|vercel security checkpoint|verify you(?:'|’)re human)\b|einen moment bitte|überprüfung,? ob (?:sie|die)|un instant\b|vérification (?:que vous|de sécurité)|un momento\b|verificando (?:que|si)|verifica que eres (?:humano|una persona)|no soy un robot|je ne suis pas un robot|ich bin kein roboter|少々お待ちください|ロボットではない|ブラウザを確認しています|セキュリティチェック|人机验证/i;

/** Titles and headings of access-denied pages. */
const BLOCKED_PHRASES =
  /\b(?:access (?:to this (?:page|site|resource) (?:has been|is) )?denied|you (?:have been|are|were) blocked|sorry, you have been blocked|request (?:blocked|rejected|unsuccessful)|the requested url was rejected|^(?:error )?(?:403 )?forbidden$|403 forbidden|web filter violation|access (?:to this site )?(?:has been )?limited|your access to this site has been limited|error (?:1005|1006|1007|1008|1009|1010|1012|1020)|web page blocked|access blocked|this request was blocked|not authorized to (?:view|access)|your (?:ip|access|request) (?:address )?has been (?:blocked|banned|denied)|blocked by|too many requests|rate limit(?:ed)? exceeded)\b|zugriff verweigert|accès refusé|acceso denegado|アクセスが拒否|访问被拒绝/i;

/** Sentences of block pages, read in the text of a short page. */
const BLOCKED_BODY =
  /\b(?:you (?:have been|are|were) blocked|you(?:'ve| have) been (?:temporarily )?(?:blocked|banned)|access (?:to this (?:page|site|resource) )?(?:is |has been )?denied|(?:this|the|your) (?:page|request|url|site) (?:you have requested )?(?:has been|was|is) blocked|the requested url was rejected|web (?:page|filter) (?:blocked|violation)|your access to this site has been limited|this page can(?:'|’)t be displayed\. contact support|access blocked)\b|zugriff verweigert|accès refusé|acceso denegado|アクセスが拒否|访问被拒绝/i;

/** Footers of vendors' block pages. */
const BLOCK_FOOTERS: readonly (readonly [string, RegExp])[] = [
  ['cloudflare', /\bcloudflare ray id\b|\bray id:\s*[0-9a-f]{8,}/i],
  ['akamai', /\breference\s*#\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+/i],
  ['incapsula', /\bincapsula incident id\b|\bincident id:\s*\d+-\d+/i],
  ['cloudfront', /\bgenerated by cloudfront\b|\brequest id:\s*[A-Za-z0-9_=-]{20,}/i],
  ['sucuri', /\bsucuri (?:website )?firewall\b|\bblock id:\s*\w+/i],
  ['f5', /\byour support id is:?\s*\d+/i],
  ['modsecurity', /\bgenerated by mod_security\b/i],
  ['generic', /\bevent id:\s*[0-9a-f-]{8,}/i],
];

/** Titles and headings of sign-in pages. */
const LOGIN_TITLE_END =
  /(?:^|[-|:–—·»]\s*)(?:log ?in|login|sign ?in|signin|connexion|anmelden|anmeldung|iniciar sesión|accedi|ログイン|登录)\s*$/i;
const LOGIN_PHRASES =
  /^(?:log ?in|login|sign ?in|signin|sign in to (?:continue|your account)|log in to (?:continue|your account)|(?:please )?(?:log|sign) in to (?:continue|view|read|access)|member login|account login|welcome back|anmelden|einloggen|se connecter|connexion|iniciar sesión|inicia sesión|ログイン|登录)\b|\b(?:log|sign) in to (?:continue|view this|read|access)\b|\byou (?:must|need to) (?:be )?(?:log(?:ged)?|sign(?:ed)?) in\b|\b(?:registered and )?logged in to view\b|\brequires? you to (?:be registered and )?log(?:ged)? in\b/i;

/** Paths of sign-in pages. */
const LOGIN_PATH =
  /\/(?:log-?in|sign-?in|signin|sso|auth(?:enticate|orize)?|accounts?\/(?:log-?in|sign-?in)|session\/new|users\/sign_in|wp-login\.php|oauth2?\/authorize)(?:[/?#.]|$)|[?&](?:_?task|action|mode|do)=(?:log-?in|sign-?in)(?:&|$)/i;

/** The words of a paywall stub. */
const PAYWALL_PHRASES =
  /\b(?:subscribe (?:now )?to (?:continue|keep) reading|subscribe to (?:read|unlock|access|get (?:full|unlimited) access)|(?:this (?:article|story|content) is )?(?:only )?(?:available|reserved|exclusive) (?:only )?(?:to|for) (?:paying )?(?:subscribers|members)|for subscribers only|subscribers only|to continue reading|continue reading (?:with|by)|already a subscriber\??|(?:unlock|get) (?:this|full|unlimited) (?:article|access|story)|you(?:'ve| have) (?:reached|used) (?:your|all of your) (?:limit|free articles|article limit)|create a free account to (?:continue|read)|register to (?:continue|read)|read the full (?:article|story) (?:with|by subscribing)|access options|purchase (?:this )?(?:article|access|pdf)|buy (?:this )?article|rent this article|get access(?: to the full text)?|access through your institution|log in via your institution|institutional (?:login|access))\b|weiterlesen mit|jetzt abonnieren|réservé aux abonnés|article réservé|exclusivo para suscriptores|有料会員/i;

/** Class and id tokens of paywall containers. */
const PAYWALL_TOKENS =
  /(?:^|[-_])(?:paywall|paywalled|regwall|piano-?(?:offer|paywall|container|inline)|tp-(?:modal|container|iframe-wrapper)|subscriber-only|subscribers-only|premium-(?:content|wall|gate|barrier)|meter(?:ed)?-?wall|article-gate|content-gate|subscription-wall|pw-wall)(?:$|[-_])/i;

/** Titles and headings of error pages and soft 404s. */
const ERROR_PHRASES =
  /\b(?:(?:^|error\s*|http\s*)404\b|404\s*(?:error\b|[-:|–—])|page not found|not found|page (?:does not|doesn't|does not longer|no longer) exists?|page (?:cannot|can't|can’t|could not|couldn't) be found|(?:this|the) page (?:could not|couldn't|cannot|can't|can’t) be found|nothing (?:was )?found|we (?:can't|can’t|couldn't|could not) find (?:that|the|this) page|(?:an )?error (?:has )?occurred|something went wrong|internal server error|service (?:temporarily )?unavailable|bad gateway|gateway time-?out|application error|server error|error 5\d\d|error 4\d\d|oops!?)\b|seite nicht gefunden|page introuvable|página no encontrada|ページが見つかりません|页面不存在|找不到页面/i;

/** The words of a parked or for-sale domain. */
const PARKED_PHRASES =
  /\b(?:(?:this|the) domain (?:name )?(?:[\w.-]+ )?(?:is|may be) for sale|buy this domain|(?:this )?domain (?:is )?(?:parked|for sale)|parked (?:free,? )?(?:courtesy of|by|with)|make an offer on this domain|inquire about this domain|this domain (?:has been|was) registered (?:at|with|by)|get this domain|domain (?:name )?(?:parking|auction)|this web ?page is parked|future home of something|related (?:searches|links)\b.*\bsponsored)\b|diese domain (?:steht zum verkauf|kaufen)|ce (?:nom de )?domaine est (?:à vendre|en vente)|este dominio (?:está|puede estar) en venta|このドメインは.{0,20}(?:販売|売り|取得されています)/i;

/** Hosts of domain-parking and domain-sale services. */
const PARKING_HOSTS =
  /(?:^|[/.@])(?:sedoparking\.com|sedo\.com|parkingcrew\.net|bodis\.com|above\.com|parklogic\.com|dan\.com|afternic\.com|hugedomains\.com|undeveloped\.com|domainmarket\.com|parking-?lander|img\d*\.wsimg\.com\/parking-lander|park\.io|voodoo\.com|smartname\.com|domainsponsor\.com|trafficz\.com|namecheap\.com\/domains\/registration|onamae\.com|parkingpage\.namecheap\.com|domaincntrol\.com|searchvity\.com)\b/i;

/** Ids and tags of the elements single-page apps mount into. */
const MOUNT_IDS =
  /^(?:root|app|__next|__nuxt|___gatsby|svelte|main-app|app-root|application|react-root|ember-app|q-app|__sveltekit\w*)$/i;
const MOUNT_TAGS: ReadonlySet<string> = new Set(['app-root', 'ng-app', 'my-app']);

/** Noscript text of app shells. */
const NEEDS_SCRIPT =
  /\b(?:you need to enable javascript|(?:please )?enable javascript|javascript (?:is )?(?:required|disabled)|requires javascript|turn on javascript|doesn't work properly without javascript|without javascript enabled)\b|javascript (?:aktivieren|einschalten)|activez javascript|activa javascript|javascript\s*を有効/i;

/** A JSON-LD `articleBody` string (its escapes count as separators, which is enough to count words). */
const ARTICLE_BODY_JSON = /"articleBody"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** `isAccessibleForFree` set to false, in JSON-LD or microdata. */
const NOT_FREE_JSON = /"isAccessibleForFree"\s*:\s*(?:false|"false"|"False"|"FALSE"|0)/;

/** Sectioning elements: a `<header>` or `<footer>` inside one is not the site's chrome. */
const SECTIONING: ReadonlySet<string> = new Set(['article', 'main', 'section']);

/** What one walk over the page gathers. */
interface Features {
  /** Visible words outside the chrome. */
  words: number;
  /** Visible words anywhere in the body, chrome included. */
  bodyWords: number;
  /** The start of the body's visible text, chrome included. */
  bodyPhrases: string;
  /** Headings (`h1`, `h2`) text, collapsed. */
  headings: string[];
  /** Noscript text, collapsed. */
  noscript: string;
  /** The start of the body's hidden text (shown by a script), collapsed. */
  hiddenPhrases: string;
  /** Resource URLs: script `src`, iframe `src`, form `action`, link and anchor `href`. */
  resources: string[];
  /** Inline script text (the start of each). */
  scripts: string[];
  /** Element ids and class tokens. */
  tokens: Set<string>;
  /** Password inputs. */
  passwords: number;
  /** Script elements. */
  scriptCount: number;
  /** Mount elements and whether one holds visible text. */
  mounts: number;
  /** `isAccessibleForFree` false. */
  notFree: boolean;
  /** Words of the longest JSON-LD `articleBody`: the full text a stub-looking page may carry. */
  dataWords: number;
}

/**
 * Decide what a fetched page is: the real page, or a bot challenge, an access-denied
 * page, a sign-in wall, a paywall stub, an app shell, an error page or a parked domain
 * served in its place. Deterministic rules over the response's status and headers and
 * the parsed page; no network, no model. Precision first: a real article that talks
 * about CAPTCHAs, carries a sign-in link or a subscription box is `content`, since every
 * rule but a vendor's own challenge header needs the page to say little else.
 *
 * @example
 *   const loaded = loadHtml(doc);
 *   if (loaded.ok) pageVerdict(loaded.page, doc).verdict; // 'content'
 */
export function pageVerdict(page: HtmlPage, response: PageResponse): PageVerdict {
  const fired = new Set<string>();
  // One cheap walk counts the words (up to LONG_WORDS); only a page short enough for a
  // rule on its content to apply (under STUB_WORDS, the largest such bound) is read again
  // for its markers. Most pages pass the count long before their end.
  const counted = countVisible(page.body);
  const features = gather(page, counted.words < STUB_WORDS);
  features.words = counted.words;
  features.bodyWords = counted.bodyWords;
  const words = features.words;
  const status = response.status;
  const header = (name: string) => response.headers[name]?.toLowerCase() ?? '';
  const title = page.title ?? '';
  const heads = [title, ...features.headings];
  const anyHead = (pattern: RegExp) => heads.some((text) => text !== '' && pattern.test(text));
  const short = words < SHORT_WORDS;

  responseSignals(response, fired);

  // Challenge: a vendor's own word for it, or its markers on a page that says little else.
  // Akamai Bot Manager's sensor page: an empty body that sets an unvalidated `_abck`.
  if (
    features.bodyWords < SHELL_WORDS &&
    /(?:^|[\s,;])_abck=[^;]*~-1~/.test(header('set-cookie'))
  ) {
    fired.add('challenge:akamai-cookie');
  }
  const banned = features.scripts.some((text) => DATADOME_BANNED.test(text));
  if (banned && words < INTERSTITIAL_WORDS) fired.add('blocked:datadome-banned');
  if (words < INTERSTITIAL_WORDS && !banned) {
    for (const [vendor, pattern] of CHALLENGE_RESOURCES) {
      if (features.resources.some((url) => pattern.test(url)))
        fired.add(`challenge:${vendor}-resource`);
    }
    for (const [vendor, pattern] of CHALLENGE_SCRIPTS) {
      if (features.scripts.some((text) => pattern.test(text)))
        fired.add(`challenge:${vendor}-script`);
    }
    for (const [vendor, pattern] of CHALLENGE_IDS) {
      for (const token of features.tokens) {
        if (pattern.test(token)) {
          fired.add(`challenge:${vendor}-element`);
          break;
        }
      }
    }
  }
  if (short) {
    const inHead = anyHead(CHALLENGE_PHRASES);
    const phrase = inHead || CHALLENGE_PHRASES.test(features.bodyPhrases);
    let widget = features.resources.some((url) => CAPTCHA_SCRIPTS.test(url));
    for (const token of features.tokens) {
      if (CAPTCHA_WIDGETS.test(token)) widget = true;
    }
    if (widget && phrase) fired.add('challenge:captcha-wall');
    else if (inHead || (phrase && status >= 400)) fired.add('challenge:phrase');
    // An interstitial that shows its words only once its script ran (or failed): hidden
    // text, noscript or the title alone, on a page with next to nothing visible.
    if (
      features.bodyWords < SHELL_WORDS &&
      (CHALLENGE_PHRASES.test(features.hiddenPhrases) || CHALLENGE_PHRASES.test(features.noscript))
    ) {
      fired.add('challenge:hidden-phrase');
    }
  }

  // Blocked: an access-denied heading or a vendor's block footer on a short page.
  if (short) {
    if (anyHead(BLOCKED_PHRASES)) fired.add('blocked:heading');
    if (BLOCKED_BODY.test(features.bodyPhrases)) fired.add('blocked:phrase');
    for (const [vendor, pattern] of BLOCK_FOOTERS) {
      if (pattern.test(features.bodyPhrases)) fired.add(`blocked:${vendor}-footer`);
    }
  }

  // Login: a password form on a short page that is a sign-in page by its heading or path.
  if (short && features.passwords > 0) {
    if (anyHead(LOGIN_PHRASES) || anyHead(LOGIN_TITLE_END)) fired.add('login:heading');
    if (LOGIN_PATH.test(pathOf(page.url))) fired.add('login:path');
    const asked = response.requestedUrl;
    if (asked !== undefined && asked !== page.url && LOGIN_PATH.test(pathOf(page.url))) {
      fired.add('login:redirected');
    }
  }

  // Paywall: a stub whose withheld rest the page says so about. A page whose JSON-LD
  // carries the whole article withholds nothing (publishers serve it to crawlers so).
  if (words < STUB_WORDS && features.dataWords < STUB_WORDS) {
    let container = false;
    for (const token of features.tokens) {
      if (PAYWALL_TOKENS.test(token)) container = true;
    }
    const phrase = PAYWALL_PHRASES.test(features.bodyPhrases);
    const signals = [features.notFree, container, phrase].filter(Boolean).length;
    if (signals >= 2 || (phrase && words < SHORT_WORDS)) {
      if (features.notFree) fired.add('paywall:not-accessible-for-free');
      if (container) fired.add('paywall:container');
      if (phrase) fired.add('paywall:phrase');
    }
  }

  // Shell: next to no visible text, and an app's mount point or its noscript plea.
  if (features.bodyWords < SHELL_WORDS && features.scriptCount > 0) {
    if (features.mounts > 0) fired.add('shell:mount');
    if (NEEDS_SCRIPT.test(features.noscript)) fired.add('shell:noscript');
    if (features.bodyWords === 0) fired.add('shell:empty-body');
  }

  // Error: an error status (above), or an error heading on a short page served with 200.
  if (short && anyHead(ERROR_PHRASES)) fired.add('error:heading');

  // Parked: a parking service's resources, or for-sale wording, on a short page.
  if (words < INTERSTITIAL_WORDS) {
    if (features.resources.some((url) => PARKING_HOSTS.test(url)))
      fired.add('parked:parking-service');
    if (anyHead(PARKED_PHRASES) || PARKED_PHRASES.test(features.bodyPhrases)) {
      fired.add('parked:for-sale');
    }
  }

  return {
    verdict: decide(fired, features),
    signals: [...fired].sort(),
    words: Math.min(words, LONG_WORDS),
    rubric: PAGE_VERDICT_RUBRIC,
  };
}

/**
 * What the response alone says, without its body: when a HEAD-like read is all there is
 * (a headers audit). A vendor's challenge header, or a status that refuses (401, 402,
 * 403, 407, 429, 451) or fails (other 4xx and 5xx); null when nothing in the response
 * decides, since only the body could tell content from what is served in its place.
 * `words` is 0: no body was read.
 *
 * @example
 *   responseVerdict({ status: 403, headers: { 'cf-mitigated': 'challenge' } })?.verdict; // 'challenge'
 */
export function responseVerdict(response: PageResponse): PageVerdict | null {
  const fired = new Set<string>();
  responseSignals(response, fired);
  if (fired.size === 0) return null;
  return {
    verdict: decide(fired, null),
    signals: [...fired].sort(),
    words: 0,
    rubric: PAGE_VERDICT_RUBRIC,
  };
}

/** The signals of the response's status and headers: the same for a page and a head. */
function responseSignals(response: PageResponse, fired: Set<string>): void {
  const header = (name: string) => response.headers[name]?.toLowerCase() ?? '';
  const status = response.status;
  if (header('cf-mitigated') === 'challenge') fired.add('challenge:header-cf-mitigated');
  const waf = header('x-amzn-waf-action');
  if (waf === 'captcha' || waf === 'challenge') fired.add('challenge:header-aws-waf');
  if (header('x-vercel-mitigated') === 'challenge') fired.add('challenge:header-vercel-mitigated');
  if (status === 403 || status === 451 || status === 429) fired.add(`blocked:status-${status}`);
  if (status === 401 || status === 407) fired.add(`login:status-${status}`);
  if (status === 402) fired.add('paywall:status-402');
  if (status >= 400 && ![401, 402, 403, 407, 429, 451].includes(status)) {
    fired.add(`error:status-${status >= 500 ? '5xx' : '4xx'}`);
  }
}

/** The kinds in the order they win when several fire. */
const PRECEDENCE: readonly PageKind[] = [
  'challenge',
  'blocked',
  'login',
  'paywall',
  'parked',
  'error',
  'shell',
];

/**
 * Signals that decide a kind only together with another of its kind (evidence, not
 * proof): the footers that vendors also print on their error pages (Cloudflare's Ray
 * ID, Akamai's reference, CloudFront's), and a redirect to a sign-in path.
 */
const SUPPORTING = /^blocked:(?:cloudflare|akamai|cloudfront|generic)-footer$|^login:redirected$/;

/** The first kind of {@link PRECEDENCE} whose evidence suffices, else `content`. */
function decide(fired: ReadonlySet<string>, features: Features | null): PageKind {
  const of = (kind: PageKind) => [...fired].filter((signal) => signal.startsWith(`${kind}:`));
  const decisive = (kind: PageKind) => of(kind).filter((signal) => !SUPPORTING.test(signal));
  for (const kind of PRECEDENCE) {
    const signals = decisive(kind);
    if (signals.length === 0) continue;
    switch (kind) {
      case 'challenge':
        // Challenge wording alone yields to an access-denied page's own heading or text.
        if (
          signals.every((signal) => signal === 'challenge:phrase') &&
          decisive('blocked').some((signal) => !signal.startsWith('blocked:status-'))
        ) {
          continue;
        }
        return 'challenge';
      case 'parked':
        // For-sale wording alone could be a registrar's own page: needs the service too,
        // or a page that says next to nothing else.
        if (signals.includes('parked:parking-service') || (features?.words ?? 0) < 60) {
          return 'parked';
        }
        continue;
      default:
        return kind;
    }
  }
  return 'content';
}

/** The path (and query) of a URL, or the empty string. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '';
  }
}

/**
 * The markers of a short page, in one walk of the document: the start of the body's
 * visible and hidden text, headings, noscript text, resource URLs, inline script
 * starts, ids and class tokens, password inputs, script and mount elements. Nothing
 * when `markers` is false (a page too long for any rule on its content). The words are
 * counted by {@link countVisible}.
 */
function gather(page: HtmlPage, markers: boolean): Features {
  const features: Features = {
    words: 0,
    bodyWords: 0,
    bodyPhrases: '',
    headings: [],
    noscript: '',
    hiddenPhrases: '',
    resources: [],
    scripts: [],
    tokens: new Set(),
    passwords: 0,
    scriptCount: 0,
    mounts: 0,
    notFree: false,
    dataWords: 0,
  };
  if (!markers) return features;
  // Depth of hidden elements being inside, and whether that is `<head>` (or a `<title>`):
  // hidden, but not text a script could show.
  let hidden = 0;
  let head = 0;
  const hiddenStack: HtmlNode[] = [];
  walk(page.document, {
    enter(node) {
      if (isText(node)) {
        const target = hidden > 0 ? (head === 0 ? 'hiddenPhrases' : null) : 'bodyPhrases';
        if (target !== null && features[target].length < PHRASE_CHARS) {
          features[target] += ` ${node.value}`;
        }
        return;
      }
      if (!isElement(node)) return;
      const tag = node.tagName;
      collectMarkers(node, tag, features);
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript') {
        if (tag === 'noscript' && features.noscript.length < PHRASE_CHARS) {
          features.noscript += ` ${collapseWhitespace(textContent(node))}`;
        }
        if (tag === 'script') readScript(node, features);
        return 'skip';
      }
      const inHead = tag === 'head' || tag === 'title';
      if (inHead || isHiddenElement(node)) {
        hidden += 1;
        if (inHead) head += 1;
        hiddenStack.push(node);
        return;
      }
      if ((tag === 'h1' || tag === 'h2') && features.headings.length < 4 && hidden === 0) {
        const text = collapseWhitespace(textContent(node));
        if (text !== '') features.headings.push(text);
      }
    },
    leave(node) {
      if (hiddenStack[hiddenStack.length - 1] !== node) return;
      hiddenStack.pop();
      hidden -= 1;
      if (isElement(node) && (node.tagName === 'head' || node.tagName === 'title')) head -= 1;
    },
  });
  features.bodyPhrases = collapseWhitespace(features.bodyPhrases);
  features.hiddenPhrases = collapseWhitespace(features.hiddenPhrases);
  return features;
}

/**
 * Visible words in the body outside the site's structural chrome (`words`, counted up
 * to {@link LONG_WORDS}) and in all of it (`bodyWords`): hidden elements and
 * non-content ones (`NON_CONTENT_TAGS`: script, style, template, noscript, iframe, …)
 * count in neither. The order
 * of the count does not matter (it stops only once `words` reaches the cap), so the
 * loop takes the nodes as they come off its stack.
 */
function countVisible(body: HtmlElement | null): { words: number; bodyWords: number } {
  let words = 0;
  let bodyWords = 0;
  if (body === null) return { words, bodyWords };
  const nodes: HtmlNode[] = [body];
  // Per node: 1 when inside the chrome, 2 when inside a sectioning element.
  const flags: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop() as HtmlElement;
    const flag = flags.pop() as number;
    for (const child of node.childNodes) {
      if (isText(child)) {
        const counted = countWords(child.value);
        bodyWords += counted;
        if ((flag & 1) === 0) {
          words += counted;
          if (words >= LONG_WORDS) return { words: LONG_WORDS, bodyWords };
        }
        continue;
      }
      if (!isElement(child) || child.childNodes.length === 0) continue;
      const tag = child.tagName;
      if (NON_CONTENT_TAGS.has(tag) || isHiddenElement(child)) continue;
      const section = (flag & 2) !== 0 || SECTIONING.has(tag);
      const chrome = (flag & 1) !== 0 || isChrome(child, section);
      nodes.push(child);
      flags.push((chrome ? 1 : 0) | (section ? 2 : 0));
    }
  }
  return { words, bodyWords };
}

/** Ids, class tokens, resource URLs, password inputs and mount points of one element. */
function collectMarkers(node: HtmlElement, tag: string, features: Features): void {
  for (const attr of node.attrs) {
    switch (attr.name) {
      case 'id':
        if (attr.value !== '') {
          features.tokens.add(attr.value);
          if (MOUNT_IDS.test(attr.value) && isNearlyEmpty(node)) features.mounts += 1;
        }
        break;
      case 'class':
        for (const token of attr.value.split(/[\t\n\f\r ]+/)) {
          if (token !== '' && features.tokens.size < 4000) features.tokens.add(token);
        }
        break;
      case 'src':
        if (tag === 'script' || tag === 'iframe') features.resources.push(attr.value);
        break;
      case 'action':
        if (tag === 'form') features.resources.push(attr.value);
        break;
      case 'href':
        if ((tag === 'a' || tag === 'link') && features.resources.length < 2000) {
          features.resources.push(attr.value);
        }
        break;
      case 'type':
        if (tag === 'input' && attr.value.trim().toLowerCase() === 'password')
          features.passwords += 1;
        break;
      case 'itemprop':
        if (attr.value === 'isAccessibleForFree') {
          const content = getAttr(node, 'content')?.trim().toLowerCase();
          if (content === 'false' || content === '0') features.notFree = true;
        }
        break;
    }
  }
  if (MOUNT_TAGS.has(tag) && isNearlyEmpty(node)) features.mounts += 1;
  if (tag === 'script') features.scriptCount += 1;
}

/** A mount point with next to no text in it yet (a spinner, a "Loading…"). */
function isNearlyEmpty(node: HtmlElement): boolean {
  let words = 0;
  walk(node, {
    enter(child) {
      if (words >= SHELL_WORDS) return 'skip';
      if (isElement(child) && (child.tagName === 'script' || child.tagName === 'style'))
        return 'skip';
      if (isText(child)) words += countWords(child.value);
    },
  });
  return words < 10;
}

/** The start of an inline script, and `isAccessibleForFree` in JSON-LD. */
function readScript(node: HtmlElement, features: Features): void {
  const type = getAttr(node, 'type')?.trim().toLowerCase() ?? '';
  let text = '';
  for (const child of node.childNodes) {
    if (isText(child)) text += child.value;
  }
  if (text === '') return;
  if (type === 'application/ld+json') {
    if (NOT_FREE_JSON.test(text)) features.notFree = true;
    for (const match of text.matchAll(ARTICLE_BODY_JSON)) {
      features.dataWords = Math.max(features.dataWords, countWords(match[1] ?? ''));
    }
    return;
  }
  if (features.scripts.length < 200) features.scripts.push(text.slice(0, SCRIPT_CHARS));
}

/** Hidden outright: `hidden`, `aria-hidden="true"`, inline `display:none`/`visibility:hidden`. */
function isHiddenElement(node: HtmlElement): boolean {
  for (const attr of node.attrs) {
    if (attr.name === 'hidden') return true;
    if (attr.name === 'aria-hidden' && attr.value.trim().toLowerCase() === 'true') return true;
    if (
      attr.name === 'style' &&
      /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attr.value)
    ) {
      return true;
    }
  }
  return false;
}
