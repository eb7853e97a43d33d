import type { RunStore } from './run-store.js';
import { dropOlderFormats } from './older-formats.js';
import { guardStore } from './store-failure.js';

/** Keys per look-up statement: thousands of keys cross into SQLite a few times, not once each. */
const LOOKUP_CHUNK = 2000;

/**
 * A table of texts by key in the run store (`key TEXT PRIMARY KEY, <column> TEXT NOT NULL`),
 * created on first use: the caches whose key is a content hash (exact match, Spider hardness).
 */
export class KeyedTexts {
  private readonly get;
  private readonly putAll;
  private readonly file: string;

  /**
   * `format`: the number the keys hash in (older-formats.ts drops rows kept under an older one);
   * both tables held format 1 before the record.
   */
  constructor(store: RunStore, table: string, column: string, format: number) {
    this.file = store.file;
    guardStore(store.file, () => store.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, ${column} TEXT NOT NULL)`));
    dropOlderFormats(store, table, format, { format: 1 });
    this.get = store.db.prepare<[string], [string, string]>(`SELECT key, ${column} FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`).raw(true);
    const put = store.db.prepare<[string, string]>(`INSERT OR REPLACE INTO ${table} (key, ${column}) VALUES (?, ?)`);
    this.putAll = store.db.transaction((entries: [string, string][]) => {
      for (const [key, text] of entries) put.run(key, text);
    });
  }

  /** The kept text of each key that has one. */
  lookup(keys: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (let at = 0; at < keys.length; at += LOOKUP_CHUNK) {
      const chunk = JSON.stringify(keys.slice(at, at + LOOKUP_CHUNK));
      for (const [key, text] of guardStore(this.file, () => this.get.all(chunk))) out.set(key, text);
    }
    return out;
  }

  /** Keeps every entry, in one transaction. */
  save(entries: [string, string][]): void {
    guardStore(this.file, () => this.putAll(entries));
  }
}
