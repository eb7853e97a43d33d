import type { ItemRecord } from '../benchmark/types.js';
import { confidencePercent } from '../stats/intervals.js';
import type { ItemsLeaderboard, SystemStanding } from '../stats/leaderboard.js';
import { formatPercent, formatPValue } from './format.js';
import { emptyMatrix, gStarBand, pts } from './leaderboard-common.js';
import type { MatrixCell, Report, Section } from './model.js';

export interface ItemsContext {
  files: string[];
  flagsFile?: string;
  /** --gold-labels: the human labels the residual wrong-gold rate comes from. */
  goldLabelsFile?: string;
  /** What `correct` measures in the verdicts (see measureOf); labels the plot's axis. */
  measure?: string;
  /** The standings' accuracy column, when it is not plain accuracy (EM). */
  accuracyHeader?: string;
}

/**
 * What the verdicts' `correct` measures: judge verdicts (`judge --items`, `import rose`) carry the judge's
 * name, `score --items` lines do not; a mix is only "accuracy".
 */
export function measureOf(records: readonly ItemRecord[]): string {
  const judged = records.filter((r) => typeof r.judge === 'string').length;
  return judged === 0 ? 'Execution accuracy' : judged === records.length ? 'Judge accuracy' : 'Accuracy';
}

/** The `--json` object of `leaderboard` from verdict files: the full result plus its inputs. */
export function itemsJson(lb: ItemsLeaderboard, ctx: ItemsContext): Record<string, unknown> {
  return {
    mode: 'items',
    files: ctx.files,
    flagsFile: ctx.flagsFile ?? null,
    goldLabelsFile: ctx.goldLabelsFile ?? null,
    tasks: lb.tasks,
    top: lb.systems[0]?.system ?? null,
    notSignificantlyBelowTop: lb.notSignificantlyBelowTop,
    threshold: lb.gap?.threshold ?? null,
    sigmaGap: lb.gap?.sigmaGap ?? null,
    withinThresholdOfTop: lb.withinThresholdOfTop ?? null,
    withinPairNoiseBoundOfTop: lb.withinPairNoiseBoundOfTop ?? null,
    flags: lb.flags ?? null,
    confidence: lb.confidence,
    seed: lb.seed,
    iterations: lb.iterations,
    systems: lb.systems,
    pairs: lb.pairs,
    methods: { ...lb.methods, threshold: lb.gap?.method ?? null },
  };
}

function pairMatrix(lb: ItemsLeaderboard): (MatrixCell | null)[][] {
  const k = lb.systems.length;
  const cells = emptyMatrix(k);
  const index = new Map(lb.systems.map((s, i) => [s.system, i]));
  for (const p of lb.pairs) {
    const i = index.get(p.a)!;
    const j = index.get(p.b)!;
    const d = p.difference.estimate;
    const strength = 1 - p.mcnemar.pValue;
    const title = `${p.a} − ${p.b}: ${d >= 0 ? '+' : ''}${pts(d)} points [${pts(p.difference.low)}, ${pts(p.difference.high)}], McNemar p = ${formatPValue(p.mcnemar.pValue)}`;
    cells[i]![j] = { value: Math.sign(d) * strength, strong: p.significant, text: pts(d, 1), title };
    cells[j]![i] = { value: -Math.sign(d) * strength, strong: p.significant, text: pts(-d, 1), title };
  }
  return cells;
}

function alignmentNotes(lb: ItemsLeaderboard): string[] {
  const notes: string[] = [];
  for (const s of lb.systems) {
    if (s.absent) notes.push(`${s.system} has no verdict for ${s.absent} of the ${lb.tasks} tasks; they count as wrong.`);
    if (s.undecided) notes.push(`${s.system}: ${s.undecided} verdicts have no decision (correct: null); they count as wrong.`);
  }
  return notes;
}

/**
 * A system above another in accuracy yet significantly below #1 while the other is not: the paired test
 * weighs only the tasks on which the two systems differ, so the set need not follow accuracy. Returns the
 * first such pair (the excluded system ranked higher), or undefined when the set is a prefix of the ranking.
 */
