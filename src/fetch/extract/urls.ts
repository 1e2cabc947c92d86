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

/** Makes links and images absolute (linkedom has no document URL, so nothing else will) and drops unsafe ones. */
export function absolutise(root: DomElement, base: URL | undefined, pageHref: string): void {
  for (const a of Array.from(root.querySelectorAll('a[href], area[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim();
    // In-page anchors stay relative unless a <base> points them at another document.
    if (href.startsWith('#') && (!base || base.href.split('#')[0] === pageHref)) continue;
    const abs = resolve(href, base);
    if (abs && /^(https?|mailto|ftp):/i.test(abs)) a.setAttribute('href', abs);
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
