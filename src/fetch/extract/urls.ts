/** Links and images made absolute against the page (linkedom has no document URL). */
import type { DomDocument, DomElement } from './dom.js';

/** The URL relative links resolve against: a `<base href>` (itself relative to the page) or the page. */
export function baseUrl(doc: DomDocument, url: string): URL | undefined {
  const page = pageUrl(url);
  if (!page) return undefined;
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (href) {
    try {
      const b = new URL(href.trim(), page);
      if (b.protocol === 'http:' || b.protocol === 'https:') return b;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  return page;
}

export function pageUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function pageAddress(url: string): string {
  try {
    return new URL(url).href.split('#')[0] ?? url;
  } catch {
    return url;
  }
}

/**
 * Makes links and images absolute (linkedom has no document URL, so nothing else will) and drops unsafe ones.
 * A link into the page itself keeps only its text, and no link or image keeps a `title` attribute: neither is
 * text the page shows, and on a Sphinx manual page they were a tenth of the stored text (trial 59:
 * [`LogRecord`](…#logging.LogRecord "logging.LogRecord") for every cross-reference).
 */
export function absolutise(root: DomElement, base: URL | undefined, pageHref: string): void {
  for (const el of Array.from(root.querySelectorAll('a[title], img[title], area[title]'))) el.removeAttribute('title');
  for (const a of Array.from(root.querySelectorAll('a[href], area[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim();
    const abs = href.startsWith('#') && (!base || base.href.split('#')[0] === pageHref) ? undefined : resolve(href, base);
    if (abs && /^(https?|mailto|ftp):/i.test(abs) && pageAddress(abs) !== pageHref) a.setAttribute('href', abs);
    else a.removeAttribute('href');
  }
  for (const img of Array.from(root.querySelectorAll('img[src], source[src], video[src], audio[src]'))) {
    const abs = resolve((img.getAttribute('src') ?? '').trim(), base);
    // data: URIs can be megabytes of base64 and say nothing to a reader.
    if (abs && /^https?:/i.test(abs)) img.setAttribute('src', abs);
    else img.removeAttribute('src');
  }
}

function resolve(ref: string, base: URL | undefined): string | undefined {
  try {
    return base ? new URL(ref, base).href : new URL(ref).href;
  } catch {
    return undefined;
  }
}
