/**
 * Extraction's public entry: the readable text of a fetched page as markdown, and its whole visible text.
 * The modules by concern live in ./extract/ (readable.ts runs them; see its header for the methods).
 */
export { extractFullText, extractReadable } from './extract/readable.js';
export { KEPT_THRESHOLD, MAX_LEFT_OUT } from './extract/completeness.js';
export { MAX_DOM_DEPTH, MAX_DOM_NODES, MAX_MARKUP_CHARS } from './extract/dom.js';
export type { Extracted, ExtractLimits } from './extract/types.js';
