import { describe, expect, it } from 'vitest';
import { CHILD_GLIBC_TUNABLES, childEnv, execProcessOptions } from '../src/execution/exec-process.js';
import { KERNEL_WATCHED } from '../src/execution/parent-death.js';

/**
 * The allocator settings an execution process starts with (exec-process.ts). Not read back from
 * /proc/<pid>/environ: glibc rewrites GLIBC_TUNABLES there as it parses it.
 */
describe("an execution process's glibc settings", () => {
  it('are added to the environment, which is otherwise passed on as it is', () => {
    const env = childEnv({ PATH: '/bin', HOME: '/h' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', GLIBC_TUNABLES: CHILD_GLIBC_TUNABLES });
    expect(CHILD_GLIBC_TUNABLES.split(':')).toEqual(['glibc.malloc.hugetlb=1', 'glibc.malloc.arena_max=1']);
  });

  it("come before the user's own, so that a setting of theirs wins (glibc keeps the last)", () => {
    expect(childEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }).GLIBC_TUNABLES).toBe(`${CHILD_GLIBC_TUNABLES}:glibc.malloc.arena_max=4`);
    const source = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' };
    childEnv(source);
    expect(source).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' });
  });

  it('are in the fork options whether the process starts through setpriv or not', () => {
    const env = { PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' };
    const viaSetpriv = execProcessOptions('/usr/bin/setpriv', env);
    expect(viaSetpriv.execPath).toBe('/usr/bin/setpriv');
    expect(viaSetpriv.env).toEqual({ PATH: '/bin', GLIBC_TUNABLES: `${CHILD_GLIBC_TUNABLES}:glibc.malloc.arena_max=2`, [KERNEL_WATCHED]: '1' });
    const plain = execProcessOptions(undefined, env);
    expect(plain.execPath).toBeUndefined();
    expect(plain.env).toEqual({ PATH: '/bin', GLIBC_TUNABLES: `${CHILD_GLIBC_TUNABLES}:glibc.malloc.arena_max=2` });
  });
});
