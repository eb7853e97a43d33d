/**
 * Child process of the execution pool. It runs queries one at a time and reports each result
 * as soon as it is done, so that the parent can time every query and SIGKILL this process
 * when one runs too long: SQLite inside a single long native step cannot be interrupted from
 * JavaScript, and a worker thread cannot be terminated then, but a process can always be killed.
 */
import Database from 'better-sqlite3';
import { dqsExtensionFile, openForQueries } from './dqs.js';
import { KERNEL_WATCHED } from './parent-death.js';
import { digestQuery } from './digest-query.js';
import { prepareOnly, runQuery } from './run-query.js';
import type { SqliteCompat } from './sqlite-compat.js';
import type { ExecResult } from './types.js';
import type { ChildMessage, ParentMessage, PoolJob, SameRows, WireResult } from './pool-protocol.js';
import { toWire } from './wire-result.js';

// A query's error reaches the parent as its message only; SQLite errors are common (wrong
// predictions), and capturing a stack trace for each cost more than preparing the query.
Error.stackTraceLimit = 0;

const connections = new Map<string, Database.Database>();
/** This process's file is in this package (dist/cli/, dist/src/execution/ or src/execution/). */
const DQS_EXTENSION = dqsExtensionFile(process.argv[1]!);

/** The connection to a database for a batch's --sqlite-compat (one per setting: a connection's is made once). */
function connection(path: string, compat: SqliteCompat | undefined): Database.Database {
  const key = compat ? `${compat.version}\n${path}` : path;
  let db = connections.get(key);
  if (!db) {
    db = openForQueries(Database, path, DQS_EXTENSION, compat);
    tempInMemory(db);
    holdLock(db);
    connections.set(key, db);
  }
  return db;
}

/**
 * SQLite's temporary storage (the sorter's spill of an ORDER BY or GROUP BY, the tables of a UNION,
 * DISTINCT or recursive CTE) in this process's memory instead of temp files: files were counted by
 * neither --max-memory-mb nor --max-result-bytes, and a runaway `UNION` over a recursive CTE wrote
 * 191 MB of them in 5 s (issue 30: 763 MB at --timeout 10). In memory it is resident memory, which
 * the pool's cap sees (pool.ts checkMemory: better-sqlite3 is built without SQLite's memory
 * accounting, so PRAGMA hard_heap_limit would do nothing). With temp in memory SQLite's sorter never
 * writes a file at all (vdbesort.c). A query may not set it back: run-query.ts refuses PRAGMAs that
 * set state.
 */
function tempInMemory(db: Database.Database): void {
  db.pragma('temp_store = MEMORY');
  // 2 is MEMORY. Should it not hold (never seen), no query runs here: each is "cannot open database".
  if (db.pragma('temp_store', { simple: true }) !== 2) {
    db.close();
    throw new Error('SQLite did not keep its temporary storage in memory (PRAGMA temp_store), so no query may run');
  }
}

/**
 * Keeps the connection's shared lock for the process's life instead of taking and giving it back
 * around every query: in the default mode each statement takes the lock, looks for a hot journal
 * and a WAL file and re-reads the change counter (about eight system calls), 9% of this process's
 * time for the 23 bundled systems. Read-only, the connection holds only a shared lock, so other
 * readers still read. Only for a database in rollback-journal mode: a WAL database opened so needs
 * an exclusive lock, which a read-only connection cannot take (every query would be "disk I/O
 * error"). Whatever fails here leaves the default mode, and the query then meets it as before.
 */
function holdLock(db: Database.Database): void {
  try {
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('locking_mode = EXCLUSIVE');
  } catch {
    // The default mode: the query reports what is wrong with the database, as it did.
  }
}

function send(msg: ChildMessage): void {
  process.send!(msg);
}

// Results go back in small groups (one IPC message per query would cost more than most Spider
// queries take). A group is flushed at least every FLUSH_MS, so the parent's per-query timer,
// restarted by each message, runs at most FLUSH_MS late.
const FLUSH_MS = 10;
const FLUSH_COUNT = 64;
/** A big result goes out at once: a group of them would hold several budgets in this process's memory. */
const FLUSH_BYTES = 1 << 20;

/**
 * A job sent with the result of a text with the same variant key (PoolJob.sameAs): the same rows,
 * so it is prepared, not run, for its own columns, refusal or error; undefined when it must run.
 */
function shared(known: SameRows, dbPath: string, sql: string, batch: BatchMessage): WireResult | undefined {
  let own: ExecResult;
  try {
    own = prepareOnly(connection(dbPath, batch.compat), sql);
  } catch {
    return undefined;
  }
  if (own.status !== 'ok') return toWire(own, batch.want);
  // Never expected (the same statement but for case and spacing), and then the query runs itself.
  if (own.columns.length !== known.columns) return undefined;
  return { status: 'ok', columns: own.columns, ms: own.ms, rowSet: known.rowSet };
}

type BatchMessage = Extract<ParentMessage, { type: 'batch' }>;

