import { hash } from 'node:crypto';
import type { RunStore } from '../store/run-store.js';
import { guardStore } from '../store/store-failure.js';
import type { HardnessCache } from './ex-run.js';

/**
 * Bumped whenever Spider hardness (src/sql/spider-hardness.ts, spider-structure.ts, the lexer they
 * use) gives any query a different level, so that older kept levels are not reused.
 */
const HARDNESS_FORMAT = 1;
const LOOKUP_CHUNK = 2000;
const LEVELS = new Set(['easy', 'medium', 'hard', 'extra']);

/**
 * Spider hardness levels kept in the run store. A level depends on the gold SQL's text alone,
 * and finding it parses the query (about 0.1 s of CPU for Spider dev's 1,034 golds): keyed by a
 * hash of the text, a re-run parses none it parsed before.
 */
export class HardnessStore implements HardnessCache {
  private readonly get;
  private readonly put;
  private readonly file: string;

  constructor(store: RunStore) {
    this.file = store.file;
    guardStore(store.file, () => store.db.exec('CREATE TABLE IF NOT EXISTS spider_hardness (key TEXT PRIMARY KEY, level TEXT NOT NULL)'));
    this.get = store.db.prepare<[string], [string, string]>('SELECT key, level FROM spider_hardness WHERE key IN (SELECT value FROM json_each(?))').raw(true);
    const put = store.db.prepare<[string, string]>('INSERT OR REPLACE INTO spider_hardness (key, level) VALUES (?, ?)');
    this.put = store.db.transaction((levels: [string, string][]) => {
      for (const [sql, level] of levels) put.run(key(sql), level);
    });
  }

  lookup(sqls: readonly string[]): Map<string, string> {
    const keys = sqls.map(key);
    const sqlOf = new Map(keys.map((k, i) => [k, sqls[i]!]));
    const out = new Map<string, string>();
    for (let at = 0; at < keys.length; at += LOOKUP_CHUNK) {
      const chunk = JSON.stringify(keys.slice(at, at + LOOKUP_CHUNK));
      for (const [k, level] of guardStore(this.file, () => this.get.all(chunk))) {
        // A level this version does not know (a damaged row) is computed again.
        if (LEVELS.has(level)) out.set(sqlOf.get(k)!, level);
      }
    }
    return out;
  }

  save(levels: Map<string, string>): void {
    guardStore(this.file, () => this.put([...levels]));
  }
}

function key(sql: string): string {
  return hash('sha256', `${HARDNESS_FORMAT}\n${sql}`, 'hex');
}
