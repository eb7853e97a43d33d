import { mean, median } from 'simple-statistics';
import { itemKey, type ValidationItem, type ValidationSet } from '../benchmark/validation-set.js';
import { UserError } from '../errors.js';
import { detectorMetrics } from '../stats/agreement.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import { confusionFrom } from '../stats/confusion.js';
import { holmAdjust } from '../stats/holm.js';
import { wilson, type Interval } from '../stats/intervals.js';
import { compareToBaseline, comparePair, coveredItems, repeatSpread, type BaselineComparison, type PairComparison, type RepeatSpread } from './compare.js';
import { combine, type EnsembleKind, type EnsembleSpec } from './ensembles.js';
import { metricBlock, type MetricBlock } from './metrics.js';
import type { JudgeVerdict, JudgeVerdicts } from './sources.js';

/**
 * `validate`'s core: judges' verdicts against human labels on validation sets. Pure: takes
 * loaded sets and verdicts, returns plain data (fractions; NaN where a metric is undefined,
 * which JSON prints as null).
 */
export interface ValidateInput {
  sets: readonly ValidationSet[];
  judges: readonly JudgeVerdicts[];
  ensembles?: readonly EnsembleSpec[];
  /** Groups of judges that are repeat runs of one configuration. */
  repeats?: readonly (readonly string[])[];
  baseline?: string;
  seed?: number;
  iterations?: number;
}

/** GoldX or AmbQ flags against the human tags, on tagged items the judge covers. */
export interface DiagnosticBlock {
  n: number;
  humanTagged: number;
  judgeFlagged: number;
  agreed: number;
  precision: number;
  recall: number;
  f1: number;
  /** Wilson intervals: precision = agreed/judgeFlagged, recall = agreed/humanTagged (ROSE Table 4 prints the points only). */
  precisionInterval: Interval;
  recallInterval: Interval;
}

export interface CostBlock {
  /** Items with a recorded call count / cost / latency. */
  callsRecorded: number;
  callsPerItem: number | null;
  costRecorded: number;
  costPer1000Items: number | null;
  latencyRecorded: number;
  latencyMsMean: number | null;
  latencyMsMedian: number | null;
}

export interface JudgeResult {
  name: string;
  sources: string[];
  /** "all" plus one entry per subset. */
  subsets: Record<string, MetricBlock>;
  goldX: Record<string, DiagnosticBlock> | null;
  ambQ: Record<string, DiagnosticBlock> | null;
  cost: CostBlock;
  notes: string[];
}

export interface ReviewItem {
  subset: string;
  taskId: string;
  human: boolean;
  votes: Record<string, boolean | null>;
}

export interface EnsembleResult {
  name: string;
  kind: EnsembleKind;
  members: string[];
  subsets: Record<string, MetricBlock>;
  /** Majority: items decided by a tie (counted as reject). */
  ties?: number;
  /** Unanimity: share of items decided automatically (= the "all" block's coverage). */
  autoCoverage?: number;
  /** Unanimity: the items left for human review. */
  review?: ReviewItem[];
}

export interface PairResult {
  a: string;
  b: string;
  subsets: Record<string, PairComparison>;
}

export interface RepeatResult {
  judges: string[];
  subsets: Record<string, RepeatSpread>;
}

export interface ValidateResult {
  sets: { name: string; file: string; format: string; items: number; subsets: string[]; tagged: number }[];
  items: number;
  seed: number;
  iterations: number;
  judges: JudgeResult[];
  pairs: PairResult[];
  ensembles: EnsembleResult[];
  repeats: RepeatResult[];
  baseline: { name: string; candidates: BaselineComparison[] } | null;
}

const ALL = 'all';

/**
 * Holm over every judge pair × subset, once for McNemar and once for Δκ: a table of many comparisons read
 * for "which differ" needs the family-wise correction. A NaN p (no finite resample) stays NaN, outside the family.
 */
