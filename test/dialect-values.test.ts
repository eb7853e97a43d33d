import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors.js';
import { loadSqliteIntoPostgres } from '../src/execution/dialects/pglite-load.js';
import { pythonDecimalStr } from '../src/execution/dialects/postgres-python-values.js';
import { runLikePsycopg2 } from '../src/execution/dialects/postgres-run.js';
import { exactDecimal, normaliseDecimal, pythonKey } from '../src/execution/dialects/python-key.js';

// Expected values are Python's own answers (python3: Decimal(0.1), str(Decimal('0.0000001')), 1 == 1.0 == ...).
describe("Python's view of dialect values", () => {
  it('expands a double exactly, as Decimal(float) does', () => {
    expect(exactDecimal(0.1)).toBe('0.1000000000000000055511151231257827021181583404541015625');
    expect(exactDecimal(-2.5)).toBe('-2.5');
    expect(exactDecimal(2 ** 60)).toBe('1152921504606846976');
    const tiny = exactDecimal(5e-324); // format(Decimal(5e-324), 'f'): 1,076 characters
    expect([tiny.length, tiny.slice(0, 2) + tiny.slice(325, 330), tiny.slice(-20)]).toEqual([1076, '0.49406', '19718265533447265625']);
  });

  it('spells each decimal value one way', () => {
    expect(normaliseDecimal('0.10')).toBe('0.1');
    expect(normaliseDecimal('-0.000')).toBe('0');
    expect(normaliseDecimal('1E+2')).toBe('100');
    expect(normaliseDecimal('00012.3400')).toBe('12.34');
    expect(normaliseDecimal('1.5e-3')).toBe('0.0015');
  });

  it("prints numeric as Python's str(Decimal(text))", () => {
    expect(pythonDecimalStr('0.0000001')).toBe('1E-7');
    expect(pythonDecimalStr('0.00000010')).toBe('1.0E-7');
    expect(pythonDecimalStr('0.000001')).toBe('0.000001');
    expect(pythonDecimalStr('0.00')).toBe('0.00');
    expect(pythonDecimalStr('-12.50')).toBe('-12.50');
    expect(pythonDecimalStr('NaN')).toBe('NaN');
  });

  it('keys values equal under Python == alike, and others apart', () => {
    const one = [1, true, 1n, { float: '1.0' }, { decimal: '1.00' }, { decimal: '1' }].map((v) => pythonKey(v));
    expect(new Set(one).size).toBe(1);
    expect(pythonKey({ float: '0.1' })).not.toBe(pythonKey({ decimal: '0.1' }));
    expect(pythonKey({ decimal: '0.10' })).toBe(pythonKey({ decimal: '0.1' }));
    expect(pythonKey({ float: 'nan' })).not.toBe(pythonKey({ float: 'nan' }));
    expect(pythonKey({ date: '2020-01-01' })).not.toBe(pythonKey({ datetime: '2020-01-01T00:00:00' }));
    expect(pythonKey('1')).not.toBe(pythonKey(1));
    expect(pythonKey(null)).toBe(pythonKey(null));
    expect(() => pythonKey({ unhashable: 'list' })).toThrow("unhashable type: 'list'");
  });
});

describe('loading a BIRD SQLite file into PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-dialect-'));
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
  });
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function sqlite(name: string, table: string, ddl: string, rows: unknown[][]): string {
    const path = join(dir, name);
    const db = new Database(path);
    db.exec(`CREATE TABLE ${table} (${ddl})`);
    const insert = db.prepare(`INSERT INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
    for (const r of rows) insert.run(...r);
    db.close();
    return path;
  }

  it("keeps BIRD's names and values with mini-dev's types, checked row for row", async () => {
    const path = sqlite(
      'mixed.sqlite',
      '"Sat Scores"',
      'cds TEXT, "NumTstTakr" INTEGER, "Pct (%)" REAL',
      [["O'Brien \"x\"", 12, 0.1], [null, null, null], ['é', -2147483648, 1e-7]],
    );
    {
      const report = await loadSqliteIntoPostgres(path, pg);
      expect(report.tables.map((t) => [t.name, t.rows, t.types])).toEqual([
        ['Sat Scores', 3, { cds: 'character varying', NumTstTakr: 'integer', 'Pct (%)': 'real' }],
      ]);
      const run = await runLikePsycopg2(pg, 'SELECT cds, "NumTstTakr", "Pct (%)" FROM "Sat Scores" ORDER BY "NumTstTakr" NULLS LAST');
      // real keeps float4 precision, and psycopg2 parses its shortest text: 1e-07, not the float4's exact
      // 1.0000000116860974e-07.
      expect(run).toEqual({
        status: 'ok',
        columns: ['cds', 'NumTstTakr', 'Pct (%)'],
        rows: [['é', -2147483648, { float: '1e-07' }], ["O'Brien \"x\"", 12, { float: '0.1' }], [null, null, null]],
      });
    }
  });

  it('refuses, naming the table, a value mini-dev types cannot hold, and leaves nothing half-loaded', async () => {
    const path = sqlite('wide.sqlite', 't', 'n INTEGER', [[1], [2 ** 40]]);
    {
      const err = await loadSqliteIntoPostgres(path, pg).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/^Loading table t: PostgreSQL refused a row \(value "1099511627776" is out of range for type integer\)/);
      const left = await pg.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 't'");
      expect(left.rows).toEqual([{ n: 0 }]);
    }
  });

  it('says which file is not a SQLite database', async () => {
    await expect(loadSqliteIntoPostgres(join(dir, 'missing.sqlite'), pg)).rejects.toThrow(/missing\.sqlite is not a readable SQLite database/);
  });
});
