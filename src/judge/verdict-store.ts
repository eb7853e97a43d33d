import type { RunStore } from '../store/run-store.js';
import type { JudgedItem } from './cascade.js';

/**
 * Finished verdicts in the run store (table judge_verdicts), keyed by a hash of
 * everything that decides them (judge configuration, prompt hashes, question,
 * SQL, results). Each row is committed as soon as it is made. A verdict reached
 * after a provider failure is never stored, so a re-run tries that item again.
 */
export class VerdictStore {
  private readonly getStmt;
  private readonly putStmt;

  constructor(store: RunStore) {
    store.db.exec(`CREATE TABLE IF NOT EXISTS judge_verdicts (
      key TEXT PRIMARY KEY,
      judge TEXT NOT NULL,
      db_id TEXT NOT NULL,
      route TEXT NOT NULL,
      correct INTEGER,
      prover_prompt_hash TEXT,
      refuter_prompt_hash TEXT,
      verdict TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    this.getStmt = store.db.prepare('SELECT verdict FROM judge_verdicts WHERE key = ?');
    this.putStmt = store.db.prepare(`INSERT OR REPLACE INTO judge_verdicts
      (key, judge, db_id, route, correct, prover_prompt_hash, refuter_prompt_hash, verdict, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  get(key: string): JudgedItem | undefined {
    const r = this.getStmt.get(key) as { verdict: string } | undefined;
    return r ? (JSON.parse(r.verdict) as JudgedItem) : undefined;
  }

  put(key: string, judge: string, item: JudgedItem): void {
    if (item.transient || item.route === 'not-judged') return;
    this.putStmt.run(
      key,
      judge,
      item.dbId,
      item.route,
      item.correct === null ? null : item.correct ? 1 : 0,
      item.proverPromptHash ?? null,
      item.refuterPromptHash ?? null,
      JSON.stringify(item),
      new Date().toISOString(),
    );
  }
}
