/** What extraction answers, and the guards a caller may raise. */

export interface Extracted {
  title: string;
  markdown: string;
  /** True unless Readability's article (or a text/markdown passthrough) was used. */
  usedFallback: boolean;
  method: 'readability' | 'main' | 'body' | 'text' | 'passthrough';
  /**
   * Set when the markdown holds noticeably less than the page's visible text (see KEPT_THRESHOLD): the
   * share of the visible text's sentence words it holds (0–1, two decimals), and the headings of the
   * sections it left out (page text, at most MAX_LEFT_OUT, each at most 200 characters).
   */
  kept?: number;
  leftOut?: string[];
}

/** Guards against hostile trees; raising them is for tests that need to reach the recursion itself. */
export interface ExtractLimits {
  maxDepth?: number;
  maxNodes?: number;
  /** false: Readability's pick as before this check existed (the bench's "before" figures). */
  complete?: boolean;
}
