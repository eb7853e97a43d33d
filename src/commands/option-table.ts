import type { Argv, Options } from 'yargs';
import type { OptionTable } from '../api/option-table.js';
import { UserError } from '../errors.js';

/**
 * yargs reads `--no-NAME` as NAME = false for every option, a string one too (`score --no-store` gave
 * a boolean where a path belongs, and an internal error): a string option refuses it by name.
 */
export const refuseNegation =
  (name: string) =>
  (v: unknown): unknown => {
    if (typeof v === 'boolean' || (Array.isArray(v) && v.some((x) => typeof x === 'boolean'))) {
      throw new UserError(`--${name} takes a value (--no-${name} is not an option): give --${name} VALUE, or leave it out for its default`);
    }
    return v;
  };

/** Adds a command's option table (src/api/option-table.ts) to its yargs builder, `scope` prefixing a group's help. */
export function addOptionTable<T>(y: Argv<T>, table: OptionTable): Argv<T> {
  const groups = new Map<string, string[]>();
  for (const [name, spec] of Object.entries(table)) {
    const { min: _min, integer: _integer, checks: _checks, group, choices, default: dflt, ...rest } = spec;
    const option: Options = {
      ...rest,
      ...(choices ? { choices: [...choices] } : {}),
      ...(dflt !== undefined ? { default: Array.isArray(dflt) ? [...dflt] : dflt } : {}),
      ...(spec.type === 'string' ? { coerce: refuseNegation(name) } : {}),
    };
    y = y.option(name, option) as unknown as Argv<T>;
    if (group) groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  for (const [group, names] of groups) y = y.group(names, `${group}:`);
  return y;
}
