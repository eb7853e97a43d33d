import type { Argv, MiddlewareFunction } from 'yargs';
import { UserError } from '../errors.js';

const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Makes an option that takes one value an error when given twice (`--store a --store b`): yargs
 * then hands the command an array, which broke it with a TypeError, or silently took one of them.
 */
export function refuseRepeatedOptions<T>(cli: Argv<T>): Argv<T> {
  // yargs passes its instance as the second argument (its typings omit it): its options are the command's.
  const check = (argv: Record<string, unknown>, y: { getOptions(): { array: string[] } }): void => {
    const arrays = new Set(y.getOptions().array);
    for (const [key, value] of Object.entries(argv)) {
      if (key === '_' || key === '$0' || !Array.isArray(value) || /[A-Z]/.test(key)) continue;
      if (arrays.has(key) || arrays.has(kebab(key))) continue;
      throw new UserError(`--${key} was given ${value.length} times (${value.map((v) => JSON.stringify(v)).join(', ')}); give it once`);
    }
  };
  return cli.middleware(check as unknown as MiddlewareFunction<T>, true);
}
