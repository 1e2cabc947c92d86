/**
 * linkedom builds a new child list on every read; these remember them for the length of one conversion.
 */
import { parseHTML } from 'linkedom';
import type { DomDocument, DomElement } from './dom.js';

/**
 * Child lists remembered while turndown runs. linkedom builds a fresh list on every `childNodes`,
 * `children` (and so `rows`) read, and the GFM rules read them inside loops: `table.rows` once per row and
 * column of a heading row, a node's `childNodes` on every step of a walk over it. A table of n rows cost n³
 * (PostgreSQL's 836-row keywords table: ten minutes). Safe because turndown works on its own copy and
 * changes it only while collapsing whitespace, before it reads any list (turndown 7.2).
 */
let memo:
  | { rows: WeakMap<object, DomElement[]>; childNodes: WeakMap<object, unknown>; children: WeakMap<object, unknown> }
  | undefined;

/** Wraps linkedom's `childNodes` and `children` getters to answer from `memo` while it is set; once. */
function memoiseChildLists(): void {
  const { document } = parseHTML('<!DOCTYPE html><html><body><p></p></body></html>') as unknown as { document: DomDocument };
  for (const name of ['childNodes', 'children'] as const) {
    let proto: object | null = document.querySelector('p');
    let desc: PropertyDescriptor | undefined;
    while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto) as object | null;
    const get = desc?.get;
    if (!proto || !get || (get as { memoised?: true }).memoised) continue;
    const memoised = function (this: object): unknown {
      const lists = memo?.[name];
      if (!lists) return get.call(this);
      let list = lists.get(this);
      if (list === undefined) {
        list = get.call(this);
        lists.set(this, list);
      }
      return list;
    };
    (memoised as { memoised?: true }).memoised = true;
    Object.defineProperty(proto, name, { ...desc, get: memoised });
  }
}

/** Runs `fn` with child lists remembered (see `memo`): only for code that does not move nodes. */
export function withChildListMemo<T>(fn: () => T): T {
  memoiseChildLists();
  memo = { rows: new WeakMap(), childNodes: new WeakMap(), children: new WeakMap() };
  try {
    return fn();
  } finally {
    memo = undefined;
  }
}

/** The rows remembered per table while a conversion runs (tables.ts's `rows` reads it), else undefined. */
export function rememberedRows(): WeakMap<object, DomElement[]> | undefined {
  return memo?.rows;
}
