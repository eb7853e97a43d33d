import type { Argv, Options } from 'yargs';
import type { OptionTable } from '../api/option-table.js';

/** Adds a command's option table (src/api/option-table.ts) to its yargs builder, `scope` prefixing a group's help. */
export function addOptionTable<T>(y: Argv<T>, table: OptionTable): Argv<T> {
  const groups = new Map<string, string[]>();
  for (const [name, spec] of Object.entries(table)) {
    const { min: _min, integer: _integer, checks: _checks, group, choices, default: dflt, ...rest } = spec;
    const option: Options = { ...rest, ...(choices ? { choices: [...choices] } : {}), ...(dflt !== undefined ? { default: Array.isArray(dflt) ? [...dflt] : dflt } : {}) };
    y = y.option(name, option) as unknown as Argv<T>;
    if (group) groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  for (const [group, names] of groups) y = y.group(names, `${group}:`);
  return y;
}
