import type { UpstreamErrorCode } from '@storefront/core';

// ---------------------------------------------------------------------------
// robots.txt (RFC 9309)
// ---------------------------------------------------------------------------

/** One `Allow:` or `Disallow:` line of a group. */
export interface RobotsRule {
  readonly type: 'allow' | 'disallow';
  /** The pattern as written in the file (comment and outer whitespace removed). */
  readonly value: string;
  /** The pattern in the form it is compared: percent-encoding normalised (RFC 9309 §2.2.2). */
  readonly pattern: string;
  /** 1-based line number in the file. */
  readonly line: number;
}

/** A group: one or more `User-agent:` lines and the rules that follow them (RFC 9309 §2.2). */
export interface RobotsGroup {
  /** The product tokens of the group's `User-agent:` lines as written (`*` for any crawler). */
  readonly agents: readonly string[];
  /** Line of the group's first `User-agent:` line. */
  readonly line: number;
  /** Non-empty rules in file order (an empty `Disallow:` allows everything and is not kept). */
  readonly rules: readonly RobotsRule[];
  /** The first valid `Crawl-delay:` of the group in seconds (0 to 86400), or null. */
  readonly crawlDelay: number | null;
}

/** Something in the file that was not used as written. */
export interface RobotsWarning {
  readonly line: number;
  readonly issue: RobotsWarningIssue;
}

/** What a {@link RobotsWarning} reports. */
export type RobotsWarningIssue =
  | 'rule-outside-group'
  | 'invalid-user-agent'
  | 'pattern-without-leading-slash'
  | 'rule-too-long'
  | 'too-many-rules'
  | 'invalid-sitemap'
  | 'too-many-sitemaps'
  | 'invalid-crawl-delay'
  | 'unparseable-line'
  | 'parse-limit-reached';

/** A parsed robots.txt file; plain data, safe to serialise. */
export interface ParsedRobots {
  /** Groups in file order. Groups for the same agent are kept apart here and merged when matching. */
  readonly groups: readonly RobotsGroup[];
  /** Absolute http(s) `Sitemap:` URLs in file order, without duplicates, at most `ROBOTS_MAX_SITEMAPS`. */
  readonly sitemaps: readonly string[];
  /** Lines read (the last line counts even without a final newline). */
  readonly lines: number;
  /** Rules kept across all groups. */
  readonly rules: number;
  /** UTF-8 bytes parsed (at most `ROBOTS_MAX_BYTES`). */
  readonly bytes: number;
  /** True when the input was longer than `ROBOTS_MAX_BYTES` and the rest was ignored. */
  readonly truncated: boolean;
  /** The first `ROBOTS_MAX_WARNINGS` warnings in line order. */
  readonly warnings: readonly RobotsWarning[];
  /** All warnings, including those not listed. */
  readonly warningCount: number;
}

/** Why {@link RobotsMatch} came out the way it did. */
export type RobotsMatchReason =
  /** The longest matching rule decided (an `Allow` wins a tie). */
  | 'rule'
  /** A group applies but none of its rules matches the path: allowed (RFC 9309 §2.2.2). */
  | 'no-matching-rule'
  /** No group names the agent and there is no `*` group: allowed (RFC 9309 §2.2.1). */
  | 'no-matching-group'
  /** The path is `/robots.txt`, which is implicitly allowed (RFC 9309 §2.2.2). */
  | 'robots-txt-path';

/** The decision for one agent and path, with what decided it. */
export interface RobotsMatch {
  readonly allowed: boolean;
  readonly reason: RobotsMatchReason;
  /**
   * The group that applied, as its lower-cased product token, or `*` for the catch-all
   * group; null when no group applied.
   */
  readonly group: string | null;
  /** The rule that decided, when `reason` is `rule`. */
  readonly rule: RobotsRule | null;
  /** The path as compared (see `normalizeRobotsPath`). */
  readonly path: string;
}

// ---------------------------------------------------------------------------
// llms.txt and ai.txt
// ---------------------------------------------------------------------------

