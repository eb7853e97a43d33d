import type { ValidateResult } from '../validate/validate.js';
import type { MetricBlock, MetricName } from '../validate/metrics.js';
import type { Cell, IntervalPoint, Report, Section } from './model.js';
import { percentileBootstrapCaution } from '../stats/bootstrap-caution.js';

/** The human-readable view of `validate` (terminal/Markdown/CSV/HTML); `--json` prints the result itself. */

const iv = (b: MetricBlock, m: MetricName): Cell =>
  Number.isFinite(b[m]) ? { estimate: b[m], low: b.ci[m][0], high: b.ci[m][1], method: 'percentile bootstrap' } : null;

function blockRows(name: string, subsets: Record<string, MetricBlock>, extra: Record<string, Cell> = {}): Record<string, Cell>[] {
  // A judge that covers none of a subset's items (e.g. a BIRD-only run) gets no row for it.
  return Object.entries(subsets).filter(([, b]) => b.n > 0).map(([subset, b]) => ({
    judge: name,
    subset,
    n: b.n,
    coverage: b.coverage,
    kappa: iv(b, 'kappa'),
    accuracy: iv(b, 'accuracy'),
    mcc: iv(b, 'mcc'),
    f1: iv(b, 'f1'),
    precision: iv(b, 'precision'),
    recall: iv(b, 'recall'),
    overFlag: iv(b, 'overFlagRate'),
    ...extra,
  }));
}

const METRIC_COLUMNS = [
  { key: 'n', header: 'n', format: 'integer' as const },
  { key: 'coverage', header: 'Coverage', short: 'Cov.', format: 'percent' as const },
  { key: 'kappa', header: 'κ', format: 'fixed' as const, digits: 3 },
  { key: 'accuracy', header: 'Accuracy', short: 'Acc.', format: 'percent' as const },
  { key: 'mcc', header: 'MCC', format: 'fixed' as const, digits: 3 },
  { key: 'f1', header: 'F1', format: 'percent' as const },
  { key: 'precision', header: 'Precision', short: 'Prec.', format: 'percent' as const },
  { key: 'recall', header: 'Recall', short: 'Rec.', format: 'percent' as const },
  { key: 'overFlag', header: 'Over-flag', short: 'Over', format: 'percent' as const, optional: true },
];

/** Judge × subset rows whose κ interval is in the percentile bootstrap's under-covering zone, as one warning. */
function cautions(r: ValidateResult): string[] {
  const hits = r.judges.flatMap((j) =>
    Object.entries(j.subsets).flatMap(([subset, b]) => {
      if (b.n === 0) return [];
      const why = percentileBootstrapCaution(b.n, b.kappa);
      return why ? [`${j.name}/${subset} (${why})`] : [];
    }),
  );
  if (hits.length === 0) return [];
  return [
    `Warning: the percentile bootstrap covers less than its nominal level at small n and near the ceiling; these κ intervals (and that row's others) are likely too narrow: ${hits.join('; ')}. ` +
      'Read them as optimistic, or label more items.',
  ];
}

