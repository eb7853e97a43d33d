import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchemaSource, schemaText } from '../../src/judge/schema-text.js';
import { SPIDER } from '../helpers/cli.js';

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
