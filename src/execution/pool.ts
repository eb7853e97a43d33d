import type { ChildProcess } from 'node:child_process';
import type { ChildMessage, ParentMessage, PoolJob, ResultWants, SameRows, WireResult } from './pool-protocol.js';
import { forkExecProcess } from './exec-process.js';
import { setprivFailed } from './parent-death.js';
import { adoptPrespawned, releasePrespawned } from './prespawn.js';
import { ResidentMemory } from './process-memory.js';
import { QueuedWorkEstimate } from './queued-work.js';
import { sqlVariantKey } from './variant-key.js';
import type { SqliteCompat } from './sqlite-compat.js';

export interface PoolOptions {
  /** Most child processes (default: one per core); the first starts at once, the others when grow() says. */
  size: number;
  /** Per-query limit; a query still running then is SIGKILLed with its process. */
  timeoutMs: number;
  maxRows: number;
  /** Byte budget per result, counted in the child while rows are stepped. */
  maxBytes: number;
  /** Resident memory cap per child process; a child above it is killed with its query (none: no cap). */
  maxMemoryBytes?: number;
  /** --sqlite-compat: what every query connection refuses (sqlite-compat.ts). */
  compat?: SqliteCompat;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  /** Jobs sent and not yet answered; the first is the one running. */
  batch: PoolJob[];
  timer: NodeJS.Timeout | undefined;
  /** Results this process has sent: a process that has served none is fresh for its first job. */
  served: number;
  /** Resident memory when it was ready and had served nothing (the runtime's own share). */
  baseRss?: number;
  /** Resident memory when its running suspect (an isolated job) was sent: what it held before that query. */
  rssBeforeSuspect?: number;
  /** Resident memory at the last memory poll (at most MEMORY_POLL_MS old). */
  lastRss?: number;
  /** Started through setpriv (parent-death.ts). */
  throughSetpriv?: boolean;
  /** Its resident memory, read from its statm kept open (with a memory cap). */
  memory?: ResidentMemory;
  /** It exited before saying it was ready, and its IPC channel is being drained (onExit). */
  exitedUnready?: boolean;
  /** It was asked to give back jobs it has not started (takeTail) and has not answered yet. */
  releasing?: boolean;
}

/**
 * What the pool knows of one variant key: the result of the first text with it (the primary), or
 * that it failed, and the texts waiting for it meanwhile.
 */
interface Variant {
  known?: SameRows;
  failed?: boolean;
  waiting: PoolJob[];
}

/** What the record of variant keys may hold, counted as their characters: predictions are hostile. */
const VARIANT_CHARS = 8 << 20;

/** One caller's run(): its jobs' results go to its callback, and it ends when all are settled. */
interface RunState {
  onResult: (jobId: number, result: WireResult) => void;
  want: ResultWants;
  pending: number;
  resolve: () => void;
}

/**
 * Work above which the pool runs all its processes: queued work (estimated from the queries
 * answered so far, queued-work.ts; before it can be, the work already done), or a wait that long
 * without any answer.
 * One process starts first: each more costs ~0.15 s of CPU and ~45 MB to boot and then competes
 * with this process for the cores, which a single submission's ~1,500 Spider queries (~0.5 s of
 * work) never repay.
 */
const GROW_AT_MS = 1000;

/**
 * Queued jobs from which the pool runs all its processes without waiting for GROW_AT_MS: about
 * two Spider submissions' distinct queries beyond a first one's golds, a leaderboard's work, which
 * a second process repays. Started while this process still reads the other files, it is ready
 * when they are queued (grown by work done, it started ~1 s in, and then waited for this process,
 * busy reading, to hand it its first batch).
 */
const GROW_AT_JOBS = 3000;

/**
 * The most jobs sent in one batch. Two batches are out at most, so a process has work for about
 * 2 × 512 Spider queries (~0.3 s) while this process is busy elsewhere (reading files, keying
 * requests) and hands out nothing; 256 left them idle behind a score reading 23 prediction files.
 */
const MAX_BATCH = 512;

/**
 * The fewest jobs a process has outstanding while the queue has more: at the tail, batches of one
 * job each left it waiting for the parent after every query (a single system's last few hundred
 * light queries, one round trip each). A few light jobs more in one process's pipe cost the other
 * process nothing worth keeping them back for.
 */
const PIPELINE_JOBS = 8;

/** Processes in a row that may die before they are ready and give their work back unblamed. */
const UNREADY_DEATHS = 3;

