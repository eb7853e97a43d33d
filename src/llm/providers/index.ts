import { UserError } from '../../errors.js';
import { addSecret, addUrlSecrets } from '../secrets.js';
import { createGeminiProvider } from './gemini.js';
import { createOpenAiProvider } from './openai.js';
import { createReplayProvider } from './replay.js';
import type { LlmProvider, ProviderName } from './types.js';

export { PROVIDER_NAMES } from './types.js';

export interface ProviderConfig {
  provider: ProviderName;
  /** --base-url; else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL; else the vendor's. */
  baseUrl?: string;
  /** Replay: the JSONL of recorded responses. */
  replayFile?: string;
  /** Gemini API version path segment (default v1beta). */
  apiVersion?: string;
  /** Ask for schema-constrained answers (default true; off for servers that refuse response_format). */
  structuredOutput?: boolean;
}

/** The environment variables that may hold a key: every one set is redacted by value. */
export const KEY_VARIABLES = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

/**
 * Builds a provider, reading the API key from the environment only: keys are
 * never flags, so they cannot land in shell history, logs or the run store.
 */
export function createProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv = process.env): LlmProvider {
  // Every configured key, used by this provider or not, and any credential in an endpoint URL.
  for (const v of KEY_VARIABLES) addSecret(env[v]);
  for (const u of [cfg.baseUrl, env.OPENAI_BASE_URL, env.GOOGLE_GEMINI_BASE_URL]) addUrlSecrets(u);
  const structuredOutput = cfg.structuredOutput ?? true;
  switch (cfg.provider) {
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY;
      if (!apiKey) throw new UserError('--provider openai needs the OPENAI_API_KEY environment variable (any value for a local server that ignores it).');
      return createOpenAiProvider({ apiKey, baseUrl: cfg.baseUrl ?? (env.OPENAI_BASE_URL || undefined), structuredOutput });
    }
    case 'gemini': {
      const apiKey = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
      if (!apiKey) throw new UserError('--provider gemini needs the GEMINI_API_KEY (or GOOGLE_API_KEY) environment variable.');
      return createGeminiProvider({
        apiKey,
        baseUrl: cfg.baseUrl ?? (env.GOOGLE_GEMINI_BASE_URL || undefined),
        apiVersion: cfg.apiVersion,
        structuredOutput,
      });
    }
    case 'replay': {
      if (!cfg.replayFile) throw new UserError('--provider replay needs --replay FILE.jsonl (recorded responses).');
      return createReplayProvider({ file: cfg.replayFile });
    }
  }
}

