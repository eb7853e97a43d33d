import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitHead } from './git-head.js';
import type { PromptTemplate } from '../judge/prompts.js';
import { redactDeep } from '../llm/secrets.js';
import { writeOutputFile } from '../benchmark/write-file.js';
import { metaCompanion, SCHEMA_VERSION, type Provenance } from '../report/provenance.js';
import type { CommandResult } from './types.js';

let self: Provenance['sqlboard'] | undefined;

/** This package's version, and its git commit when it runs from a checkout (found from this file, in src/ or dist/src/). */
function sqlboardItself(): Provenance['sqlboard'] {
  if (self) return self;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const commit = gitHead(dir);
  self = { version, ...(commit ? { commit } : {}) };
  return self;
}

/** The options as the caller gave them: callbacks and unset options left out, configured API keys redacted. */
function recordedOptions(opts: object): Record<string, unknown> {
  return redactDeep(Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined && typeof v !== 'function')));
}

/** The prompt templates' hashes by name. */
export function promptHashes(templates: readonly PromptTemplate[]): Record<string, string> {
  return Object.fromEntries(templates.map((t) => [t.name, t.hash]));
}

export interface RunRecord {
  command: string;
  options: object;
  started: Date;
  databases?: Record<string, string>;
  prompts?: Record<string, string>;
  models?: Provenance['models'];
  seed?: number;
  /** The SQLite that ran the queries (ExecutionEngine.sqlite), for a command that runs any. */
  sqlite?: Provenance['sqlite'];
}

/**
 * Adds the provenance to a command's result: `schemaVersion` and `meta` first in the `--json`
 * object (the rest unchanged, in its order), and the same `meta` on the Report for the footers.
 */
export function withProvenance<R extends CommandResult>(result: R, run: RunRecord): R {
  const meta: Provenance = {
    sqlboard: sqlboardItself(),
    command: run.command,
    options: recordedOptions(run.options),
    ...(run.databases && Object.keys(run.databases).length ? { databases: run.databases } : {}),
    ...(run.prompts && Object.keys(run.prompts).length ? { prompts: run.prompts } : {}),
    ...(run.models?.length ? { models: run.models } : {}),
    ...(run.seed !== undefined ? { seed: run.seed } : {}),
    ...(run.sqlite ? { sqlite: run.sqlite } : {}),
    startedAt: run.started.toISOString(),
    endedAt: new Date().toISOString(),
  };
  result.json = { schemaVersion: SCHEMA_VERSION, meta, ...result.json };
  result.report.provenance = meta;
  return result;
}

/** Writes a run's provenance beside a JSONL output (`--items FILE` → `FILE.meta.json`), as beside a CSV file. */
export function writeMetaBeside(flag: string, file: string, result: CommandResult): void {
  writeOutputFile(flag, `${file}.meta.json`, metaCompanion(result.report.provenance!));
}

/** The companion file `writeMetaBeside` writes for an output, for the checks made before any work. */
export const metaBeside = (file: string | undefined): string[] | undefined => (file === undefined ? undefined : [file, `${file}.meta.json`]);
