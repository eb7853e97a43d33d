import { UserError } from '../errors.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import type { ProviderName } from '../llm/providers/types.js';

/** One SQL-generating LLM agent: its name in the audit, the provider and the model id. */
export interface LlmAgentSpec {
  name: string;
  provider: ProviderName;
  model: string;
}

/**
 * `--llm-agent NAME=PROVIDER:MODEL` → a spec. The model is everything after the first colon,
 * so local model ids that hold one (Ollama's `llama3.1:8b`) pass through. Names must differ
 * from each other and from `taken` (the file agents'), since every output is keyed by name.
 */
export function parseLlmAgentSpecs(args: readonly string[], taken: readonly string[] = []): LlmAgentSpec[] {
  const names = new Set(taken);
  return args.map((arg) => {
    const m = /^([^=]+)=([^:]+):(.+)$/.exec(arg.trim());
    if (!m) throw new UserError(`--llm-agent "${arg}": expected NAME=PROVIDER:MODEL, e.g. --llm-agent gpt=openai:gpt-4o-2024-08-06`);
    const [, name, provider, model] = m as unknown as [string, string, string, string];
    if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
      throw new UserError(`--llm-agent "${arg}": unknown provider "${provider}" (one of ${PROVIDER_NAMES.join(', ')})`);
    }
    if (names.has(name)) throw new UserError(`two agents are named "${name}"; give each --agent and --llm-agent a distinct NAME=`);
    names.add(name);
    return { name, provider: provider as ProviderName, model };
  });
}
