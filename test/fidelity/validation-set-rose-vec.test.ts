import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED } from './helpers/shared-data.js';
import { itemKey, loadValidationSet, loadValidationSets } from '../../src/benchmark/validation-set.js';
import { osaDistance, parseHumanTags } from '../../src/benchmark/human-tags.js';

const ANN = join(SHARED, 'rose', 'data', 'annotations');
const BIRD = join(ANN, 'rose-vec-bird.json');
const SPIDER = join(ANN, 'rose-vec-spider.json');

describe('ROSE-VEC validation sets', () => {
  it('loads both subsets, keyed by (subset, id) although 46 ids repeat across them', () => {
    const [bird, spider] = loadValidationSets([BIRD, SPIDER]);
    expect(bird!.name).toBe('rose-vec-bird');
    expect(bird!.items).toHaveLength(322);
    expect(spider!.items).toHaveLength(263);
    expect(bird!.items.filter((i) => i.label)).toHaveLength(216);
    expect(spider!.items.filter((i) => i.label)).toHaveLength(210);
    const birdIds = new Set(bird!.items.map((i) => i.taskId));
    const shared = spider!.items.filter((i) => birdIds.has(i.taskId));
    expect(shared).toHaveLength(46);
    const keys = new Set([...bird!.items, ...spider!.items].map((i) => itemKey(i.subset, i.taskId)));
    expect(keys.size).toBe(585);
    // Same id, different items: the join must not mix them up.
    const a = bird!.items.find((i) => i.taskId === '43')!;
    const b = spider!.items.find((i) => i.taskId === '43')!;
    expect(a.question).not.toBe(b.question);
  });

  it('reads human tags from BIRD reasons (mixed case, typos), none on Spider', () => {
    const bird = loadValidationSet(BIRD);
    const count = (k: 'goldFalse' | 'ambQuestion' | 'ambSchema' | 'evidenceFalse') => bird.items.filter((i) => i.tags?.[k]).length;
    expect(bird.items.every((i) => i.tags !== undefined)).toBe(true);
    expect(count('goldFalse')).toBe(70);
    expect(count('ambQuestion')).toBe(25);
    expect(count('ambSchema')).toBe(6);
    expect(count('evidenceFalse')).toBe(5);
    expect(loadValidationSet(SPIDER).items.every((i) => i.tags === undefined)).toBe(true);
  });

  it('matches the real tag strings, including misspellings, and not prose about the gold', () => {
    const raw = JSON.parse(readFileSync(BIRD, 'utf8')) as { question_id: number; reason_1: string; reason_2: string }[];
    const r = (id: number) => raw.find((x) => x.question_id === id)!;
    expect(r(1204).reason_2).toMatch(/^GOLD FLASE\./);
    expect(parseHumanTags(r(1204).reason_2).goldFalse).toBe(true);
    expect(r(1482).reason_1).toMatch(/^GOLD FASLE\./);
    expect(parseHumanTags(r(1482).reason_1).goldFalse).toBe(true);
    expect(parseHumanTags(r(897).reason_2)).toMatchObject({ evidenceFalse: true, goldFalse: false }); // mixed-case EVIDENCE FALSE only
    expect(parseHumanTags(r(0).reason_2)).toMatchObject({ ambSchema: true, ambQuestion: false }); // the schema tag alone
    expect(parseHumanTags(r(992).reason_2).ambQuestion).toBe(true); // mixed case
    expect(parseHumanTags(r(1225).reason_2).ambQuestion).toBe(true); // "ambiguous output": the question leaves the output open
    expect(parseHumanTags(r(606).reason_2).goldFalse).toBe(false); // prose about the gold SQL, no tag
    const item = loadValidationSet(BIRD).items.find((i) => i.taskId === '1068')!;
    expect(item.tags).toMatchObject({ goldFalse: true, evidenceFalse: true });
    expect(osaDistance('fasle', 'false')).toBe(1);
    expect(osaDistance('flase', 'false')).toBe(1);
    expect(parseHumanTags('golden falsehood', 'told false')).toMatchObject({ goldFalse: false });
  });
});
