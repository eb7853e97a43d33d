import type { BoardFile } from '../benchmark/board-csv.js';
import type { BoardAnalysis } from '../stats/board-gaps.js';
import { confidencePercent } from '../stats/intervals.js';
import { formatPercent } from './format.js';
import { emptyMatrix, gStarBand, pts } from './leaderboard-common.js';
import type { MatrixCell, Report, Section } from './model.js';

export interface BoardContext {
  file: string;
  board: BoardFile;
  /** The split N and e were measured on (--noise-split). */
  noiseSplit: 'dev' | 'test';
}

/** Which split g* comes from, what it bounds, and what applying it to the other split assumes. */
function provenanceNote(a: BoardAnalysis, split: 'dev' | 'test'): string {
  const g = a.gap;
  const other = split === 'dev' ? 'test' : 'dev';
  return (
    `g* comes from the ${split} split (N = ${g.n}, e = ${Number(g.flawed.toFixed(1))}, as given; --noise-split names the split). ` +
    `It bounds how far worst-case wrong gold alone could move a gap on that split — annotation noise only, not sampling. ` +
    `On ${other} gaps it holds only if the ${other} split has about the same size and error rate, which the board does not show.`
  );
}

/** The `--json` object of `leaderboard --board`: fractions throughout. */
export function boardJson(a: BoardAnalysis, ctx: BoardContext): Record<string, unknown> {
  return {
    mode: 'board',
    file: ctx.file,
    noiseSplit: ctx.noiseSplit,
    n: a.gap.n,
    flawed: a.gap.flawed,
    errorRate: a.gap.errorRate,
    confidence: a.gap.confidence,
    z: a.gap.z,
    sigmaGap: a.gap.sigmaGap,
    threshold: a.gap.threshold,
    tauB: a.tauB,
    expectedTau: a.expectedTau,
    top: a.systems[0]?.name ?? null,
    withinNoiseBoundOfTop: a.withinNoiseBoundOfTop,
    exceedingPairs: a.exceedingPairs,
    dev: a.dev,
    totalPairs: a.pairs.length,
    available: a.available,
    analysed: a.analysed,
    systems: a.systems,
    pairs: a.pairs,
    skipped: ctx.board.skipped,
    renamed: ctx.board.renamed,
    methods: {
      threshold: a.gap.method,
      testInterval: a.systems[0]?.testInterval.method ?? null,
      tauB: 'Kendall tau-b between dev and test scores of the analysed systems',
      expectedTau: 'SALUS: mean over pairs of 2*Phi(|dev gap|/sigma_gap) - 1',
    },
  };
}

function gapMatrix(a: BoardAnalysis): (MatrixCell | null)[][] {
  const k = a.systems.length;
  const cells = emptyMatrix(k);
  a.systems.forEach((si, i) => {
    a.systems.forEach((sj, j) => {
      if (i === j) return;
      const g = si.test - sj.test;
      cells[i]![j] = {
        value: a.gap.threshold > 0 ? Math.max(-1, Math.min(1, g / (2 * a.gap.threshold))) : Math.sign(g),
        strong: Math.abs(g) > a.gap.threshold + 1e-12,
        text: pts(g, 1),
        title: `${si.name} − ${sj.name}: ${g >= 0 ? '+' : ''}${pts(g)} points (g* = ${pts(a.gap.threshold)})`,
      };
    });
  });
  return cells;
}

