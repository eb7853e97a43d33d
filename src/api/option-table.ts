import { UserError } from '../errors.js';
import { belowMin, type OptionCheck } from './option-checks.js';

/**
 * One command's options, written once: the CLI builds its flags from the table (src/commands/
 * option-table.ts), the library's option type is derived from it (`OptionValues`), and the library
 * applies its defaults and checks (`resolveOptions`), so a flag, its type, its default and its checks
 * cannot drift apart between the CLI and the API.
 */
export interface OptionSpec {
  /** Absent on a choices option whose help shows only its choices (as the flag always had). */
  type?: 'string' | 'number' | 'boolean';
  describe: string;
  array?: true;
  choices?: readonly string[];
  default?: string | number | boolean | readonly string[];
  /** Required (the CLI demands it; the library's type makes it non-optional). */
  demandOption?: true;
  alias?: string;
  /** A number option's check: at least `min` (whole unless `integer` is false). */
  min?: number;
  integer?: boolean;
  /** Further rules, made in order after `min` (option-checks.ts: whole, positiveSeconds, count, fraction, refuse). */
  checks?: readonly OptionCheck[];
  /** The CLI's help group. */
  group?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** `max-result-bytes` → `maxResultBytes`, as yargs names the parsed value. */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

type Scalar<O extends OptionSpec> = O extends { choices: readonly (infer C)[] } ? C : O extends { type: 'number' } ? number : O extends { type: 'boolean' } ? boolean : string;
type Value<O extends OptionSpec> = O extends { array: true } ? Scalar<O>[] : Scalar<O>;
type Required<T extends OptionTable> = { [K in keyof T]: T[K] extends { demandOption: true } ? K : never }[keyof T];

/** The library's options object for a table: camelCase names, required where the CLI demands them. */
export type OptionValues<T extends OptionTable> = { [K in Required<T> as CamelCase<K & string>]: Value<T[K]> } & {
  [K in Exclude<keyof T, Required<T>> as CamelCase<K & string>]?: Value<T[K]>;
};

/** A shared table's options with `scope: ` before each help text (e.g. audit's "LLM agents: --concurrency ..."). */
export function scopedOptions<T extends OptionTable>(table: T, scope: string): T {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, { ...spec, describe: `${scope}: ${spec.describe}` }])) as unknown as T;
}

const refuseIf = (wrong: string | undefined): void => {
  if (wrong) throw new UserError(wrong);
};

const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The options with the table's defaults filled in and its rules made: each option's `min` then its
 * `checks`, option by option in the table's order, or first those named in `order` (the order in which
 * the command always reported its errors, so a user who gets two wrong sees the same one first). The
 * first rule broken is a UserError naming the flag; the checks see every option with its default.
 */
export function resolveOptions<T extends OptionTable, O extends object>(table: T, opts: O, order: readonly (keyof T & string)[] = []): O & ParsedOptions<T> {
  const out = { ...opts } as Record<string, unknown>;
  for (const [name, spec] of Object.entries(table)) {
    const key = camel(name);
    if (out[key] === undefined && spec.default !== undefined) out[key] = Array.isArray(spec.default) ? [...(spec.default as string[])] : spec.default;
  }
  for (const name of [...order, ...Object.keys(table).filter((n) => !order.includes(n))]) {
    const spec = table[name]!;
    const value = out[camel(name)];
    if (spec.min !== undefined && typeof value === 'number') refuseIf(belowMin(name, value, spec.min, spec.integer ?? true));
    for (const check of spec.checks ?? []) refuseIf(check(value, out, name));
  }
  return out as O & ParsedOptions<T>;
}

type Defaulted<T extends OptionTable> = { [K in keyof T]: T[K] extends { default: unknown } ? K : never }[keyof T];

/** What the CLI's parser hands a command for a table: as OptionValues, with every defaulted option present. */
export type ParsedOptions<T extends OptionTable> = OptionValues<T> & { [K in Defaulted<T> as CamelCase<K & string>]: Value<T[K]> };
