import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';

/**
 * Issue 30, item 6: CSV loading is linear, and a record with more cells than the header is an error
 * naming the file and line (papaparse searched for the next comma and line break again after every
 * quoted cell: a last row of 400k extra quoted cells with no final newline took 23 s, then its
 * extra cells were dropped silently).
 */
const C3 = join(ROOT, 'data', 'spider', 'predictions', 'c3', 'predicted_sql.txt');
const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;

describe('hostile prediction CSVs (issue 30, item 6)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-csv-'));
  const sqls = readFileSync(C3, 'utf8').split('\n').slice(0, 1034);
  const score = (file: string) => runCli(['score', '--metric', 'em', '--system', `x=${file}`, '--store', join(dir, 'store.db')]);

  it('a last record with 400,000 extra quoted cells and no final newline is refused, naming file and line', async () => {
    const file = join(dir, 'extra.csv');
    const rows = sqls.map((s, i) => `${i},${quote(s)}`);
    rows[rows.length - 1] += ',"x"'.repeat(400_000);
    writeFileSync(file, `id,predicted_sql\n${rows.join('\n')}`);
    const r = await score(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:1035`);
    expect(r.stderr).toMatch(/400002 cells on the record starting on line 1035, but the header has 2/);
    expect(r.stderr).not.toMatch(/internal error/);
  }, 300_000);

  it('a well-formed CSV of the same predictions is accepted, and one extra cell anywhere is refused', async () => {
    const file = join(dir, 'ok.csv');
    const rows = sqls.map((s, i) => `${i},${quote(s)}`);
    writeFileSync(file, `id,predicted_sql\n${rows.join('\n')}`);
    expect((await score(file)).code).toBe(0);
    rows[9] += ',';
    writeFileSync(file, `id,predicted_sql\r\n${rows.join('\r\n')}\r\n`);
    const r = await score(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/3 cells on the record starting on line 11, but the header has 2/);
  }, 300_000);

  it('800,000 quoted rows are read (linearly) before the count error', async () => {
    const file = join(dir, 'many.csv');
    writeFileSync(file, `predicted_sql\n${Array.from({ length: 800_000 }, (_, i) => quote(`SELECT ${i}`)).join('\n')}`);
    const r = await score(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/800000 CSV rows, but .* has 1034 questions/);
  }, 300_000);
});
