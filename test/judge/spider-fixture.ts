import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, PredictionSet, Task } from '../../src/benchmark/types.js';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { SPIDER } from '../helpers/cli.js';
import { questionOf, stageOf } from '../helpers/fake-llm-server.js';
import type { Reply, SeenRequest } from '../helpers/fake-llm-server.js';

export const DB_ROOT = join(SPIDER, 'database');
export const DEV_JSON = join(SPIDER, 'dev.json');

/**
 * Real Spider dev tasks (concert_singer) with one prediction per cascade route,
 * and the scripted judge answers that send each down its route.
 */
export const ROUTE_CASES: { taskId: string; pred: string; route: string; correct: boolean | null; calls: number }[] = [
  // pred fails to execute → 0, no call
  { taskId: '0', pred: 'SELECT count(*) FROM singers', route: 'pred-error', correct: false, calls: 0 },
  // equal results → Refuter match mode upholds → 1
  { taskId: '1', pred: 'SELECT count(singer_id) FROM singer', route: 'match', correct: true, calls: 1 },
  // differ → Prover false → 0
  { taskId: '2', pred: 'SELECT name, country FROM singer', route: 'prover-reject', correct: false, calls: 1 },
  // differ → Prover true → Refuter overturns (the France filter is missing) → 0
  { taskId: '4', pred: 'SELECT avg(age), min(age), max(age) FROM singer', route: 'prover-refuter', correct: false, calls: 2 },
  // differ (extra column) → Prover true → Refuter upholds, flags the gold and the question → 1
  { taskId: '6', pred: 'SELECT song_name, song_release_year, age FROM singer ORDER BY age LIMIT 1', route: 'prover-refuter', correct: true, calls: 2 },
  // equal only by accident (no singer is exactly 20) → match mode overturns → 0
  { taskId: '8', pred: 'SELECT DISTINCT country FROM singer WHERE age >= 20', route: 'match', correct: false, calls: 1 },
  // the Prover answers prose twice → unscored, with the reason
  { taskId: '10', pred: 'SELECT country FROM singer', route: 'prover', correct: null, calls: 2 },
  // the Prover answers prose once, then valid JSON after the re-ask → 0
  { taskId: '11', pred: 'SELECT country, count(*) FROM singer', route: 'prover-reject', correct: false, calls: 2 },
];

/**
 * Writes the route tasks as a Spider-format questions file (renumbered 0..7 by position) and their
 * predictions as Spider text, into `dir`; returns both paths.
 */
export function writeRouteFiles(dir: string): { questions: string; preds: string } {
  const questions = join(dir, 'questions.json');
  const preds = join(dir, 'preds.sql');
  const dev = JSON.parse(readFileSync(DEV_JSON, 'utf8')) as unknown[];
  writeFileSync(questions, JSON.stringify(ROUTE_CASES.map((c) => dev[Number(c.taskId)])));
  writeFileSync(preds, ROUTE_CASES.map((c) => `${c.pred}\tconcert_singer`).join('\n') + '\n');
  return { questions, preds };
}

/** `sqlboard judge` over the route files with the OpenAI provider at `baseUrl` (a scripted 127.0.0.1 server). */
export function routeJudgeArgs(files: { questions: string; preds: string }, baseUrl: string, store: string, extra: string[] = []): string[] {
  return [
    'judge',
    '--questions', files.questions,
    '--db-root', DB_ROOT,
    '--system', `routes=${files.preds}`,
    '--provider', 'openai',
    '--model', 'gpt-4o',
    '--base-url', baseUrl,
    '--store', store,
    '--workers', '2',
    ...extra,
  ];
}

export function routeBench(): { bench: Benchmark; system: PredictionSet } {
  const full = loadBenchmark(DEV_JSON);
  const ids = new Set(ROUTE_CASES.map((c) => c.taskId));
  const tasks: Task[] = full.tasks.filter((t) => ids.has(t.id));
  const bench: Benchmark = { ...full, tasks };
  const system: PredictionSet = {
    system: 'routes',
    file: 'inline',
    byTask: new Map(ROUTE_CASES.map((c) => [c.taskId, { taskId: c.taskId, sql: c.pred }])),
  };
  return { bench, system };
}

const prover = (verdict: boolean, reason: string): string =>
  'Step by step:\n```json\n' + JSON.stringify({ expectedAnswer: 'x', sqlDescription: 'y', reason, verdict, extra: 'ignored' }) + '\n```';
const refuter = (overturn: boolean, ambiguity: string, goldCorrect: boolean, reason: string): string =>
  JSON.stringify({ reason, overturn, ambiguity, goldCorrect });

/** The judge's scripted answers, by stage and question. */
export function routeScript(req: SeenRequest): Reply {
  const stage = stageOf(req);
  const q = questionOf(req);
  const reasked = req.messages.some((m) => m.role === 'assistant');
  if (stage === 'refuter-match') {
    if (q.startsWith('What are all distinct countries where singers above age 20')) return { text: refuter(true, 'none', true, 'age >= 20 includes 20-year-olds') };
    return { text: refuter(false, 'none', true, 'same count') };
  }
  if (stage === 'prover') {
    if (q.startsWith('Show name, country, age')) return { text: prover(false, 'age column missing') };
    if (q.startsWith('What is the average, minimum, and maximum age of all singers from France')) return { text: prover(true, 'computes the stats') };
    if (q.startsWith('Show the name and the release year')) return { text: prover(true, 'extra age column is harmless') };
    if (q.startsWith('Show all countries and the number')) return { text: 'I think it is fine.' };
    if (q.startsWith('How many singers are from each country')) return reasked ? { text: prover(false, 'no GROUP BY') } : { text: 'Looks wrong to me.' };
  }
  if (stage === 'refuter') {
    if (q.startsWith('What is the average')) return { text: refuter(true, 'none', true, 'France filter missing') };
    if (q.startsWith('Show the name and the release year')) return { text: refuter(false, 'question', false, 'gold ignores ties') };
  }
  return { status: 400, raw: JSON.stringify({ error: { message: `unscripted ${stage}: ${q}` } }) };
}
