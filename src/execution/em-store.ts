import { createHash } from 'node:crypto';
import type { RunStore } from '../store/run-store.js';
import { guardStore } from '../store/store-failure.js';
import type { EmCache, EmItem } from './em-run.js';

/**
 * Bumped whenever exact match (src/sql/spider-*.ts) scores anything differently, so that older
 * kept results are not reused.
 */
const EM_FORMAT = 1;
const LOOKUP_CHUNK = 2000;

/**
 * Exact-match results kept in the run store. Exact match parses every prediction with Spider's
 * official rules (about 0.6 s of CPU per system on Spider dev), and depends only on the text of
 * both queries, the database's schema and its foreign keys: keyed by a hash of those, a re-run
 * parses nothing it parsed before.
 */
export class EmStore implements EmCache {
  private readonly get;
  private readonly put;
  private readonly file: string;

  constructor(store: RunStore) {
    this.file = store.file;
    guardStore(store.file, () => store.db.exec('CREATE TABLE IF NOT EXISTS exact_matches (key TEXT PRIMARY KEY, item TEXT NOT NULL)'));
    this.get = store.db.prepare<[string], { key: string; item: string }>('SELECT key, item FROM exact_matches WHERE key IN (SELECT value FROM json_each(?))');
    const put = store.db.prepare('INSERT OR REPLACE INTO exact_matches (key, item) VALUES (?, ?)');
    this.put = store.db.transaction((items: [string, EmItem][]) => {
      for (const [key, item] of items) put.run(key, JSON.stringify(item));
    });
  }

  key(context: string, gold: string, prediction: string): string {
    return createHash('sha256').update(`${EM_FORMAT}\n${context}\n${gold.length}:${gold}\n${prediction}`).digest('hex');
  }

  lookup(keys: readonly string[]): Map<string, EmItem> {
    const out = new Map<string, EmItem>();
    for (let at = 0; at < keys.length; at += LOOKUP_CHUNK) {
      const chunk = JSON.stringify(keys.slice(at, at + LOOKUP_CHUNK));
      for (const row of guardStore(this.file, () => this.get.all(chunk))) out.set(row.key, JSON.parse(row.item) as EmItem);
    }
    return out;
  }

  save(items: Map<string, EmItem>): void {
    guardStore(this.file, () => this.put([...items]));
  }
}
