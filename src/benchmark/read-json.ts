import { InputFileError } from '../errors.js';
import { readInputText } from './input-file.js';

/**
 * Reads an input file as text: a regular file within the input size limit, valid UTF-8, a BOM
 * dropped; anything else is an InputFileError naming the file (src/benchmark/input-file.ts).
 */
export function readText(file: string): string {
  return readInputText(file);
}

/** Parses JSON and, when it is malformed, reports the line of the syntax error. */
export function parseJsonText(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : undefined;
    throw new InputFileError(file, line, `malformed JSON (${msg})`);
  }
}

/**
 * The non-blank lines of a JSONL text, each parsed as a JSON object, with its 1-based line.
 * `what` names what one line holds, for the error (e.g. "per-item record"). With `keep`, each
 * object is replaced by what `keep` makes of it as soon as it is parsed (the rest dies young).
 */
export function parseJsonLines(
  file: string,
  text: string,
  what: string,
  keep?: (value: Record<string, unknown>) => Record<string, unknown>,
): { value: Record<string, unknown>; line: number }[] {
  const out: { value: Record<string, unknown>; line: number }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const problem = `not a JSON object (expected one ${what} per line)`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new InputFileError(file, i + 1, `${problem}: ${(e as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputFileError(file, i + 1, problem);
    out.push({ value: keep ? keep(value as Record<string, unknown>) : (value as Record<string, unknown>), line: i + 1 });
  });
  return out;
}

/**
 * 1-based line of every element of a top-level JSON array, in one pass (callers that need the
 * lines of many elements must not rescan the text per element), for error messages.
 */
export function arrayElementLines(text: string): number[] {
  // Cheap scan: count depth-1 element starts; good enough to point a user at the right place.
  const lines: number[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectElement && !/\s/.test(c) && c !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

/**
 * The 1-based lines on which each key of a top-level JSON object appears, in one pass; a key
 * listed twice has two lines (JSON.parse would keep only the last value).
 */
export function objectKeyLines(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let depth = 0;
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    else if (c === '"') {
      // Scan the whole string; at depth 1 where a key may stand, it is one.
      const start = i;
      const startLine = line;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') line++;
      }
      if (depth === 1 && expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1)) as string;
        } catch {
          key = text.slice(start + 1, i);
        }
        const at = out.get(key);
        if (at) at.push(startLine);
        else out.set(key, [startLine]);
        expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 1) expectKey = c === '{';
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectKey = true;
  }
  return out;
}
