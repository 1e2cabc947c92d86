// Arbitraries and the per-call oracle for the fuzz suite: every answer is a result or an isError with a
// message, a refusal writes nothing, the server keeps answering.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Harness } from './mcp.js';
import { rootTree } from './safety-fs.js';

/** Values that break naive code: wrong types, non-finite numbers, hostile and huge strings. */
export const HUGE = 'x'.repeat(300_000);
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(
    NaN, Infinity, -Infinity, -1, -0, 0, 0.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 31, -(2 ** 31),
    null, undefined, true, false,
    '', ' ', '\u0000', '\uFFFF', '\uD800', '..', '../../etc/passwd', '/etc/passwd', 'C:\\x', '\u202Eevil', '🧪🔬', 'ثريد',
    'S1', 'S0', 'S-1', 'S01', 'S99999999', 'S1/../S1', 'VERIFIED', 'HIGH', 'OPEN', 'ANSWERED', 'SURVEY', 'quick', 'deep',
    // Names of folders inside a run and an over-long name: file-system errors a tool must put in words.
    'state', 'sources', 'state/run.json', '.lock', 'x'.repeat(256), `${'d/'.repeat(40)}x`,
    '__proto__', 'constructor', 'https://example.org/a', 'http://127.0.0.1/', 'file:///etc/passwd', 'javascript:alert(1)',
    [], {}, [[]], [{}], [null], { length: 1e9 }, Object.create(null),
  ) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(HUGE, 'é'.repeat(5_000), '🧪'.repeat(3_000), 'a '.repeat(50_000)) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double()) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 60 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** Every path (dotted, array indices as numbers) to a value inside a template. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...prefix, i]);
      out.push(...pathsOf(v, [...prefix, i]));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k]);
      out.push(...pathsOf(v, [...prefix, k]));
    }
  }
  return out;
}

/**
 * An own property, as JSON.parse makes it: `obj.__proto__ = x` would set the prototype instead, an
 * object no client can send over the wire.
 */
function setOwn(obj: object, key: string | number, value: unknown) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export type Mutation = { kind: 'set'; at: (string | number)[]; value: unknown } | { kind: 'delete'; at: (string | number)[] } | { kind: 'extra'; at: (string | number)[]; key: string; value: unknown };

export function applyMutations(template: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const out = structuredClone(template);
  for (const m of mutations) {
    if (m.kind === 'extra' && m.at.length === 0) {
      setOwn(out, m.key, m.value);
      continue;
    }
    let parent: any = out;
    const at = m.at;
    for (const seg of at.slice(0, -1)) {
      if (parent === null || typeof parent !== 'object') break;
      parent = parent[seg];
    }
    if (parent === null || typeof parent !== 'object') continue;
    const last = at[at.length - 1] as string | number;
    if (m.kind === 'set') setOwn(parent, last, m.value);
    else if (m.kind === 'delete') {
      if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
      else delete parent[last];
    } else {
      const target = parent[last];
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) setOwn(target, m.key, m.value);
    }
  }
  return out;
}

/** Structurally near-valid arguments: a valid template with one to three fields broken. */
export function nearValid(template: Record<string, unknown>, values: fc.Arbitrary<unknown> = nasty): fc.Arbitrary<Record<string, unknown>> {
  const paths = pathsOf(template);
  const objectPaths: (string | number)[][] = [[], ...paths.filter((p) => {
    let v: any = template;
    for (const s of p) v = v[s];
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  })];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.constantFrom(...paths), value: values }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.constantFrom(...paths) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        at: fc.constantFrom(...objectPaths), // [] is the top level
        key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'then')),
        value: values,
      }),
    },
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => applyMutations(template, ms));
}

/** Extra top-level keys of any name and value. */
export function withExtraKeys(template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'then', 'run_id ')), nasty, { minKeys: 1, maxKeys: 3 })
    .map((extra) => {
      const out = structuredClone(template);
      for (const [k, v] of Object.entries(extra)) setOwn(out, k, v);
      return out;
    });
}

export interface Oracle {
  /** Calls and checks one case; returns the result (or the protocol error for non-object arguments). */
  check: (args: unknown) => Promise<void>;
  internalErrors: { tool: string; message: string; args: string }[];
  /** Replies that carry an absolute path of the machine the caller did not give. */
  pathLeaks: { tool: string; path: string; message: string; args: string }[];
  stats: { ok: number; refused: number; protocol: number };
}

/** Baseline of the root as bytes, to put it back after a call that legitimately wrote. */
export function captureRoot(root: string): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.lock') walk(p);
      } else m.set(path.relative(root, p), fs.readFileSync(p));
    }
  };
  walk(root);
  return m;
}

