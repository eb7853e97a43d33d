import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsvRows } from '../src/benchmark/csv-rows.js';
import { ROOT } from './helpers/cli.js';
import { expectSameAsCsvParse } from './helpers/csv-reference.js';

describe('parseCsvRows (csv-parse)', () => {
  it('reads every bundled prediction and flag CSV cell for cell as csv-parse does, with the line each record ends on', () => {
    const preds = join(ROOT, 'data', 'spider', 'predictions');
    const files = [
      ...readdirSync(preds, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).flatMap((d) => readdirSync(join(preds, d)).filter((f) => f.endsWith('.csv')).map((f) => join(preds, d, f))),
      join(ROOT, 'data', 'spider', 'audit', 'flags.csv'),
    ];
    expect(files.length).toBeGreaterThanOrEqual(5);
    expectSameAsCsvParse(files);
  });

  it('gives the lines a record spans, with CRLF, a BOM and blank lines', () => {
    const rows = parseCsvRows('\uFEFFid,label,note\r\n1,1,"first\r\nsecond"\r\n\r\n2,0,ok\r\n');
    expect(rows).toEqual([
      { cells: ['id', 'label', 'note'], line: 1, endLine: 1 },
      { cells: ['1', '1', 'first\r\nsecond'], line: 2, endLine: 3 },
      { cells: ['2', '0', 'ok'], line: 5, endLine: 5 },
    ]);
  });

  it('reads doubled quotes inside a quoted cell as one; a quote inside an unquoted cell is an error (text only when lenient)', () => {
    expect(parseCsvRows('a,b\n2,"say ""hi"", then, ""bye"""\n').map((r) => r.cells)).toEqual([['a', 'b'], ['2', 'say "hi", then, "bye"']]);
    // A space before the quote: a lenient reader would split "SELECT a, b" at its comma, silently.
    for (const bad of ['a,b\n1, "SELECT a, b FROM t"\n', 'a,b\n1,x "q" y\n']) {
      expect(() => parseCsvRows(bad)).toThrow(CsvSyntaxError);
      expect(() => parseCsvRows(bad)).toThrow(/record starting on line 2/);
    }
    expect(parseCsvRows('a,b\n1,x "q" y\n', { lenientQuotes: true }).map((r) => r.cells)).toEqual([['a', 'b'], ['1', 'x "q" y']]);
  });

  it('refuses an unclosed quote, naming the line its record starts on', () => {
    let err: unknown;
    try {
      parseCsvRows('a,b\n1,2\n3,"unclosed\n4,5\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect((err as CsvSyntaxError).line).toBe(3);
  });
});
