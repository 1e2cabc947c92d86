// Origins (SPEC 4.1): the site a text speaks for, i.e. the registrable domain of the URL it came from.
// The public suffix list (private section included, so `foo.github.io` is its own site) comes from tldts.
import { isLocalKey, localOrigin } from './local-key.js';
import { lazyLibrary } from '../lazy-library.js';

let tldts: typeof import('tldts') | undefined;

/** tldts on first use (see lazy-library.ts). */
function suffixList(): typeof import('tldts') {
  tldts ??= lazyLibrary<typeof import('tldts')>('tldts');
  return tldts;
}

/** The registrable domain of a URL's host; an IP address or a single-label host is its own origin. */
export function originOf(url: string): string {
  if (isLocalKey(url)) return localOrigin(url);
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    throw new Error(`"${url.slice(0, 80)}" is not a URL`);
  }
  return originOfHost(host);
}

export function originOfHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === '') throw new Error('a URL without a host has no origin');
  if (!host.includes('.') || host.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host;
  return suffixList().getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** A declared primary origin: a domain (`docs.python.org`) or a URL, stored as its registrable domain. */
export function declaredOrigin(s: string): string {
  const t = s.trim();
  if (t === '') throw new Error('an empty primary origin names no site');
  // A local folder: `local:<root name>`, the origin of every file in it.
  if (/^local:[a-z0-9][a-z0-9._-]{0,63}$/.test(t)) return t;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return originOf(t);
  const host = t.split(/[/?#]/)[0]!.replace(/^www\./i, '');
  if (!/^[\p{L}\p{N}.:[\]-]+$/u.test(host)) throw new Error(`"${t.slice(0, 80)}" is neither a domain nor a URL`);
  return originOfHost(host.replace(/:\d+$/, ''));
}

// General aggregators: encyclopedias, Q&A and social sites, blog hosts. They carry first-hand statements
// of others, so they are rarely anyone's primary source; naming one is worth a second thought.
const AGGREGATORS = new Set([
  'wikipedia.org',
  'wikimedia.org',
  'wikiwand.com',
  'britannica.com',
  'fandom.com',
  'stackoverflow.com',
  'stackexchange.com',
  'superuser.com',
  'serverfault.com',
  'askubuntu.com',
  'quora.com',
  'reddit.com',
  'x.com',
  'twitter.com',
  'facebook.com',
  'linkedin.com',
  'youtube.com',
  'medium.com',
  'substack.com',
  'blogspot.com',
  'wordpress.com',
  'tumblr.com',
  'dev.to',
  'hashnode.dev',
]);

// Code hosts: every project's pages share one registrable domain there, so naming one as primary (even as
// github.com/owner/repo, which is stored as github.com) makes every project's pages on it primary.
const CODE_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'sourceforge.net', 'codeberg.org']);

/** Whether an origin is a code host shared by many projects. */
export function isCodeHost(origin: string): boolean {
  return CODE_HOSTS.has(origin);
}

/** Whether an origin is a general aggregator; a blog host's subdomain (`x.blogspot.com`) counts. */
export function isAggregator(origin: string): boolean {
  if (AGGREGATORS.has(origin)) return true;
  const dot = origin.indexOf('.');
  return dot > 0 && AGGREGATORS.has(origin.slice(dot + 1));
}
