import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchemaSource, readDescriptions, schemaText } from '../../src/judge/schema-text.js';
import { SHARED, SPIDER } from '../helpers/cli.js';

const dbFile = (id: string): string => join(SPIDER, 'database', id, `${id}.sqlite`);

describe('schema text', () => {
  it('gives CREATE statements and sample values from a real Spider database, read-only', () => {
    const file = dbFile('concert_singer');
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    const text = schemaText(file);
    expect(text).toContain('CREATE TABLE "singer"');
    expect(text).toMatch(/-- Sample values of singer:\n(--   .*\n)*--   Country: "Netherlands", "United States", "France"/);
    expect(schemaText(file)).toBe(text);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
  });

  it("reads BIRD's database_description CSVs (BOM, value descriptions)", () => {
    const dir = join(SHARED, 'bird', 'database_description', 'california_schools');
    const d = readDescriptions(dir, ['frpm', 'satscores', 'schools', 'no_such_table']);
    expect([...d.keys()].sort()).toEqual(['frpm', 'satscores', 'schools']);
    const frpm = d.get('frpm')!;
    // A description that only repeats the column name adds nothing and is left out.
    expect(frpm.some((l) => l.startsWith('CDSCode'))).toBe(false);
    expect(frpm).toContain('County Name: County Code');
    expect(frpm.find((l) => l.startsWith('Charter School (Y/N)'))).toMatch(/values: 0:/);
  });

  it('reads every Spider dev database', () => {
    const root = join(SPIDER, 'database');
    for (const db of readdirSync(root)) expect(schemaText(dbFile(db))).toMatch(/^CREATE TABLE/i);
  });

  it('adds descriptions from --descriptions <dir>/<db>/<table>.csv to the schema text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-desc-'));
    mkdirSync(join(dir, 'concert_singer'));
    writeFileSync(
      join(dir, 'concert_singer', 'Singer.csv'),
      '\ufefforiginal_column_name,column_name,column_description,data_format,value_description\nAge,,age in years at the concert,integer,\nIs_male,,,text,"T: male; F: female"\n',
    );
    const text = createSchemaSource(join(SPIDER, 'database'), dir)('concert_singer');
    expect(text).toContain('-- Column descriptions of singer:\n--   Age: age in years at the concert\n--   Is_male: values: T: male; F: female');
  });
});
