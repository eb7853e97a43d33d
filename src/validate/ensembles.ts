import { UserError } from '../errors.js';

/**
 * Ensembles of judges, item by item:
 * - `majority`: accepted when strictly more than half of the members that gave a verdict accept;
 *   a tie (e.g. 1–1, or 2–2) rejects: "not accepted by a majority" is not a pass. Ties are counted.
 * - `unanimity`: decided only where every member gave the same verdict; the rest go to human
 *   review (auto-coverage = decided / items).
 * - `and`: rejects as soon as one member rejects; accepts when all accept.
 * - `or`: accepts as soon as one member accepts; rejects when all reject.
 * A missing member verdict leaves `and`/`or` undecided unless the others already settle it.
 */
export type EnsembleKind = 'majority' | 'unanimity' | 'and' | 'or';

export interface EnsembleSpec {
  kind: EnsembleKind;
  members: string[];
  name: string;
}

const KINDS: readonly EnsembleKind[] = ['majority', 'unanimity', 'and', 'or'];

/** `kind:a,b,c` → spec; member names are checked by the caller against the loaded judges. */
export function parseEnsembleSpec(spec: string): EnsembleSpec {
  const colon = spec.indexOf(':');
  const kind = spec.slice(0, colon).trim() as EnsembleKind;
  if (colon <= 0 || !KINDS.includes(kind)) {
    throw new UserError(`--ensemble ${spec}: expected KIND:a,b[,c...] with KIND one of ${KINDS.join(', ')}`);
  }
  const members = spec
    .slice(colon + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (members.length < 2) throw new UserError(`--ensemble ${spec}: name at least two judges`);
  if (new Set(members).size !== members.length) throw new UserError(`--ensemble ${spec}: a judge is named twice`);
  return { kind, members, name: `${kind}(${members.join(',')})` };
}

export interface EnsembleVerdicts {
  /** Per item: the ensemble verdict, or null (undecided / no verdicts). */
  verdicts: (boolean | null)[];
  /** Majority only: items where accepts = rejects (decided as reject). */
  ties: number;
}

/** Combines member verdict columns (same item order) into the ensemble's. */
export function combine(kind: EnsembleKind, columns: readonly (readonly (boolean | null)[])[]): EnsembleVerdicts {
  const n = columns[0]?.length ?? 0;
  const verdicts: (boolean | null)[] = new Array<boolean | null>(n).fill(null);
  let ties = 0;
  for (let i = 0; i < n; i++) {
    let yes = 0;
    let no = 0;
    for (const col of columns) {
      const v = col[i];
      if (v === true) yes++;
      else if (v === false) no++;
    }
    const missing = columns.length - yes - no;
    switch (kind) {
      case 'majority':
        if (yes + no === 0) break;
        if (yes === no) ties++;
        verdicts[i] = yes > no;
        break;
      case 'unanimity':
        if (missing === 0 && (yes === 0 || no === 0)) verdicts[i] = yes > 0;
        break;
      case 'and':
        if (no > 0) verdicts[i] = false;
        else if (missing === 0) verdicts[i] = true;
        break;
      case 'or':
        if (yes > 0) verdicts[i] = true;
        else if (missing === 0) verdicts[i] = false;
        break;
    }
  }
  return { verdicts, ties };
}
