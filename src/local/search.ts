// search_sources' answer: the allowed roots' indexes and the run's stored sources, ranked together.
import { createHash } from 'node:crypto';
import type MiniSearch from 'minisearch';
import { cacheDir, newMiniSearch, rootIndex } from './index.js';
import { snippetOf } from './snippet.js';
import { editionRank, isNearCopy } from '../engine/near-copy.js';
import type { LocalRoot } from './roots.js';

export interface Hit {
  title: string;
  url: string;
  snippet: string;
}

export interface StoredDoc {
  url: string;
  title: string;
  markdown: string;
  sha256: string;
}

export interface SearchOutcome {
  results: Hit[];
  /** Documents searched, per root, and in the run. */
  documents: { root: string; count: number }[];
  notes: string[];
}

// The run's sources are few and change as the run fetches: an index in memory per set of stored texts.
const runIndexes = new Map<string, { sig: string; search: MiniSearch; docs: Map<string, StoredDoc> }>();

function runIndex(runId: string, docs: readonly StoredDoc[]): { search: MiniSearch; docs: Map<string, StoredDoc> } {
  const sig = createHash('sha256').update(docs.map((d) => `${d.url}\0${d.sha256}`).join('\n')).digest('hex');
  const had = runIndexes.get(runId);
  if (had && had.sig === sig) return had;
  const search = newMiniSearch();
  const byUrl = new Map<string, StoredDoc>();
  for (const d of docs) {
    if (byUrl.has(d.url)) continue;
    byUrl.set(d.url, d);
    search.add({ id: d.url, title: d.title, text: d.markdown });
  }
  const built = { sig, search, docs: byUrl };
  runIndexes.set(runId, built);
  return built;
}

export async function searchAll(o: {
  query: string;
  limit: number;
  roots: readonly LocalRoot[];
  env: NodeJS.ProcessEnv;
  run?: { id: string; docs: readonly StoredDoc[] };
}): Promise<SearchOutcome> {
  const cache = cacheDir(o.env);
  const scored: { score: number; hit: () => Hit; url: string }[] = [];
  const documents: SearchOutcome['documents'] = [];
  const notes: string[] = [];
  for (const root of o.roots) {
    const idx = rootIndex(root, cache);
    await idx.refresh();
    const c = idx.counts();
    documents.push({ root: `local:${root.name}`, count: c.documents });
    if (idx.truncated) notes.push(`local:${root.name} has more files than the index takes; only the first ones (in path order) are searched`);
    for (const r of idx.query(o.query).slice(0, o.limit)) {
      // A reST source or plain-text copy found stands for its rendered page, which has the outline to
      // read by (trial 39: a chapter listed twice, as its .rst.txt and its .html, in most searches).
      const better = idx.betterEdition(String(r.id));
      const id = better ?? String(r.id);
      scored.push({ score: r.score, url: id, hit: () => ({ title: better !== undefined ? (idx.title(id) ?? id) : String(r.title ?? id), url: id, snippet: snippetOf(idx.text(id) ?? '', o.query) }) });
    }
  }
  if (o.run) {
    // Sources read from an allowed root are found there already; the run adds the rest.
    const fromRoots = new Set(o.roots.map((r) => `local:${r.name}/`));
    const docs = o.run.docs.filter((d) => ![...fromRoots].some((p) => d.url.startsWith(p)));
    const ri = runIndex(o.run.id, docs);
    documents.push({ root: o.run.id, count: ri.docs.size });
    for (const r of ri.search.search(o.query).slice(0, o.limit)) {
      const d = ri.docs.get(String(r.id));
      if (d) scored.push({ score: r.score, url: d.url, hit: () => ({ title: d.title, url: d.url, snippet: snippetOf(d.markdown, o.query) }) });
    }
  }
  // BM25 scores of separate indexes are close enough to rank together: the same formula and parameters.
  scored.sort((a, b) => b.score - a.score || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const seen = new Set<string>();
  const results: Hit[] = [];
  let copies = 0;
  for (const s of scored) {
    if (seen.has(s.url)) {
      copies += 1; // only an edition stood for by its better one is listed twice
      continue;
    }
    seen.add(s.url);
    const hit = s.hit();
    // Another edition of a listed document (its reST source, its PDF) costs a result and tells nothing new.
    const copyOf = results.findIndex((r) => isNearCopy(r.snippet, hit.snippet));
    if (copyOf >= 0) {
      copies += 1;
      // The better edition takes the listed one's place (its rank is the text's).
      if (editionRank(hit.url) < editionRank((results[copyOf] as Hit).url)) results[copyOf] = hit;
      continue;
    }
    results.push(hit);
    if (results.length >= o.limit) break;
  }
  if (copies > 0) notes.push(`${copies} result${copies === 1 ? '' : 's'} with the same text as one listed (another edition of it) left out`);
  return { results, documents, notes };
}
