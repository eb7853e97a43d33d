/**
 * The audit's CPU pass (labeling functions, label model, review order, and the opt-in decision plane
 * with its cross-validation, the heavier path) at
 * BIRD dev's size, 1,534 tasks x 4 agents. No BIRD databases exist here, so the inputs are
 * Spider dev's executed gold and agents' results, with 500 tasks repeated under new ids to make
 * 1,534: the pass's cost depends on task count, agents and result sizes, not on where they came from.
 */
import { executeForAudit } from '../src/audit/execute.js';
import { runAuditPipeline } from '../src/audit/pipeline.js';
import type { AuditInputs } from '../src/audit/types.js';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { ExecutionEngine } from '../src/execution/engine.js';

const AGENTS = ['din-sql', 'dail-sql', 'c3', 'codes-15b'];
const TARGET = 1534;

function scaleTo(inputs: AuditInputs, n: number): AuditInputs {
  const idx = Array.from({ length: n }, (_, i) => i % inputs.tasks.length);
  return {
    tasks: idx.map((i, k) => ({ ...inputs.tasks[i]!, id: k < inputs.tasks.length ? inputs.tasks[i]!.id : `${inputs.tasks[i]!.id}#${k}` })),
    gold: idx.map((i) => inputs.gold[i]!),
    agents: inputs.agents.map((a) => ({ name: a.name, sql: idx.map((i) => a.sql[i]), results: idx.map((i) => a.results[i]) })),
    ...(inputs.goldProbes ? { goldProbes: idx.map((i) => inputs.goldProbes![i]!) } : {}),
  };
}

export async function extraBenchmarks(line: (label: string, value: string) => void, fmt: (ms: number) => string): Promise<void> {
  const data = bundledSpider();
  const bench = loadBenchmark(data.questions);
  const agents = data.systems.filter((s) => AGENTS.includes(s.name)).map((s) => loadPredictions(s.file, bench, s.name));
  const engine = new ExecutionEngine({ dbRoot: data.dbRoot });
  const inputs = await executeForAudit(bench, agents, engine);
  await engine.close();
  const scaled = scaleTo(inputs, TARGET);
  let t0 = performance.now();
  const first = runAuditPipeline(scaled, { seed: 1, decisionPlane: true });
  const cold = performance.now() - t0;
  t0 = performance.now();
  runAuditPipeline(scaled, { seed: 1, decisionPlane: true });
  const warm = performance.now() - t0;
  line(`audit CPU pass, ${TARGET} tasks x ${agents.length} agents`, `${fmt(cold)} cold, ${fmt(warm)} warm (target < 10 s; flagged ${first.flagged})`);
}
