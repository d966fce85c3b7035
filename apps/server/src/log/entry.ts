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

/** SQL that adds `$n` (a text[] of entries, possibly empty) to the log's pending entries. */
export function pendingInsert(param: number): string {
  return `INSERT INTO tlog_pending (entry) SELECT e FROM unnest($${param}::text[]) AS e`;
}
