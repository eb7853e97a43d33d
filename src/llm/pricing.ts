import { parseJsonText, readText } from '../benchmark/read-json.js';
import { InputFileError, UserError } from '../errors.js';
import type { TokenUsage } from './providers/types.js';

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/**
 * List prices (standard tier, USD per 1M tokens, as published late 2025).
 * Prices change: override with `--price IN,OUT` or `--price-file FILE.json`.
 * A dated snapshot (gpt-4o-2024-08-06) matches its family by longest prefix.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
};

export function lookupPrice(model: string, table: Readonly<Record<string, Price>> = DEFAULT_PRICES): Price | undefined {
  if (table[model]) return table[model];
  let best: string | undefined;
  for (const k of Object.keys(table)) {
    if (model.startsWith(k + '-') && (best === undefined || k.length > best.length)) best = k;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * A run's price for its model: the one given (--price), else the table's. A cost cap cannot
 * be kept without a price, so --max-cost-usd with an unknown one is refused, saying `howToFix`.
 */
export function runPrice(
  model: string,
  o: { given?: Price; table?: Readonly<Record<string, Price>>; maxCostUsd?: number; who?: string; howToFix: string },
): Price | undefined {
  const price = o.given ?? lookupPrice(model, o.table ?? DEFAULT_PRICES);
  if (o.maxCostUsd !== undefined && !price) {
    throw new UserError(`--max-cost-usd needs a price for model "${model}"${o.who ? ` (${o.who})` : ''}, which the price table lacks: pass ${o.howToFix}`);
  }
  return price;
}

export function costUsd(usage: TokenUsage, price: Price | undefined): number {
  if (!price) return 0;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6;
}

/** `--price 2.5,10` → {input: 2.5, output: 10}. */
export function parsePriceFlag(text: string): Price {
  const m = /^\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) throw new UserError(`--price "${text}": expected INPUT,OUTPUT in USD per million tokens, e.g. --price 2.5,10`);
  return { input: Number(m[1]), output: Number(m[2]) };
}

/** A JSON file `{"model": {"input": n, "output": n}, ...}` merged over the defaults. */
export function readPriceFile(file: string): Record<string, Price> {
  const v = parseJsonText(file, readText(file));
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InputFileError(file, undefined, 'expected {"model": {"input": n, "output": n}}');
  const out: Record<string, Price> = {};
  for (const [k, p] of Object.entries(v as Record<string, unknown>)) {
    const q = p as Partial<Price> | null;
    if (q === null || typeof q !== 'object' || typeof q.input !== 'number' || typeof q.output !== 'number') {
      throw new InputFileError(file, undefined, `"${k}": expected {"input": n, "output": n} in USD per million tokens`);
    }
    out[k] = { input: q.input, output: q.output };
  }
  return { ...DEFAULT_PRICES, ...out };
}
