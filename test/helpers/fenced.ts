// What a reply must look like in both channels (SPEC 7): no untrusted block left open, none closed that was
// not opened, and (for the structured channel) every page-derived string inside a block.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { UNTRUSTED_TAG } from '../../src/fetch/untrusted.js';
import { REPLY_CHARS } from '../../src/tools/result.js';

const OPEN = `<${UNTRUSTED_TAG}`;
const CLOSE = `</${UNTRUSTED_TAG}>`;

/** Blocks balance, in order, and the reply ends outside any block. */
export function expectBlocksClosed(s: string, where: string): void {
  let depth = 0;
  for (const m of s.matchAll(new RegExp(`<(/?)${UNTRUSTED_TAG}[ >]`, 'g'))) {
    depth += m[1] === '/' ? -1 : 1;
    expect(depth === 0 || depth === 1, `${where}: fence out of order at ${m.index}`).toBe(true);
  }
  expect(depth, `${where}: an untrusted block is left open`).toBe(0);
}

/** Both channels within REPLY_CHARS, every block closed, in the text and in every string of the JSON. */
export function expectWholeReply(r: CallToolResult): void {
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(text.length, 'text channel over the reply size').toBeLessThanOrEqual(REPLY_CHARS);
  expect(text).not.toMatch(/\[cut at \d+ characters\]/);
  expectBlocksClosed(text, 'text');
  if (r.structuredContent !== undefined) {
    expect(JSON.stringify(r.structuredContent, null, 1).length, 'structured channel over the reply size').toBeLessThanOrEqual(REPLY_CHARS);
    // One channel or the other reaches the model: they say the same (SPEC 11.1, reply economy).
    expect(JSON.parse(text)).toEqual(r.structuredContent);
    for (const s of strings(r.structuredContent)) expectBlocksClosed(s, 'structuredContent');
  }
}

/** Every string value of a JSON value, depth first. */
export function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

/** Whether s is one fenced block (or holds one, as content does) containing needle. */
export function fencedAround(s: string, needle: string): boolean {
  const at = s.indexOf(needle);
  if (at < 0) return false;
  const open = s.lastIndexOf(OPEN, at);
  const close = s.indexOf(CLOSE, at);
  return open >= 0 && close > at && s.lastIndexOf(CLOSE, at) < open;
}

export { OPEN, CLOSE };
