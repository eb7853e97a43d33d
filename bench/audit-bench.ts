/**
 * `npm run audit-bench [-- --rate 0.15 --seeds 1,2 --labels FILE]`: the audit measured without
 * labels. Mutates a random share of the bundled Spider dev gold (src/audit/inject.ts), audits
 * with the 23 bundled systems as agents, and reports how well the audit and its baselines find
 * the injected errors (AUC, precision at k, recall; paired-bootstrap intervals of the audit's
 * lead). With a labelled sample (default: SALUS's 200 Spider dev labels when ../shared has them)
 * it also prints the calibrated error rate before and after injection: the labels are used for
 * calibration only, never to choose anything.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { calibratedErrorRate, evaluateAudit, readGoldErrorLabels } from '../src/audit/evaluate.js';
import { executeForAudit } from '../src/audit/execute.js';
import { injectErrors } from '../src/audit/inject.js';
import { evaluateInjected } from '../src/audit/injected-eval.js';
import { runAuditPipeline, type AuditReport } from '../src/audit/pipeline.js';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { ExecutionEngine } from '../src/execution/engine.js';
import { auc } from '../src/stats/ranking.js';
import { errorRateShift } from '../src/stats/error-rate.js';
import { DEFAULT_STORE, openRunStore } from '../src/store/run-store.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '0.15' },
    seeds: { type: 'string', default: '1,2' },
    labels: { type: 'string' },
    store: { type: 'string', default: DEFAULT_STORE },
  },
});
const rate = Number(values.rate);
const seeds = values.seeds!.split(',').map(Number);
const labelFile = values.labels ?? resolve('../shared/datasets/salus/ground_truth/GT_RS_200_spider.csv');
const labels = existsSync(labelFile) ? readGoldErrorLabels(labelFile) : undefined;

const data = bundledSpider();
const bench = loadBenchmark(data.questions);
const agents = data.systems.map((s) => loadPredictions(s.file, bench, s.name));
const store = openRunStore(values.store!);
const engine = new ExecutionEngine({ dbRoot: data.dbRoot, store });
const out = (s: string): void => void process.stdout.write(s + '\n');
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–');
const iv = (v: { estimate: number; low: number; high: number }): string => `${v.estimate >= 0 ? '+' : ''}${f3(v.estimate)} [${f3(v.low)}, ${f3(v.high)}]`;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const fm = (s: { metrics: { f1: number; mcc: number } }): string => `${f3(s.metrics.f1)} / ${f3(s.metrics.mcc)}`;
/** What the plane's held-out-agent selection chose, and the best plane candidate's MCC lead over the label model. */
const planeChoice = (r: AuditReport): string => {
  const p = r.plane;
  if (!p) return 'no selection (too few agents)';
  const chosen = p.config ? `plane ${p.config.aggregation}, depth ${p.config.depth}` : 'label model';
  return `selection by held-out agents chose the ${chosen} (${p.lead.candidate} minus label model, MCC against the other half: ${iv(p.lead)})`;
};
const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;


