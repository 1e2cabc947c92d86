// Type declarations for the two dependencies that ship none. Only what src/fetch uses is declared.

declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export function gfm(service: TurndownService): void;
  export function tables(service: TurndownService): void;
  export function strikethrough(service: TurndownService): void;
  export function taskListItems(service: TurndownService): void;
}

declare module 'html-encoding-sniffer' {
  /** WHATWG encoding sniffing: BOM, then the transport label, then a <meta> prescan, then the default. */
  function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export default sniffHTMLEncoding;
}
