import { UserError } from '../../errors.js';
import { createGeminiProvider } from './gemini.js';
import { createOpenAiProvider } from './openai.js';
import { createReplayProvider } from './replay.js';
import type { LlmProvider, ProviderName } from './types.js';

export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'gemini', 'replay'];

export interface ProviderConfig {
  provider: ProviderName;
  /** --base-url; else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL; else the vendor's. */
  baseUrl?: string;
  /** Replay: the JSONL of recorded responses. */
  replayFile?: string;
  /** Gemini API version path segment (default v1beta). */
  apiVersion?: string;
}

/**
 * Builds a provider, reading the API key from the environment only: keys are
 * never flags, so they cannot land in shell history, logs or the run store.
 */
export function createProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv = process.env): LlmProvider {
  switch (cfg.provider) {
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY;
      if (!apiKey) throw new UserError('--provider openai needs the OPENAI_API_KEY environment variable (any value for a local server that ignores it).');
      return createOpenAiProvider({ apiKey, baseUrl: cfg.baseUrl ?? (env.OPENAI_BASE_URL || undefined) });
    }
    case 'gemini': {
      const apiKey = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
      if (!apiKey) throw new UserError('--provider gemini needs the GEMINI_API_KEY (or GOOGLE_API_KEY) environment variable.');
      return createGeminiProvider({ apiKey, baseUrl: cfg.baseUrl ?? (env.GOOGLE_GEMINI_BASE_URL || undefined), apiVersion: cfg.apiVersion });
    }
    case 'replay': {
      if (!cfg.replayFile) throw new UserError('--provider replay needs --replay FILE.jsonl (recorded responses).');
      return createReplayProvider({ file: cfg.replayFile });
    }
  }
}

