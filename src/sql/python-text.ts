/**
 * Python's idea of whitespace (`str.isspace()`, and `\s` in a `re` pattern over str), and the text
 * passes that use it, written as index scans: a regular expression such as `[\s]+$` with the g flag
 * retries at every position of a whitespace run, which is quadratic in the run (a prediction of
 * megabytes of spaces would block the event loop for hours).
 */

/** The characters in Python's `str.isspace()`, as a regular-expression class body. */
export const PY_SPACE_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** `chr(c).isspace()` for one UTF-16 code unit (every Python space is in the BMP). */
export function isPySpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Where the run of Python whitespace that ends `s` starts (`s.length` when there is none). */
export function pyTrailingSpaceStart(s: string, end = s.length): number {
  let i = end;
  while (i > 0 && isPySpaceCode(s.charCodeAt(i - 1))) i--;
  return i;
}

/** Python's `str.strip()` (JS's trim differs: U+FEFF, U+001C-U+001F, U+0085). */
export function pythonStrip(s: string): string {
  let a = 0;
  while (a < s.length && isPySpaceCode(s.charCodeAt(a))) a++;
  return s.slice(a, pyTrailingSpaceStart(s));
}