function adjustPairFamily(pairs: readonly PairResult[]): void {
  const all = pairs.flatMap((p) => Object.values(p.subsets));
  holmAdjust(all.map((c) => c.mcnemar.pValue)).forEach((q, k) => {
    all[k]!.mcnemar.pHolm = q;
  });
  const finite = all.filter((c) => Number.isFinite(c.kappaDiffP));
  holmAdjust(finite.map((c) => c.kappaDiffP)).forEach((q, k) => {
    finite[k]!.kappaDiffPHolm = q;
  });
}

function costOf(recorded: JudgeVerdict[]): CostBlock {
  const values = (k: 'calls' | 'costUsd' | 'latencyMs'): number[] => recorded.flatMap((v) => (v[k] === undefined ? [] : [v[k]]));
  const [calls, cost, lat] = [values('calls'), values('costUsd'), values('latencyMs')];
  const meanOrNull = (v: number[]): number | null => (v.length === 0 ? null : mean(v));
  return {
    callsRecorded: calls.length,
    callsPerItem: meanOrNull(calls),
    costRecorded: cost.length,
    costPer1000Items: cost.length === 0 ? null : mean(cost) * 1000,
    latencyRecorded: lat.length,
    latencyMsMean: meanOrNull(lat),
    latencyMsMedian: lat.length === 0 ? null : median(lat),
  };
}

function diagnostic(
  items: readonly ValidationItem[],
  indices: readonly number[],
  verdicts: readonly (JudgeVerdict | undefined)[],
  human: (it: ValidationItem) => boolean | undefined,
  flag: (v: JudgeVerdict) => boolean | null,
): DiagnosticBlock | null {
  const truth: boolean[] = [];
  const pred: boolean[] = [];
  for (const i of indices) {
    const h = human(items[i]!);
    const v = verdicts[i];
    if (h === undefined || v === undefined || v.correct === null) continue;
    const f = flag(v);
    if (f === null) continue;
    truth.push(h);
    pred.push(f);
  }
  if (truth.length === 0) return null;
  const c = confusionFrom(truth, pred);
  const d = detectorMetrics(c);
  return {
    n: truth.length,
    humanTagged: c.tp + c.fn,
    judgeFlagged: c.tp + c.fp,
    agreed: c.tp,
    precision: d.precision,
    recall: d.recall,
    f1: d.f1,
    precisionInterval: wilson(c.tp, c.tp + c.fp),
    recallInterval: wilson(c.tp, c.tp + c.fn),
  };
}

