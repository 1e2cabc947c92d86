// Reads a deep-research tool reply the way a model sees it in Claude Code: as TEXT, not structuredContent.
// The server renders every decision field as `key: value` lines (nested keys dotted, short lists joined
// with ", ", long lists as "  - item" lines, lists of objects as JSON). Anything after the fields (the
// untrusted page block of fetch_source, which carries the page's title and outline) is kept apart as
// `body`.

export interface Reply {
  /** The raw text the policy was shown. */
  text: string;
  isError: boolean;
  fields: Map<string, string>;
  lists: Map<string, string[]>;
  /** Text after the last field line (fetch_source's page passages). */
  body: string;
  has(key: string): boolean;
  str(key: string): string | undefined;
  num(key: string): number | undefined;
  bool(key: string): boolean | undefined;
  /** A list field in either rendering; `(none)` is the empty list. */
  list(key: string): string[];
  json<T>(key: string): T | undefined;
}

const FIELD = /^([a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*): ?(.*)$/;

/**
 * Claude Code 2.1.328 shows the model a tool's structuredContent as JSON when there is one (and the text
 * content otherwise); the in-process host passes the text rendering. Both read into the same fields.
 */
export function parseReply(text: string, isError = false): Reply {
  const fields = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const json = asJsonObject(text);
  if (json) {
    flatten(json, '', fields, lists);
    const content = json.content;
    return makeReply(text, isError, fields, lists, typeof content === 'string' ? content : '');
  }
  const lines = text.split('\n');
  let i = 0;
  let lastKey: string | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const item = /^ {2}- (.*)$/.exec(line);
    if (item && lastKey !== undefined && fields.get(lastKey) === '') {
      const xs = lists.get(lastKey) ?? [];
      xs.push(item[1] ?? '');
      lists.set(lastKey, xs);
      continue;
    }
    const m = FIELD.exec(line);
    if (!m) break;
    lastKey = m[1] ?? '';
    fields.set(lastKey, m[2] ?? '');
  }
  const body = lines.slice(i).join('\n');
  pageFields(body, fields);
  return makeReply(text, isError, fields, lists, body);
}

/**
 * fetch_source's title is page text: the text rendering gives it inside the untrusted block, as the
 * block's first line (`title: …`), where a reader finds it.
 */
function pageFields(body: string, fields: Map<string, string>): void {
  const m = /^<untrusted [^\n]*>\ntitle: (.*)$/m.exec(body);
  if (m && !fields.has('title')) fields.set('title', m[1] ?? '');
}

function asJsonObject(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The same dotted keys and list forms as the server's text rendering. */
function flatten(value: Record<string, unknown>, prefix: string, fields: Map<string, string>, lists: Map<string, string[]>): void {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v === undefined || (k === 'content' && prefix === '')) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, fields, lists);
    else if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== 'object')) {
        fields.set(key, '');
        lists.set(key, v.map((x) => String(x)));
      } else fields.set(key, JSON.stringify(v));
    } else fields.set(key, String(v));
  }
}

function makeReply(text: string, isError: boolean, fields: Map<string, string>, lists: Map<string, string[]>, body: string): Reply {
  const reply: Reply = {
    text,
    isError,
    fields,
    lists,
    body,
    has: (k) => fields.has(k),
    str: (k) => fields.get(k),
    num: (k) => {
      const v = fields.get(k);
      if (v === undefined || v.trim() === '') return undefined;
      const n = Number(v);
      return Number.isFinite(n) ? n : undefined;
    },
    bool: (k) => {
      const v = fields.get(k);
      return v === 'true' ? true : v === 'false' ? false : undefined;
    },
    list: (k) => {
      const block = lists.get(k);
      if (block) return block;
      const v = fields.get(k);
      if (v === undefined || v === '' || v === '(none)') return [];
      if (v.startsWith('[')) {
        try {
          const parsed = JSON.parse(v) as unknown;
          if (Array.isArray(parsed)) return parsed.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
        } catch {
          // not JSON: fall through to the comma form
        }
      }
      return v.split(', ');
    },
    json: <T>(k: string) => {
      const v = fields.get(k);
      if (v === undefined || v === '(none)') return undefined;
      try {
        return JSON.parse(v) as T;
      } catch {
        return undefined;
      }
    },
  };
  return reply;
}

/**
 * A page-derived field (fetch_source's `title`) comes fenced as `<untrusted>…</…>`: the fence
 * marks it as data for the reader, and a writer quoting the title in a report leaves the tags out.
 */
export function unfenced(s: string): string {
  const m = /^<untrusted>([\s\S]*)<\/untrusted>$/.exec(s);
  return m ? (m[1] ?? '') : s;
}

/** Claude Code's Read tool numbers lines (`   12\t…` or `12→…`); the demo's reader does not. */
export function stripLineNumbers(text: string): string {
  const lines = text.split('\n');
  const numbered = lines.filter((l) => l.trim() !== '').every((l) => /^\s*\d+(\t|→)/.test(l));
  if (!numbered) return text;
  return lines.map((l) => l.replace(/^\s*\d+(\t|→)/, '')).join('\n');
}

/** How the policy compares a quote with page text: case, whitespace, quotes, dashes and markdown escapes. */
export function normaliseForMatch(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .trim();
}
