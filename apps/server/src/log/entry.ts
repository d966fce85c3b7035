import { type LoggedReceipt, logEntry } from '@storefront/attest';

/**
 * The log entry of the receipt a result carries (`attestation`), or null for a result
 * without one (docs/decisions.md, "A transparency log of every receipt").
 */
export function logEntryOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const receipt = (body as { attestation?: unknown }).attestation;
  if (typeof receipt !== 'object' || receipt === null) return null;
  try {
    return logEntry(receipt as LoggedReceipt);
  } catch {
    return null;
  }
}

/**
 * SQL that adds the entries in `$n` to the log's pending entries: one text parameter, the
 * entries joined by newlines ({@link joinEntries}; an entry is one line of JSON), or null
 * for none. One string, not a text[]: `pg` escapes each element of an array parameter
 * character by character, and every entry is full of quotes.
 */
export function pendingInsert(param: number): string {
  return `INSERT INTO tlog_pending (entry) SELECT e FROM unnest(string_to_array($${param}::text, E'\\n')) AS e`;
}

/** Entries as {@link pendingInsert}'s parameter: joined by newlines, or null for none. */
export function joinEntries(entries: readonly string[]): string | null {
  return entries.length === 0 ? null : entries.join('\n');
}
