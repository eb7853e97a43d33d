import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SPIDER } from './cli.js';

/** Read-only connections to the bundled Spider dev databases, opened on first use; close() ends them all. */
export function spiderDatabases(): { open: (dbId: string) => Database.Database; close: () => void } {
  const connections = new Map<string, Database.Database>();
  return {
    open: (dbId) => {
      let c = connections.get(dbId);
      if (!c) connections.set(dbId, (c = new Database(join(SPIDER, 'database', dbId, `${dbId}.sqlite`), { readonly: true })));
      return c;
    },
    close: () => {
      for (const c of connections.values()) c.close();
      connections.clear();
    },
  };
}