export function nonMonotoneExample(lb: ItemsLeaderboard): { excluded: SystemStanding; included: SystemStanding } | undefined {
  const below = lb.systems.slice(1);
  for (let i = 0; i < below.length; i++) {
    const x = below[i]!;
    if (x.vsTop?.notSignificantlyBelow !== false) continue;
    const y = below.slice(i + 1).find((s) => s.vsTop?.notSignificantlyBelow && s.correct < x.correct);
    if (y) return { excluded: x, included: y };
  }
  return undefined;
}

/**
 * The statement of which systems rank 1 has not been shown to beat, naming each criterion: the test (exact
 * McNemar against #1, Holm-adjusted over the comparisons with #1) and, when g* is known, the annotation-noise
 * bound — a different question (could worst-case wrong gold alone make this gap?), so the two lists may differ.
 * Non-rejection is not a tie: the wording says "not significantly below", never "tied".
 */
function rankOneStatement(lb: ItemsLeaderboard, top: string): string[] {
  const alpha = `${confidencePercent(1 - lb.confidence)}%`;
  const k = lb.systems.length - 1;
  const list = (xs: readonly string[]): string => (xs.length ? `: ${xs.join(', ')}` : '');
  const out = [
    `Not significantly below rank 1 (${top}) — exact McNemar against it, Holm-adjusted over the ${k} comparisons with #1, adjusted p ≥ ${alpha}: ` +
      `${lb.notSignificantlyBelowTop.length} of ${k}${list(lb.notSignificantlyBelowTop)}. ` +
      'Not rejecting is not a tie: these systems may be below #1 by less than the test can detect on these tasks.',
  ];
  const ex = nonMonotoneExample(lb);
  const why = 'The set need not follow accuracy: a paired test counts only the tasks on which the two systems differ, so a system that disagrees with #1 on more tasks needs a larger gap to be found below it.';
  if (ex) {
    const e = ex.excluded;
    const i = ex.included;
    out.push(
      `${why} Here ${e.system} (${e.correct} correct) is significantly below #1 (${e.vsTop!.b} tasks only #1 got right, ${e.vsTop!.c} only ${e.system}) ` +
        `while ${i.system} (${i.correct} correct) is not (${i.vsTop!.b} vs ${i.vsTop!.c}).`,
    );
  } else if (k > 1) out.push(why);
  if (lb.gap) {
    const within = (lb.withinThresholdOfTop ?? []).filter((x) => x !== top);
    const pair = (lb.withinPairNoiseBoundOfTop ?? []).filter((x) => x !== top);
    const e = Number(lb.gap.flawed.toFixed(1));
    const which = lb.flags ? 'the flagged tasks' : `the worst placement of the ${e} wrong golds`;
    out.push(
      `Within the noise bound g* = ${pts(lb.gap.threshold)} points of rank 1 (SALUS's bound on what ${e} wrong golds could do to any gap; a bound, not a test): ` +
        `${within.length} of ${k}${list(within)}. ` +
        `Only wrong golds the two systems do not both get right can move their gap; counting those among ${which}, each pair's own bound ` +
        `(σ = √(4·d + w)/N, d = such tasks exactly one of the two gets right, w = both get wrong) leaves ${pair.length} of ${k} within it${list(pair)}.`,
      'Which to publish: the test\'s set, as "not significantly below #1": it uses the per-item results and controls the chance of any false "below #1" at ' +
        `${alpha}, with the gold taken as right. The noise bound answers another question — whether wrong gold, in the worst case, could account for the gap — and is quoted beside it as "within the noise bound", never as a tie.`,
    );
  }
  return out;
}

