/** HTML already escaped; anything else interpolated into {@link html} is escaped. */
export class Html {
  constructor(readonly text: string) {}
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template whose interpolations are escaped, except fragments built by `html` itself;
 * arrays are joined, and null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

/** Registry prose with its `code spans` set as code. */
export function prose(text: string): Html[] {
  return text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

/** A whole number with thousands separators, the same on every machine (no locale). */
export function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
