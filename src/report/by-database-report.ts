import type { ItemRecord } from '../benchmark/types.js';
import { CONTINUOUS_METRICS, ITEM_FIELD, type ContinuousMetric } from '../execution/metric-means.js';
import type { DatabaseBreakdown } from '../stats/by-database.js';
import type { Column, Section } from './model.js';

/**
 * The `--by db` section of score and leaderboard: one row per (database, system), tidy so that CSV keeps
 * every value, with the accuracy interval and each per-item metric's mean. `metricLabels` maps the metric
 * names of the breakdown to column headers.
 */
export function byDatabaseSection(rows: readonly DatabaseBreakdown[], accuracyLabel: string, metricLabels: Readonly<Record<string, string>>): Section {
  const conf = rows[0]?.systems[0]?.accuracy.method.match(/\d+(\.\d+)?%/)?.[0] ?? '95%';
  const columns: Column[] = [
    { key: 'db', header: 'Database' },
    { key: 'tasks', header: 'Tasks', format: 'integer' },
    { key: 'system', header: 'System' },
    { key: 'correct', header: 'Correct', format: 'integer', optional: true },
    { key: 'accuracy', header: `${accuracyLabel} [${conf} CI]`, format: 'percent' },
    ...Object.entries(metricLabels).map(([key, header]): Column => ({ key: `m_${key}`, header, format: 'percent' })),
  ];
  return {
    title: 'By database',
    notes: [`${rows.length} databases. ${accuracyLabel} on each database's tasks with a Wilson interval; a task without a prediction or verdict counts wrong.`],
    table: {
      columns,
      rows: rows.flatMap((db) =>
        db.systems.map((s) => ({
          db: db.dbId,
          tasks: db.tasks,
          system: s.system,
          correct: s.correct,
          accuracy: s.accuracy,
          ...Object.fromEntries(Object.keys(metricLabels).map((k) => [`m_${k}`, s.metrics[k]])),
        })),
      ),
    },
  };
}

/** The per-item metrics (besides correct) that the items carry, as metric name → item field, and their headers. */
export function itemMetricFields(items: readonly ItemRecord[]): { fields: Record<string, string>; labels: Record<string, string> } {
  const present = CONTINUOUS_METRICS.filter((m) => items.some((it) => typeof it[ITEM_FIELD[m]] === 'number'));
  return {
    fields: Object.fromEntries(present.map((m) => [m, ITEM_FIELD[m]])),
    labels: Object.fromEntries(present.map((m) => [m, METRIC_HEADER[m]])),
  };
}

const METRIC_HEADER: Record<ContinuousMetric, string> = { 'soft-f1': 'Soft-F1', em: 'EM', ves: 'VES', 'r-ves': 'R-VES' };
