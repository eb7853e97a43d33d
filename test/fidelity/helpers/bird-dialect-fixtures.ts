import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PythonValue } from '../../../src/execution/dialects/postgres-python-values.js';
import { SHARED } from './shared-data.js';

/** test/fidelity/fixtures/bird-dialects/ (README there): the official mini-dev verdicts in PostgreSQL and MySQL. */
export const DIALECT_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bird-dialects');
export const BIRD = join(SHARED, 'bird');

export interface Gold {
  dialect: string;
  questionId: number;
  position: number;
  sql: string;
  columns?: string[];
  rowCount?: number;
  distinctRowsSorted?: PythonValue[][];
  error?: string;
}
export interface Verdict {
  dialect: string;
  file: string;
  questionId: number;
  position: number;
  ex: number;
  exSeen: number[];
  softF1: number;
  softF1Seen: number[];
}
export interface Probe {
  probe: string;
  dialect: string;
  prediction?: string;
  gold?: string;
  ex?: number;
}

export function fixtureLines<T>(name: string): T[] {
  return readFileSync(join(DIALECT_FIXTURES, name), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);
}

/** The prediction SQL at a position of an official prediction file, as the official reader splits it. */
export function predictionReader(): (file: string, position: number) => string {
  const files = new Map<string, Record<string, string>>();
  return (file, position) => {
    if (!files.has(file)) files.set(file, JSON.parse(readFileSync(join(BIRD, file), 'utf8')) as Record<string, string>);
    return files.get(file)![String(position)]!.split('\t----- bird -----\t')[0]!;
  };
}

/** Probes of one dialect whose prediction is a plain query (writes, DDL, SET and sleeps test guards, not values). */
export function queryProbes(dialect: 'PostgreSQL' | 'MySQL'): Probe[] {
  return fixtureLines<Probe>('probes.jsonl').filter(
    (p) => p.dialect === dialect && p.ex !== undefined && p.gold !== undefined && !/\b(CREATE|DELETE|UPDATE|SET|pg_sleep|SLEEP)\b/i.test(p.prediction!),
  );
}
