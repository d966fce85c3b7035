/**
 * Host names with IDNA2008 rules (RFC 5890–5893), for the `hostname` and `idn-hostname`
 * formats. Every check reads each code point a fixed number of times, and names are at
 * most 253 characters long before any label is decoded, so the cost is linear.
 *
 * Unicode properties that JavaScript's RegExp does not expose (Bidi_Class, Joining_Type,
 * Canonical_Combining_Class) are approximated from scripts and fixed code point lists;
 * see the decisions of this package.
 */

/** The longest name and label, in octets of their ASCII (A-label) form. */
const MAX_NAME = 253;
const MAX_LABEL = 63;

// Punycode parameters (RFC 3492 §5).
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22; // 0-9 → 26-35
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return -1;
}

function digitChar(digit: number): string {
  return String.fromCharCode(digit < 26 ? digit + 0x61 : digit + 22);
}

/** Decode the part of an A-label after `xn--` (RFC 3492 §6.2); null when it is not Punycode. */
export function punycodeDecode(input: string): number[] | null {
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let at = delimiter > 0 ? delimiter + 1 : 0; at < input.length; ) {
    const old = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (at >= input.length) return null;
      const digit = digitValue(input.charCodeAt(at++));
      if (digit < 0) return null;
      i += digit * w;
      if (i > 0x10ffff * (output.length + 1)) return null;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    bias = adapt(i - old, output.length + 1, old === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i++;
  }
  return output;
}

/** Encode code points as Punycode (RFC 3492 §6.3), without the `xn--` prefix. */
export function punycodeEncode(points: readonly number[]): string {
  let output = '';
  for (const p of points) if (p < 0x80) output += String.fromCharCode(p);
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < points.length) {
    let m = 0x110000;
    for (const p of points) if (p >= n && p < m) m = p;
    delta += (m - n) * (handled + 1);
    n = m;
    for (const p of points) {
      if (p < n) delta++;
      if (p === n) {
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
          if (q < t) break;
          output += digitChar(t + ((q - t) % (BASE - t)));
          q = Math.floor((q - t) / (BASE - t));
        }
        output += digitChar(q);
        bias = adapt(delta, handled + 1, handled === basic);
        delta = 0;
        handled++;
      }
    }
    delta++;
    n++;
  }
  return output;
}

// RFC 5892 §2.6: exceptions.
const EXCEPTION_PVALID = new Set([0xdf, 0x3c2, 0x6fd, 0x6fe, 0xf0b, 0x3007]);
const EXCEPTION_DISALLOWED = new Set([
  0x640, 0x7fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b,
]);
const CONTEXT_O = new Set([0xb7, 0x375, 0x5f3, 0x5f4, 0x30fb]);
const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/** Code points with Canonical_Combining_Class 9 (Virama), Unicode 15. */
const VIRAMA = new Set([
  0x94d, 0x9cd, 0xa4d, 0xacd, 0xb4d, 0xbcd, 0xc4d, 0xccd, 0xd3b, 0xd3c, 0xd4d, 0xdca, 0xe3a, 0xeba,
  0xf84, 0x1039, 0x103a, 0x1714, 0x1715, 0x1734, 0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab, 0x1bf2,
  0x1bf3, 0x2d7f, 0xa806, 0xa82c, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f, 0x11046, 0x11070,
  0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d, 0x11442, 0x114c2, 0x115bf,
  0x1163f, 0x116b6, 0x1172b, 0x11839, 0x1193d, 0x1193e, 0x119e0, 0x11a34, 0x11a47, 0x11a99, 0x11c3f,
  0x11d44, 0x11d45, 0x11d97,
]);

// Fixed single-code-point tests (no repetition: they cannot backtrack).
const LETTER_DIGIT = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const IGNORABLE =
  /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}\p{Cn}]$/u;
const MARK = /^\p{M}$/u;
const NONSPACING = /^[\p{Mn}\p{Me}]$/u;
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const KANA_HAN = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;
/** Scripts whose letters join (Joining_Type D, L or R), for the ZWNJ rule. */
const JOINING =
  /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Mandaic}\p{Script=Manichaean}\p{Script=Psalter_Pahlavi}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Sogdian}\p{Script=Phags_Pa}]$/u;
/** Arabic letters that join on their right side only (Joining_Type R). */
const RIGHT_JOINING = new Set([
  0x622, 0x623, 0x624, 0x625, 0x627, 0x629, 0x62f, 0x630, 0x631, 0x632, 0x648, 0x671, 0x672, 0x673,
  0x675, 0x676, 0x677, 0x688, 0x689, 0x68a, 0x68b, 0x68c, 0x68d, 0x68e, 0x68f, 0x690, 0x691, 0x692,
  0x693, 0x694, 0x695, 0x696, 0x697, 0x698, 0x699, 0x6c0, 0x6c3, 0x6c4, 0x6c5, 0x6c6, 0x6c7, 0x6c8,
  0x6c9, 0x6ca, 0x6cb, 0x6cd, 0x6cf, 0x6d2, 0x6d3, 0x6d5, 0x6ee, 0x6ef,
]);

