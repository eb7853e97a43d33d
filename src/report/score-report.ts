import { competitionRanks } from '../stats/board-gaps.js';
import type { ExRun, SystemScore } from '../execution/ex-run.js';
import { wilson, type Interval } from '../stats/intervals.js';
import type { Column, Report, Section } from './model.js';
import { metricCells, metricColumns, metricsByDifficultySection, runMetrics, systemMetricsJson } from './score-metrics.js';

/** `sqlboard score`'s JSON object and report. */
export interface FlagInfo {
  file: string;
  flagged: number;
  /** Tasks with no row in the flags file (counted clean). */
  unknown: number;
  /** Flag rows naming tasks the questions lack (left out). */
  unused: number;
}

const intervalJson = (ci: Interval): { low: number; high: number; method: string } => ({ low: ci.low, high: ci.high, method: ci.method });

export function scoreJson(run: ExRun, questions: string, flags: FlagInfo | undefined): object {
  return {
    comparator: run.comparator,
    keepDistinct: run.keepDistinct,
    questions,
    tasks: run.tasks,
    ...(run.testSuiteDatabases ? { testSuiteDatabases: run.testSuiteDatabases } : {}),
    systems: [...run.systems]
      .sort((a, b) => b.accuracy - a.accuracy)
      .map((s) => ({
        name: s.name,
        file: s.file,
        n: s.n,
        correct: s.correct,
        accuracy: s.accuracy,
        // The Wilson interval the table and plot show, so --json carries it too.
        accuracyInterval: intervalJson(wilson(s.correct, s.n)),
        execErrors: s.execErrors,
        timeouts: s.timeouts,
        missing: s.missing,
        goldErrors: s.goldErrors,
        byDifficulty: s.byDifficulty,
        ...(s.clean ? { clean: s.clean, cleanInterval: intervalJson(wilson(s.clean.correct, s.clean.n)) } : {}),
        ...(runMetrics(run).length > 0 ? { metrics: systemMetricsJson(run, s) } : {}),
        ...(Object.keys(s.repairs).length > 0 ? { repairs: s.repairs } : {}),
      })),
    ...(flags ? { flags: { file: flags.file, flagged: flags.flagged, clean: run.tasks - flags.flagged, unlisted: flags.unknown, unused: flags.unused } } : {}),
    execution: run.execution,
  };
}

