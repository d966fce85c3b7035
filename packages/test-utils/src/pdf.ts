/**
 * Hand-written PDF files for tests: every byte is decided by the spec, so the same spec
 * gives the same file (no creation time, no random file ID). Enough of PDF 1.4 for text
 * products: pages of Helvetica text lines at given sizes, image-only pages, the document
 * information dictionary, an outline, and a standard security handler that needs a
 * password nobody knows.
 */

/** One line of text on a page, in PDF points from the bottom left. */
export interface PdfLine {
  readonly text: string;
  readonly x?: number;
  readonly y: number;
  /** Font size in points (12 unless given). */
  readonly size?: number;
  readonly bold?: boolean;
}

/** A page: lines of text, or (`image: true`) one grey image and no text at all. */
export interface PdfPage {
  readonly lines?: readonly PdfLine[];
  readonly image?: boolean;
}

/** An outline (bookmark) entry pointing at a page (0-based). */
export interface PdfOutlineItem {
  readonly title: string;
  readonly page: number;
  readonly children?: readonly PdfOutlineItem[];
}

/** What {@link buildPdf} writes. */
export interface PdfSpec {
  readonly pages: readonly PdfPage[];
  /** The document information dictionary: `Title`, `Author`, `CreationDate`, … as PDF strings. */
  readonly info?: Readonly<Record<string, string>>;
  readonly outline?: readonly PdfOutlineItem[];
  /** Encrypt with RC4 40-bit under a user password that is not empty: no reader opens it without one. */
  readonly encrypted?: boolean;
}

/** A PDF literal string: `(`, `)` and `\` escaped, characters above U+007E as octal WinAnsi/Latin-1 bytes. */
export function pdfString(text: string): string {
  let out = '(';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '(' || char === ')' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${(code & 0xff).toString(8).padStart(3, '0')}`;
    else out += char;
  }
  return `${out})`;
}

/**
 * Write a PDF for `spec`, byte for byte the same for the same spec.
 *
 * @example
 *   const bytes = buildPdf({ pages: [{ lines: [{ text: 'Hello', y: 720 }] }], info: { Title: 'Hi' } });
 */
export function buildPdf(spec: PdfSpec): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const reserve = (): number => add('');
  const set = (id: number, body: string) => {
    objects[id - 1] = body;
  };

  const catalog = reserve();
  const pages = reserve();
  const regular = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const bold = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  );
  const pageIds: number[] = [];
  for (const page of spec.pages) {
    let resources = `/Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >>`;
    let content = '';
    if (page.image) {
      // An 8×8 grey gradient, drawn 200 points wide.
      const pixels = Array.from({ length: 64 }, (_, i) => String.fromCharCode((i * 4) & 0xff)).join(
        '',
      );
      const image = add(
        `<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
      );
      resources += ` /XObject << /Im1 ${image} 0 R >>`;
      content = 'q 200 0 0 200 100 500 cm /Im1 Do Q';
    }
    for (const line of page.lines ?? []) {
      const font = line.bold ? 'F2' : 'F1';
      content += `${content === '' ? '' : '\n'}BT /${font} ${line.size ?? 12} Tf ${line.x ?? 72} ${line.y} Td ${pdfString(line.text)} Tj ET`;
    }
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  set(
    pages,
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
  );

  let outlines = '';
  if (spec.outline !== undefined && spec.outline.length > 0) {
    const root = reserve();
    const [first, last, count] = writeOutline(spec.outline, root);
    set(root, `<< /Type /Outlines /First ${first} 0 R /Last ${last} 0 R /Count ${count} >>`);
    outlines = ` /Outlines ${root} 0 R /PageMode /UseOutlines`;
  }
  set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R${outlines} >>`);

  let info = '';
  if (spec.info !== undefined) {
    const entries = Object.entries(spec.info).map(([key, value]) => `/${key} ${pdfString(value)}`);
    info = ` /Info ${add(`<< ${entries.join(' ')} >>`)} 0 R`;
  }
  let encrypt = '';
  if (spec.encrypted) {
    // /O and /U that no empty password produces: readers ask for a password.
    const o = '4F'.repeat(32);
    const u = '55'.repeat(32);
    const id = '0123456789ABCDEF0123456789ABCDEF';
    encrypt = ` /Encrypt ${add(`<< /Filter /Standard /V 1 /R 2 /O <${o}> /U <${u}> /P -4 >>`)} 0 R /ID [<${id}> <${id}>]`;
  }

  function writeOutline(
    items: readonly PdfOutlineItem[],
    parent: number,
  ): [first: number, last: number, count: number] {
    const ids = items.map(() => reserve());
    let count = items.length;
    items.forEach((item, i) => {
      const id = ids[i] as number;
      const target = pageIds[item.page];
      let body = `<< /Title ${pdfString(item.title)} /Parent ${parent} 0 R`;
      if (target !== undefined) body += ` /Dest [${target} 0 R /XYZ 0 792 0]`;
      if (i > 0) body += ` /Prev ${ids[i - 1]} 0 R`;
      if (i < ids.length - 1) body += ` /Next ${ids[i + 1]} 0 R`;
      if (item.children !== undefined && item.children.length > 0) {
        const [first, last, inner] = writeOutline(item.children, id);
        body += ` /First ${first} 0 R /Last ${last} 0 R /Count ${inner}`;
        count += inner;
      }
      set(id, `${body} >>`);
    });
    return [ids[0] as number, ids[ids.length - 1] as number, count];
  }

  let file = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(file.length);
    file += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = file.length;
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) file += `${String(offset).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info}${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(file, 'latin1'));
}
