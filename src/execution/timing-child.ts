/**
 * Child process that times VES pairs: one query at a time, nothing else running in it, on a
 * read-only connection, with the same query path as execution (runQuery: the same refusals and
 * double-quoted strings). The parent kills it when a pair runs past its limit.
 */
import Database from 'better-sqlite3';
import { dqsExtensionFile, openForQueries } from './dqs.js';
import { runQuery } from './run-query.js';
import { timePair } from './ves.js';
import type { TimingRequest, TimingReply } from './timing-protocol.js';

const connections = new Map<string, Database.Database>();
const DQS_EXTENSION = dqsExtensionFile(process.argv[1]!);

// Ctrl-C reaches the whole process group; the parent kills this process itself (src/commands/interrupt.ts).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

process.on('message', (msg: TimingRequest) => {
  let reply: TimingReply;
  try {
    const key = msg.compat ? `${msg.compat.version}\n${msg.dbPath}` : msg.dbPath;
    let db = connections.get(key);
    if (!db) connections.set(key, (db = openForQueries(Database, msg.dbPath, DQS_EXTENSION, msg.compat)));
    const run = (sql: string): void => {
      const r = runQuery(db, sql, msg.maxRows);
      if (r.status !== 'ok') throw new Error(r.error ?? 'execution failed');
    };
    const clock = (): number => Number(process.hrtime.bigint()) / 1e6;
    reply = { id: msg.id, timing: timePair(run, msg.predSql, msg.goldSql, msg.reps, clock) };
  } catch (e) {
    reply = { id: msg.id, error: (e as Error).message };
  }
  process.send!(reply);
});
process.send!({ ready: true });