/** The report of `leaderboard` from verdict files: standings with the plot, flags, every pair. */
export function itemsReport(lb: ItemsLeaderboard, ctx: ItemsContext): Report {
  const conf = `${confidencePercent(lb.confidence)}%`;
  const top = lb.systems[0];
  const band = lb.gap && top ? gStarBand(top.accuracy.estimate, lb.gap.threshold) : undefined;
  const hasClean = lb.flags !== undefined;
  const standings: Section = {
    title: 'Systems',
    notes: [
      `${lb.tasks} tasks. Accuracy with Wilson ${conf} intervals; rank range = central ${conf} of the rank over ${lb.iterations} bootstrap resamples of tasks (seed ${lb.seed}); ` +
        '"resamples with #1 above" = the share of those resamples in which #1 has more tasks right than the system: how often resampling the tasks keeps #1 ahead, not the probability that #1 is better.',
      ...(top ? rankOneStatement(lb, top.system) : []),
      ...alignmentNotes(lb),
    ].filter(Boolean),
    plots: [
      {
        kind: 'interval',
        title: `Accuracy by rank, Wilson ${conf} intervals${band ? ', with the g* band below rank 1' : ''}`,
        axisLabel: ctx.measure ?? 'Accuracy',
        percent: true,
        points: lb.systems.map((s) => ({
          label: s.system,
          rank: s.rank,
          value: s.accuracy.estimate,
          low: s.accuracy.low,
          high: s.accuracy.high,
          detail: `${s.correct}/${s.tasks}; rank range ${s.rankRange.low}–${s.rankRange.high}${s.clean ? `; clean ${formatPercent(s.clean.accuracy.estimate)}` : ''}`,
          secondary: s.clean?.accuracy.estimate,
        })),
        valueLabel: `accuracy (bar: ${conf} Wilson interval)`,
        secondaryLabel: 'accuracy on unflagged tasks',
        band,
      },
    ],
    table: {
      columns: [
        { key: 'rank', header: 'Rank', format: 'integer' },
        { key: 'system', header: 'System' },
        { key: 'accuracy', header: ctx.accuracyHeader ?? 'Accuracy', format: 'percent' },
        { key: 'correct', header: 'Correct', format: 'integer', optional: true },
        ...(hasClean
          ? [
              { key: 'clean', header: 'Clean accuracy', short: 'Clean acc.', format: 'percent' as const },
              { key: 'cleanRank', header: 'Clean rank', format: 'integer' as const, optional: true },
            ]
          : []),
        { key: 'rankRange', header: `Rank range (${conf})` },
        { key: 'p', header: 'p vs #1 (Holm over #1)', short: 'p vs #1', format: 'pvalue' },
        { key: 'same', header: 'Not signif. below #1', short: 'Not below #1' },
        { key: 'share', header: 'Resamples with #1 above', short: '#1 above', format: 'percent' },
        ...(lb.gap ? [{ key: 'noise', header: 'Within pair noise bound', short: 'In noise', optional: true }] : []),
      ],
      rows: lb.systems.map((s, i) => ({
        rank: s.rank,
        system: s.system,
        accuracy: s.accuracy,
        correct: s.correct,
        clean: s.clean?.accuracy,
        cleanRank: s.clean?.rank,
        rankRange: s.rankRange.low === s.rankRange.high ? String(s.rankRange.low) : `${s.rankRange.low}–${s.rankRange.high}`,
        p: s.vsTop?.pHolm,
        same: i === 0 ? '(rank 1)' : s.vsTop?.notSignificantlyBelow,
        share: s.vsTop?.topAboveShare,
        noise: i === 0 ? undefined : s.noiseBound?.within,
      })),
    },
  };
  const sections: Section[] = [standings];
  if (lb.flags || lb.gap) {
    const notes: string[] = [];
    if (lb.flags) {
      notes.push(
        `${lb.flags.flagged} of ${lb.tasks} tasks are flagged as having wrong gold; clean accuracy uses the other ${lb.flags.clean}.`,
      );
      notes.push(
        'Clean accuracy is circular when the flags come from an audit that used these same systems as agents: the clean subset leans toward tasks they agree on, ' +
          'so compare systems on it, do not read it as their true accuracy; and unflagged is not verified — the flags miss wrong golds.',
      );
      const res = lb.flags.residual;
      if (res) {
        notes.push(
          res.unflagged === 0
            ? `Human gold labels${ctx.goldLabelsFile ? ` (${ctx.goldLabelsFile})` : ''}: none of the ${res.labelled} labelled tasks here is unflagged, so the wrong gold left in the clean subset is not measured.`
            : `Wrong gold left among unflagged tasks, by the human labels${ctx.goldLabelsFile ? ` in ${ctx.goldLabelsFile}` : ''}: ${res.wrongUnflagged} of ${res.unflagged} labelled unflagged tasks, ` +
                `${formatPercent(res.rate.estimate)} [${formatPercent(res.rate.low)}, ${formatPercent(res.rate.high)}] (Wilson ${conf}); of the ${res.flagged} labelled flagged tasks ${res.wrongFlagged} have wrong gold. ` +
                'This holds for the whole clean subset only if the labelled tasks are a random sample of the benchmark.',
        );
      }
      if (lb.flags.unlisted) notes.push(`${lb.flags.unlisted} tasks have no row in the flags file and count as unflagged.`);
      if (lb.flags.unused) notes.push(`${lb.flags.unused} flag rows name tasks that no verdict file has; they are ignored.`);
    }
    if (lb.gap) {
      notes.push(
        `Annotation-noise bound (SALUS): σ_gap = 2√e/N = ${pts(lb.gap.sigmaGap)} points, g* = ${pts(lb.gap.threshold)} points ` +
          `(N = ${lb.gap.n}, e = ${Number(lb.gap.flawed.toFixed(1))}): a gap below g* could be made by worst-case wrong gold alone; it bounds annotation noise only, not sampling. See "Systems" for who is within it of rank 1.`,
      );
    }
    sections.push({ title: 'Gold-error flags and noise threshold', notes });
  }
  sections.push({
    title: 'Pairwise comparisons',
    detail: true,
    notes: [
      `Δ = accuracy(A) − accuracy(B) with a paired bootstrap ${conf} interval; "resamples with A above B" = the share of the same resamples in which A has more tasks right than B; b / c = tasks only A / only B got right; exact McNemar p, raw and Holm-adjusted over all ${lb.pairs.length} pairs; significant = Holm-adjusted p < ${confidencePercent(1 - lb.confidence)}%.`,
    ],
    plots:
      lb.systems.length > 1
        ? [
            {
              kind: 'matrix',
              title: 'Accuracy difference, row − column (points); saturated = significant (exact McNemar, Holm-adjusted)',
              labels: lb.systems.map((s) => s.system),
              ranks: lb.systems.map((s) => s.rank),
              cells: pairMatrix(lb),
              legend: `Cells show Δ in points; columns are numbered by rank; significant = McNemar p < ${confidencePercent(1 - lb.confidence)}% after Holm's correction over all ${lb.pairs.length} pairs.`,
            },
          ]
        : [],
    table: {
      columns: [
        { key: 'a', header: 'A' },
        { key: 'b', header: 'B' },
        { key: 'diff', header: 'Δ (pts)', format: 'points' },
        { key: 'pGreater', header: 'Resamples with A above B', short: 'A above', format: 'percent' },
        { key: 'onlyA', header: 'b', format: 'integer' },
        { key: 'onlyB', header: 'c', format: 'integer' },
        { key: 'p', header: 'McNemar p', format: 'pvalue' },
        { key: 'pHolm', header: 'Holm p', format: 'pvalue' },
        { key: 'sig', header: 'Significant' },
        ...(hasClean
          ? [
              { key: 'cleanDiff', header: 'Clean Δ (pts)', format: 'points' as const },
              { key: 'cleanP', header: 'Clean p', format: 'pvalue' as const },
            ]
          : []),
      ],
      rows: lb.pairs.map((p) => ({
        a: `${p.rankA}. ${p.a}`,
        b: `${p.rankB}. ${p.b}`,
        diff: p.difference,
        pGreater: p.difference.pGreater,
        onlyA: p.mcnemar.b,
        onlyB: p.mcnemar.c,
        p: p.mcnemar.pValue,
        pHolm: p.pHolm,
        sig: p.significant,
        cleanDiff: p.clean?.difference,
        cleanP: p.clean?.mcnemar.pValue,
      })),
    },
  });
  return {
    title: 'Leaderboard',
    meta: {
      'verdict files': ctx.files.join(', '),
      flags: ctx.flagsFile,
      tasks: lb.tasks,
      systems: lb.systems.length,
      seed: lb.seed,
      'g*': lb.gap ? `${pts(lb.gap.threshold)} points` : undefined,
    },
    sections,
  };
}
