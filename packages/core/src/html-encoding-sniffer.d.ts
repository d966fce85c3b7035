declare module 'html-encoding-sniffer' {
  /** HTML §13.2.3.2 encoding sniffing: BOM, transport label, `<meta>` prescan, default. */
  export default function htmlEncodingSniffer(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
}
