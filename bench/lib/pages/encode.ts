/**
 * Encoders for the legacy-encoding pages. Shift_JIS is built from the platform's
 * decoder (every byte sequence decoded once, the table reversed); windows-1252 from the
 * WHATWG index. The generator checks that `decodeBytes` from @storefront/core gives
 * back exactly the source string, so the bytes mean what the page says.
 */

let shiftJis: Map<string, number[]> | null = null;
let windows1252: Map<string, number> | null = null;

function shiftJisTable(): Map<string, number[]> {
  if (shiftJis !== null) return shiftJis;
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder('shift_jis', { fatal: true });
  const single = (byte: number) => {
    try {
      const char = decoder.decode(new Uint8Array([byte]));
      if (!table.has(char)) table.set(char, [byte]);
    } catch {
      // Not a single-byte character.
    }
  };
  for (let b = 0; b < 0x80; b++) single(b);
  for (let b = 0xa1; b <= 0xdf; b++) single(b);
  const leads = [...range(0x81, 0x9f), ...range(0xe0, 0xfc)];
  const trails = [...range(0x40, 0x7e), ...range(0x80, 0xfc)];
  for (const lead of leads) {
    for (const trail of trails) {
      let char: string;
      try {
        char = decoder.decode(new Uint8Array([lead, trail]));
      } catch {
        continue;
      }
      if (char.length === 1 && !table.has(char)) table.set(char, [lead, trail]);
    }
  }
  shiftJis = table;
  return table;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Encode a string as Shift_JIS; throws on a character Shift_JIS cannot represent. */
export function encodeShiftJis(text: string): Uint8Array {
  const table = shiftJisTable();
  const out: number[] = [];
  const missing = new Set<string>();
  for (const char of text) {
    const bytes = table.get(char);
    if (bytes === undefined) missing.add(char);
    else out.push(...bytes);
  }
  if (missing.size > 0) {
    throw new Error(
      `Not representable in Shift_JIS: ${[...missing].map((c) => `${c} (U+${c.codePointAt(0)?.toString(16)})`).join(', ')}`,
    );
  }
  return new Uint8Array(out);
}

/** WHATWG index-windows-1252 for bytes 0x80-0x9F; every other byte maps to the same code point. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Encode a string as windows-1252; throws on a character it cannot represent. */
export function encodeWindows1252(text: string): Uint8Array {
  if (windows1252 === null) {
    // Built by hand: some Node versions decode the `windows-1252` label as ISO-8859-1.
    windows1252 = new Map();
    for (let b = 0; b < 256; b++) {
      const code = b >= 0x80 && b <= 0x9f ? (WINDOWS_1252_HIGH[b - 0x80] as number) : b;
      windows1252.set(String.fromCharCode(code), b);
    }
  }
  const out = new Uint8Array(text.length);
  let i = 0;
  for (const char of text) {
    const byte = windows1252.get(char);
    if (byte === undefined) throw new Error(`Not representable in windows-1252: ${char}`);
    out[i++] = byte;
  }
  return out.subarray(0, i);
}
