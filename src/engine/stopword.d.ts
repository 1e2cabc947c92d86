// The stopword package ships no type declarations; this covers the one list the engine reads.
declare module 'stopword' {
  /** English stop words, lower-case. */
  export const eng: readonly string[];
}