/** One `- [name](url): notes` entry of an llms.txt file list. */
export interface LlmsTxtLink {
  readonly name: string;
  /** The URL as written (not resolved). */
  readonly url: string;
  /** Text after the link (after `:` when present), or null. */
  readonly notes: string | null;
  readonly line: number;
}

/** An `## H2` section of an llms.txt file, or the links written before the first one. */
export interface LlmsTxtSection {
  /** The heading text; null for links listed before any `##` heading. */
  readonly title: string | null;
  /** True for the section titled `Optional`, which readers may skip (llmstxt.org). */
  readonly optional: boolean;
  readonly line: number;
  readonly links: readonly LlmsTxtLink[];
}

/** A parsed llms.txt file (llmstxt.org format). */
export interface ParsedLlmsTxt {
  /** The first `# H1` heading, the only required part; null when there is none. */
  readonly title: string | null;
  /** The first `>` blockquote before any `##` section, lines joined with spaces. */
  readonly summary: string | null;
  /** Other text between the title and the first `##` section, or null. */
  readonly details: string | null;
  readonly sections: readonly LlmsTxtSection[];
  /** All links found, including those beyond `LLMS_TXT_MAX_LINKS`. */
  readonly linkCount: number;
  /** True when the file has its H1 title before any other content, as the format asks. */
  readonly valid: boolean;
  /** True when the input was longer than `LLMS_TXT_MAX_BYTES` and the rest was ignored. */
  readonly truncated: boolean;
}

/** A parsed ai.txt file (the Spawning format: robots.txt lines over paths and file types). */
export interface ParsedAiTxt {
  /** `robots-style` when the file has `User-Agent:` groups; anything else is `unrecognised`. */
  readonly format: 'robots-style' | 'unrecognised';
  /** The file read with the robots.txt parser. */
  readonly robots: ParsedRobots;
  /** Extensions the `*` group disallows through `*.ext` rules, lower-cased, sorted. */
  readonly blockedFileTypes: readonly string[];
  /** Extensions the `*` group allows through `*.ext` rules, lower-cased, sorted. */
  readonly allowedFileTypes: readonly string[];
  /** True when the `*` group disallows `/`, i.e. every path not allowed otherwise. */
  readonly disallowsRoot: boolean;
}

// ---------------------------------------------------------------------------
// AI crawlers
// ---------------------------------------------------------------------------

/**
 * What a crawler's fetches are for: `training` (model training), `dataset` (a corpus or
 * index offered to others, commonly for training), `search` (an AI search index),
 * `user-triggered` (a fetch made because a user asked), `research` (one-off crawls).
 */
export type CrawlerPurpose = 'training' | 'dataset' | 'search' | 'user-triggered' | 'research';

/** One entry of the AI crawler table. */
export interface CrawlerInfo {
  /** The product token robots.txt groups name (RFC 9309 §2.2.1). */
  readonly token: string;
  readonly vendor: string;
  readonly purpose: CrawlerPurpose;
  /** What the vendor documents about it, in one or two sentences. */
  readonly note: string;
}

// ---------------------------------------------------------------------------
// The audit (`GET /buy/robots`)
// ---------------------------------------------------------------------------

/**
 * Error codes a fetch may report to {@link FileOutcome}: core's upstream codes (DESIGN §7)
 * but `upstream_http_error`, since an error status is a response (`ok: true`), and
 * `internal_error`. Every code of a safe-fetch failure fits.
 */
export type FetchErrorCode = Exclude<UpstreamErrorCode, 'upstream_http_error'> | 'internal_error';

/** A response that was received (any status). A `FetchedDocument` fits. */
export interface FetchedFile {
  /** HTTP status of the final response. */
  readonly status: number;
  /** The body, decoded from its content-coding. */
  readonly bytes: Uint8Array;
  /** The `Content-Type` header verbatim, or null. */
  readonly contentType?: string | null | undefined;
  /** The final URL after redirects. */
  readonly url?: string | undefined;
  /** Every URL that answered with a redirect, in order. */
  readonly redirects?: readonly string[] | undefined;
}