/** How often the children's resident memory is read (a memory bomb grows ~250 MB/s). */
const MEMORY_POLL_MS = 20;

/**
 * A pool of child processes that execute queries. Queries go out in small batches to keep
 * IPC overhead low, and each answer restarts the per-query timer, so every query gets its own
 * full timeout. On timeout or crash the process is killed, the running query is reported,
 * the rest of its batch goes back to the queue and a fresh process takes the slot.
 */
export class ProcessPool {
  private readonly slots: Slot[] = [];
  /** Jobs waiting for a process, with pool-wide ids (`owners` maps each to its run and the caller's id). */
  private queue: PoolJob[] = [];
  private readonly owners = new Map<number, { run: RunState; jobId: number }>();
  private nextId = 0;
  /** The queries answered so far, for the estimate of the queued work. */
  private readonly work = new QueuedWorkEstimate();
  /** When the last answer came, a process got ready, or the queue last went from empty to not. */
  private progressAt = performance.now();
  private growTimer: NodeJS.Timeout | undefined;
  /**
   * Jobs that want only a digest, by database and variant key (variant-key.ts): a text that differs
   * from another only in whitespace and case returns the same rows, so it is only prepared (its own
   * columns, refusal or error) once the first one's result is known (PoolJob.sameAs). Among the 23
   * bundled Spider systems' 13,353 distinct texts, 9,962 keys: ~12% of the execution time. Kept
   * here, for all the processes: each process's own record had missed the spellings that another ran.
   */
  private readonly variants = new Map<string, Map<string, Variant>>();
  private variantChars = 0;
  /** Jobs whose result is their variant key's (pool job id → what is known of that key). */
  private readonly primaries = new Map<number, Variant>();
  /** Batches given back unblamed by processes that died before they were ready, since one was. */
  private unreadyDeaths = 0;
  private closed = false;
  private readonly memoryWatch: NodeJS.Timeout | undefined;

  constructor(private readonly opts: PoolOptions) {
    if (opts.maxMemoryBytes !== undefined) {
      this.memoryWatch = setInterval(() => this.checkMemory(opts.maxMemoryBytes!), MEMORY_POLL_MS);
      this.memoryWatch.unref();
    }
  }

  /** Starts the first process now, so that its start-up overlaps whatever the caller does next. */
  warm(): void {
    if (!this.closed && this.slots.length === 0) this.addSlot();
    if (this.slots.length >= this.opts.size) releasePrespawned();
  }

  /** A new process in the pool, given work at once (it runs it once ready: see dispatch). */
  private addSlot(): void {
    const slot = this.spawn();
    this.slots.push(slot);
    this.dispatch(slot);
  }

  /**
   * Starts the rest of the processes once the queued work is worth them (GROW_AT_MS): estimated
   * from the answers so far, or when no answer has come for that long (slow queries, a hang), or
   * when many jobs are queued (GROW_AT_JOBS).
   */
  private grow(): void {
    if (this.closed || this.queue.length === 0) return;
    // Counted before the first process takes its first batch (it does at once, even starting).
    const queued = this.queue.length;
    if (this.slots.length === 0) this.addSlot();
    if (this.slots.length >= this.opts.size) return releasePrespawned();
    const estimate = this.work.of(queued);
    // A wait counts only once a process is ready: one still starting says nothing of the work.
    const stalled = this.slots.some((slot) => slot.ready) && performance.now() - this.progressAt >= GROW_AT_MS;
    if ((estimate ?? this.work.spentMs) >= GROW_AT_MS || stalled || queued >= GROW_AT_JOBS) {
      while (this.slots.length < this.opts.size) this.addSlot();
      // A process started early that the pool has no slot for (none when prespawn starts one) goes now.
      releasePrespawned();
      return;
    }
    if (!this.growTimer) {
      this.growTimer = setTimeout(() => {
        this.growTimer = undefined;
        this.grow();
      }, GROW_AT_MS);
      this.growTimer.unref();
    }
  }

