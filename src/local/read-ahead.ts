// Reads of an index refresh, started ahead of their turn and handed back in order. Files must be added to
// the index in path order (MiniSearch numbers documents as they come, and the index file must be the same
// for the same folder), but a PDF parses on its worker thread, and this thread can read the pages after it
// meanwhile instead of waiting.

/** Reads started before their turn: their results are kept anyway, their file bytes only until read. */
export const READ_AHEAD = 64;
/** Heavy reads (PDFs) started before their turn: each holds its file's bytes until its worker reaches it. */
export const HEAVY_AHEAD = 2;

type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * `read` of each item, yielded in the items' order, with up to `ahead` reads started before their turn, at
 * most `heavyAhead` of them heavy. A read that fails throws at its turn, as it would have read in order.
 */
export async function* readAhead<T, R>(
  items: readonly T[],
  heavy: (item: T) => boolean,
  read: (item: T) => Promise<R>,
  o: { ahead?: number; heavyAhead?: number } = {},
): AsyncGenerator<[T, R]> {
  const ahead = o.ahead ?? READ_AHEAD;
  const heavyAhead = o.heavyAhead ?? HEAVY_AHEAD;
  // Settled promises only: a read that fails before its turn is not an unhandled rejection.
  const pending: Promise<Settled<R>>[] = [];
  let next = 0;
  let heavyOut = 0;
  for (let turn = 0; turn < items.length; turn++) {
    while (next < items.length && next <= turn + ahead) {
      const item = items[next]!;
      const isHeavy = heavy(item);
      // The item of this turn always starts; a heavy one after it waits for an earlier heavy one to end.
      if (isHeavy && heavyOut >= heavyAhead && next > turn) break;
      if (isHeavy) heavyOut++;
      pending.push(
        read(item).then(
          (value): Settled<R> => ({ ok: true, value }),
          (error: unknown): Settled<R> => ({ ok: false, error }),
        ).finally(() => {
          if (isHeavy) heavyOut--;
        }),
      );
      next++;
    }
    const r = await pending.shift()!;
    if (!r.ok) throw r.error;
    yield [items[turn]!, r.value];
  }
}