/** The report of `leaderboard --board`: systems with the g* band, rank agreement, every pair, skipped rows. */
export function boardReport(a: BoardAnalysis, ctx: BoardContext): Report {
  const g = a.gap;
  const top = a.systems[0];
  const systems: Section = {
    title: `Top ${a.analysed} systems by test EX`,
    notes: [
      `Noise threshold: σ_gap = 2√e/N = ${pts(g.sigmaGap)} points, g* = z·σ_gap = ${pts(g.threshold)} points ` +
        `(one-sided ${confidencePercent(g.confidence)}%, z = ${g.z.toFixed(3)}; N = ${g.n}, e = ${Number(g.flawed.toFixed(1))} flawed tasks, ${formatPercent(g.errorRate)}).`,
      top
        ? `${a.withinNoiseBoundOfTop.length} of the ${a.analysed - 1} systems below ${top.name} are within the noise bound g* of it on test; ` +
          `${a.exceedingPairs} of ${a.pairs.length} pairs differ by more than g*. Within the bound means worst-case wrong gold alone could make the gap; it is not a tie, ` +
          'and the bound says nothing about sampling. A board gives no per-item results, so every pair gets the same worst case (only tasks the two systems do not both get right could move a gap).'
        : 'No systems to rank.',
      provenanceNote(a, ctx.noiseSplit),
      a.dev.top !== null
        ? `On dev gaps (${ctx.noiseSplit === 'dev' ? "where g* was measured; SALUS's own comparison" : 'g* carried over from test'}): ` +
          `${a.dev.withinNoiseBoundOfTop.length} of the ${a.analysed - 1} systems below the dev leader ${a.dev.top} are within g* of it on dev; ` +
          `${a.dev.exceedingPairs} of ${a.pairs.length} pairs' dev gaps exceed g*.`
        : '',
      `Bars: Wilson ${confidencePercent(g.confidence)}% intervals as if each test score were measured on N = ${g.n} tasks (the ${ctx.noiseSplit} size given; the board publishes no counts).`,
    ].filter(Boolean),
    plots: [
      {
        kind: 'interval',
        title: 'Test EX by rank, with the g* band below rank 1',
        axisLabel: 'Test execution accuracy',
        percent: true,
        points: a.systems.map((s) => ({
          label: s.name,
          rank: s.rank,
          value: s.test,
          low: s.testInterval.low,
          high: s.testInterval.high,
          detail: `dev ${formatPercent(s.dev, 2)}`,
          secondary: s.dev,
        })),
        valueLabel: `test EX (bar: ${confidencePercent(g.confidence)}% Wilson interval at N)`,
        secondaryLabel: 'dev EX',
        band: top ? gStarBand(top.test, g.threshold) : undefined,
      },
    ],
    table: {
      columns: [
        { key: 'rank', header: 'Rank', format: 'integer' },
        { key: 'name', header: 'System' },
        { key: 'test', header: 'Test EX', format: 'percent', digits: 2 },
        { key: 'dev', header: 'Dev EX', format: 'percent', digits: 2 },
        { key: 'devRank', header: 'Dev rank', format: 'integer', optional: true },
        { key: 'gapToTop', header: 'Gap to #1 (pts)', format: 'points', digits: 2 },
        { key: 'within', header: 'Within g* of #1 (test)', short: 'In g*' },
        { key: 'devWithin', header: 'Within g* of dev #1 (dev)', short: 'In g* dev', optional: true },
      ],
      rows: a.systems.map((s, i) => ({
        rank: s.rank,
        name: s.name,
        test: s.test,
        dev: s.dev,
        devRank: s.devRank,
        gapToTop: i === 0 ? null : -s.gapToTop,
        within: i === 0 ? '(rank 1)' : s.withinThresholdOfTop,
        devWithin: s.name === a.dev.top ? '(dev #1)' : a.dev.withinNoiseBoundOfTop.includes(s.name),
      })),
    },
  };
  const agreement: Section = {
    title: 'Dev → test rank agreement',
    notes: [
      `Observed Kendall tau-b between dev and test scores: ${a.tauB.toFixed(3)}.`,
      `Expected tau under annotation noise alone (SALUS: mean over pairs of 2Φ(|dev gap|/σ_gap) − 1): ${a.expectedTau.toFixed(3)}.`,
      a.tauB < a.expectedTau
        ? 'The observed agreement is below what noise alone predicts: rankings are even less stable than the noise bound suggests.'
        : 'The observed agreement is at or above what noise alone predicts.',
    ],
  };
  const pairs: Section = {
    title: 'Pairwise test gaps',
    detail: true,
    notes: [`A pair's test gap exceeds the noise bound when it is larger than g* = ${pts(g.threshold)} points: worst-case annotation noise alone could not make it. That is a bound, not a test (a published board has no per-item results to test with), and no probability that A is better is given: Φ(gap/σ_gap) is not one.`],
    plots: [
      {
        kind: 'matrix',
        title: 'Test gap, row − column (points); saturated = gap exceeds g*',
        labels: a.systems.map((s) => s.name),
        ranks: a.systems.map((s) => s.rank),
        cells: gapMatrix(a),
        legend: `Cells show the gap in points; columns are numbered by rank. g* = ${pts(g.threshold)} points.`,
      },
    ],
    table: {
      columns: [
        { key: 'a', header: 'A' },
        { key: 'b', header: 'B' },
        { key: 'gap', header: 'Gap (pts)', format: 'points', digits: 2 },
        { key: 'exceeds', header: 'Exceeds g*' },
      ],
      rows: a.pairs.map((p) => ({ a: `${p.rankA}. ${p.a}`, b: `${p.rankB}. ${p.b}`, gap: p.gap, exceeds: p.exceedsThreshold })),
    },
  };
  const sections = [systems, agreement, pairs];
  if (ctx.board.skipped.length || ctx.board.renamed.length) {
    sections.push({
      title: 'Rows not analysed or renamed',
      notes: [
        `${ctx.board.skipped.length} rows skipped (a missing or non-numeric dev or test score); ${a.available} usable, top ${a.analysed} analysed.`,
        ...ctx.board.renamed.map((r) => `Line ${r.line}: "${r.from}" occurs more than once; this row is "${r.to}".`),
      ],
      table: {
        columns: [
          { key: 'line', header: 'Line', format: 'integer' },
          { key: 'name', header: 'System' },
          { key: 'reason', header: 'Reason' },
        ],
        rows: ctx.board.skipped.map((s) => ({ ...s })),
      },
    });
  }
  return {
    title: 'Leaderboard noise analysis',
    meta: {
      board: ctx.file,
      N: g.n,
      'flawed tasks (e)': Number(g.flawed.toFixed(2)),
      'g*': `${pts(g.threshold)} points`,
      'tau-b (observed / expected)': `${a.tauB.toFixed(3)} / ${a.expectedTau.toFixed(3)}`,
    },
    sections,
  };
}
