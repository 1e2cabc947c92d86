/** HTML source to a linkedom document. */
import { parseHTML } from 'linkedom';
import type { DomDocument } from './dom.js';
import { mendDocumentShell } from './document-shell.js';

export function parseDocument(html: string): DomDocument {
  let { document } = parseHTML(html) as unknown as { document: DomDocument };
  // linkedom builds no implied <html>/<body> for fragments or bare text (and then throws on .body).
  if (document.documentElement?.nodeName !== 'HTML') {
    const inner = /<body[\s>]/i.test(html) ? html : `<body>${html}</body>`;
    ({ document } = parseHTML(`<!DOCTYPE html><html><head></head>${inner}</html>`) as unknown as { document: DomDocument });
  }
  mendDocumentShell(document as unknown as Parameters<typeof mendDocumentShell>[0]);
  return document;
}
