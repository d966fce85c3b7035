const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 record: fields joined by commas, a field quoted (its quotes doubled) when it
 * holds a comma, a quote, CR or LF, and ended by CRLF. A record of one empty field is
 * written `""` so that it is not read back as a blank line.
 */
export function csvRecord(fields: readonly string[]): string {
  if (fields.length === 1 && fields[0] === '') return '""\r\n';
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
  }
  return `${line}\r\n`;
}