  /**
   * Runs the jobs; `onResult` hears each one's result under the caller's jobId. Several runs may be
   * under way at once (a caller may send work while it prepares more): their jobs queue in the
   * order the runs came, and each run's promise resolves when its own jobs are all answered.
   */
  run(jobs: PoolJob[], want: ResultWants, onResult: (jobId: number, result: WireResult) => void): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    if (this.closed) throw new Error('pool closed');
    return new Promise<void>((resolve) => {
      const run: RunState = { onResult, want, pending: jobs.length, resolve };
      if (this.queue.length === 0) this.progressAt = performance.now();
      const digestOnly = !want.rows && want.rowSet;
      const queued: PoolJob[] = [];
      for (const j of jobs) {
        const id = this.nextId++;
        this.owners.set(id, { run, jobId: j.jobId });
        const job: PoolJob = { ...j, jobId: id };
        if (!digestOnly || !this.waitsForVariant(job)) queued.push(job);
      }
      // concat, not push(...jobs): spreading some 130,000 jobs as arguments overflows the stack.
      this.queue = this.queue.concat(queued);
      // Grown first: a process still starting takes its batch at once, and the queue it leaves
      // would no longer say how much work came (GROW_AT_JOBS).
      this.grow();
      for (const slot of this.slots) this.dispatch(slot);
    });
  }

  /** Live child process ids (for diagnostics and tests). */
  pids(): number[] {
    return this.slots.map((s) => s.child.pid).filter((p): p is number => p !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.growTimer) clearTimeout(this.growTimer);
    releasePrespawned();
    if (this.memoryWatch) clearInterval(this.memoryWatch);
    await Promise.all(this.slots.map((s) => this.stop(s)));
    this.slots.length = 0;
  }

  private spawn(): Slot {
    // Processes started first thing by the CLI (prespawn.ts) are taken before new ones are forked.
    const early = adoptPrespawned();
    const { child, throughSetpriv } = early ?? forkExecProcess();
    const slot: Slot = { child, ready: early?.ready ?? false, batch: [], timer: undefined, served: 0, ...(throughSetpriv ? { throughSetpriv } : {}) };
    if (this.opts.maxMemoryBytes !== undefined && child.pid !== undefined) slot.memory = new ResidentMemory(child.pid);
    if (slot.ready) this.progressAt = performance.now();
    if (slot.ready && this.opts.maxMemoryBytes !== undefined) slot.baseRss = early?.readyRss ?? this.rssOf(slot);
    // A message already in the pipe from a process just replaced must not reach its old slot: an
    // 'idle' would hand queued jobs to a dead process, where they were lost and the run hung.
    child.on('message', (msg: ChildMessage) => this.slots.includes(slot) && this.onMessage(slot, msg));
    child.on('exit', (code, signal) => this.onExit(slot, code, signal));
    // Sending to a process that died after its last message fails with EPIPE; 'exit' handles it.
    child.on('error', () => {});
    return slot;
  }

  private onMessage(slot: Slot, msg: ChildMessage): void {
    if (msg.type === 'ready') {
      slot.ready = true;
      this.unreadyDeaths = 0;
      // A process's start-up is not a query taking long: the wait for answers starts now, and so
      // does the timer of a batch sent before.
      this.progressAt = performance.now();
      // Its own reading when it said so: by the time this process hears it, it may be running a batch.
      if (this.opts.maxMemoryBytes !== undefined) slot.baseRss = msg.rss ?? this.rssOf(slot);
      this.arm(slot);
      this.dispatch(slot);
    } else if (msg.type === 'results') {
      for (const { jobId, result } of msg.results) {
        const at = slot.batch.findIndex((j) => j.jobId === jobId);
        if (at < 0) continue;
        slot.batch.splice(at, 1);
        slot.served++;
        this.work.add(result.ms);
        this.settle(jobId, result);
      }
      this.progressAt = performance.now();
      this.arm(slot);
      this.dispatch(slot);
      this.grow();
      // A process that ran out of work while this one still had some may take its tail now.
      for (const other of this.slots) if (other !== slot && other.batch.length === 0) this.dispatch(other);
    } else if (msg.type === 'released') {
      this.released(slot, msg.jobIds);
    } else if (msg.type === 'idle') {
      this.dispatch(slot);
    }
  }

  private dispatch(slot: Slot): void {
    // A slot replaced meanwhile (a primary's followers are dispatched from inside the loop over its
    // process's results, and that dispatch may retire the process) gets nothing: it would never answer.
    if (this.closed || !this.slots.includes(slot) || slot.exitedUnready) return;
    if (this.queue.length === 0) return this.takeTail(slot);
    // Not to a process still starting while a ready one has nothing to do (at the end of a run,
    // a process started to replace a killed one would sit on the last jobs while it boots).
    if (!slot.ready && this.slots.some((s) => s !== slot && s.ready && s.batch.length === 0)) return;
    // A process still starting gets its work now and runs it once ready (exec-child.ts holds it until
    // then): this process is often busy reading files when the 'ready' comes, and the first process
    // then waited ~20-120 ms for its first batch. A suspect waits for a ready process: its blame
    // rests on the memory the process held before it (rssBeforeSuspect).
    if (!slot.ready && this.queue[0]!.isolate) return;
    // A busy process is never idle long enough for the memory poll to retire it, so memory left by
    // earlier queries is checked here: a process holding too much drains its batch and is replaced
    // before it takes more work, and no query is blamed for memory it did not take. The poll's last
    // reading serves for ordinary batches; a suspect's process is read afresh, as it may be blamed.
    const rss = this.queue[0]!.isolate ? this.rssOf(slot) : slot.lastRss;
    if (this.heldTooMuch(slot, rss)) {
      if (slot.batch.length === 0) this.replace(slot, undefined);
      return;
    }
    // A suspect from a killed batch always goes alone, to a process with nothing else to do.
    if (slot.batch.length > 0 && (slot.batch[0]!.isolate || this.queue[0]!.isolate)) return;
    // Batches shrink as the queue drains so that the last jobs spread over the processes running
    // (not those the pool may start: while one runs alone, its tail is not cut into single jobs).
    let size = this.queue[0]!.isolate ? 1 : Math.max(1, Math.min(MAX_BATCH, Math.ceil(this.queue.length / (this.slots.length * 4))));
    // The next batch goes out while the process still works on the last one, so it never waits
    // for a round trip to the parent: about two batches are outstanding at most, and never fewer
    // than PIPELINE_JOBS jobs (at the tail, one job per batch had the process wait ~1 ms per job).
    if (slot.batch.length >= Math.max(size, PIPELINE_JOBS)) return;
    if (!this.queue[0]!.isolate) size = Math.max(size, PIPELINE_JOBS - slot.batch.length);
    // A batch is one run's wants: the jobs of runs that want the same go together.
    const want = this.wantOf(this.queue[0]!);
    let take = 0;
    while (take < size && take < this.queue.length && (take === 0 || (!this.queue[take]!.isolate && sameWants(this.wantOf(this.queue[take]!), want)))) take++;
    const jobs = this.queue.splice(0, take);
    const wasIdle = slot.batch.length === 0;
    if (wasIdle && jobs[0]!.isolate) slot.rssBeforeSuspect = rss;
    slot.batch = slot.batch.concat(jobs);
    const msg: ParentMessage = { type: 'batch', jobs, maxRows: this.opts.maxRows, maxBytes: this.opts.maxBytes, want, ...(this.opts.compat ? { compat: this.opts.compat } : {}) };
    slot.child.send(msg);
    // A running query's timer is not restarted by more work queued behind it.
    if (wasIdle) this.arm(slot);
  }

  /**
   * Nothing queued and this process idle: the process with the most jobs sent and not started is
   * asked to give back the later half of them (exec-child.ts answers 'released' with those it had
   * not started), and they are queued again for whichever process is free. At the end of a
   * 15-system run one process had run out of work while the other still held ~0.5 s of it (a batch
   * is sent before the last ones are answered, and a few world_1 and wta_1 queries take 0.1-0.2 s
   * each, which no guess of a query's cost foresees). One request per process at a time; never
   * from a process running a suspect (it runs alone).
   */
  private takeTail(slot: Slot): void {
    // A process holding too much is retired by the memory poll, not given more.
    if (!slot.ready || slot.batch.length > 0 || this.heldTooMuch(slot, slot.lastRss)) return;
    let from: Slot | undefined;
    let most = 0;
    for (const other of this.slots) {
      if (other === slot || !other.ready || other.releasing || other.batch.length < 2 || other.batch[0]!.isolate) continue;
      if (other.batch.length - 1 > most) [from, most] = [other, other.batch.length - 1];
    }
    if (!from) return;
    // The first is running (or about to); the ones it would run last go back.
    const jobIds = from.batch.slice(from.batch.length - Math.ceil(most / 2)).map((j) => j.jobId);
    from.releasing = true;
    from.child.send({ type: 'release', jobIds } satisfies ParentMessage);
  }

  /** What a process gave back of a release request: queued again, first, for any free process. */
  private released(slot: Slot, jobIds: number[]): void {
    slot.releasing = false;
    if (jobIds.length === 0) return;
    const ids = new Set(jobIds);
    const back = slot.batch.filter((j) => ids.has(j.jobId));
    slot.batch = slot.batch.filter((j) => !ids.has(j.jobId));
    this.queue = back.concat(this.queue);
    // The idle processes first: the one that gave them back would take them again (PIPELINE_JOBS).
    for (const s of this.slots) if (s.batch.length === 0) this.dispatch(s);
    this.dispatch(slot);
  }

  private arm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    // A process still starting runs nothing: its timer starts with its 'ready'.
    if (slot.batch.length === 0 || !slot.ready) return;
    slot.timer = setTimeout(() => this.timeout(slot), this.opts.timeoutMs);
  }

  private timeout(slot: Slot): void {
    const job = slot.batch[0];
    if (!job) return;
    slot.timer = undefined;
    this.replace(slot, {
      status: 'timeout',
      columns: [],
      error: `timed out after ${this.opts.timeoutMs / 1000} s (--timeout)`,
      ms: this.opts.timeoutMs,
    });
  }

  /**
   * Kills a busy process whose resident memory passed the cap, blaming its running query only when
   * that query is the first the process ran (else memory kept from earlier queries may be to blame,
   * and the query gets one more try alone in a fresh process). An idle process holding more than
   * half of what the cap leaves above its start-up size (allocators rarely give memory back) is
   * replaced before it is blamed for anything.
   */
  private checkMemory(cap: number): void {
    for (const slot of [...this.slots]) {
      if (!slot.ready) continue;
      const rss = this.rssOf(slot);
      slot.lastRss = rss;
      if (rss === undefined) continue;
      if (slot.batch.length === 0) {
        if (this.heldTooMuch(slot, rss) && !this.closed) this.replace(slot, undefined);
        continue;
      }
      if (rss <= cap) continue;
      const mb = (n: number): string => `${Math.round(n / 2 ** 20)} MB`;
      // Blamed only when it ran alone and the process was clean before it: its first query, or a
      // suspect sent to a process that then held at most the retirement threshold, so that this
      // query alone took at least half of what the cap leaves above start-up.
      const suspect = slot.batch[0]!.isolate === true && slot.rssBeforeSuspect !== undefined && slot.rssBeforeSuspect <= this.retireAbove(slot, cap);
      const first = slot.batch.length === 1 && (slot.served === 0 || suspect);
      this.replace(
        slot,
        first
          ? {
              status: 'error',
              columns: [],
              error: `memory limit: the query's process reached ${mb(rss)} (--max-memory-mb ${Math.round(cap / 2 ** 20)})`,
              memoryLimitMb: cap / 2 ** 20,
              ms: 0,
            }
          : undefined,
      );
    }
  }

  /** Memory above which a process that has served queries is retired: half of what the cap leaves above its start-up size. */
  private retireAbove(slot: Slot, cap: number): number {
    const base = slot.baseRss ?? 0;
    return base + (cap - base) / 2;
  }

  private rssOf(slot: Slot): number | undefined {
    return slot.memory?.read();
  }

  /** Whether a process that has served queries holds (resident: `rss`) more than it should keep. */
  private heldTooMuch(slot: Slot, rss: number | undefined): boolean {
    const cap = this.opts.maxMemoryBytes;
    return cap !== undefined && slot.served > 0 && rss !== undefined && rss > this.retireAbove(slot, cap);
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed || !this.slots.includes(slot)) return;
    if (!slot.ready && slot.batch.length > 0 && !slot.exitedUnready) {
      // Work was sent before the process said it was ready. Its 'ready' and results may still be in
      // the pipe ('exit' can come first): decided once the channel is drained ('close').
      slot.exitedUnready = true;
      slot.child.once('close', () => this.onExit(slot, code, signal));
      return;
    }
    // A setpriv that cannot run Node (too old for --pdeathsig) ends before the process is ready:
    // the rest start without setpriv.
    if (slot.throughSetpriv && !slot.ready && signal === null) setprivFailed();
    if (!slot.ready && this.unreadyDeaths++ < UNREADY_DEATHS) {
      // It ran none of its work (exec-child.ts runs nothing before it says it is ready): the work
      // goes back as it was, blaming no query. Not again and again: should the work itself be what
      // kills a process before it is ready (a batch too big to take in), it is then handled as a
      // death while running (its jobs run alone, the one that kills a process blamed).
      this.queue = slot.batch.concat(this.queue);
      slot.batch = [];
      this.replace(slot, undefined);
      return;
    }
    this.replace(slot, {
      status: 'error',
      columns: [],
      error: `the execution process died (${signal ?? `exit code ${code}`}) while running this query`,
      ms: 0,
    });
  }

  /**
   * Kills the slot's process and starts a fresh one. When one job was unanswered it is the one
   * that ran too long (or crashed the process) and gets `resultForRunning`; when several were
   * (answers travel in groups) they all go back to the queue to be run one at a time, so the
   * culprit is found without blaming its neighbours.
   */
  private replace(slot: Slot, resultForRunning: WireResult | undefined): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.child.removeAllListeners('exit');
    slot.child.kill('SIGKILL');
    slot.memory?.close();
    const unanswered = slot.batch;
    slot.batch = [];
    const fresh = this.spawn();
    this.slots[index] = fresh;
    if (unanswered.length === 1 && resultForRunning) this.settle(unanswered[0]!.jobId, resultForRunning);
    else this.queue.unshift(...unanswered.map((j) => ({ ...j, isolate: true })));
    this.dispatch(fresh);
  }

  /**
   * A digest-only job's variant key: the first job with it runs (the primary); a later one is sent
   * with the primary's result once it is known (true: it waits until then), or runs itself when the
   * primary failed or its text has no key.
   */
  private waitsForVariant(job: PoolJob): boolean {
    const variant = sqlVariantKey(job.sql);
    if (variant === undefined) return false;
    // By database, then text: a key string made of both was flattened and hashed whole for every job.
    let ofDb = this.variants.get(job.dbPath);
    if (!ofDb) this.variants.set(job.dbPath, (ofDb = new Map()));
    const seen = ofDb.get(variant);
    if (seen === undefined) {
      if (this.variantChars + variant.length > VARIANT_CHARS) {
        this.forgetSettledVariants();
        // Still full of keys that jobs wait on: this one runs unrecorded (no walk for every new key).
        if (this.variantChars + variant.length > VARIANT_CHARS) return false;
      }
      const primary: Variant = { waiting: [] };
      ofDb.set(variant, primary);
      this.variantChars += variant.length;
      this.primaries.set(job.jobId, primary);
      return false;
    }
    if (seen.known) {
      job.sameAs = seen.known;
      return false;
    }
    if (seen.failed) return false;
    seen.waiting.push(job);
    return true;
  }

  /** Keeps only the keys whose primary still runs with jobs waiting for it (the others are found again). */
  private forgetSettledVariants(): void {
    this.variantChars = 0;
    this.variants.forEach((ofDb) =>
      ofDb.forEach((v, variant) => {
        if (v.waiting.length > 0) this.variantChars += variant.length;
        else ofDb.delete(variant);
      }),
    );
  }

  /** A primary's result: its waiting jobs join the queue, with it when it can be shared, else to run themselves. */
  private variantSettled(v: Variant, result: WireResult): void {
    // A result marked undecodable carries its text's column name in that mark (undecodable-text.ts).
    // Only the digest and the number of columns: a column's name is its expression's text, which a
    // hostile prediction can make megabytes long, and each waiting job would carry it.
    if (result.status === 'ok' && result.undecodable === undefined && result.rowSet !== undefined) {
      v.known = { rowSet: result.rowSet, columns: result.columns.length };
    } else v.failed = true;
    const waiting = v.waiting;
    v.waiting = [];
    if (waiting.length === 0) return;
    if (this.queue.length === 0) this.progressAt = performance.now();
    // At the end, not the front: putting them first copied the whole queue for every primary.
    for (const job of waiting) {
      if (v.known) job.sameAs = v.known;
      this.queue.push(job);
    }
    for (const slot of this.slots) this.dispatch(slot);
  }

  private settle(id: number, result: WireResult): void {
    const variant = this.primaries.get(id);
    if (variant !== undefined) {
      this.primaries.delete(id);
      this.variantSettled(variant, result);
    }
    const owner = this.owners.get(id);
    if (!owner) return;
    this.owners.delete(id);
    owner.run.onResult(owner.jobId, result);
    if (--owner.run.pending === 0) {
      this.work.runAnswered();
      owner.run.resolve();
    }
  }

  private wantOf(job: PoolJob): ResultWants {
    return this.owners.get(job.jobId)!.run.want;
  }

  private stop(slot: Slot): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    slot.memory?.close();
    const child = slot.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

function sameWants(a: ResultWants, b: ResultWants): boolean {
  return a.rows === b.rows && a.rowSet === b.rowSet;
}
