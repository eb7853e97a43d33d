import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from './helpers/fake-llm-server.js';
import { writeSpiderSubset } from './helpers/spider-subset.js';
import { routeScript } from './judge/spider-fixture.js';
import { writeLiveSet } from './validate/live-set-fixture.js';
import { ROOT, SPIDER, runCli } from './helpers/cli.js';
import { writeSiteBoard } from './helpers/board.js';
import { madeUpIds, writeRoseRun, writeValidationSet, writeVerdicts } from './helpers/made-up-judging.js';

/*
 * Every command's --json against its JSON Schema in schemas/ (what the package ships), with ajv:
 * real outputs on a Spider dev subset (bundled) and on made-up labels, verdicts, a ROSE run and a board.
 */

const SCHEMAS = join(ROOT, 'schemas');
const ajv = new Ajv({ allErrors: true, strict: true });
for (const f of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')) as object);

const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
const questions = join(dir, 'dev.json');
const dbRoot = join(SPIDER, 'database');
let systems: string[] = [];
const store = join(dir, 'run.db');
const items = join(dir, 'items.jsonl');
const replay = join(dir, 'replay.jsonl');

beforeAll(() => {
  // concert_singer and pets_1
  systems = writeSpiderSubset(dir, questions, 36, 60);
  writeFileSync(
    replay,
    [
      JSON.stringify({ contains: ['returned exactly the same result'], text: JSON.stringify({ reason: 'same rows', overturn: false, ambiguity: 'none', goldCorrect: true }) }),
      JSON.stringify({ contains: ['You are the Prover'], text: JSON.stringify({ expectedAnswer: 'rows', sqlDescription: 'rows', reason: 'differs', verdict: false }) }),
    ].join('\n') + '\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `value` against a schema of schemas/, by file name. */
function matches(schema: string, value: unknown, what: string): void {
  const check = ajv.getSchema(schema)!;
  expect(check(value) ? [] : check.errors, `${what} against ${schema}`).toEqual([]);
}

/** The FILE.meta.json beside an output file (CSV, JSONL) against its schema. */
const companionOf = (file: string): void => matches('csv-meta.schema.json', JSON.parse(readFileSync(`${file}.meta.json`, 'utf8')), `${file}.meta.json`);

/** Runs a command with --json and validates its output against `schema`; returns the output. */
async function valid(schema: string, args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  matches(`${schema}.schema.json`, out, args.join(' '));
  return out;
}

describe('every --json validates against its schema in schemas/', () => {
  it('score (EX, Soft-F1, EM, --by db), judge (replay provider), audit (--labels, --out), and the CSV and JSONL companions', async () => {
    const scored = await valid('score', ['score', '--questions', questions, '--db-root', dbRoot, '--store', store, ...systems.flatMap((s) => ['--system', s]), '--metric', 'ex,soft-f1,em', '--tables', join(SPIDER, 'tables.json'), '--by', 'db', '--items', items]);
    expect((scored.systems as unknown[]).length).toBe(3);
    companionOf(items);
    const judged = join(dir, 'judged.jsonl');
    await valid('judge', ['judge', '--questions', questions, '--db-root', dbRoot, '--store', store, '--system', systems[0]!, '--provider', 'replay', '--replay', replay, '--model', 'gpt-4o-2024-08-06', '--items', judged]);
    companionOf(judged);
    // Hand labels in SALUS's layout for five of the subset's tasks, one of them wrong gold (label 0).
    const labels = join(dir, 'labels.csv');
    writeFileSync(labels, ['query_id,label', '0,1', '3,1', '7,1', '12,0', '20,1'].join('\n') + '\n');
    const out = join(dir, 'audit-out');
    const audited = await valid('audit', ['audit', '--questions', questions, '--db-root', dbRoot, '--store', store, ...systems.flatMap((s) => ['--agent', s]), '--labels', labels, '--out', out]);
    expect(audited.labelled).toEqual({ n: 5, errors: 1, missing: 0 });
    // summary.json is the --json object, provenance included.
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    matches('audit.schema.json', summary, 'summary.json');
    expect(summary).toEqual(audited);
    await valid('batch-status', ['batch', 'status', '--store', store]);
    const csv = join(dir, 'board.csv');
    const r = await runCli(['leaderboard', items, '--csv', csv, '--iterations', '50']);
    expect(r.code, r.stderr).toBe(0);
    companionOf(csv);
  }, 600_000);

  it('leaderboard: from verdicts (EX, EM, Soft-F1, --by db) and from a published board', async () => {
    await valid('leaderboard', ['leaderboard', items, '--iterations', '50', '--by', 'db']);
    await valid('leaderboard', ['leaderboard', items, '--iterations', '50', '--metric', 'em']);
    const mean = await valid('leaderboard', ['leaderboard', items, '--iterations', '50', '--metric', 'soft-f1']);
    expect(mean.metric).toBe('soft-f1');
    await valid('leaderboard', ['leaderboard', '--board', writeSiteBoard(dir), '--n', '1534', '--flawed', '564']);
  }, 300_000);

  it('stats (each statistic), import rose and validate', async () => {
    await valid('stats', ['stats', 'gap', '--n', '1534', '--flawed', '564']);
    await valid('stats', ['stats', 'prevalence', '--n', '200', '--flagged', '60', '--tp', '50', '--fp', '10', '--fn', '5', '--tn', '135']);
    await valid('stats', ['stats', 'detector', '--tp', '50', '--fp', '10', '--fn', '5', '--tn', '135']);
    await valid('stats', ['stats', 'interval', '--k', '803', '--n', '1034']);
    // Made-up labels and verdicts (the published ones: test/fidelity/), 40 tasks.
    const ids = madeUpIds();
    const truth = join(dir, 'truth.csv');
    writeFileSync(truth, ['query_id,label', ...ids.map((i) => `${i},${i % 3 === 0 ? 0 : 1}`)].join('\n') + '\n');
    const flags = join(dir, 'flags.csv');
    writeFileSync(flags, ['task_id,predicted_label', ...ids.map((i) => `${i},${i % 4 === 0 ? 0 : 1}`)].join('\n') + '\n');
    await valid('stats', ['stats', 'agreement', flags, truth, '--iterations', '100']);
    const imported = join(dir, 'imported.jsonl');
    await valid('import-rose', ['import', 'rose', writeRoseRun(join(dir, 'rose-run')), '--system', 'r', '--out', imported]);
    companionOf(imported);
    const set = writeValidationSet(join(dir, 'set.jsonl'));
    await valid('validate', ['validate', '--set', set, '--judge', writeVerdicts(dir, 'o3', 3), '--judge', writeVerdicts(dir, 'g', 5), '--ensemble', 'and:o3,g', '--baseline', 'g', '--iterations', '50']);
  }, 300_000);

  it('validate with a live judge (openai provider against a scripted server on 127.0.0.1)', async () => {
    const server = await startFakeLlmServer(routeScript);
    try {
      const setFile = writeLiveSet(join(dir, 'live-set.jsonl'));
      const r = await runCli(
        ['validate', '--set', setFile, '--provider', 'openai', '--model', 'gpt-4o-2024-08-06', '--base-url', server.openaiBase, '--db-root', dbRoot, '--store', join(dir, 'live.db'), '--iterations', '50', '--json'],
        { env: { OPENAI_API_KEY: 'sk-schemas-test' } },
      );
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { meta: { models?: unknown[]; prompts?: object }; judges: { subsets: { all: { confusion: object } } }[] };
      matches('validate.schema.json', out, 'validate --provider openai');
      expect(out.judges[0]!.subsets.all.confusion).toEqual({ tp: 1, fp: 0, fn: 1, tn: 1 });
      expect(out.meta.models).toHaveLength(1);
      expect(server.seen.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('a changed shape is caught: a score object without its systems, or with a meta of another command, is invalid', async () => {
    const validate = ajv.getSchema('score.schema.json')!;
    const out = JSON.parse((await runCli(['stats', 'interval', '--k', '3', '--n', '4', '--json'])).stdout) as { meta: object };
    expect(validate({ schemaVersion: 2, meta: { ...out.meta, command: 'scores' }, comparator: 'bird', keepDistinct: false, questions: 'q', tasks: 1, systems: [], execution: { requested: 0, distinct: 0, executed: 0, reused: 0 } })).toBe(false);
    expect(validate({ schemaVersion: 2, meta: out.meta, comparator: 'bird', keepDistinct: false, questions: 'q', tasks: 1, execution: { requested: 0, distinct: 0, executed: 0, reused: 0 } })).toBe(false);
    expect(validate({ schemaVersion: 2, meta: out.meta, comparator: 'bird', keepDistinct: false, questions: 'q', tasks: 1, systems: [], execution: { requested: 0, distinct: 0, executed: 0, reused: 0 } })).toBe(true);
  });
});