export function validateReport(r: ValidateResult): Report {
  const sections: Section[] = [];
  const kappaPoints: IntervalPoint[] = r.judges
    .filter((j) => Number.isFinite(j.subsets.all!.kappa))
    .map((j) => ({ label: j.name, value: j.subsets.all!.kappa, low: j.subsets.all!.ci.kappa[0], high: j.subsets.all!.ci.kappa[1], detail: `n ${j.subsets.all!.n}` }));
  sections.push({
    title: 'Judges against the human labels',
    notes: [
      'Positive class: the prediction is correct. Over-flag = human-correct items the judge rejects (1 − recall).',
      `Intervals: percentile bootstrap over items, ${r.iterations} resamples, seed ${r.seed}. Metrics are over the items a judge covers. κ and MCC are coefficients in [−1, 1], not percentages.`,
      ...cautions(r),
    ],
    table: { columns: [{ key: 'judge', header: 'Judge' }, { key: 'subset', header: 'Subset' }, ...METRIC_COLUMNS], rows: r.judges.flatMap((j) => blockRows(j.name, j.subsets)) },
    plots: kappaPoints.length > 0 ? [{ kind: 'interval', title: "Cohen's κ with humans (all items)", axisLabel: 'κ', percent: false, points: kappaPoints }] : [],
  });

  for (const rep of r.repeats) {
    sections.push({
      title: `Repeat-run spread: ${rep.judges.join(', ')}`,
      notes: ['Each run scored on the items all runs cover; unstable = items on which the runs disagree.'],
      table: {
        columns: [
          { key: 'subset', header: 'Subset' },
          { key: 'n', header: 'n', format: 'integer' },
          { key: 'kMin', header: 'κ min', format: 'fixed', digits: 3 },
          { key: 'kMax', header: 'κ max', format: 'fixed', digits: 3 },
          { key: 'kRange', header: 'κ range', format: 'fixed', digits: 3 },
          { key: 'kSd', header: 'κ SD', format: 'fixed', digits: 3 },
          { key: 'aMin', header: 'Acc min', format: 'percent' },
          { key: 'aMax', header: 'Acc max', format: 'percent' },
          { key: 'unstable', header: 'Unstable items', short: 'Unst. items', format: 'integer' },
          { key: 'unstableShare', header: 'Unstable', format: 'percent' },
        ],
        rows: Object.entries(rep.subsets).map(([subset, s]) => ({
          subset,
          n: s.n,
          kMin: s.kappa.min,
          kMax: s.kappa.max,
          kRange: s.kappa.range,
          kSd: s.kappa.sd,
          aMin: s.accuracy.min,
          aMax: s.accuracy.max,
          unstable: s.unstable,
          unstableShare: s.unstableShare,
        })),
      },
    });
  }

  if (r.pairs.length > 0) {
    sections.push({
      title: 'Between judges',
      notes: [
        'Δκ = κ(A) − κ(B) against the humans on the items both cover, paired bootstrap CI (a coefficient difference); McNemar exact on correctness (b: only A right, c: only B right).',
        `Holm: the McNemar p and the Δκ bootstrap p (2·min(share of resamples with Δκ ≥ 0, with Δκ ≤ 0)) are each Holm-adjusted over all ${r.pairs.reduce((k, p) => k + Object.keys(p.subsets).length, 0)} judge pairs × subsets in this table; read "differ" from the Holm columns. The CI is not adjusted.`,
        'n for Δκ 0.10: items needed to detect a κ difference of 0.10 at α 0.05 (two-sided) with power 0.8, from the measured paired SE.',
      ],
      table: {
        columns: [
          { key: 'a', header: 'A' },
          { key: 'b', header: 'B' },
          { key: 'subset', header: 'Subset' },
          { key: 'n', header: 'n', format: 'integer' },
          { key: 'diff', header: 'Δκ', format: 'fixed', digits: 3 },
          { key: 'pA', header: 'Resamples κA>κB', short: 'κA>κB', format: 'percent' },
          { key: 'kp', header: 'Δκ p (Holm)', short: 'Δκ Holm p', format: 'pvalue' },
          { key: 'mb', header: 'b', format: 'integer' },
          { key: 'mc', header: 'c', format: 'integer' },
          { key: 'p', header: 'McNemar p', format: 'pvalue' },
          { key: 'pHolm', header: 'McNemar p (Holm)', short: 'Holm p', format: 'pvalue' },
          { key: 'inter', header: 'κ(A,B)', format: 'fixed', digits: 3, optional: true },
          { key: 'need', header: 'n for Δκ 0.10', format: 'integer', optional: true },
        ],
        rows: r.pairs.flatMap((p) =>
          Object.entries(p.subsets).map(([subset, c]) => ({
            a: p.a,
            b: p.b,
            subset,
            n: c.n,
            diff: Number.isFinite(c.kappaDiff) ? { estimate: c.kappaDiff, low: c.kappaDiffCi[0], high: c.kappaDiffCi[1] } : null,
            pA: c.pAGreater,
            kp: c.kappaDiffPHolm,
            mb: c.mcnemar.b,
            mc: c.mcnemar.c,
            p: c.mcnemar.pValue,
            pHolm: c.mcnemar.pHolm,
            inter: c.interJudgeKappa,
            need: c.sampleSizeDelta010,
          })),
        ),
      },
    });
  }

  const diagRows = r.judges.flatMap((j) =>
    (['goldX', 'ambQ'] as const).flatMap((kind) =>
      Object.entries(j[kind] ?? {}).map(([subset, d]) => ({
        judge: j.name,
        flag: kind === 'goldX' ? 'GoldX vs GOLD FALSE' : 'AmbQ vs AMBIGUOUS QUESTION',
        subset,
        n: d.n,
        tagged: d.humanTagged,
        flagged: d.judgeFlagged,
        agreed: d.agreed,
        precision: d.precisionInterval,
        recall: d.recallInterval,
      })),
    ),
  );
  if (diagRows.length > 0) {
    sections.push({
      title: 'Diagnostics against human tags',
      notes: ["On items that carry human tags (ROSE-VEC-BIRD annotators' reasons) and a verdict of the judge. Precision = both / judge flagged, recall = both / human tagged, with Wilson 95% intervals."],
      table: {
        columns: [
          { key: 'judge', header: 'Judge' },
          { key: 'flag', header: 'Flag' },
          { key: 'subset', header: 'Subset' },
          { key: 'n', header: 'n', format: 'integer' },
          { key: 'tagged', header: 'Human tagged', short: 'Human', format: 'integer' },
          { key: 'flagged', header: 'Judge flagged', short: 'Judge', format: 'integer' },
          { key: 'agreed', header: 'Both', format: 'integer' },
          { key: 'precision', header: 'Precision', short: 'Prec.', format: 'percent' },
          { key: 'recall', header: 'Recall', format: 'percent' },
        ],
        rows: diagRows,
      },
    });
  }

  sections.push({
    title: 'Calls, cost and latency',
    notes: ['Only where the verdicts record them (ROSE runs: calls inferred from the route; no cost or latency).'],
    table: {
      columns: [
        { key: 'judge', header: 'Judge' },
        { key: 'calls', header: 'Calls/item', format: 'fixed', digits: 2 },
        { key: 'cost', header: 'USD per 1,000 items', format: 'fixed', digits: 2 },
        { key: 'lat', header: 'Latency ms (median)', format: 'integer' },
      ],
      rows: r.judges.map((j) => ({ judge: j.name, calls: j.cost.callsPerItem, cost: j.cost.costPer1000Items, lat: j.cost.latencyMsMedian })),
    },
  });

  if (r.ensembles.length > 0) {
    sections.push({
      title: 'Ensembles',
      notes: [
        'majority: strict majority of the members with a verdict accepts (a tie rejects); unanimity: decided only where all members agree, coverage = auto-decided share, metrics on decided items; and/or: all/any accept.',
      ],
      table: {
        columns: [{ key: 'judge', header: 'Ensemble' }, { key: 'subset', header: 'Subset' }, ...METRIC_COLUMNS, { key: 'ties', header: 'Ties', format: 'integer' }],
        rows: r.ensembles.flatMap((e) => blockRows(e.name, e.subsets, { ties: e.ties ?? null })),
      },
    });
    for (const e of r.ensembles) {
      if (!e.review) continue;
      sections.push({
        title: `For human review: ${e.name} (${e.review.length} items)`,
        table: {
          columns: [
            { key: 'subset', header: 'Subset' },
            { key: 'taskId', header: 'Item' },
            { key: 'human', header: 'Human' },
            ...e.members.map((m) => ({ key: `v:${m}`, header: m })),
          ],
          rows: e.review.map((it) => ({
            subset: it.subset,
            taskId: it.taskId,
            human: it.human ? 'correct' : 'wrong',
            ...Object.fromEntries(e.members.map((m) => [`v:${m}`, it.votes[m] === null ? '-' : it.votes[m] ? 'accept' : 'reject'])),
          })),
        },
      });
    }
  }

  if (r.baseline) {
    sections.push({
      title: `Upgrade rule against ${r.baseline.name}`,
      notes: ['A candidate beats the baseline when it is better on all four of κ, accuracy, MCC and F1 (ROSE\'s rule) on these items; "resamples beating on all" = the share of paired bootstrap resamples where it is (a resampling frequency, not the probability that it is better). Δκ and ΔMCC are coefficient differences.'],
      table: {
        columns: [
          { key: 'candidate', header: 'Candidate' },
          { key: 'n', header: 'n', format: 'integer' },
          { key: 'kappa', header: 'Δκ', format: 'fixed', digits: 3 },
          { key: 'accuracy', header: 'ΔAccuracy (pts)', format: 'points' },
          { key: 'mcc', header: 'ΔMCC', format: 'fixed', digits: 3 },
          { key: 'f1', header: 'ΔF1 (pts)', format: 'points' },
          { key: 'beats', header: 'Beats on all four' },
          { key: 'p', header: 'Resamples beating on all', short: 'Resamples', format: 'percent' },
        ],
        rows: r.baseline.candidates.map((c) => ({ candidate: c.candidate, n: c.n, ...c.deltas, beats: c.beatsAll ? 'yes' : 'no', p: c.probability })),
      },
    });
  }

  return {
    title: 'Judge validation against human labels',
    meta: {
      sets: r.sets.map((s) => `${s.name} (${s.items})`).join(', '),
      items: r.items,
      judges: r.judges.length,
      seed: r.seed,
      resamples: r.iterations,
    },
    sections,
  };
}