/**
 * What fetching one file gave: a response, or a failure without a usable response. A
 * safe-fetch result fits as it is.
 */
export type FileOutcome =
  | { readonly ok: true; readonly doc: FetchedFile }
  | {
      readonly ok: false;
      readonly error: FetchErrorCode;
      /** The status of the response being read when it failed, when there was one. */
      readonly status?: number | undefined;
      readonly message?: string | undefined;
    };

/** The input of {@link auditRobots}: the origin and what fetching its three files gave. */
export interface RobotsInput {
  /** The `domain` parameter: a domain or a URL; only its origin is used. */
  readonly origin: string;
  /** `GET <origin>/robots.txt`. */
  readonly robotsTxt: FileOutcome;
  /** `GET <origin>/llms.txt`; omitted or null when it was not fetched. */
  readonly llmsTxt?: FileOutcome | null | undefined;
  /** `GET <origin>/ai.txt`; omitted or null when it was not fetched. */
  readonly aiTxt?: FileOutcome | null | undefined;
}

/** Options of {@link auditRobots}, one per `/buy/robots` parameter besides `domain`. */
export interface RobotsOptions {
  /** The path verdicts are computed for (default `/`), at most 1024 characters. */
  readonly path?: string;
}

/** `allowed` or `blocked`. */
export type Verdict = 'allowed' | 'blocked';

/**
 * Why a crawler got its verdict; `decidedBy` names the file.
 *
 * - `allow-rule`, `disallow-rule`: the longest matching rule of the agent's group
 *   (RFC 9309 §2.2.2); `rule` cites it.
 * - `no-matching-rule`: a group applies but no rule matches: allowed (§2.2.2).
 * - `no-matching-group`: no group names the agent and there is no `*` group: allowed (§2.2.1).
 * - `robots-txt-path`: the evaluated path is `/robots.txt`: always allowed (§2.2.2).
 * - `unavailable`: robots.txt answered 4xx, a final 3xx, or more than 5 redirects:
 *   allowed (§2.3.1.2, §2.3.1.3).
 * - `unreachable`: robots.txt answered 5xx or the network failed: blocked (§2.3.1.4).
 */
export type VerdictReason =
  | 'allow-rule'
  | 'disallow-rule'
  | 'no-matching-rule'
  | 'no-matching-group'
  | 'robots-txt-path'
  | 'unavailable'
  | 'unreachable';

/** The verdict for one crawler of the table. */
export interface CrawlerVerdict {
  readonly agent: string;
  readonly vendor: string;
  readonly purpose: CrawlerPurpose;
  readonly verdict: Verdict;
  readonly reason: VerdictReason;
  /** The file that decided: `robots.txt`, or `ai.txt` for a training crawler it blocks. */
  readonly decidedBy: 'robots.txt' | 'ai.txt';
  /** The deciding line, e.g. `line 4 (user-agent: gptbot): Disallow: /`; null when no line decided. */
  readonly rule: string | null;
}

/** Counts and flags over all verdicts. */
export interface RobotsSummary {
  readonly allowed: number;
  readonly blocked: number;
  /** Product tokens of the blocked crawlers, in table order. */
  readonly blockedAgents: readonly string[];
  /** The robots.txt `Sitemap:` URLs. */
  readonly sitemaps: readonly string[];
  readonly hasLlmsTxt: boolean;
  readonly hasAiTxt: boolean;
  readonly hasRobotsTxt: boolean;
}

/** How one of the three files was fetched. */
export interface FilePolicyFetch {
  /** The URL requested: `<origin>/<file>`. */
  readonly url: string;
  /** The final URL after redirects, when a response was received. */
  readonly finalUrl: string | null;
  readonly redirects: number;
  readonly status: number | null;
  /** The upstream error code when no usable response was received. */
  readonly error: FetchErrorCode | null;
  readonly contentType: string | null;
  /** Body bytes received. */
  readonly bytes: number;
}

