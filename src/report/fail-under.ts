/**
 * `--fail-under METRIC=VALUE`: a CI gate on a command's per-system metrics. Every system must reach every
 * gate; a system below one is a line on stderr and exit code 4 (src/exit-codes.ts).
 */
import { UserError } from '../errors.js';

export interface Gate {
  metric: string;
  /** The threshold as a fraction (80% and 0.8 both give 0.8). */
  min: number;
}

/** A system's metric values by gate name; undefined = the metric does not apply to this run. */
export interface GatedSystem {
  name: string;
  metrics: Record<string, number | undefined>;
}

export const FAIL_UNDER_DESCRIBE =
  'CI gate METRIC=VALUE (repeatable): exit 4 when a system scores below VALUE, a fraction (0.8) or percent (80%)';

/** Parses the repeatable option; `metrics` names the metrics this command can gate, with what each is. */
export function parseFailUnder(values: readonly string[] | undefined, metrics: Readonly<Record<string, string>>): Gate[] {
  const known = Object.keys(metrics);
  return (values ?? []).map((spec) => {
    const m = /^\s*([A-Za-z][\w-]*)\s*=\s*([0-9]*\.?[0-9]+)\s*(%?)\s*$/.exec(spec);
    const list = known.map((k) => `${k} (${metrics[k]})`).join(', ');
    if (!m) throw new UserError(`--fail-under ${spec}: write METRIC=VALUE, e.g. ${known[0]}=0.8 or ${known[0]}=80%; metrics: ${list}`);
    const metric = m[1]!.toLowerCase();
    if (!known.includes(metric)) throw new UserError(`--fail-under ${spec}: unknown metric ${m[1]}; this command gates ${list}`);
    const value = Number(m[2]);
    if (!m[3] && value > 1) throw new UserError(`--fail-under ${spec}: ${value} is above 1; write a fraction (${value / 100}) or a percent (${value}%)`);
    const min = m[3] ? value / 100 : value;
    if (min > 1) throw new UserError(`--fail-under ${spec}: a threshold above 100% can never be met`);
    return { metric, min };
  });
}

/** One line per (system, gate) that is not met; a gate whose metric the run has not computed is a user error. */
export function unmetGates(gates: readonly Gate[], systems: readonly GatedSystem[]): string[] {
  const lines: string[] = [];
  for (const gate of gates) {
    for (const s of systems) {
      const value = s.metrics[gate.metric];
      if (value === undefined) throw new UserError(`--fail-under ${gate.metric}: this run has no ${gate.metric} for ${s.name} (see --help for what it needs)`);
      if (value < gate.min) lines.push(`${s.name}: ${gate.metric} ${pct(value)} is below --fail-under ${gate.metric}=${pct(gate.min)}`);
    }
  }
  return lines;
}

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;
