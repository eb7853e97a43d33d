import type { Benchmark, Prediction, PredictionSet } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import type { RunStore } from '../store/run-store.js';
import { generateSql } from './agent-sql.js';
import type { LlmAgentSpec } from './agent-specs.js';
import { Budget, BudgetExceeded } from '../llm/budget.js';
import { createLimiter } from '../llm/limit.js';
import { LlmCache } from '../llm/cache.js';
import { LlmClient } from '../llm/client.js';
import { runPrice } from '../llm/pricing.js';
import type { Price } from '../llm/pricing.js';
import { loadPrompt } from '../judge/prompts.js';
import { createProvider } from '../llm/providers/index.js';
import { ProviderError, cleanMessage } from '../llm/providers/types.js';
import type { LlmProvider } from '../llm/providers/types.js';
import type { RetryPolicy, Sleep } from '../llm/retry.js';
import { createSchemaSource } from '../judge/schema-text.js';
import { fatalProviderError } from '../llm/fatal-provider-error.js';
import { CallDeferred } from '../llm/batch/collector.js';
import { createBatchMode } from '../llm/batch/setup.js';
import type { BatchMode, BatchModeOptions } from '../llm/batch/setup.js';
import type { BatchTransport } from '../llm/batch/types.js';
import { sumWaves } from '../llm/batch/waves.js';
import { unknownUsageNote } from '../llm/usage.js';

export interface LlmAgentsOptions {
  agents: readonly LlmAgentSpec[];
  bench: Benchmark;
  /** `<dbRoot>/<db>/<db>.sqlite`, for the schema text. */
  dbRoot: string;
  /** BIRD database_description root; default `<dbRoot>/<db>/database_description` when present. */
  descriptionsRoot?: string;
  /** --base-url for every agent (else each provider's environment variable, else the vendor's). */
  baseUrl?: string;
  /** The replay provider's JSONL of recorded responses. */
  replayFile?: string;
  apiVersion?: string;
  /** A ready provider per agent instead of one built from the environment (tests). */
  providerFor?: (spec: LlmAgentSpec) => LlmProvider;
  /** Response cache: a re-run, or a run resumed after a kill, asks only what was never answered. */
  store?: RunStore;
  /** Generations in flight at once, over all agents (default 4). */
  concurrency?: number;
  /** Per-call timeout in ms (default 120 000). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  sleep?: Sleep;
  /** One budget over all agents, as the judge's. */
  maxCostUsd?: number;
  maxCalls?: number;
  priceTable?: Readonly<Record<string, Price>>;
  temperature?: number;
  maxOutputTokens?: number;
  promptsDir?: string;
  env?: NodeJS.ProcessEnv;
  onProgress?: (done: number, total: number) => void;
  /** Batch mode (--batch): every agent's calls go to its provider's batch engine, one wave for all tasks. */
  batch?: BatchModeOptions;
  /** A ready batch transport per agent (tests); else built from the agent's provider. */
  batchTransportFor?: (spec: LlmAgentSpec) => BatchTransport;
}

/** A task an agent has no SQL for, and why. */
export interface GenerationFailure {
  taskId: string;
  reason: string;
}

export interface LlmAgentSummary {
  name: string;
  provider: string;
  model: string;
  /** The dated model version the API reported, if it did. */
  resolvedModel: string | null;
  /** prompts/agent.md's hash: part of every cache key. */
  promptHash: string;
  tasks: number;
  generated: number;
  failed: number;
  failures: GenerationFailure[];
  /** Requests made by this run (0 on a re-run: every answer comes from the run store). */
  calls: number;
  cachedCalls: number;
  /** Tokens and cost of this run's requests; cost null when the model's price is unknown. */
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** What all the answers used cost when first asked (cached ones included). */
  answersCostUsd: number | null;
}

export interface LlmAgentsResult {
  /** One per agent, in the order given; a failed task has no prediction (missing, never wrong SQL). */
  predictions: PredictionSet[];
  agents: LlmAgentSummary[];
  /** Why generation stopped early (budget), if it did. */
  stopped?: string;
  /** Batch mode: what the waves did, summed over the agents. */
  batch?: ReturnType<typeof sumWaves>;
  /** Batch mode with --batch-wait none: generations still waiting for submitted batches. */
  waiting?: number;
}