/** IDNA2008 derived property of one code point (RFC 5892 §3), without the context rules. */
function status(cp: number): 'pvalid' | 'context' | 'disallowed' {
  if (EXCEPTION_PVALID.has(cp)) return 'pvalid';
  if (EXCEPTION_DISALLOWED.has(cp)) return 'disallowed';
  if (CONTEXT_O.has(cp) || (cp >= 0x660 && cp <= 0x669) || (cp >= 0x6f0 && cp <= 0x6f9))
    return 'context';
  if (cp === ZWNJ || cp === ZWJ) return 'context';
  if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x2d) return 'pvalid';
  const ch = String.fromCodePoint(cp);
  // Unstable: changed by NFKC and case folding (upper case, compatibility forms).
  if (ch.normalize('NFKC').toLowerCase().normalize('NFKC') !== ch) return 'disallowed';
  if (IGNORABLE.test(ch)) return 'disallowed';
  // Ignorable blocks and old Hangul Jamo.
  if ((cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0x1d100 && cp <= 0x1d24f)) return 'disallowed';
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f)) return 'disallowed';
  if (cp >= 0xd7b0 && cp <= 0xd7ff) return 'disallowed';
  return LETTER_DIGIT.test(ch) ? 'pvalid' : 'disallowed';
}

type Bidi = 'L' | 'R' | 'AL' | 'AN' | 'EN' | 'ES' | 'ON' | 'BN' | 'NSM';

/** Bidi_Class of a code point that can be in a valid label, from its block. */
function bidiClass(cp: number): Bidi {
  if (cp >= 0x30 && cp <= 0x39) return 'EN';
  if (cp === 0x2d) return 'ES';
  if (cp === ZWNJ || cp === ZWJ) return 'BN';
  const ch = String.fromCodePoint(cp);
  if (NONSPACING.test(ch)) return 'NSM';
  if (cp >= 0x6f0 && cp <= 0x6f9) return 'EN';
  if ((cp >= 0x660 && cp <= 0x669) || cp === 0x66b || cp === 0x66c || cp === 0x6dd) return 'AN';
  if ((cp >= 0x600 && cp <= 0x605) || cp === 0x890 || cp === 0x891 || cp === 0x8e2) return 'AN';
  if ((cp >= 0x600 && cp <= 0x7bf) || (cp >= 0x860 && cp <= 0x8ff)) return 'AL';
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return 'AL';
  if (cp >= 0x1ee00 && cp <= 0x1eeff) return 'AL';
  if ((cp >= 0x590 && cp <= 0x5ff) || (cp >= 0x7c0 && cp <= 0x85f)) return 'R';
  if ((cp >= 0xfb1d && cp <= 0xfb4f) || (cp >= 0x10800 && cp <= 0x10fff)) return 'R';
  if (cp >= 0x1e800 && cp <= 0x1efff) return 'R';
  if (cp === 0xb7 || cp === 0x375 || cp === 0x30fb) return 'ON';
  return 'L';
}

/** RFC 5893 §2 on one label of a Bidi domain name. */
function bidiRuleHolds(classes: readonly Bidi[]): boolean {
  const first = classes[0];
  if (first !== 'L' && first !== 'R' && first !== 'AL') return false;
  let end = classes.length - 1;
  while (end > 0 && classes[end] === 'NSM') end--;
  const last = classes[end] as Bidi;
  if (first === 'L') {
    const allowed = new Set<Bidi>(['L', 'EN', 'ES', 'ON', 'BN', 'NSM']);
    return classes.every((c) => allowed.has(c)) && (last === 'L' || last === 'EN');
  }
  const allowed = new Set<Bidi>(['R', 'AL', 'AN', 'EN', 'ES', 'ON', 'BN', 'NSM']);
  if (!classes.every((c) => allowed.has(c))) return false;
  if (classes.includes('EN') && classes.includes('AN')) return false;
  return last === 'R' || last === 'AL' || last === 'EN' || last === 'AN';
}

/** RFC 5892 Appendix A.1: ZERO WIDTH NON-JOINER. */
function zwnjAllowed(label: readonly number[], at: number): boolean {
  if (at > 0 && VIRAMA.has(label[at - 1] as number)) return true;
  const transparent = (cp: number) => NONSPACING.test(String.fromCodePoint(cp));
  let before = at - 1;
  while (before >= 0 && transparent(label[before] as number)) before--;
  let after = at + 1;
  while (after < label.length && transparent(label[after] as number)) after++;
  if (before < 0 || after >= label.length) return false;
  const left = label[before] as number;
  const right = label[after] as number;
  const joins = (cp: number) => JOINING.test(String.fromCodePoint(cp));
  return joins(left) && !RIGHT_JOINING.has(left) && joins(right);
}

