import { hash } from 'node:crypto';
import type { RunStore } from '../store/run-store.js';
import { KeyedTexts } from '../store/keyed-texts.js';
import type { EmCache, EmItem } from './em-run.js';

/**
 * Bumped whenever exact match (src/sql/spider-*.ts) scores anything differently, so that older
 * kept results are not reused.
 */
export const EM_FORMAT = 2;

/**
 * Exact-match results kept in the run store. Exact match parses every prediction with Spider's
 * official rules (about 0.6 s of CPU per system on Spider dev), and depends only on the text of
 * both queries, the database's schema and its foreign keys: keyed by a hash of those, a re-run
 * parses nothing it parsed before.
 */
export class EmStore implements EmCache {
  private readonly table: KeyedTexts;

  constructor(store: RunStore) {
    this.table = new KeyedTexts(store, 'exact_matches', 'item', EM_FORMAT);
  }

  key(context: string, gold: string, prediction: string): string {
    return hash('sha256', `${EM_FORMAT}\n${context}\n${gold.length}:${gold}\n${prediction}`, 'hex');
  }

  lookup(keys: readonly string[]): Map<string, EmItem> {
    const out = new Map<string, EmItem>();
    for (const [key, item] of this.table.lookup(keys)) out.set(key, JSON.parse(item) as EmItem);
    return out;
  }

  save(items: Map<string, EmItem>): void {
    this.table.save([...items].map(([key, item]) => [key, JSON.stringify(item)]));
  }
}