/** What an agent's answer must look like to be run as its SQL (prompts/agent.md asks for one SELECT). */
const QUERY_START = /^\s*(\(|select\b|with\b)/i;

/**
 * Live LLM agents for the audit: one SQL per (agent, task) with prompts/agent.md (schema,
 * question, evidence → SQL) through the judge's LlmClient, so retries (Retry-After honoured),
 * the run store's response cache, the shared budget and key hygiene are the judge's own.
 * Jobs go task by task across agents, so a budget stop leaves the agents equally covered.
 * A bad key, an unknown model or an unreachable endpoint stops everything (UserError);
 * any other failure makes that one task missing, with its reason.
 */
export async function generateAgentPredictions(o: LlmAgentsOptions): Promise<LlmAgentsResult> {
  const providers = new Set(o.agents.map((a) => a.provider).filter((p) => p !== 'replay'));
  if (o.baseUrl !== undefined && providers.size > 1) {
    throw new UserError('--base-url is ambiguous with both openai and gemini agents: set OPENAI_BASE_URL and GOOGLE_GEMINI_BASE_URL instead');
  }
  const template = loadPrompt('agent', o.promptsDir);
  const schemaFor = createSchemaSource(o.dbRoot, o.descriptionsRoot);
  const cache = o.store ? new LlmCache(o.store) : undefined;
  const budget = new Budget({ maxCostUsd: o.maxCostUsd, maxCalls: o.maxCalls });
  const concurrency = Math.max(1, o.concurrency ?? 4);
  const agents = o.agents.map((spec) => {
    const price = runPrice(spec.model, { table: o.priceTable, maxCostUsd: o.maxCostUsd, who: `agent ${spec.name}`, howToFix: '--price-file FILE.json' });
    const providerConfig = { provider: spec.provider, baseUrl: o.baseUrl, replayFile: o.replayFile, apiVersion: o.apiVersion };
    const provider = o.providerFor?.(spec) ?? createProvider(providerConfig, o.env);
    const batch: BatchMode | undefined = o.batch
      ? createBatchMode({ transport: o.batchTransportFor?.(spec), providerConfig, env: o.env, store: o.store, cache, model: spec.model, budget, price, options: o.batch })
      : undefined;
    const client = new LlmClient({
      provider,
      model: spec.model,
      sampling: { temperature: o.temperature, maxOutputTokens: o.maxOutputTokens },
      timeoutMs: o.timeoutMs,
      retry: o.retry,
      cache,
      budget,
      price,
      concurrency,
      sleep: o.sleep,
      ...(batch ? { batch: batch.collector } : {}),
    });
    return { spec, client, price, batch, byTask: new Map<string, Prediction>(), failures: new Map<string, string>(), answersCostUsd: 0 };
  });

  const tasks = o.bench.tasks;
  const total = tasks.length * agents.length;
  const limit = createLimiter(concurrency);
  let stopped: string | undefined;
  let fatal: { error: unknown } | undefined;
  /** One generation per (task, agent); in batch mode, calls the cache lacks are deferred to the next wave. */
  const pass = async (): Promise<number> => {
    let done = 0;
    let deferred = 0;
    for (const a of agents) {
      a.byTask.clear();
      a.failures.clear();
      a.answersCostUsd = 0;
    }
    await Promise.all(
      tasks.flatMap((task) =>
        agents.map((a) =>
          // After a budget stop, jobs keep going through: answers already cached still land.
          limit(async () => {
            if (fatal) return;
            try {
              const r = await generateSql(a.client, template, { schema: schemaFor(task.dbId), question: task.question, evidence: task.evidence });
              a.answersCostUsd += r.usage.costUsd;
              const problem = answerProblem(r.sql, r.raw, r.truncated);
              if (problem) a.failures.set(task.id, problem);
              else a.byTask.set(task.id, { taskId: task.id, sql: r.sql, dbId: task.dbId });
            } catch (e) {
              if (e instanceof CallDeferred) {
                deferred += 1;
                a.failures.set(task.id, 'not generated: waiting for submitted provider batches (run the same command again to collect them)');
                return;
              }
              if (e instanceof BudgetExceeded) {
                stopped ??= e.message;
                a.failures.set(task.id, `not generated: ${e.message}`);
              } else if (e instanceof ProviderError) {
                const stop = fatalProviderError(e, a.client, a.spec.model, `agent ${a.spec.name}`);
                if (stop) fatal ??= { error: stop };
                else a.failures.set(task.id, `provider error: ${e.message}`);
              } else {
                fatal ??= { error: e };
              }
            }
            done += 1;
            o.onProgress?.(done, total);
          }),
        ),
      ),
    );
    return deferred;
  };
  let waiting = await pass();
  // Batch mode: one wave per agent answers the pass's deferred calls; the next pass reads them.
  while (waiting > 0 && !fatal && !stopped) {
    let submittedOnly = false;
    try {
      for (const a of agents) {
        const calls = a.batch!.collector.drain();
        if (calls.length > 0 && (await a.batch!.driver.run(calls)).waiting) submittedOnly = true;
      }
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      stopped = e.message;
      for (const a of agents) for (const [id, why] of a.failures) if (why.startsWith('not generated: waiting')) a.failures.set(id, `not generated: ${e.message}`);
    }
    if (submittedOnly || stopped) break;
    waiting = await pass();
  }
  if (fatal) throw fatal.error;

  const predictions: PredictionSet[] = [];
  const summaries: LlmAgentSummary[] = [];
  for (const a of agents) {
    // Failures in task order, so messages and JSON do not depend on which call landed first.
    const failures = tasks.filter((t) => a.failures.has(t.id)).map((t) => ({ taskId: t.id, reason: a.failures.get(t.id)! }));
    // In task order too: calls land in any order, but the set should read like a file.
    const byTask = new Map(tasks.flatMap((t) => (a.byTask.has(t.id) ? [[t.id, a.byTask.get(t.id)!] as const] : [])));
    predictions.push({
      system: a.spec.name,
      file: `${a.spec.provider}:${a.spec.model}`,
      byTask,
      format: 'llm-agent',
      notes: [
        ...(failures.length > 0 ? [failureNote(failures, tasks.length)] : []),
        ...[unknownUsageNote(a.client.stats, a.price !== undefined)].filter((n) => n !== undefined),
      ],
    });
    const s = a.client.stats;
    summaries.push({
      name: a.spec.name,
      provider: a.spec.provider,
      model: a.spec.model,
      resolvedModel: a.client.resolvedModel ?? null,
      promptHash: template.hash,
      tasks: tasks.length,
      generated: a.byTask.size,
      failed: failures.length,
      failures,
      calls: s.requests,
      cachedCalls: s.cacheHits,
      inputTokens: s.inputTokens,
      outputTokens: s.outputTokens,
      costUsd: a.price ? s.costUsd : null,
      answersCostUsd: a.price ? a.answersCostUsd : null,
    });
  }
  const batch = o.batch ? sumWaves(agents.flatMap((a) => a.batch!.driver.reports)) : undefined;
  return {
    predictions,
    agents: summaries,
    ...(stopped ? { stopped } : {}),
    ...(batch ? { batch } : {}),
    ...(waiting > 0 && !stopped ? { waiting } : {}),
  };
}

/** Why an answer cannot be the agent's SQL, or undefined when it can. */
function answerProblem(sql: string, raw: string, truncated: boolean): string | undefined {
  if (truncated) return 'malformed answer: cut at the output-token limit';
  if (sql === '') return 'malformed answer: empty';
  if (!QUERY_START.test(sql)) return `malformed answer: no SELECT query in ${JSON.stringify(cleanMessage(raw.replace(/\s+/g, ' ').trim(), 80))}`;
  return undefined;
}

function failureNote(failures: readonly GenerationFailure[], tasks: number): string {
  const kinds = new Map<string, number>();
  for (const f of failures) {
    const kind = f.reason.slice(0, f.reason.indexOf(':'));
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const byKind = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
  const first = failures[0]!;
  return `${failures.length} of ${tasks} tasks have no generated SQL and count as missing predictions (${byKind}); e.g. task ${first.taskId}: ${first.reason}`;
}