/** RFC 5892 Appendix A: the CONTEXTJ and CONTEXTO rules. */
function contextAllowed(label: readonly number[], at: number): boolean {
  const cp = label[at] as number;
  const char = (i: number) =>
    i >= 0 && i < label.length ? String.fromCodePoint(label[i] as number) : '';
  switch (cp) {
    case ZWNJ:
      return zwnjAllowed(label, at);
    case ZWJ:
      return at > 0 && VIRAMA.has(label[at - 1] as number);
    case 0xb7:
      return label[at - 1] === 0x6c && label[at + 1] === 0x6c;
    case 0x375:
      return GREEK.test(char(at + 1));
    case 0x5f3:
    case 0x5f4:
      return HEBREW.test(char(at - 1));
    case 0x30fb:
      return label.some((p) => KANA_HAN.test(String.fromCodePoint(p)));
  }
  if (cp >= 0x660 && cp <= 0x669) return !label.some((p) => p >= 0x6f0 && p <= 0x6f9);
  if (cp >= 0x6f0 && cp <= 0x6f9) return !label.some((p) => p >= 0x660 && p <= 0x669);
  return false;
}

/** RFC 5891 §5.4: the checks of one U-label (its code points). */
function uLabelValid(label: readonly number[]): boolean {
  if (label.length === 0) return false;
  if (label[2] === 0x2d && label[3] === 0x2d) return false;
  if (label[0] === 0x2d || label[label.length - 1] === 0x2d) return false;
  if (MARK.test(String.fromCodePoint(label[0] as number))) return false;
  const text = String.fromCodePoint(...label);
  if (text.normalize('NFC') !== text) return false;
  for (let i = 0; i < label.length; i++) {
    const s = status(label[i] as number);
    if (s === 'disallowed') return false;
    if (s === 'context' && !contextAllowed(label, i)) return false;
  }
  return true;
}

const LDH = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** A label read as IDNA2008 sees it: its code points, its A-label length, and validity. */
function readLabel(label: string): { points: number[]; length: number } | null {
  if (label.length === 0) return null;
  if (/^[\x00-\x7f]*$/.test(label)) {
    if (label.length > MAX_LABEL || !LDH.test(label)) return null;
    const lower = label.toLowerCase();
    if (!lower.startsWith('xn--')) {
      // A non-IDN label must not have hyphens in the third and fourth positions.
      if (lower[2] === '-' && lower[3] === '-') return null;
      return { points: [...lower].map((c) => c.charCodeAt(0)), length: label.length };
    }
    const points = punycodeDecode(lower.slice(4));
    if (points === null || points.every((p) => p < 0x80)) return null;
    // Canonical: the decoded label re-encodes to the same A-label.
    if (punycodeEncode(points) !== lower.slice(4)) return null;
    return uLabelValid(points) ? { points, length: label.length } : null;
  }
  const points = [...label].map((c) => c.codePointAt(0) as number);
  if (!uLabelValid(points)) return null;
  const length = 4 + punycodeEncode(points).length;
  return length > MAX_LABEL ? null : { points, length };
}

/** Every label valid, the name at most 253 octets, and the Bidi rule in a Bidi domain name. */
function labelsValid(labels: readonly string[]): boolean {
  let total = labels.length - 1;
  const read: number[][] = [];
  for (const label of labels) {
    const one = readLabel(label);
    if (one === null) return false;
    total += one.length;
    read.push(one.points);
  }
  if (total > MAX_NAME) return false;
  const classes = read.map((points) => points.map(bidiClass));
  const bidiDomain = classes.some((c) => c.some((b) => b === 'R' || b === 'AL' || b === 'AN'));
  return !bidiDomain || classes.every(bidiRuleHolds);
}

/**
 * `hostname` (RFC 1123 §2.1, as the suite reads draft-07): ASCII letters, digits and
 * hyphens in labels of 1 to 63 characters, 253 in all, no trailing dot; an `xn--` label
 * must be a valid A-label (canonical Punycode of a valid IDNA2008 U-label).
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > MAX_NAME || !/^[\x00-\x7f]*$/.test(value)) return false;
  return labelsValid(value.split('.'));
}

/**
 * `idn-hostname` (RFC 5890): labels separated by `.`, `。`, `．` or `｡`, each an ASCII
 * label as in {@link isHostname} or a valid IDNA2008 U-label whose A-label has at most
 * 63 octets; 253 octets in all in the A-label form; no trailing separator.
 */
export function isIdnHostname(value: string): boolean {
  // Before decoding: no valid name is longer than 253 characters in any form.
  if (value.length === 0 || value.length > MAX_NAME) return false;
  return labelsValid(value.split(/[.\u3002\uff0e\uff61]/));
}
