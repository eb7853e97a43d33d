import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dqsExtensionFile, openForQueries } from '../../src/execution/dqs.js';
import { ROOT, SPIDER } from './cli.js';

/** The SQLite extension the execution processes load (src/execution/dqs.ts). */
export const DQS_EXTENSION = dqsExtensionFile(join(ROOT, 'src', 'execution', 'dqs.ts'));

/** A benchmark database opened as the execution processes open it: read-only, double-quoted strings on. */
export function openAsExecuted(file: string): Database.Database {
  return openForQueries(Database, file, DQS_EXTENSION);
}

/** Connections to the Spider dev databases as the execution processes open them, opened on first use; close() ends them all. */
export function spiderDatabases(): { open: (dbId: string) => Database.Database; close: () => void } {
  const connections = new Map<string, Database.Database>();
  return {
    open: (dbId) => {
      let c = connections.get(dbId);
      if (!c) connections.set(dbId, (c = openAsExecuted(join(SPIDER, 'database', dbId, `${dbId}.sqlite`))));
      return c;
    },
    close: () => {
      for (const c of connections.values()) c.close();
      connections.clear();
    },
  };
}