export function validate(input: ValidateInput): ValidateResult {
  const boot: BootstrapOptions = { seed: input.seed ?? 42, iterations: input.iterations ?? 2000 };
  const items: ValidationItem[] = input.sets.flatMap((s) => s.items);
  const human = items.map((it) => it.label);
  const subsetNames = [...new Set(items.map((it) => it.subset))];
  const scopes = new Map<string, number[]>([[ALL, items.map((_, i) => i)]]);
  for (const s of subsetNames) scopes.set(s, items.flatMap((it, i) => (it.subset === s ? [i] : [])));

  const blocksOf = (verdicts: readonly (boolean | null)[]): Record<string, MetricBlock> => {
    const out: Record<string, MetricBlock> = {};
    for (const [scope, idx] of scopes) {
      const c = coveredItems(human, [verdicts], idx);
      out[scope] = metricBlock(c.human, c.verdicts[0]!, idx.length, boot);
    }
    return out;
  };

  /** Verdict column of every judge and ensemble, by name (names are unique across both). */
  const columns = new Map<string, (boolean | null)[]>();
  const judges: JudgeResult[] = input.judges.map((j) => {
    if (columns.has(j.name)) throw new UserError(`judge name ${j.name} is used twice`);
    const recorded = items.map((it) => j.byKey.get(itemKey(it.subset, it.taskId)));
    const verdicts = recorded.map((v) => (v === undefined ? null : v.correct));
    columns.set(j.name, verdicts);
    const diagFor = (humanTag: (it: ValidationItem) => boolean | undefined, flag: (v: JudgeVerdict) => boolean | null): Record<string, DiagnosticBlock> | null => {
      const out: Record<string, DiagnosticBlock> = {};
      for (const [scope, idx] of scopes) {
        const d = diagnostic(items, idx, recorded, humanTag, flag);
        if (d) out[scope] = d;
      }
      return Object.keys(out).length === 0 ? null : out;
    };
    return {
      name: j.name,
      sources: j.sources,
      subsets: blocksOf(verdicts),
      goldX: diagFor((it) => it.tags?.goldFalse, (v) => v.goldX),
      ambQ: diagFor((it) => it.tags?.ambQuestion, (v) => v.ambQ),
      cost: costOf(recorded.filter((v): v is JudgeVerdict => v !== undefined && v.correct !== null)),
      notes: j.notes,
    };
  });

  const pairs: PairResult[] = [];
  const judgeNames = input.judges.map((j) => j.name);
  for (let x = 0; x < judgeNames.length; x++) {
    for (let y = x + 1; y < judgeNames.length; y++) {
      const [a, b] = [judgeNames[x]!, judgeNames[y]!];
      const subsets: Record<string, PairComparison> = {};
      for (const [scope, idx] of scopes) {
        const cmp = comparePair(human, columns.get(a)!, columns.get(b)!, idx, boot);
        if (cmp.n > 0) subsets[scope] = cmp;
      }
      pairs.push({ a, b, subsets });
    }
  }
  adjustPairFamily(pairs);

  const ensembles: EnsembleResult[] = (input.ensembles ?? []).map((spec) => {
    for (const m of spec.members) {
      if (!columns.has(m)) throw new UserError(`--ensemble ${spec.name}: no judge named ${m} (judges: ${judgeNames.join(', ')})`);
    }
    if (columns.has(spec.name)) throw new UserError(`ensemble ${spec.name} is given twice`);
    const memberCols = spec.members.map((m) => columns.get(m)!);
    const { verdicts, ties } = combine(spec.kind, memberCols);
    columns.set(spec.name, verdicts);
    const res: EnsembleResult = { name: spec.name, kind: spec.kind, members: spec.members, subsets: blocksOf(verdicts) };
    if (spec.kind === 'majority') res.ties = ties;
    if (spec.kind === 'unanimity') {
      res.autoCoverage = res.subsets[ALL]!.coverage;
      res.review = items.flatMap((it, i) =>
        verdicts[i] !== null
          ? []
          : [{ subset: it.subset, taskId: it.taskId, human: it.label, votes: Object.fromEntries(spec.members.map((m, k) => [m, memberCols[k]![i] ?? null])) }],
      );
    }
    return res;
  });

  const repeats: RepeatResult[] = (input.repeats ?? []).map((group) => {
    for (const m of group) if (!columns.has(m)) throw new UserError(`--repeats: no judge named ${m} (judges: ${judgeNames.join(', ')})`);
    const cols = group.map((m) => columns.get(m)!);
    const subsets: Record<string, RepeatSpread> = {};
    for (const [scope, idx] of scopes) {
      // Compare the runs on the items they all cover, so coverage differences do not pose as spread.
      const c = coveredItems(human, cols, idx);
      if (c.human.length === 0) continue;
      const blocks = c.verdicts.map((v) => metricBlock(c.human, v, idx.length, boot));
      subsets[scope] = repeatSpread(group, blocks, c.verdicts);
    }
    return { judges: [...group], subsets };
  });

  let baseline: ValidateResult['baseline'] = null;
  if (input.baseline !== undefined) {
    const name = input.baseline;
    const base = columns.get(name);
    if (!base) throw new UserError(`--baseline ${name}: no judge or ensemble of that name (${[...columns.keys()].join(', ')})`);
    baseline = {
      name,
      candidates: [...columns]
        .filter(([c]) => c !== name)
        .map(([c, verdicts]) => compareToBaseline(c, human, verdicts, base, scopes.get(ALL)!, boot)),
    };
  }

  return {
    sets: input.sets.map((s) => ({
      name: s.name,
      file: s.file,
      format: s.format,
      items: s.items.length,
      subsets: [...new Set(s.items.map((it) => it.subset))],
      tagged: s.items.filter((it) => it.tags !== undefined).length,
    })),
    items: items.length,
    seed: boot.seed!,
    iterations: boot.iterations!,
    judges,
    pairs,
    ensembles,
    repeats,
    baseline,
  };
}
