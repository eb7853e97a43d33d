import type { Budget } from '../budget.js';
import type { CachedCall, LlmCache } from '../cache.js';
import type { Price } from '../pricing.js';
import type { Sleep } from '../retry.js';
import type { BatchStore } from './batch-store.js';
import type { BatchCollector, PendingCall } from './collector.js';
import { TERMINAL_STATES } from './types.js';
import type { BatchLine, BatchState, BatchStatus, BatchTransport } from './types.js';
import type { LlmResponse } from '../providers/types.js';
import { callSize, usageOf } from '../usage.js';

/** OpenAI's and Gemini's batch engines both bill half the online price. */
export const BATCH_PRICE_FACTOR = 0.5;

export type BatchFallback = 'batch' | 'online';
export type BatchWait = 'all' | 'none';

export interface WaveProgress {
  wave: number;
  batches: number;
  submitted: number;
  completed: number;
  failed: number;
  /** Provider states of the open batches, e.g. { in_progress: 2 }. */
  states: Partial<Record<BatchState, number>>;
}

export interface WaveDriverOptions {
  transport: BatchTransport;
  store: BatchStore;
  cache: LlmCache;
  collector: BatchCollector;
  model: string;
  budget?: Budget;
  /** The online price; batch calls cost BATCH_PRICE_FACTOR of it. */
  price?: Price;
  /** Where a request goes after its batch failed it once (default: a new batch). */
  fallback?: BatchFallback;
  /** 'none': submit and return without waiting (a later run collects). */
  wait?: BatchWait;
  /** First and longest wait between polls (default 2 s, 60 s); doubles while nothing changes. */
  pollMs?: { first: number; max: number };
  sleep?: Sleep;
  onProgress?: (p: WaveProgress) => void;
}

export interface WaveReport {
  /** Calls sent in new batches (resubmissions included). */
  submitted: number;
  /** Calls found in batches an earlier run submitted, polled instead of resubmitted. */
  adopted: number;
  answered: number;
  /** Calls sent again after their batch expired, failed or lost them. */
  resubmitted: number;
  /** Calls handed to the online path (--batch-fallback online). */
  toOnline: number;
  /** Calls with no answer after their resubmission: their items are unscored. */
  failed: number;
  batchIds: string[];
  /** wait 'none': batches are still running; a later run collects them. */
  waiting: boolean;
}

/** Totals over every wave of a run, for the report. */
export function sumWaves(reports: WaveReport[]): Omit<WaveReport, 'waiting'> & { waves: number } {
  const s = { submitted: 0, adopted: 0, answered: 0, resubmitted: 0, toOnline: 0, failed: 0, batchIds: [] as string[], waves: reports.length };
  for (const r of reports) {
    s.submitted += r.submitted;
    s.adopted += r.adopted;
    s.answered += r.answered;
    s.resubmitted += r.resubmitted;
    s.toOnline += r.toOnline;
    s.failed += r.failed;
    s.batchIds.push(...r.batchIds);
  }
  return s;
}

const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends the calls one pass of a run could not answer as provider batches and waits
 * for them: calls already in an earlier run's open batch are polled, not resubmitted;
 * the rest are split by the provider's limits and submitted only if the whole wave's
 * worst case at batch prices fits the budget. Answers go into the run store's LLM
 * cache, the one the online path uses, so the next pass reads them as an online run
 * would. A request a batch expired, failed or dropped is sent once more (a new batch,
 * or online with fallback 'online'); after that its items are unscored.
 */
export class WaveDriver {
  private waves = 0;
  readonly reports: WaveReport[] = [];

  constructor(private readonly o: WaveDriverOptions) {}

  async run(calls: PendingCall[]): Promise<WaveReport> {
    const o = this.o;
    this.waves += 1;
    const report: WaveReport = { submitted: 0, adopted: 0, answered: 0, resubmitted: 0, toOnline: 0, failed: 0, batchIds: [], waiting: false };
    this.reports.push(report);
    const byKey = new Map<string, PendingCall>();
    for (const c of calls) if (!o.cache.get(c.key)) byKey.set(c.key, c);

    const open = new Set<string>();
    const fresh: PendingCall[] = [];
    for (const c of byKey.values()) {
      const id = o.store.openBatchFor(c.key, o.transport.provider, o.transport.baseUrl);
      if (id) {
        open.add(id);
        report.adopted += 1;
      } else fresh.push(c);
    }
    // Adopted calls will be billed too: the whole wave's worst case must fit before anything is sent.
    const ticket = this.reserve([...byKey.values()]);
    try {
      await this.submit(fresh, open, report);
      report.submitted += fresh.length;
      if (o.wait === 'none') {
        report.waiting = true;
        ticket?.release();
        return report;
      }
      let spent = 0;
      let answered = 0;
      for (let round = 0; open.size > 0; round++) {
        const finished = await this.pollUntilDone(open);
        const retry: PendingCall[] = [];
        for (const status of finished) {
          const r = await this.collect(status);
          spent += r.spentUsd;
          answered += r.answered;
          for (const m of r.missing) {
            if (o.store.submissions(m.call.key) >= 2) {
              o.collector.failed.set(m.call.key, `batch: ${m.why} (after one resubmission)`);
              report.failed += 1;
            } else if (o.fallback === 'online') {
              o.collector.online.add(m.call.key);
              report.toOnline += 1;
            } else retry.push(m.call);
          }
        }
        if (retry.length > 0) {
          await this.submit(retry, open, report);
          report.resubmitted += retry.length;
        }
      }
      report.answered = answered;
      ticket?.commit(spent, answered);
      return report;
    } catch (e) {
      ticket?.release();
      throw e;
    }
  }

