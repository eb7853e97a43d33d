import type { ResultPreview } from '../execution/result-preview.js';

/**
 * The per-item explorer of an HTML page (`--html` of score, judge, audit): every task with its
 * question, gold SQL and each system's SQL, result previews, verdicts and errors. It travels as ONE
 * JSON object embedded in the page and is rendered in the browser (explorer-html.ts), so the page
 * stays small and fast at 23 systems × 1,534 tasks. Keys are short because they repeat 35,000 times.
 */
export interface ExplorerData {
  /** Which command made it: decides the words (verdict, flag) the page uses. */
  kind: 'score' | 'judge' | 'audit';
  /** What a verdict means here, e.g. "EX (spider comparator)", "judge gpt-4o-2024-08-06", "agrees with the gold". */
  verdictLabel: string;
  systems: string[];
  /** Distinct result previews; items and tasks point into this list, so equal results are stored once. */
  previews: ResultPreview[];
  tasks: ExplorerTask[];
  /** Initial order: 'task' (the file's) or 'review' (the audit's review queue, rank 1 first). */
  order: 'task' | 'review';
}

export interface ExplorerTask {
  id: string;
  db: string;
  /** Difficulty level, when known. */
  d?: string;
  /** Question and evidence (BIRD's external knowledge). */
  q: string;
  ev?: string;
  gold: string;
  /** Index into `previews` of the gold's result. */
  gp?: number;
  /** Gold execution error. */
  ge?: string;
  /** Audit: flagged as wrong gold (score --flags too). */
  fl?: boolean;
  /** Audit: review score in [0, 1], review rank (1 = most suspicious), P(gold wrong). */
  rs?: number;
  rk?: number;
  pw?: number;
  /** Audit: the proposed correction (SQL of the largest group of agreeing agents) and its agent. */
  fix?: string;
  /** One entry per system, in `systems` order; null when the system has no item for the task. */
  s: (ExplorerItem | null)[];
}

export interface ExplorerItem {
  /** Prediction SQL; absent when the system has no prediction (m). */
  sql?: string;
  /** Verdict: 1 correct, 0 wrong, null undecided (judge unscored, audit no opinion). */
  v: 1 | 0 | null;
  /** The prediction failed to execute (or timed out): its error. */
  e?: string;
  /** Missing prediction. */
  m?: 1;
  /** Index into `previews` of the prediction's result. */
  p?: number;
  /** Judge: GoldX (gold wrong) and AmbQ (question ambiguous) labels, the route, the refuter's or prover's reason. */
  gx?: 1;
  aq?: 1;
  rt?: string;
  why?: string;
  /** Score: the item's other metrics by name (Soft-F1, EM, VES, R-VES), when they were computed. */
  mx?: Record<string, number>;
  /** Judge: the plain EX verdict beside the judge's. */
  ex?: 1 | 0;
}

/** Collects distinct previews and hands out their indexes. */
export class PreviewTable {
  readonly list: ResultPreview[] = [];
  private readonly index = new Map<string, number>();

  add(p: ResultPreview | undefined): number | undefined {
    if (!p) return undefined;
    const key = JSON.stringify(p);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.list.push(p) - 1;
      this.index.set(key, i);
    }
    return i;
  }
}