/** The state of robots.txt: how it was fetched, which RFC 9309 status rule applied, what it holds. */
export interface RobotsTxtPolicy {
  readonly fetch: FilePolicyFetch;
  /**
   * `parsed` (2xx), `unavailable` (allow all), `unreachable` (disallow all), or
   * `not-fetched` (the fetch was refused or failed on our side; no verdicts).
   */
  readonly state: 'parsed' | 'unavailable' | 'unreachable' | 'not-fetched';
  /** The RFC 9309 §2.3.1 rule that applied, in words. */
  readonly statusRule: string;
  readonly parsed: {
    readonly lines: number;
    readonly groups: number;
    readonly rules: number;
    /** Distinct product tokens named by `User-agent:` lines, lower-cased, sorted, at most 200. */
    readonly agents: readonly string[];
    readonly sitemaps: number;
    readonly bytes: number;
    readonly truncated: boolean;
    /** True when the body looks like an HTML page rather than a robots.txt file. */
    readonly looksLikeHtml: boolean;
    readonly warnings: readonly RobotsWarning[];
    readonly warningCount: number;
  } | null;
}

/** The state of llms.txt. */
export interface LlmsTxtPolicy {
  readonly fetch: FilePolicyFetch;
  /**
   * `found` (a 2xx text body), `not-llms-txt` (2xx but empty or an HTML page), `absent`
   * (another status), `unreachable` (no response), `not-fetched` (not requested).
   */
  readonly state: 'found' | 'not-llms-txt' | 'absent' | 'unreachable' | 'not-fetched';
  readonly parsed: {
    readonly title: string | null;
    readonly summary: string | null;
    readonly valid: boolean;
    /** Section titles with their link counts, at most 100. */
    readonly sections: readonly { readonly title: string | null; readonly links: number }[];
    readonly linkCount: number;
    readonly truncated: boolean;
  } | null;
}

/** The state of ai.txt. */
export interface AiTxtPolicy {
  readonly fetch: FilePolicyFetch;
  /** As for {@link LlmsTxtPolicy}, with `not-ai-txt` for an empty or HTML body. */
  readonly state: 'found' | 'not-ai-txt' | 'absent' | 'unreachable' | 'not-fetched';
  readonly parsed: {
    readonly format: 'robots-style' | 'unrecognised';
    readonly groups: number;
    readonly rules: number;
    readonly agents: readonly string[];
    readonly blockedFileTypes: readonly string[];
    readonly allowedFileTypes: readonly string[];
    readonly disallowsRoot: boolean;
    readonly truncated: boolean;
  } | null;
}

/** `data` of `/buy/robots` (spec: GET /buy/robots). */
export interface RobotsData {
  /** The rubric, `robots-audit/1`. */
  readonly version: string;
  /** Host (and port, when not the default) of the audited origin. */
  readonly host: string;
  /** The audited origin, `https://host`. */
  readonly origin: string;
  /** The path verdicts were computed for, normalised (RFC 9309 §2.2.2). */
  readonly evaluatedPath: string;
  readonly policies: {
    readonly 'robots.txt': RobotsTxtPolicy;
    readonly 'llms.txt': LlmsTxtPolicy;
    readonly 'ai.txt': AiTxtPolicy;
  };
  /** One verdict per crawler of `AI_CRAWLERS`, in table order. */
  readonly verdicts: readonly CrawlerVerdict[];
  readonly summary: RobotsSummary;
  /**
   * Present, and true, only when a string echoed from a file or a fetch was cut at its cap
   * (`ROBOTS_MAX_FIELD_CHARS`, `ROBOTS_MAX_CONTENT_TYPE_CHARS`): it then ends with `…`.
   */
  readonly truncatedFields?: true;
}

/**
 * The failures {@link auditRobots} can report: robots.txt could not be read for a reason
 * that says nothing about the site's policy (refused, or our own fault), or the host
 * never answered any of the three requests.
 */
export type RobotsErrorCode = Exclude<FetchErrorCode, 'redirect_loop' | 'too_many_redirects'>;