  private reserve(calls: PendingCall[]): ReturnType<Budget['reserveWave']> | undefined {
    if (!this.o.budget || calls.length === 0) return undefined;
    const worst = calls.reduce((s, c) => s + c.worstCaseUsd, 0) * BATCH_PRICE_FACTOR;
    return this.o.budget.reserveWave(calls.length, worst);
  }

  private async submit(calls: PendingCall[], open: Set<string>, report: WaveReport): Promise<void> {
    const t = this.o.transport;
    let chunk: PendingCall[] = [];
    let bytes = 0;
    const flush = async (): Promise<void> => {
      if (chunk.length === 0) return;
      const lines: BatchLine[] = chunk.map(lineOf);
      const id = await t.submit(lines);
      this.o.store.record(
        { id, provider: t.provider, baseUrl: t.baseUrl, model: this.o.model, state: 'validating' },
        chunk.map((c) => ({ key: c.key, parts: c.parts })),
      );
      open.add(id);
      report.batchIds.push(id);
      chunk = [];
      bytes = 0;
    };
    for (const c of calls) {
      const size = t.lineBytes(lineOf(c));
      if (chunk.length > 0 && (chunk.length + 1 > t.limits.maxRequests || bytes + size > t.limits.maxBytes)) await flush();
      chunk.push(c);
      bytes += size;
    }
    await flush();
  }

  private async pollUntilDone(open: Set<string>): Promise<BatchStatus[]> {
    const o = this.o;
    const first = o.pollMs?.first ?? 2_000;
    const max = o.pollMs?.max ?? 60_000;
    const sleep = o.sleep ?? realSleep;
    let wait = first;
    let last = '';
    for (;;) {
      const statuses = await Promise.all([...open].map((id) => o.transport.status(id)));
      for (const s of statuses) o.store.update(s);
      const done = statuses.filter((s) => TERMINAL_STATES.has(s.state));
      const states: Partial<Record<BatchState, number>> = {};
      for (const s of statuses) states[s.state] = (states[s.state] ?? 0) + 1;
      const progress: WaveProgress = {
        wave: this.waves,
        batches: statuses.length,
        // Gemini does not say how many requests a job holds: the store does.
        submitted: statuses.reduce((n, s) => n + (s.total || o.store.callCount(s.id)), 0),
        completed: statuses.reduce((n, s) => n + s.completed, 0),
        failed: statuses.reduce((n, s) => n + s.failed, 0),
        states,
      };
      o.onProgress?.(progress);
      if (done.length > 0) {
        for (const s of done) open.delete(s.id);
        return done;
      }
      // Back off while nothing moves; start again from the first wait when something does.
      const now = JSON.stringify(progress);
      wait = now === last ? Math.min(max, wait * 2) : first;
      last = now;
      await sleep(wait);
    }
  }

  private async collect(status: BatchStatus): Promise<{ answered: number; spentUsd: number; missing: { call: PendingCall; why: string }[] }> {
    const o = this.o;
    const calls = o.store.calls(status.id);
    const results = status.state === 'failed' ? { answers: new Map<string, LlmResponse>(), errors: new Map<string, string>() } : await o.transport.results(status);
    const batchPrice = o.price && { input: o.price.input * BATCH_PRICE_FACTOR, output: o.price.output * BATCH_PRICE_FACTOR };
    let answered = 0;
    let spentUsd = 0;
    const missing: { call: PendingCall; why: string }[] = [];
    for (const { key, parts } of calls) {
      if (o.cache.get(key)) continue;
      const a = results.answers.get(key);
      if (a) {
        const call: CachedCall = {
          text: a.text,
          // Token counts the API did not report usably are taken at the request's worst case.
          ...(await usageOf(a.usage, callSize(parts), batchPrice)),
          // A batch answer has no latency of its own: 0, not the batch's wall time.
          latencyMs: 0,
          attempts: 1,
          resolvedModel: a.resolvedModel,
          ...(a.truncated ? { truncated: true } : {}),
        };
        o.cache.put(key, parts, call);
        o.collector.answeredHere.add(key);
        answered += 1;
        spentUsd += call.costUsd;
        continue;
      }
      const why =
        results.errors.get(key) ??
        (status.state === 'completed' ? 'the result file has no line for this request' : `the batch ended ${status.state}${status.message ? ` (${status.message})` : ''}`);
      missing.push({ call: { key, parts, worstCaseUsd: 0 }, why });
    }
    o.store.markCollected(status.id);
    return { answered, spentUsd, missing };
  }
}

function lineOf(c: PendingCall): BatchLine {
  // The response schema travels too: a batched call asks for structured output exactly as online.
  return { customId: c.key, request: { model: c.parts.model, messages: c.parts.messages, sampling: c.parts.sampling, ...(c.parts.responseSchema ? { responseSchema: c.parts.responseSchema } : {}) } };
}