/** A job's result as the parent wants it; only a digest wanted, read as digestQuery reads (the same result, less work per row). */
function execute(dbPath: string, sql: string, msg: BatchMessage, digestOnly: boolean, counted: { bytes: number }): WireResult {
  let db: Database.Database;
  try {
    db = connection(dbPath, msg.compat);
  } catch (e) {
    return { status: 'error', columns: [], error: `cannot open database: ${(e as Error).message}`, ms: 0 };
  }
  return digestOnly ? digestQuery(db, sql, msg.maxRows, msg.maxBytes) : toWire(runQuery(db, sql, msg.maxRows, msg.maxBytes, counted), msg.want);
}

/**
 * Whether this process has said it is ready. Batches that come before (the pool sends work to a
 * process still starting) wait in the queue until it has, so that the watchdog thread below exists
 * before any query runs.
 */
let isReady = false;

process.on('message', (msg: ParentMessage) => {
  if (msg.type === 'batch') take(msg);
  else if (msg.type === 'release') release(msg.jobIds);
});

/** Jobs sent and not yet run, each with the batch that brought it (its limits and wants), in order. */
let queue: { job: PoolJob; batch: BatchMessage }[] = [];
/** The next job of `queue` to run. */
let next = 0;
let working = false;

/**
 * How long the process runs jobs before it lets messages in: a 'release' (the parent's request for
 * jobs not started, which it gives to a process that ran out of work, pool.ts takeTail) or more work
 * waits at most this long, and a turn of the event loop every 5 ms costs nothing worth counting.
 */
const SLICE_MS = 5;

function take(msg: BatchMessage): void {
  for (const job of msg.jobs) queue.push({ job, batch: msg });
  if (isReady && !working) work();
}

let results: { jobId: number; result: WireResult }[] = [];
let resultBytes = 0;
let lastFlush = performance.now();
const counted = { bytes: 0 };

function flush(): void {
  if (results.length > 0) send({ type: 'results', results });
  results = [];
  resultBytes = 0;
  lastFlush = performance.now();
}

/** Runs the queued jobs one at a time, sending results in groups; says it is idle when none is left. */
function work(): void {
  working = true;
  const sliceStart = performance.now();
  while (next < queue.length) {
    const { job, batch } = queue[next]!;
    next++;
    counted.bytes = 0;
    // Only a digest wanted: digestQuery reads the rows (the same result, less work per row).
    const digestOnly = !batch.want.rows && batch.want.rowSet;
    const wire = (job.sameAs && shared(job.sameAs, job.dbPath, job.sql, batch)) || execute(job.dbPath, job.sql, batch, digestOnly, counted);
    results.push({ jobId: job.jobId, result: wire });
    resultBytes += counted.bytes;
    const now = performance.now();
    if (results.length >= FLUSH_COUNT || resultBytes >= FLUSH_BYTES || now - lastFlush >= FLUSH_MS) flush();
    if (now - sliceStart >= SLICE_MS && next < queue.length) {
      // The jobs run so far are let go (a stream of batches may never leave the queue empty, and
      // hostile SQL text can be long).
      [queue, next] = [queue.slice(next), 0];
      setImmediate(work);
      return;
    }
  }
  queue = [];
  next = 0;
  working = false;
  flush();
  send({ type: 'idle' });
}

/** Takes back the jobs named that have not started, and says which. */
function release(jobIds: number[]): void {
  const wanted = new Set(jobIds);
  const released: number[] = [];
  const kept: typeof queue = [];
  for (let k = next; k < queue.length; k++) {
    const q = queue[k]!;
    if (wanted.has(q.job.jobId)) released.push(q.job.jobId);
    else kept.push(q);
  }
  queue = kept;
  next = 0;
  send({ type: 'released', jobIds: released });
}

/** Says it is ready (with its resident memory: the runtime's own share), then runs what came meanwhile. */
function ready(): void {
  send({ type: 'ready', rss: process.memoryUsage.rss() });
  isReady = true;
  if (queue.length > 0) work();
}

process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole process group: the parent alone decides (src/commands/interrupt.ts). A
// process dying of SIGINT before the parent saw the signal would report its query as "the execution
// process died", a result the run store would keep for the re-run.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
// If the parent dies (even by SIGKILL) while this process is inside a long SQLite step, the main
// thread cannot notice. Where the kernel does not kill it with its parent (parent-death.ts), a
// worker thread runs on its own and kills the orphaned process. (Loaded only then: node:worker_threads
// costs some 7 ms of every process's start.) The process is ready, and runs the batches that came
// meanwhile, only once the thread exists: a query started before the import resolved, if it never
// ended, would keep the thread from ever starting.
if (process.env[KERNEL_WATCHED]) {
  ready();
} else {
  void import('node:worker_threads').then(({ Worker }) => {
    try {
      new Worker(
        `const parent = process.ppid;
         setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, 500);`,
        { eval: true },
      ).unref();
    } catch {
      // No thread to be had (a thread or process limit): the process still runs its queries, as an
      // orphan would only if its parent were killed; crashing here would be replaced again and again.
    }
    ready();
  });
}
