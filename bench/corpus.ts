// Where the benchmarks find the corpora they measure against, which live outside the repository (too big
// to ship, and some kept back from development): $DEEP_RESEARCH_CORPUS, or ../shared/fixtures beside the
// clone. It holds readability/ (Mozilla Readability's test pages), aeb/ (an article-extraction benchmark
// with annotated text) and pdf/ (real PDFs with their HTML editions); bench/README.md says what each is.
// A section whose corpus is missing reports itself as not measured and names this path.
import * as path from 'node:path';
import { REPO } from './targets.js';

export const CORPUS = path.resolve(REPO, process.env.DEEP_RESEARCH_CORPUS ?? '../shared/fixtures');

/** The corpus path as a note shows it: relative to the repository when it lies beside it. */
export const corpusLabel = (sub = ''): string => {
  const p = path.join(CORPUS, sub);
  const rel = path.relative(REPO, p);
  return `${rel.startsWith('../..') || path.isAbsolute(rel) ? p : rel} (set DEEP_RESEARCH_CORPUS to change it)`;
};
