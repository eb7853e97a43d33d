/**
 * Builds a PGlite data directory from a BIRD SQLite database with mini-dev's PostgreSQL column types, and checks
 * every table's row count and digest against SQLite (src/execution/dialects/pglite-load.ts).
 *
 *   npx tsx scripts/load-bird-pglite.ts path/to/<db_id>.sqlite OUT_DIR
 *
 * A stopgap until the loader command of issue 36 exists; the directory it writes is what PGlite opens with
 * `new PGlite(OUT_DIR)`.
 */
import { existsSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { loadSqliteIntoPostgres } from '../src/execution/dialects/pglite-load.js';

async function main(): Promise<void> {
  const [sqlitePath, outDir] = process.argv.slice(2);
  if (!sqlitePath || !outDir) {
    process.stderr.write('usage: load-bird-pglite.ts DB.sqlite OUT_DIR\n');
    process.exit(2);
  }
  if (existsSync(outDir)) {
    process.stderr.write(`${outDir} exists: give a new directory (nothing was written).\n`);
    process.exit(2);
  }
  const pg = await PGlite.create(outDir);
  try {
    const report = await loadSqliteIntoPostgres(sqlitePath, pg);
    for (const t of report.tables) process.stdout.write(`${t.name}: ${t.rows} rows, sha256 ${t.sha256.slice(0, 16)} ok\n`);
  } finally {
    await pg.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
