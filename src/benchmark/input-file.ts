import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { InputFileError } from '../errors.js';

/**
 * The one way sqlboard reads an input file (questions, predictions, tables, flags, labels, ROSE
 * files, board CSVs, item files, replay recordings, prices): only a regular file (after links),
 * and at most MAX_INPUT_BYTES of it. A FIFO would block the read forever and a link to /dev/zero
 * would stream zeros until memory ran out. The file is opened without blocking and checked
 * through its descriptor, so it cannot be swapped between the check and the read; a file that
 * grows past the cap while being read is refused too.
 */

const DEFAULT_MAX_INPUT_MB = 512;
/** SQLBOARD_MAX_INPUT_MB raises (or lowers) the cap; V8 cannot hold a string much past 512 MiB anyway. */
export function maxInputBytes(): number {
  const mb = Number(process.env.SQLBOARD_MAX_INPUT_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_INPUT_MB) * 2 ** 20;
}

function kindProblem(st: { isFile(): boolean; isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'is a directory, not a file';
  if (st.isFIFO()) return 'is a FIFO (named pipe), not a regular file: write it to a file first';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  return 'is not a regular file';
}

/** The bytes of an input file, or an InputFileError naming it. */
export function readInputBytes(file: string): Buffer {
  const cap = maxInputBytes();
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputFileError(file, undefined, 'no such file');
    if (code === 'ENXIO') throw new InputFileError(file, undefined, 'is a socket or a device with nothing behind it, not a regular file');
    throw new InputFileError(file, undefined, `cannot read (${(e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    const problem = kindProblem(st);
    if (problem) throw new InputFileError(file, undefined, problem);
    const tooBig = (): InputFileError =>
      new InputFileError(file, undefined, `is larger than ${cap / 2 ** 20} MiB, the input size limit (SQLBOARD_MAX_INPUT_MB raises it)`);
    if (st.size > cap) throw tooBig();
    // Read to the end, not to the size first seen: the file may grow; past the cap it is refused.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(st.size - total, 0) + 65536, cap + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > cap) throw tooBig();
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    throw new InputFileError(file, undefined, `cannot read (${(e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * An input file as UTF-8 text (a leading BOM dropped). Text that is not valid UTF-8 is refused with
 * the line and byte offset of the first bad byte, as the official readers do (Spider's
 * evaluation.py opens files as UTF-8 and raises UnicodeDecodeError; BIRD's json.load raises too):
 * decoding it leniently would replace the bytes with U+FFFD and run altered SQL.
 */
export function readInputText(file: string): string {
  const bytes = readInputBytes(file);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
    throw new InputFileError(file, line, `is not valid UTF-8 (first invalid byte at offset ${at}, 0x${bytes[at]?.toString(16).padStart(2, '0')}): save it as UTF-8`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}
