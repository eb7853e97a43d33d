import { join } from 'node:path';
import { csvField } from '../benchmark/csv-field.js';
import { formatSpiderText } from '../benchmark/spider-text.js';
import { writeOutputFile } from '../benchmark/write-file.js';
import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { Evaluation } from './evaluate.js';
import type { AuditReport } from './pipeline.js';

/**
 * SALUS's CSV (`task_id,predicted_label`, 0 = flagged as wrong gold; what `leaderboard --flags`
 * reads) plus the review-queue score, a column SALUS-format readers ignore. A file programs read
 * back: task ids go raw (a `'` before `-1` would match no task), quoted as RFC 4180 asks.
 */
export function salusCsv(report: AuditReport): string {
  return 'task_id,predicted_label,score\n' + report.flags.map((f) => `${csvField(f.taskId, true)},${f.flagged ? 0 : 1},${f.score.toFixed(6)}\n`).join('');
}

/** Every task, most suspicious first: the order in which to review the gold. */
export function reviewCsv(report: AuditReport): string {
  const rows = [...report.flags].sort((a, b) => a.rank - b.rank || b.score - a.score);
  return 'rank,task_id,score,flagged,probability\n' + rows.map((f) => `${f.rank},${csvField(f.taskId)},${f.score.toFixed(6)},${f.flagged ? 1 : 0},${f.probability.toPrecision(6)}\n`).join('');
}

/** One JSON line per task: flag, probabilities, review-queue score and rank, fired LFs, proposed correction. */
export function flagsJsonl(report: AuditReport): string {
  return report.flags.map((f) => JSON.stringify(f) + '\n').join('');
}

/** The files `--out DIR` writes (evaluation.json only with labels), so a command can check them before any work. */
export const AUDIT_OUTPUT_FILES = ['flags.csv', 'tasks.jsonl', 'review.csv', 'lf-stats.json', 'agent-stats.json', 'summary.json', 'evaluation.json'] as const;

/** The files `--out DIR` writes; returns their paths. */
export function writeAuditOutputs(dir: string, report: AuditReport, summary: object, evaluation?: Evaluation): string[] {
  const files: [string, string][] = [
    ['flags.csv', salusCsv(report)],
    ['tasks.jsonl', flagsJsonl(report)],
    ['review.csv', reviewCsv(report)],
    ['lf-stats.json', JSON.stringify({ lfs: report.lfStats, familyCorrelation: report.familyCorrelation }, null, 2) + '\n'],
    ['agent-stats.json', JSON.stringify(report.agentStats, null, 2) + '\n'],
    ['summary.json', JSON.stringify(summary, null, 2) + '\n'],
  ];
  if (evaluation) files.push(['evaluation.json', JSON.stringify(evaluation, null, 2) + '\n']);
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeOutputFile('--out', path, text);
    return path;
  });
}

/**
 * `--save-agent-sql DIR`: each agent's SQL as Spider text (one line per task, in task order),
 * so that `sqlboard score` can score the LLM agents as systems. Returns the paths written.
 */
export function writeAgentSql(dir: string, bench: Benchmark, agents: readonly PredictionSet[]): string[] {
  return agents.map((p) => {
    const path = agentSqlPath(dir, p.system);
    writeOutputFile('--save-agent-sql', path, formatSpiderText(bench, p));
    return path;
  });
}

/** Where `--save-agent-sql DIR` puts an agent's SQL: an agent name is free text, kept one plain file name inside DIR. */
export function agentSqlPath(dir: string, agent: string): string {
  return join(dir, `${agent.replace(/[^\w.-]/g, '_')}.sql`);
}
