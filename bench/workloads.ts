/**
 * The bench's workloads: the bundled Spider dev set with its first N systems, and a 4x larger
 * task set (dev repeated, tasks numbered on, so every id is distinct). For each, the files
 * sqlboard reads (as a user would pass them) and the one JSON file the Python baseline reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { databaseFile } from '../src/execution/engine.js';

export interface Workload {
  label: string;
  systems: number;
  tasks: number;
  /** Arguments of `sqlboard score` after the store option. */
  sqlboardArgs: string[];
  /** The Python baseline's input file. */
  pythonInput: string;
}

export function makeWorkload(dir: string, systems: number, repeat: number): Workload {
  const data = bundledSpider();
  const chosen = data.systems.slice(0, systems);
  const label = `${systems} system${systems === 1 ? '' : 's'}${repeat > 1 ? `, ${repeat}x tasks` : ''}`;
  const base = loadBenchmark(data.questions);
  const sets = chosen.map((s) => loadPredictions(s.file, base, s.name));
  const tasks = Array.from({ length: base.tasks.length * repeat }, (_, i) => base.tasks[i % base.tasks.length]!);
  const tag = `${systems}x${repeat}`;
  let sqlboardArgs: string[];
  if (repeat === 1) {
    // The published files as they are, with the bundled questions (the default).
    sqlboardArgs = chosen.flatMap((s) => ['--system', `${s.name}=${s.file}`]);
  } else {
    // Spider's task id is the position, so the repeated file's ids run on: 0 .. 4n-1.
    const questions = join(dir, `dev-${tag}.json`);
    const records = JSON.parse(readFileSync(data.questions, 'utf8')) as unknown[];
    writeFileSync(questions, JSON.stringify(Array.from({ length: tasks.length }, (_, i) => records[i % records.length])));
    sqlboardArgs = ['--questions', questions, '--db-root', data.dbRoot];
    sets.forEach((set, si) => {
      const file = join(dir, `pred-${tag}-${si}.jsonl`);
      const lines = tasks.map((t, i) => {
        const p = set.byTask.get(t.id);
        return p ? JSON.stringify({ question_id: String(i), predicted_sql: p.sql }) : undefined;
      });
      writeFileSync(file, lines.filter((l) => l !== undefined).join('\n') + '\n');
      sqlboardArgs.push('--system', `${set.system}=${file}`);
    });
  }
  const pythonInput = join(dir, `python-${tag}.json`);
  writeFileSync(
    pythonInput,
    JSON.stringify({
      tasks: tasks.map((t) => [databaseFile(data.dbRoot, t.dbId), t.goldSql]),
      systems: sets.map((set) => ({ name: set.system, sqls: tasks.map((t) => set.byTask.get(t.id)?.sql ?? null) })),
    }),
  );
  return { label, systems, tasks: tasks.length, sqlboardArgs, pythonInput };
}
