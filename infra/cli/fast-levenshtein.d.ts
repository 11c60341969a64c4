// fast-levenshtein ships no types; the one function used.
declare module 'fast-levenshtein' {
  const levenshtein: { get(a: string, b: string): number };
  export default levenshtein;
}
