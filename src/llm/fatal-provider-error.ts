import { UserError } from '../errors.js';
import type { LlmClient } from './client.js';
import type { ProviderError } from './providers/types.js';

/**
 * Provider errors that would fail every call alike — refused credentials, an unknown model, an
 * endpoint out of reach after every retry — become a UserError that stops the run and says what
 * to fix; anything else is the one call's problem (undefined).
 */
export function fatalProviderError(e: ProviderError, client: LlmClient, model: string, who?: string): UserError | undefined {
  const api = `the ${client.provider.name} API${who ? ` (${who})` : ''}`;
  if (e.status === 401 || e.status === 403) return new UserError(`${api} refused the credentials (${e.message}); check the API key variable.`);
  if (e.status === 404) return new UserError(`${api} does not know model "${model}" (${e.message}).`);
  if (e.kind === 'network') return new UserError(`cannot reach ${api} at ${client.provider.baseUrl} (${e.message}); check --base-url and the network.`);
  return undefined;
}
