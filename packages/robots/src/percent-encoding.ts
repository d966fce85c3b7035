const HEX = '0123456789ABCDEF';

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/** RFC 3986 §2.2 reserved: gen-delims `:/?#[]@` and sub-delims `!$&'()*+,;=`. */
function isReserved(code: number): boolean {
  switch (code) {
    case 0x3a: // :
    case 0x2f: // /
    case 0x3f: // ?
    case 0x23: // #
    case 0x5b: // [
    case 0x5d: // ]
    case 0x40: // @
    case 0x21: // !
    case 0x24: // $
    case 0x26: // &
    case 0x27: // '
    case 0x28: // (
    case 0x29: // )
    case 0x2a: // *
    case 0x2b: // +
    case 0x2c: // ,
    case 0x3b: // ;
    case 0x3d: // =
      return true;
    default:
      return false;
  }
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

function escapeOctet(octet: number): string {
  return `%${HEX[octet >> 4]}${HEX[octet & 15]}`;
}

/**
 * Bring a path, or one literal piece of a pattern, to the form RFC 9309 §2.2.2 compares:
 * the octets of the string percent-encoded as RFC 3986 defines.
 *
 * - Characters outside US-ASCII are encoded as their UTF-8 octets (`é` → `%C3%A9`); a
 *   lone surrogate counts as U+FFFD.
 * - A percent-encoded unreserved octet is decoded (`%62` → `b`, RFC 3986 §6.2.2.2); every
 *   other escape is kept with upper-case hex (`%2f` → `%2F`), so `%2F` and `/` stay
 *   different, as RFC 3986 §2.2 says reserved characters and their escapes are not
 *   equivalent.
 * - `%2A` and `%24` are decoded to `*` and `$`: RFC 9309 §2.2.3 (Table 3) writes a literal
 *   `*` or `$` in a pattern as `%2A` / `%24` and says it matches the character in the URI.
 *   Callers split patterns on their wildcards before normalising the pieces.
 * - ASCII characters that may not appear in a URI (controls, space, `"<>\^{|}` and the
 *   backtick) are encoded; a `%` that does not start an escape becomes `%25`.
 *
 * The result is ASCII, and normalising it again changes nothing.
 */
export function normalizeOctets(input: string): string {
  let out = '';
  let start = 0; // start of a run of characters copied verbatim
  const length = input.length;
  let i = 0;
  while (i < length) {
    const code = input.charCodeAt(i);
    if (code < 0x80 && code !== 0x25 && (isUnreserved(code) || isReserved(code))) {
      i++;
      continue;
    }
    out += input.slice(start, i);
    if (code === 0x25) {
      const high = i + 2 < length ? hexValue(input.charCodeAt(i + 1)) : -1;
      const low = high >= 0 ? hexValue(input.charCodeAt(i + 2)) : -1;
      if (low >= 0) {
        const octet = high * 16 + low;
        out +=
          isUnreserved(octet) || octet === 0x2a || octet === 0x24
            ? String.fromCharCode(octet)
            : escapeOctet(octet);
        i += 3;
      } else {
        out += '%25';
        i++;
      }
    } else if (code < 0x80) {
      out += escapeOctet(code);
      i++;
    } else {
      let point = code;
      let width = 1;
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
        const next = input.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          width = 2;
        }
      }
      if (point >= 0xd800 && point <= 0xdfff) point = 0xfffd;
      out += utf8Escaped(point);
      i += width;
    }
    start = i;
  }
  return start === 0 ? input : out + input.slice(start);
}

function utf8Escaped(point: number): string {
  if (point < 0x800) {
    return escapeOctet(0xc0 | (point >> 6)) + escapeOctet(0x80 | (point & 63));
  }
  if (point < 0x10000) {
    return (
      escapeOctet(0xe0 | (point >> 12)) +
      escapeOctet(0x80 | ((point >> 6) & 63)) +
      escapeOctet(0x80 | (point & 63))
    );
  }
  return (
    escapeOctet(0xf0 | (point >> 18)) +
    escapeOctet(0x80 | ((point >> 12) & 63)) +
    escapeOctet(0x80 | ((point >> 6) & 63)) +
    escapeOctet(0x80 | (point & 63))
  );
}

/**
 * The path a robots.txt verdict is computed for, in the form rules are compared with
 * (RFC 9309 §2.2.2). An absolute `http(s)://` URL gives its path and query; anything
 * else is read as a path. The fragment is dropped (crawlers never send it), an empty
 * path is `/`, a path without a leading `/` gets one, and the octets are normalised as
 * {@link normalizeOctets} describes (`/caf%c3%a9`, `/café` and `/caf%C3%A9` are all
 * `/caf%C3%A9`; `/%62az` is `/baz`).
 *
 * @example
 *   normalizeRobotsPath('https://example.com/a%2fb?q=%7e#top') // '/a%2Fb?q=~'
 */
export function normalizeRobotsPath(pathOrUrl: string): string {
  let path = pathOrUrl;
  if (/^https?:\/\//i.test(path) && URL.canParse(path)) {
    const url = new URL(path);
    path = url.pathname + url.search;
  }
  const hash = path.indexOf('#');
  if (hash !== -1) path = path.slice(0, hash);
  if (path === '') return '/';
  if (path.charCodeAt(0) !== 0x2f) path = `/${path}`;
  return normalizeOctets(path);
}