export function scoreReport(run: ExRun, questions: string, flags: FlagInfo | undefined): Report {
  // One Wilson interval per system serves the table and the plot.
  const ranked = [...run.systems].sort((a, b) => b.accuracy - a.accuracy).map((s) => ({ ...s, ci: wilson(s.correct, s.n) }));
  const columns: Column[] = [
    { key: 'rank', header: '#', format: 'integer' },
    { key: 'system', header: 'System' },
    { key: 'ex', header: 'EX [95% CI]', format: 'percent' },
    { key: 'correct', header: 'Correct', format: 'integer', optional: true },
    ...metricColumns(run),
    ...(flags ? [{ key: 'clean', header: 'Clean-subset EX', short: 'Clean EX', format: 'percent' } as Column] : []),
    ...run.difficultyLevels.map((l): Column => ({ key: `d_${l}`, header: l, format: 'percent' })),
    { key: 'errors', header: 'Exec err', format: 'integer' },
    { key: 'timeouts', header: 'Timeouts', short: 'T/O', format: 'integer' },
    { key: 'missing', header: 'Missing', short: 'Miss.', format: 'integer' },
  ];
  // Equal accuracies share the best rank ("7, 7, 9"), in the table and the plot alike, as leaderboard ranks them.
  const ranks = competitionRanks(ranked.map((s) => s.accuracy));
  const rows = ranked.map((s, i) => ({
    rank: ranks[i]!,
    system: s.name,
    ex: s.ci,
    correct: s.correct,
    ...metricCells(run, s),
    ...(s.clean ? { clean: wilson(s.clean.correct, s.clean.n) } : {}),
    ...Object.fromEntries(run.difficultyLevels.map((l) => [`d_${l}`, s.byDifficulty[l]?.n ? s.byDifficulty[l]!.accuracy : null])),
    errors: s.execErrors,
    timeouts: s.timeouts,
    missing: s.missing,
  }));
  const goldErrors = ranked[0]?.goldErrors ?? 0;
  const levelsN = run.difficultyLevels.map((l) => `${l} ${ranked[0]?.byDifficulty[l]?.n ?? 0}`).join(', ');
  const x = run.execution;
  const byMetric = metricsByDifficultySection(run, ranked);
  const repaired = ranked.flatMap((s) => Object.entries(s.repairs).map(([name, n]) => `${s.name} ${name} on ${n}`));
  return {
    title: `Execution accuracy (${run.comparator} comparator)`,
    meta: { questions, tasks: run.tasks, comparator: run.comparator + (run.keepDistinct ? ' (DISTINCT kept)' : '') },
    sections: [
      {
        title: 'Systems',
        plots: [
          {
            kind: 'interval',
            title: 'Execution accuracy by rank, Wilson 95% intervals',
            axisLabel: 'Execution accuracy',
            percent: true,
            valueLabel: 'EX (bar: 95% Wilson interval)',
            ...(flags ? { secondaryLabel: 'EX on the clean subset' } : {}),
            points: ranked.map((s, i) => ({
              label: s.name,
              rank: ranks[i]!,
              value: s.accuracy,
              low: s.ci.low,
              high: s.ci.high,
              detail: `${s.correct}/${s.n} correct`,
              ...(s.clean ? { secondary: s.clean.accuracy } : {}),
            })),
          },
        ],
        table: { columns, rows },
        notes: [
          `Tasks by difficulty: ${levelsN}.`,
          'A missing prediction counts wrong; a prediction that fails or times out counts wrong.',
          ...(repaired.length > 0
            ? [`Repairs (opt-in; the official evaluators run the text as given): ${repaired.join(', ')} predictions.`]
            : []),
          ...(run.testSuiteDatabases
            ? [
                `Test-suite databases (as test-suite-sql-eval): ${run.testSuiteDatabases.map((d) => `${d.dbId} ${d.files}`).join(', ')} .sqlite files; a task counts correct only if its prediction matches the gold on every file of its database's folder.`,
              ]
            : []),
          ...(goldErrors > 0 ? [`${goldErrors} gold queries failed to execute; those tasks count wrong for every system.`] : []),
          ...(flags
            ? [
                `Clean subset: the ${run.tasks - flags.flagged} tasks whose gold is not flagged as wrong in ${flags.file} (${flags.flagged} flagged${flags.unknown ? `; ${flags.unknown} tasks not in the file count as clean` : ''}${flags.unused ? `; ${flags.unused} flag rows name tasks these questions lack and were left out` : ''}).`,
                'When the flags come from an audit that used these same systems as agents, the clean subset leans toward tasks they agree on: compare systems on it, do not read it as their true accuracy.',
              ]
            : []),
          `Executions: ${x.distinct} distinct queries of ${x.requested} requested; ${x.executed} executed now, ${x.reused} reused from the run store.`,
        ],
      },
      ...(byMetric ? [byMetric] : []),
      ...(flags ? [cleanByDifficultySection(run, ranked)] : []),
    ],
  };
}

/** Clean-subset EX per difficulty level, Wilson intervals: where the flags change the picture (SALUS reports it by level). */
function cleanByDifficultySection(run: ExRun, ranked: readonly SystemScore[]): Section {
  const first = ranked[0]?.clean?.byDifficulty ?? {};
  return {
    title: 'Clean-subset EX by difficulty',
    detail: true,
    notes: [
      `Unflagged tasks per level: ${run.difficultyLevels.map((l) => `${l} ${first[l]?.n ?? 0}`).join(', ')}. Wilson 95% intervals. ` +
        'The same circularity holds as for the clean column: flags from an audit whose agents are these systems leave the tasks they agree on.',
    ],
    table: {
      columns: [{ key: 'system', header: 'System' }, ...run.difficultyLevels.map((l): Column => ({ key: `d_${l}`, header: l, format: 'percent' }))],
      rows: ranked.map((s) => ({
        system: s.name,
        ...Object.fromEntries(run.difficultyLevels.map((l) => {
          const b = s.clean?.byDifficulty[l];
          return [`d_${l}`, b && b.n > 0 ? wilson(b.correct, b.n) : null];
        })),
      })),
    },
  };
}
