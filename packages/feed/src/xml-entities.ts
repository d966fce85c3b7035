/**
 * The XML reference layer: the five predefined entities (XML 1.0 §4.6) and character
 * references (§4.1). Nothing else is expanded: internal DTD entities never are (documents
 * declaring any are refused before parsing), and named HTML entities such as `&eacute;`
 * are left for the HTML layer of the fields that carry HTML.
 */

const REFERENCE = /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/**
 * HTML §13.2.5.80 (numeric character reference end state): references to C1 controls
 * mean the windows-1252 character feeds actually intended (`&#150;` is an en dash).
 */
const WINDOWS_1252_C1: readonly number[] = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Decode the predefined entities and character references of XML text, in one pass (a
 * decoded `&amp;lt;` stays `&lt;`). Character references follow the HTML rules, which
 * are stricter about what they produce than XML is lenient about what it accepts: NUL,
 * surrogates and code points above U+10FFFF become U+FFFD, C1 controls their
 * windows-1252 character. Unknown names and bare `&` stay as written.
 */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (_match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return PREDEFINED[name] as string;
      const codePoint =
        decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
      return characterFor(codePoint);
    },
  );
}

function characterFor(codePoint: number): string {
  if (
    !Number.isFinite(codePoint) ||
    codePoint === 0 ||
    codePoint > 0x10ffff ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff)
  ) {
    return '\ufffd';
  }
  if (codePoint >= 0x80 && codePoint <= 0x9f) {
    return String.fromCodePoint(WINDOWS_1252_C1[codePoint - 0x80] as number);
  }
  return String.fromCodePoint(codePoint);
}

/**
 * The entity decoder handed to fast-xml-parser in place of its own: it decodes with
 * {@link decodeXmlReferences} and ignores every entity the document tries to declare.
 */
export const xmlEntityDecoder = {
  decode: decodeXmlReferences,
  reset(): void {},
  addInputEntities(): void {},
  setExternalEntities(): void {},
  setXmlVersion(): void {},
};
