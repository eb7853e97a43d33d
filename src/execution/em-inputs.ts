import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readForeignKeyMaps, readSpiderSchema } from '../benchmark/spider-tables.js';
import { UserError } from '../errors.js';
import type { SpiderSchema } from '../sql/spider-parse.js';
import type { EmInputs } from './em-run.js';
import { databaseFile } from './engine.js';

/**
 * What exact match needs besides the SQL: each database's schema (read from its SQLite file, as
 * the official code does) and the foreign-key maps of `tables` (default: tables.json beside the
 * questions). Without a tables file: undefined when EM was only a default, an error when asked for.
 */
export function emInputs(questions: string, dbRoot: string, tables: string | undefined, asked: boolean): EmInputs | undefined {
  const file = tables ?? join(dirname(questions), 'tables.json');
  if (!existsSync(file)) {
    if (tables !== undefined || asked) {
      throw new UserError(`exact match (em) needs Spider's tables.json for its foreign-key maps: ${file} does not exist (pass --tables FILE)`);
    }
    return undefined;
  }
  const foreignKeys = readForeignKeyMaps(file);
  const schemas = new Map<string, SpiderSchema>();
  const schemaOf = (db: string): SpiderSchema => {
    let s = schemas.get(db);
    if (!s) schemas.set(db, (s = readSpiderSchema(databaseFile(dbRoot, db))));
    return s;
  };
  return { schemaOf, foreignKeys };
}
