import type { ItemRecord } from '../benchmark/types.js';
import { confidencePercent } from '../stats/intervals.js';
import type { ItemsLeaderboard } from '../stats/leaderboard.js';
import { formatPercent, formatPValue } from './format.js';
import { emptyMatrix, gStarBand, pts } from './leaderboard-common.js';
import type { MatrixCell, Report, Section } from './model.js';

export interface ItemsContext {
  files: string[];
  flagsFile?: string;
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
    tasks: lb.tasks,
    top: lb.systems[0]?.system ?? null,
    indistinguishableFromTop: lb.indistinguishableFromTop,
    threshold: lb.gap?.threshold ?? null,
    sigmaGap: lb.gap?.sigmaGap ?? null,
    withinThresholdOfTop: lb.withinThresholdOfTop ?? null,
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
 * The one statement of who is tied with rank 1, naming each criterion: the test (exact McNemar against #1,
 * Holm-adjusted over all pairs) and, when g* is known, the annotation-noise threshold — a different question
 * (is the gap smaller than label noise alone could make it?), so the two lists may differ.
 */
function tiedStatement(lb: ItemsLeaderboard, top: string): string {
  const alpha = `${confidencePercent(1 - lb.confidence)}%`;
  const list = (xs: readonly string[]): string => (xs.length ? `: ${xs.join(', ')}` : '');
  let s =
    `Tied with rank 1 (${top}) by test — exact McNemar against it, Holm-adjusted over all ${lb.pairs.length} pairs, p ≥ ${alpha}: ` +
    `${lb.indistinguishableFromTop.length} of ${lb.systems.length - 1}${list(lb.indistinguishableFromTop)}.`;
  if (lb.gap) {
    const within = (lb.withinThresholdOfTop ?? []).filter((x) => x !== top);
    s += ` Within the noise threshold g* = ${pts(lb.gap.threshold)} points of rank 1 (SALUS): ${within.length} of ${lb.systems.length - 1}${list(within)}.`;
  }
  return s;
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
      `${lb.tasks} tasks. Accuracy with Wilson ${conf} intervals; rank range = central ${conf} of the rank over ${lb.iterations} bootstrap resamples of tasks (seed ${lb.seed}).`,
      top ? tiedStatement(lb, top.system) : '',
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
        { key: 'p', header: 'p vs #1 (Holm)', short: 'p (Holm)', format: 'pvalue' },
        { key: 'same', header: 'Tied with #1' },
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
        same: i === 0 ? '(rank 1)' : s.vsTop?.indistinguishable,
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
      if (lb.flags.unlisted) notes.push(`${lb.flags.unlisted} tasks have no row in the flags file and count as unflagged.`);
      if (lb.flags.unused) notes.push(`${lb.flags.unused} flag rows name tasks that no verdict file has; they are ignored.`);
    }
    if (lb.gap) {
      notes.push(
        `Annotation-noise threshold (SALUS): σ_gap = 2√e/N = ${pts(lb.gap.sigmaGap)} points, g* = ${pts(lb.gap.threshold)} points ` +
          `(N = ${lb.gap.n}, e = ${Number(lb.gap.flawed.toFixed(1))}); see "Systems" for who is within g* of rank 1.`,
      );
    }
    sections.push({ title: 'Gold-error flags and noise threshold', notes });
  }
  sections.push({
    title: 'Pairwise comparisons',
    detail: true,
    notes: [
      `Δ = accuracy(A) − accuracy(B) with a paired bootstrap ${conf} interval; b / c = tasks only A / only B got right; exact McNemar p, raw and Holm-adjusted over all ${lb.pairs.length} pairs; significant = Holm-adjusted p < ${confidencePercent(1 - lb.confidence)}%.`,
    ],
    plots:
      lb.systems.length > 1
        ? [
            {
              kind: 'matrix',
              title: 'Accuracy difference, row − column (points); saturated = significant (exact McNemar, Holm-adjusted)',
              labels: lb.systems.map((s) => s.system),
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
        { key: 'pGreater', header: 'P(Δ > 0)', format: 'fixed', digits: 3 },
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
