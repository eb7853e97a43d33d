import { hash } from 'node:crypto';
import type { RunStore } from '../store/run-store.js';
import { KeyedTexts } from '../store/keyed-texts.js';
import type { HardnessCache } from './ex-run.js';

/**
 * Bumped whenever Spider hardness (src/sql/spider-hardness.ts, spider-structure.ts, the lexer they
 * use) gives any query a different level, so that older kept levels are not reused.
 */
export const HARDNESS_FORMAT = 2;
const LEVELS = new Set(['easy', 'medium', 'hard', 'extra']);

/**
 * Spider hardness levels kept in the run store. A level depends on the gold SQL's text alone,
 * and finding it parses the query (about 0.1 s of CPU for Spider dev's 1,034 golds): keyed by a
 * hash of the text, a re-run parses none it parsed before.
 */
export class HardnessStore implements HardnessCache {
  private readonly table: KeyedTexts;

  constructor(store: RunStore) {
    this.table = new KeyedTexts(store, 'spider_hardness', 'level', HARDNESS_FORMAT);
  }

  lookup(sqls: readonly string[]): Map<string, string> {
    const keys = sqls.map(key);
    const kept = this.table.lookup(keys);
    const out = new Map<string, string>();
    keys.forEach((k, i) => {
      const level = kept.get(k);
      // A level this version does not know (a damaged row) is computed again.
      if (level !== undefined && LEVELS.has(level)) out.set(sqls[i]!, level);
    });
    return out;
  }

  save(levels: Map<string, string>): void {
    this.table.save([...levels].map(([sql, level]) => [key(sql), level]));
  }
}

function key(sql: string): string {
  return hash('sha256', `${HARDNESS_FORMAT}\n${sql}`, 'hex');
}
