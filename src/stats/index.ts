/** The statistics used by `stats`, `leaderboard`, `validate` and `audit`: pure, seeded, fractions. */
export * from './normal.js';
export * from './intervals.js';
export * from './rng.js';
export * from './bootstrap.js';
export * from './confusion.js';
export * from './agreement.js';
export * from './mcnemar.js';
export * from './gap.js';
export * from './kendall.js';
export * from './prevalence.js';
