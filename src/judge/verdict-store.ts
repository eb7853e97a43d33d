import type { RunStore } from '../store/run-store.js';
import type { JudgedItem } from './cascade.js';
import { redactDeep } from '../llm/secrets.js';

/**
 * Finished verdicts in the run store (table judge_verdicts), keyed by a hash of
 * everything that decides them (judge configuration, prompt hashes, question,
 * SQL, results). Each row is committed as soon as it is made. A verdict reached
 * after a provider failure is never stored, so a re-run tries that item again.
 */
export class VerdictStore {
  private readonly getStmt;
  private readonly putStmt;
  private readonly nameInsert;
  private readonly nameSelect;

  constructor(store: RunStore) {
    store.db.exec(`CREATE TABLE IF NOT EXISTS judge_verdicts (
      key TEXT PRIMARY KEY,
      judge_key TEXT NOT NULL,
      db_id TEXT NOT NULL,
      route TEXT NOT NULL,
      correct INTEGER,
      prover_prompt_hash TEXT,
      refuter_prompt_hash TEXT,
      verdict TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    store.db.exec(`CREATE TABLE IF NOT EXISTS judge_names (
      judge_key TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    this.nameInsert = store.db.prepare('INSERT OR IGNORE INTO judge_names (judge_key, name, created_at) VALUES (?, ?, ?)');
    this.nameSelect = store.db.prepare('SELECT name FROM judge_names WHERE judge_key = ?');
    this.getStmt = store.db.prepare('SELECT verdict FROM judge_verdicts WHERE key = ?');
    this.putStmt = store.db.prepare(`INSERT OR REPLACE INTO judge_verdicts
      (key, judge_key, db_id, route, correct, prover_prompt_hash, refuter_prompt_hash, verdict, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  }

  get(key: string): JudgedItem | undefined {
    const r = this.getStmt.get(key) as { verdict: string } | undefined;
    return r ? (JSON.parse(r.verdict) as JudgedItem) : undefined;
  }

  /**
   * The judge's name, fixed the first time a configuration finishes a run: an
   * undated model is named by the date of its first run, so re-runs on later
   * days (answered from the store) keep the name.
   */
  nameFor(judgeKey: string, proposed: string): string {
    this.nameInsert.run(judgeKey, proposed, new Date().toISOString());
    return (this.nameSelect.get(judgeKey) as { name: string }).name;
  }

  put(key: string, judgeKey: string, item: JudgedItem): void {
    if (item.transient || item.route === 'not-judged') return;
    this.putStmt.run(
      key,
      judgeKey,
      item.dbId,
      item.route,
      item.correct === null ? null : item.correct ? 1 : 0,
      item.proverPromptHash ?? null,
      item.refuterPromptHash ?? null,
      JSON.stringify(redactDeep(item)),
      new Date().toISOString(),
    );
  }
}
