/** Tables made fit for GFM markdown: layout tables unwrapped, spans filled in, rows linkedom lacks. */
import { parseHTML } from 'linkedom';
import { rememberedRows } from './child-lists.js';
import type { DomDocument, DomElement, DomNode } from './dom.js';

const LAYOUT_MARKERS = 'ul, ol, h1, h2, h3, h4, h5, h6, hr, blockquote, pre, table';

/**
 * The GFM plugin keeps tables that hold lists, headings, code or other tables as raw HTML, which costs the
 * reader tokens and says nothing more. Those are layout tables: their cells become plain blocks instead.
 */
export function unwrapLayoutTables(root: DomElement): void {
  const tables = Array.from(root.querySelectorAll('table'));
  for (let i = tables.length - 1; i >= 0; i--) {
    const table = tables[i] as DomElement;
    if (!table.querySelector(LAYOUT_MARKERS)) continue;
    const doc = (table as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const box = doc.createElement('div');
    for (const cell of Array.from(table.querySelectorAll('td, th'))) {
      if (nearestTable(cell) !== table) continue;
      const block = doc.createElement('div');
      block.append(...Array.from(cell.childNodes));
      box.append(block);
    }
    const caption = table.querySelector('caption');
    if (caption && nearestTable(caption) === table) {
      const p = doc.createElement('p');
      p.append(...Array.from(caption.childNodes));
      box.append(p);
    }
    table.replaceWith(box);
  }
  // Cells left without a table (Readability rewrites some tables) would crash the GFM rules, which
  // look up the enclosing table.
  const parts = Array.from(root.querySelectorAll('tr, td, th, thead, tbody, tfoot'));
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as DomElement;
    if (nearestTable(part) !== null) continue;
    const doc = (part as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const block = doc.createElement('div');
    block.append(...Array.from(part.childNodes));
    part.replaceWith(block);
  }
}

/** Most cells a spanned table may grow to; past it the table is left as it is (every cell's text stays). */
const MAX_GRID_CELLS = 20_000;

/**
 * Cells spanning rows or columns leave the rows below them short, and a markdown table then shifts every
 * later cell into the wrong column (PostgreSQL's operator-class tables). The grid is filled in: a cell
 * spanning rows is repeated in each row it covers, one spanning columns is followed by empty cells, so
 * every row has every column and each cell's text sits under its header.
 */
export function expandSpans(root: DomElement): void {
  polyfillTableRows();
  for (const table of Array.from(root.querySelectorAll('table')) as DomElement[]) {
    const spanned = (Array.from(table.querySelectorAll('td[rowspan], th[rowspan], td[colspan], th[colspan]')) as DomElement[]).filter(
      (c) => nearestTable(c) === table && (span(c, 'rowspan') > 1 || span(c, 'colspan') > 1),
    );
    if (spanned.length === 0) continue;
    const rows = (table as unknown as { rows: DomElement[] }).rows;
    const doc = (table as unknown as { ownerDocument: DomDocument }).ownerDocument;
    const grid: Array<Array<DomElement | undefined>> = rows.map(() => []);
    let cells = 0;
    for (const [r, row] of rows.entries()) {
      let col = 0;
      for (const cell of Array.from(row.children) as DomElement[]) {
        if (cell.nodeName !== 'TD' && cell.nodeName !== 'TH') continue;
        const line = grid[r] as Array<DomElement | undefined>;
        while (line[col] !== undefined) col++;
        const rs = Math.min(span(cell, 'rowspan'), rows.length - r);
        const cs = span(cell, 'colspan');
        cells += rs * cs;
        if (cells > MAX_GRID_CELLS) return;
        for (let dr = 0; dr < rs; dr++) {
          for (let dc = 0; dc < cs; dc++) {
            const target = grid[r + dr] as Array<DomElement | undefined>;
            if (dr === 0 && dc === 0) target[col] = cell;
            else if (dc === 0) target[col] = (cell as unknown as { cloneNode(deep: boolean): DomElement }).cloneNode(true);
            else target[col + dc] = doc.createElement(cell.nodeName.toLowerCase());
          }
        }
        cell.removeAttribute('rowspan');
        cell.removeAttribute('colspan');
        col += cs;
      }
    }
    const width = Math.max(...grid.map((l) => l.length));
    for (const [r, row] of rows.entries()) {
      const line = grid[r] as Array<DomElement | undefined>;
      // A header row stays one (the GFM rules want every cell a <th>).
      const pad = line.every((c) => c === undefined || c.nodeName === 'TH') ? 'th' : 'td';
      for (let c = 0; c < width; c++) {
        const cell = line[c] ?? doc.createElement(pad);
        cell.removeAttribute('rowspan');
        cell.removeAttribute('colspan');
        row.append(cell);
      }
    }
  }
}

function span(cell: DomElement, attr: 'rowspan' | 'colspan'): number {
  const n = Number.parseInt(cell.getAttribute(attr) ?? '', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
}

function nearestTable(node: DomNode): DomNode | null {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p;
  return null;
}

/**
 * The GFM table rules read `table.rows`, which linkedom does not implement; without it every table is
 * flattened into paragraphs. Patched on linkedom's table element class once, the first time it is needed.
 */
export function polyfillTableRows(): void {
  const { document } = parseHTML('<!DOCTYPE html><html><body><table></table></body></html>') as unknown as { document: DomDocument };
  const proto = Object.getPrototypeOf(document.querySelector('table')) as object;
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: DomElement) {
      const lists = rememberedRows();
      const hit = lists?.get(this);
      if (hit) return hit;
      const rows: DomElement[] = [];
      for (let i = 0; i < this.children.length; i++) {
        const child = this.children[i] as DomElement;
        if (child.nodeName === 'TR') rows.push(child);
        else if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') {
          for (let j = 0; j < child.children.length; j++) {
            const row = child.children[j] as DomElement;
            if (row.nodeName === 'TR') rows.push(row);
          }
        }
      }
      lists?.set(this, rows);
      return rows;
    },
  });
}