export function restoreRoot(root: string, base: Map<string, Buffer>): void {
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(root, p);
      if (e.isDirectory()) {
        if (e.name === '.lock') continue;
        walk(p);
        if (![...base.keys()].some((k) => k.startsWith(`${rel}${path.sep}`))) fs.rmSync(p, { recursive: true, force: true });
      } else if (!base.has(rel)) fs.rmSync(p);
    }
  };
  walk(root);
  for (const [rel, bytes] of base) {
    const p = path.join(root, rel);
    const cur = fs.existsSync(p) ? fs.readFileSync(p) : undefined;
    if (!cur || !cur.equals(bytes)) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, bytes);
    }
  }
}

const summarize = (v: unknown) => {
  try {
    const s = JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.length > 80 ? `${x.slice(0, 40)}…(${x.length})` : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
    return (s ?? String(v)).slice(0, 400);
  } catch {
    return String(v).slice(0, 400);
  }
};

/**
 * Absolute paths of this machine in a reply (SPEC 7: none, except a path the caller gave): the artifacts
 * root and the folders around it, the working directory, the home and temp folders, and any path under
 * the usual top-level folders. A path that occurs in the arguments is the caller's own.
 */
export function absolutePaths(reply: string, args: string, root: string): string[] {
  const known = [root, safeRealpath(root), path.dirname(root), process.cwd(), os.homedir(), os.tmpdir(), safeRealpath(os.tmpdir())].filter((p) => p.length > 1);
  const found = new Set<string>();
  for (const k of known) if (reply.includes(k) && !args.includes(k)) found.add(k);
  for (const m of reply.matchAll(/(?<![\w.:/])\/(?:tmp|home|root|dev|etc|proc|var|usr|work|opt|Users|private|mnt|srv)\/[^\s"'`)\]\\]*/g)) {
    if (!args.includes(m[0])) found.add(m[0]);
  }
  return [...found];
}

function safeRealpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export function oracle(h: Harness, tool: string, base: Map<string, Buffer>, expect: (cond: boolean, message: string) => void): Oracle {
  const internalErrors: Oracle['internalErrors'] = [];
  const pathLeaks: Oracle['pathLeaks'] = [];
  const stats = { ok: 0, refused: 0, protocol: 0 };
  const audit = (r: CallToolResult, args: unknown) => {
    const reply = JSON.stringify([r.content, r.structuredContent ?? null]);
    let given: string;
    try {
      given = JSON.stringify(args) ?? '';
    } catch {
      given = '';
    }
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    if (/internal error/i.test(reply)) internalErrors.push({ tool, message: text.slice(0, 300), args: summarize(args) });
    for (const p of absolutePaths(reply, given, h.root)) pathLeaks.push({ tool, path: p, message: text.slice(0, 300), args: summarize(args) });
  };
  return {
    internalErrors,
    pathLeaks,
    stats,
    async check(args: unknown) {
      const before = rootTree(h.root);
      let r: CallToolResult;
      try {
        r = (await h.client.callTool({ name: tool, arguments: args as Record<string, unknown> }, undefined, { timeout: 15_000 })) as CallToolResult;
      } catch (err) {
        const e = err as { code?: number; message?: string };
        const isPlainObject = args !== null && typeof args === 'object' && !Array.isArray(args);
        // The SDK itself rejects a non-object `arguments` at the protocol layer (a JSON-RPC error from
        // its request schema, before any tool code runs): acceptable, as long as nothing was written and
        // the server keeps answering. An object always gets a CallToolResult.
        expect(!isPlainObject && typeof e.code === 'number', `${tool} threw instead of answering: ${e.code} ${e.message} for ${summarize(args)}`);
        stats.protocol++;
        expect(JSON.stringify(rootTree(h.root)) === JSON.stringify(before), `${tool}: a protocol error wrote files for ${summarize(args)}`);
        return;
      }
      expect(r !== null && typeof r === 'object' && Array.isArray(r.content), `${tool}: not a CallToolResult for ${summarize(args)}`);
      audit(r, args);
      if (r.isError) {
        stats.refused++;
        const first = r.content[0];
        const text = first && first.type === 'text' ? first.text : '';
        expect(text.trim().length > 0, `${tool}: refusal without a message for ${summarize(args)}`);
        const after = rootTree(h.root);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
          expect(false, `${tool}: refused (${text.slice(0, 200)}) but wrote ${changed.join(', ')} for ${summarize(args)}`);
        }
      } else {
        stats.ok++;
        expect(r.structuredContent !== null && typeof r.structuredContent === 'object', `${tool}: a result without structuredContent for ${summarize(args)}`);
        restoreRoot(h.root, base);
      }
    },
  };
}
