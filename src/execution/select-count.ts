/**
 * How many times `sql` has the word SELECT in any case: what /\bselect\b/gi finds, by character codes
 * (a regular expression's match array per query, for each of thousands, only to be counted).
 */
export function selectCount(sql: string): number {
  let n = 0;
  for (let i = sql.length - 6; i >= 0; i--) {
    if (
      (sql.charCodeAt(i) | 0x20) === 0x73 &&
      (sql.charCodeAt(i + 1) | 0x20) === 0x65 &&
      (sql.charCodeAt(i + 2) | 0x20) === 0x6c &&
      (sql.charCodeAt(i + 3) | 0x20) === 0x65 &&
      (sql.charCodeAt(i + 4) | 0x20) === 0x63 &&
      (sql.charCodeAt(i + 5) | 0x20) === 0x74 &&
      !isWordChar(sql.charCodeAt(i - 1)) &&
      !isWordChar(sql.charCodeAt(i + 6))
    ) {
      n++;
    }
  }
  return n;
}

/** What \w (and so \b) counts as a word character without the `u` flag: A-Z, a-z, 0-9, _ (NaN, off either end, is none). */
function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}
