import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Made-up judging inputs for the fast suite's CLI and API tests (the published ROSE runs and
 * ROSE-VEC sets are read by test/fidelity/ only): tasks 0..n-1, every third with wrong gold.
 */
export const madeUpIds = (n = 40): number[] => [...Array(n).keys()];

/** A ROSE output directory (eval_results.json): every third task scored 0 by the Prover, the rest matched. */
export function writeRoseRun(dir: string, ids = madeUpIds()): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'eval_results.json'), JSON.stringify(ids.map((i) => ({ question_id: i, score: i % 3 ? 1 : 0, prover_result: i % 3 ? null : false, refuter_result: i % 3 ? false : null }))));
  return dir;
}

/** An sqlboard JSONL validation set: label false (and the gold_false tag) on every third task. */
export function writeValidationSet(file: string, ids = madeUpIds()): string {
  writeFileSync(file, ids.map((i) => JSON.stringify({ id: i, label: i % 3 !== 0, tags: i % 3 ? [] : ['gold_false'] })).join('\n') + '\n');
  return file;
}

/** A judge's verdict JSONL: wrong on every m-th task; returns `name=file` for --judge. */
export function writeVerdicts(dir: string, name: string, m: number, ids = madeUpIds()): string {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, ids.map((i) => JSON.stringify({ system: name, taskId: String(i), correct: i % m !== 0 })).join('\n') + '\n');
  return `${name}=${file}`;
}
