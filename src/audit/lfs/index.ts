import type { TaskContext } from '../context.js';
import type { Vote } from '../types.js';
import { consensusLfs } from './consensus.js';
import { executionLfs } from './execution.js';
import { intentLfs } from './intent.js';
import { patternLfs } from './patterns.js';
import { structuralLfs } from './structural.js';
import type { LabelingFunction } from './types.js';

export type { LabelingFunction, LfFamily } from './types.js';

/** Every base LF, grouped by family; the meta LF is appended by `applyLfs`. */
export const BASE_LFS: readonly LabelingFunction[] = [...executionLfs, ...consensusLfs, ...structuralLfs, ...patternLfs, ...intentLfs];

export const META_LF: LabelingFunction = {
  name: 'meta_majority',
  family: 'meta',
  doc: 'Majority of the other LFs that voted (ties abstain).',
  vote: () => 0, // computed from the other votes in applyLfs
};

export const ALL_LFS: readonly LabelingFunction[] = [...BASE_LFS, META_LF];

/** The N × M vote matrix, row-major, one Int8 per vote. */
export interface VoteMatrix {
  n: number;
  m: number;
  votes: Int8Array;
  lfs: readonly LabelingFunction[];
}

export function applyLfs(contexts: readonly TaskContext[]): VoteMatrix {
  const m = ALL_LFS.length;
  const votes = new Int8Array(contexts.length * m);
  contexts.forEach((c, i) => {
    let sum = 0;
    BASE_LFS.forEach((lf, j) => {
      const v: Vote = lf.vote(c);
      votes[i * m + j] = v;
      sum += v;
    });
    votes[i * m + m - 1] = Math.sign(sum);
  });
  return { n: contexts.length, m, votes, lfs: ALL_LFS };
}