try {
  const originalInputs = await executeForAudit(bench, agents, engine);
  const original = runAuditPipeline(originalInputs, { seed: 1 });
  const before = labels ? calibratedErrorRate(original, labels) : undefined;
  const shifts: { seed: number; shift: number; low: number; high: number; net: number; implied: number; impliedLow: number; impliedHigh: number; injectedShare: number }[] = [];
  out(`Spider dev (bundled): ${bench.tasks.length} tasks, ${agents.length} agents; injection rate ${pct(rate)}; seeds ${seeds.join(', ')}`);
  out(`Original gold: ${original.flagged} flagged by the audit; families of dependent agents: ${original.agentFamilies.map((f) => f.join('+')).join(', ') || 'none'}`);
  const originalPlane = runAuditPipeline(originalInputs, { seed: 1, decisionPlane: true });
  out(`--decision-plane on the original gold: ${planeChoice(originalPlane)}${labels ? `; on the ${labels.isError.size} labels its flags F1/MCC ${fm(evaluateAudit(originalPlane, labels, { bootstrap: { iterations: 1 } }).sweep)}, the label model's ${fm(evaluateAudit(original, labels, { bootstrap: { iterations: 1 } }).sweep)}` : ''}`);
  if (before) {
    out(`Calibrated error rate of the original gold (label model's posterior calibrated on ${before.n} labels, cross-fitted): ${pct(before.estimate)} [${pct(before.ciLow)}, ${pct(before.ciHigh)}]; label-free (label model's prior) ${pct(before.labelFree)}; labelled sample ${pct(before.sampleShare)}`);
  }
  for (const seed of seeds) {
    const inj = await injectErrors(bench, engine, { rate, seed, dbRoot: data.dbRoot });
    const inputs = await executeForAudit(inj.bench, agents, engine);
    const report = runAuditPipeline(inputs, { seed: 1 });
    const ids = new Set(inj.injections.map((x) => x.taskId));
    const ev = evaluateInjected(report, ids);
    const kinds = new Map<string, number>();
    for (const x of inj.injections) kinds.set(x.kind, (kinds.get(x.kind) ?? 0) + 1);
    out('');
    out(`Seed ${seed}: ${ev.injected} injected errors (${[...kinds].map(([k, c]) => `${k} ${c}`).join(', ')}; ${inj.tried} mutations executed)`);
    out(`  ${'detector'.padEnd(58)} ${'AUC'.padStart(6)} ${'P@k'.padStart(6)} ${'recall'.padStart(7)} ${'flagged'.padStart(8)} ${'tied'.padStart(6)}   audit minus it: ΔAUC, ΔP@k, Δrecall [95% CI]`);
    for (const d of ev.detectors) {
      const vs = d.versus ? `   ${iv(d.versus.auc)}  ${iv(d.versus.precisionAtK)}  ${iv(d.versus.recall)}` : '';
      out(`  ${d.name.padEnd(58)} ${f3(d.auc).padStart(6)} ${f3(d.precisionAtK).padStart(6)} ${f3(d.recall).padStart(7)} ${String(d.flagged).padStart(8)} ${f3(d.tied).padStart(6)}${vs}`);
    }
    // The opt-in decision plane, for the record: what its held-out-agent selection picks, and how its flags do.
    const plane = runAuditPipeline(inputs, { seed: 1, decisionPlane: true });
    const truth = plane.flags.map((f) => ids.has(f.taskId));
    const planeRecall = plane.flags.filter((f, i) => truth[i] && f.flagged).length / ev.injected;
    out(`  ${'--decision-plane (opt-in): its probability; its flags'.padEnd(58)} ${f3(auc(plane.flags.map((f) => f.probability), truth)).padStart(6)} ${''.padStart(6)} ${f3(planeRecall).padStart(7)} ${String(plane.flagged).padStart(8)}   ${planeChoice(plane)}`);
    if (labels && before) {
      // The labelled sample after injection: an injected task's gold is wrong whatever its label said.
      const isError = new Map([...labels.isError].map(([id, e]) => [id, e || ids.has(id)]));
      const after = calibratedErrorRate(report, { ...labels, isError });
      const shift = errorRateShift(before, after);
      // An injection into gold that was already wrong adds no error: the error rate can rise only by the share that lands on right gold.
      const net = (ev.injected / ev.n) * (1 - before.estimate);
      const hitRight = [...labels.isError].filter(([id, e]) => ids.has(id) && !e).length;
      const hitLabelled = [...labels.isError.keys()].filter((id) => ids.has(id)).length;
      // The injected share implied by the shift: shift / (1 − error rate before); delta-method interval, the two taken as independent.
      const implied = shift.estimate / (1 - before.estimate);
      const impliedSe = Math.sqrt(shift.se ** 2 / (1 - before.estimate) ** 2 + (shift.estimate ** 2 * before.se ** 2) / (1 - before.estimate) ** 4);
      const injectedShare = ev.injected / ev.n;
      shifts.push({ seed, shift: shift.estimate, low: shift.ciLow, high: shift.ciHigh, net, implied, impliedLow: implied - 1.96 * impliedSe, impliedHigh: implied + 1.96 * impliedSe, injectedShare });
      out(`  calibrated error rate: before ${pct(before.estimate)} [${pct(before.ciLow)}, ${pct(before.ciHigh)}], after ${pct(after.estimate)} [${pct(after.ciLow)}, ${pct(after.ciHigh)}]; label-free ${pct(before.labelFree)} → ${pct(after.labelFree)}`);
      out(
        `  shift ${pts(shift.estimate)} [${pts(shift.ciLow)}, ${pts(shift.ciHigh)}] points (paired over the ${shift.pairs} labelled tasks); injected ${pts(ev.injected / ev.n)} points, ` +
          `of which about ${pts(net)} land on gold that was right (injected × (1 − ${pct(before.estimate)}); in the labelled sample ${hitRight} of ${hitLabelled})`,
      );
      const x = shifts[shifts.length - 1]!;
      out(`  injected share implied by the shift (shift / (1 − rate before)): ${pts(x.implied)} [${pts(x.impliedLow)}, ${pts(x.impliedHigh)}] points`);
    }
  }
  if (shifts.length > 0) {
    const covers = shifts.filter((x) => x.low <= x.net && x.net <= x.high).length;
    const mean = shifts.reduce((a, x) => a + x.shift, 0) / shifts.length;
    out('');
    const impliedCovers = shifts.filter((x) => x.impliedLow <= x.injectedShare && x.injectedShare <= x.impliedHigh).length;
    const impliedMean = shifts.reduce((a, x) => a + x.implied, 0) / shifts.length;
    out(`Error-rate shift over ${shifts.length} seeds: mean ${pts(mean)} points (per seed ${shifts.map((x) => pts(x.shift)).join(', ')}); its interval holds the errors that landed on right gold in ${covers} of ${shifts.length}`);
    out(`Injected share implied by the shift: mean ${pts(impliedMean)} points (per seed ${shifts.map((x) => pts(x.implied)).join(', ')}); its interval holds the injected ${pts(shifts[0]!.injectedShare)} in ${impliedCovers} of ${shifts.length}`);
  }
  if (!labels) out(`\n(no labelled sample at ${labelFile}: calibrated error rates not printed; pass --labels FILE)`);
} finally {
  await engine.close();
  store.close();
}
