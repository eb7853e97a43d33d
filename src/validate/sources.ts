import { existsSync, statSync } from 'node:fs';
import { readItems } from '../benchmark/items.js';
import { importRoseDir } from '../benchmark/rose-import.js';
import type { ItemRecord } from '../benchmark/types.js';
import { itemKey, type ValidationSet } from '../benchmark/validation-set.js';
import { InputFileError, UserError } from '../errors.js';

/** One judge's verdict on one validation item, with what the run recorded about it. */
export interface JudgeVerdict {
  /** null = the judge left the item unscored. */
  correct: boolean | null;
  goldX: boolean | null;
  ambQ: boolean | null;
  calls?: number;
  costUsd?: number;
  latencyMs?: number;
}

export interface JudgeVerdicts {
  name: string;
  sources: string[];
  /** itemKey(subset, taskId) → verdict, for items of the loaded sets only. */
  byKey: Map<string, JudgeVerdict>;
  notes: string[];
}

/** `NAME=SOURCE[,SOURCE...]` → name and sources. */
export function parseJudgeSpec(spec: string): { name: string; sources: string[] } {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) {
    throw new UserError(`--judge ${spec}: expected NAME=SOURCE[,SOURCE...] (a verdict JSONL file or a ROSE output directory)`);
  }
  const name = spec.slice(0, eq).trim();
  const sources = spec
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (name === '' || sources.length === 0) throw new UserError(`--judge ${spec}: empty name or source list`);
  return { name, sources };
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/** A record's verdict and usage; `unscored` or a non-boolean `correct` means no verdict. */
export function verdictOf(r: ItemRecord): JudgeVerdict {
  const v: JudgeVerdict = {
    // `judge --items` marks an item without a usable answer with `unscored` (its reason).
    correct: (r.unscored !== undefined && r.unscored !== false) || typeof r.correct !== 'boolean' ? null : r.correct,
    goldX: flag(r.goldX),
    ambQ: flag(r.ambQ),
  };
  const calls = num(r.calls);
  const cost = num(r.costUsd);
  const latency = num(r.latencyMs);
  if (calls !== undefined) v.calls = calls;
  if (cost !== undefined) v.costUsd = cost;
  if (latency !== undefined) v.latencyMs = latency;
  return v;
}

function recordsOf(source: string, name: string): { records: ItemRecord[]; notes: string[] } {
  if (!existsSync(source)) throw new UserError(`--judge ${name}: ${source} does not exist`);
  if (statSync(source).isDirectory()) {
    const imp = importRoseDir(source, { system: name });
    return { records: imp.records, notes: imp.notes };
  }
  const records = readItems(source);
  const systems = new Set(records.map((r) => r.system));
  if (systems.size > 1) {
    throw new InputFileError(source, undefined, `holds verdicts for ${systems.size} systems (${[...systems].slice(0, 4).join(', ')}…); a validation verdict file must hold one`);
  }
  return { records, notes: [] };
}

/**
 * Reads a judge's sources and joins their records to the sets' items. A record names its
 * subset, or joins the one set holding its id; records outside the sets are counted, not
 * errors (a ROSE run may cover more questions than a set).
 */
export function loadJudge(name: string, sources: readonly string[], sets: readonly ValidationSet[]): JudgeVerdicts {
  const subsets = new Set<string>();
  const subsetsById = new Map<string, string[]>();
  for (const s of sets) {
    for (const it of s.items) {
      subsets.add(it.subset);
      const list = subsetsById.get(it.taskId) ?? [];
      list.push(it.subset);
      subsetsById.set(it.taskId, list);
    }
  }
  const byKey = new Map<string, JudgeVerdict>();
  const notes: string[] = [];
  for (const spec of sources) {
    // `PATH#SUBSET` names the subset of records that carry none (e.g. ROSE's ablation runs,
    // whose paths name no rose-vec-<subset>).
    const hash = spec.lastIndexOf('#');
    const source = hash > 0 ? spec.slice(0, hash) : spec;
    const forcedSubset = hash > 0 ? spec.slice(hash + 1) : undefined;
    if (forcedSubset !== undefined && !subsets.has(forcedSubset)) {
      throw new UserError(`--judge ${name}: ${spec} names subset ${forcedSubset}, which no --set has (${[...subsets].join(', ')})`);
    }
    const { records, notes: n } = recordsOf(source, name);
    notes.push(...n);
    let outside = 0;
    let duplicates = 0;
    for (const r of records) {
      let subset = typeof r.subset === 'string' ? r.subset : forcedSubset;
      if (subset === undefined) {
        const candidates = subsetsById.get(r.taskId) ?? [];
        if (candidates.length > 1) {
          throw new InputFileError(
            source,
            undefined,
            `record for task ${r.taskId} has no "subset" and the id is in ${candidates.join(' and ')}; add "subset" to the records, or name it: ${source}#SUBSET`,
          );
        }
        subset = candidates[0];
      }
      if (subset === undefined || !(subsetsById.get(r.taskId) ?? []).includes(subset)) {
        outside++;
        continue;
      }
      const key = itemKey(subset, r.taskId);
      if (byKey.has(key)) duplicates++;
      byKey.set(key, verdictOf(r));
    }
    if (outside > 0) notes.push(`${name}: ${outside} records of ${source} are not items of the loaded sets (ignored)`);
    if (duplicates > 0) notes.push(`${name}: ${duplicates} items have several verdicts; kept the last`);
  }
  return { name, sources: [...sources], byKey, notes };
}
