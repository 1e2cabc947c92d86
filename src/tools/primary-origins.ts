import { InputError } from '../errors.js';
import { declaredOrigin } from '../engine/origin.js';
import type { ThreadDefinition } from '../engine/types.js';

/** A thread's primary origins as registrable domains, deduplicated; a malformed one refuses the call. */
export function primaryOrigins<T extends ThreadDefinition>(t: T, where: string): T {
  if (t.primary_origins === undefined) return t;
  const out: string[] = [];
  t.primary_origins.forEach((given, i) => {
    let o: string;
    try {
      o = declaredOrigin(given);
    } catch (err) {
      throw new InputError(`${where} primary_origins[${i}]: ${(err as Error).message}; give a domain such as docs.python.org or a URL`);
    }
    if (!out.includes(o)) out.push(o);
  });
  return { ...t, primary_origins: out };
}
