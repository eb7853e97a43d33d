import type { RunStore } from '../../store/run-store.js';
import type { CallKeyParts } from '../cache.js';
import type { BatchState, BatchStatus } from './types.js';

/** A batch as the run store remembers it. */
export interface StoredBatch {
  id: string;
  provider: string;
  baseUrl: string;
  model: string;
  state: BatchState;
  total: number;
  completed: number;
  failed: number;
  /** The answers were read into the LLM cache (nothing more to do with it). */
  collected: boolean;
  submittedAt: string;
  updatedAt: string;
  message?: string;
}

interface BatchRow {
  id: string;
  provider: string;
  base_url: string;
  model: string;
  state: string;
  total: number;
  completed: number;
  failed: number;
  collected: number;
  submitted_at: string;
  updated_at: string;
  message: string | null;
}

const batchOf = (r: BatchRow): StoredBatch => ({
  id: r.id,
  provider: r.provider,
  baseUrl: r.base_url,
  model: r.model,
  state: r.state as BatchState,
  total: r.total,
  completed: r.completed,
  failed: r.failed,
  collected: r.collected === 1,
  submittedAt: r.submitted_at,
  updatedAt: r.updated_at,
  ...(r.message ? { message: r.message } : {}),
});

/**
 * Batch ids and the calls each carries, in the run store. A batch is recorded in the
 * same transaction as its calls, right after the provider accepted it, so a killed run
 * finds it and polls it instead of paying for the same calls twice.
 */
export class BatchStore {
  private readonly insertBatch;
  private readonly insertCall;
  private readonly updateStmt;
  private readonly collectStmt;
  private readonly openForKey;
  private readonly callsOf;
  private readonly tries;
  private readonly countStmt;
  private readonly all;

  constructor(private readonly store: RunStore) {
    store.db.exec(`CREATE TABLE IF NOT EXISTS llm_batches (
      id TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      base_url TEXT NOT NULL,
      model TEXT NOT NULL,
      state TEXT NOT NULL,
      total INTEGER NOT NULL,
      completed INTEGER NOT NULL DEFAULT 0,
      failed INTEGER NOT NULL DEFAULT 0,
      collected INTEGER NOT NULL DEFAULT 0,
      submitted_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      message TEXT
    );
    CREATE TABLE IF NOT EXISTS llm_batch_calls (
      batch_id TEXT NOT NULL,
      key TEXT NOT NULL,
      parts TEXT NOT NULL,
      PRIMARY KEY (batch_id, key)
    );
    CREATE INDEX IF NOT EXISTS llm_batch_calls_key ON llm_batch_calls (key);`);
    this.insertBatch = store.db.prepare(`INSERT INTO llm_batches (id, provider, base_url, model, state, total, submitted_at, updated_at)
      VALUES (@id, @provider, @baseUrl, @model, @state, @total, @now, @now)`);
    this.insertCall = store.db.prepare('INSERT OR IGNORE INTO llm_batch_calls (batch_id, key, parts) VALUES (?, ?, ?)');
    this.updateStmt = store.db.prepare(
      'UPDATE llm_batches SET state = @state, total = @total, completed = @completed, failed = @failed, message = @message, updated_at = @now WHERE id = @id',
    );
    this.collectStmt = store.db.prepare('UPDATE llm_batches SET collected = 1, updated_at = ? WHERE id = ?');
    this.openForKey = store.db.prepare(
      `SELECT b.id FROM llm_batch_calls c JOIN llm_batches b ON b.id = c.batch_id
       WHERE c.key = ? AND b.collected = 0 AND b.provider = ? AND b.base_url = ? ORDER BY b.submitted_at DESC LIMIT 1`,
    );
    this.callsOf = store.db.prepare('SELECT key, parts FROM llm_batch_calls WHERE batch_id = ?');
    this.countStmt = store.db.prepare('SELECT count(*) AS n FROM llm_batch_calls WHERE batch_id = ?');
    this.tries = store.db.prepare('SELECT count(*) AS n FROM llm_batch_calls WHERE key = ?');
    this.all = store.db.prepare('SELECT * FROM llm_batches ORDER BY submitted_at, id');
  }

  record(b: { id: string; provider: string; baseUrl: string; model: string; state: BatchState }, calls: { key: string; parts: CallKeyParts }[]): void {
    const now = new Date().toISOString();
    this.store.db.transaction(() => {
      this.insertBatch.run({ ...b, total: calls.length, now });
      for (const c of calls) this.insertCall.run(b.id, c.key, JSON.stringify(c.parts));
    })();
  }

  update(s: BatchStatus): void {
    this.updateStmt.run({ id: s.id, state: s.state, total: s.total, completed: s.completed, failed: s.failed, message: s.message ?? null, now: new Date().toISOString() });
  }

  markCollected(id: string): void {
    this.collectStmt.run(new Date().toISOString(), id);
  }

  /** The uncollected batch (of this endpoint) that carries a call, if any. */
  openBatchFor(key: string, provider: string, baseUrl: string): string | undefined {
    return (this.openForKey.get(key, provider, baseUrl) as { id: string } | undefined)?.id;
  }

  calls(batchId: string): { key: string; parts: CallKeyParts }[] {
    return (this.callsOf.all(batchId) as { key: string; parts: string }[]).map((r) => ({ key: r.key, parts: JSON.parse(r.parts) as CallKeyParts }));
  }

  /** How many calls a batch carries. */
  callCount(batchId: string): number {
    return (this.countStmt.get(batchId) as { n: number }).n;
  }

  /** How many batches a call has been submitted in (1 = the first submission). */
  submissions(key: string): number {
    return (this.tries.get(key) as { n: number }).n;
  }

  list(): StoredBatch[] {
    return (this.all.all() as BatchRow[]).map(batchOf);
  }
}
