import type { BatchJob, GoogleGenAI, InlinedRequest } from '@google/genai';
import { UserError } from '../../errors.js';
import { GEMINI_DEFAULT_BASE_URL, geminiAnswer, geminiRequest } from '../providers/gemini-body.js';
import { ProviderError, cleanMessage, kindForStatus, redactUrl } from '../providers/types.js';
import type { BatchLimits, BatchLine, BatchResults, BatchState, BatchStatus, BatchTransport } from './types.js';

/**
 * Inlined requests are capped at 20 MB per batch by the Gemini API; larger waves are split
 * into several batches (the file-based input would lift it, at the cost of an upload protocol).
 */
export const GEMINI_BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 20 * 1024 * 1024 };

const STATES: Record<string, BatchState> = {
  JOB_STATE_QUEUED: 'validating',
  JOB_STATE_PENDING: 'validating',
  JOB_STATE_RUNNING: 'in_progress',
  JOB_STATE_UPDATING: 'in_progress',
  JOB_STATE_PAUSED: 'in_progress',
  JOB_STATE_SUCCEEDED: 'completed',
  JOB_STATE_PARTIALLY_SUCCEEDED: 'completed',
  JOB_STATE_FAILED: 'failed',
  JOB_STATE_CANCELLING: 'cancelling',
  JOB_STATE_CANCELLED: 'cancelled',
  JOB_STATE_EXPIRED: 'expired',
};

/**
 * Gemini's batch mode through @google/genai: the calls go inline in one
 * batchGenerateContent request (each with its cache key as metadata), the job is polled
 * with batches.get, and its inlined responses are read as online answers are.
 */
export function createGeminiBatchTransport(opts: { apiKey: string; baseUrl?: string; apiVersion?: string; model: string; limits?: BatchLimits }): BatchTransport {
  const baseUrl = opts.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
  const apiVersion = opts.apiVersion ?? 'v1beta';
  let client: Promise<GoogleGenAI> | undefined;
  // The SDK takes tens of milliseconds to import: only a run that submits pays for it.
  const ai = (): Promise<GoogleGenAI> =>
    (client ??= import('@google/genai').then((m) => new m.GoogleGenAI({ apiKey: opts.apiKey, httpOptions: { baseUrl, apiVersion } })));
  const inlined = (line: BatchLine): InlinedRequest => ({ ...geminiRequest(line.request), metadata: { key: line.customId } });
  const get = async (id: string, doing: string): Promise<BatchJob> => {
    try {
      return await (await ai()).batches.get({ name: id });
    } catch (e) {
      throw classify(e, doing);
    }
  };
  return {
    provider: 'gemini',
    baseUrl: redactUrl(baseUrl),
    limits: opts.limits ?? GEMINI_BATCH_LIMITS,
    lineBytes: (line) => Buffer.byteLength(JSON.stringify(inlined(line))) + 1,
    async submit(lines) {
      const models = new Set(lines.map((l) => l.request.model));
      if (models.size !== 1 || !models.has(opts.model)) throw new Error(`a Gemini batch holds one model's calls (${opts.model})`);
      try {
        const job = await (await ai()).batches.create({ model: opts.model, src: lines.map(inlined), config: { displayName: 'sqlboard' } });
        if (!job.name) throw new ProviderError('bad-response', 'the batch job has no name');
        return job.name;
      } catch (e) {
        throw classify(e, 'submitting a batch');
      }
    },
    async status(id): Promise<BatchStatus> {
      const job = await get(id, `polling batch ${id}`);
      const responses = job.dest?.inlinedResponses ?? [];
      return {
        id,
        state: STATES[job.state ?? ''] ?? 'in_progress',
        total: 0,
        completed: responses.filter((r) => r.response).length,
        failed: responses.filter((r) => r.error).length,
        ...(job.error?.message ? { message: cleanMessage(job.error.message) } : {}),
      };
    },
    async results(status) {
      const job = await get(status.id, `collecting batch ${status.id}`);
      const out: BatchResults = { answers: new Map(), errors: new Map() };
      for (const r of job.dest?.inlinedResponses ?? []) {
        const key = r.metadata?.key;
        if (typeof key !== 'string') continue;
        if (r.response) {
          try {
            out.answers.set(key, geminiAnswer(r.response));
          } catch (e) {
            out.errors.set(key, e instanceof Error ? e.message : String(e));
          }
        } else if (r.error) {
          out.errors.set(key, cleanMessage(r.error.message ?? `error ${r.error.code ?? ''}`.trim()));
        }
      }
      return out;
    },
  };
}

function classify(e: unknown, doing: string): Error {
  if (e instanceof ProviderError || e instanceof UserError) return e;
  const status = (e as { status?: unknown })?.status;
  if (typeof status === 'number') {
    if (status === 401 || status === 403) return new UserError(`the Gemini batch API refused the key while ${doing} (HTTP ${status}): check GEMINI_API_KEY.`);
    return new ProviderError(kindForStatus(status), `${doing}: HTTP ${status}: ${cleanMessage(e instanceof Error ? e.message : String(e))}`, { status });
  }
  return new ProviderError('network', `${doing}: ${cleanMessage(e instanceof Error ? e.message : String(e))}`);
}
