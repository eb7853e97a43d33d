/**
 * SQLite hands TEXT over as the bytes stored, which need not be valid UTF-8, and the official
 * evaluators decode them differently: BIRD with Python's default, strict decoding (invalid bytes
 * are an execution error), test-suite-sql-eval with `bytes.decode(errors="ignore")` (invalid
 * bytes dropped). better-sqlite3 replaces them with U+FFFD, as Node's decoder does.
 */

const strict = new TextDecoder('utf-8', { fatal: true });

/** Whether `bytes` are valid UTF-8 (surrogates and overlong forms are not, as in Python). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

/**
 * Python's `bytes.decode('utf-8', errors='ignore')`. Node's decoder replaces each maximal invalid
 * subsequence with one U+FFFD, the same subsequences Python's error handler sees; dropping those
 * replacements drops what Python drops. Real U+FFFD characters (the bytes EF BF BD, which no
 * invalid subsequence contains) are split out first so that they stay.
 */
export function decodeUtf8Ignore(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let from = 0;
  for (let at = b.indexOf(REPLACEMENT); at >= 0; at = b.indexOf(REPLACEMENT, from)) {
    parts.push(b.toString('utf8', from, at).replaceAll('\uFFFD', ''));
    from = at + REPLACEMENT.length;
  }
  parts.push(b.toString('utf8', from).replaceAll('\uFFFD', ''));
  return parts.join('\uFFFD');
}
