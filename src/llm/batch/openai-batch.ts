import type OpenAI from 'openai';
import { UserError } from '../../errors.js';
import { chatAnswer, chatBody, OPENAI_DEFAULT_BASE_URL } from '../providers/openai-body.js';
import { ProviderError, cleanMessage, kindForStatus, redactUrl } from '../providers/types.js';
import type { LlmResponse } from '../providers/types.js';
import type { BatchLimits, BatchLine, BatchResults, BatchState, BatchStatus, BatchTransport } from './types.js';

/** OpenAI's published per-batch limits (requests and input file bytes). */
export const OPENAI_BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

const KNOWN_STATES = new Set<BatchState>(['validating', 'in_progress', 'finalizing', 'completed', 'failed', 'expired', 'cancelling', 'cancelled']);

/**
 * The OpenAI Batch API through the official SDK: upload a JSONL file of
 * chat-completion requests (purpose "batch"), create a batch over it with a 24 h
 * window, poll it, and read its output and error files. Request bodies are built
 * by chatBody, as the online provider builds them.
 */
export function createOpenAiBatchTransport(opts: { apiKey: string; baseUrl?: string; limits?: BatchLimits }): BatchTransport {
  const baseUrl = opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  let client: Promise<OpenAI> | undefined;
  const api = (): Promise<OpenAI> =>
    (client ??= import('openai').then((m) => new m.default({ apiKey: opts.apiKey, baseURL: baseUrl, maxRetries: 2 })));
  const jsonLine = (line: BatchLine): string =>
    JSON.stringify({
      custom_id: line.customId,
      method: 'POST',
      url: '/v1/chat/completions',
      body: chatBody({ ...line.request, timeoutMs: 0 }, baseUrl),
    });

  return {
    provider: 'openai',
    baseUrl: redactUrl(baseUrl),
    limits: opts.limits ?? OPENAI_BATCH_LIMITS,
    lineBytes: (line) => Buffer.byteLength(jsonLine(line)) + 1,
    async submit(lines) {
      const sdk = await import('openai');
      const c = await api();
      const body = lines.map(jsonLine).join('\n') + '\n';
      try {
        const file = await c.files.create({ file: await sdk.toFile(Buffer.from(body), 'sqlboard-batch.jsonl'), purpose: 'batch' });
        const batch = await c.batches.create({
          input_file_id: file.id,
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
          metadata: { created_by: 'sqlboard' },
        });
        return batch.id;
      } catch (e) {
        throw classify(e, 'submitting a batch');
      }
    },
    async status(id): Promise<BatchStatus> {
      const c = await api();
      let b: OpenAI.Batches.Batch;
      try {
        b = await c.batches.retrieve(id);
      } catch (e) {
        throw classify(e, `polling batch ${id}`);
      }
      const state = KNOWN_STATES.has(b.status as BatchState) ? (b.status as BatchState) : 'in_progress';
      const message = b.errors?.data?.map((d) => d.message).filter(Boolean).join('; ');
      return {
        id,
        state,
        total: b.request_counts?.total ?? 0,
        completed: b.request_counts?.completed ?? 0,
        failed: b.request_counts?.failed ?? 0,
        ...(message ? { message: cleanMessage(message) } : {}),
        ...(b.output_file_id ? { outputFile: b.output_file_id } : {}),
        ...(b.error_file_id ? { errorFile: b.error_file_id } : {}),
      };
    },
    async results(status) {
      const c = await api();
      const { outputFile, errorFile } = status;
      // The status object may come from the store (a resumed run): ask again for the file ids.
      let files = { outputFile, errorFile };
      if (!outputFile && !errorFile) {
        const b = await c.batches.retrieve(status.id).catch((e: unknown) => {
          throw classify(e, `polling batch ${status.id}`);
        });
        files = { outputFile: b.output_file_id ?? undefined, errorFile: b.error_file_id ?? undefined };
      }
      const out: BatchResults = { answers: new Map(), errors: new Map() };
      for (const fileId of [files.outputFile, files.errorFile]) {
        if (!fileId) continue;
        let text: string;
        try {
          text = await (await c.files.content(fileId)).text();
        } catch (e) {
          throw classify(e, `downloading batch file ${fileId}`);
        }
        readOutputLines(text, out);
      }
      return out;
    },
  };
}

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

/** Output and error files share one line format: a response with a status code, or an error. */
function readOutputLines(text: string, out: BatchResults): void {
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: OutputLine;
    try {
      line = JSON.parse(raw) as OutputLine;
    } catch {
      continue; // A damaged line: its request counts as missing and is asked again.
    }
    const id = line.custom_id;
    if (typeof id !== 'string') continue;
    const status = line.response?.status_code;
    if (status === 200) {
      try {
        out.answers.set(id, chatAnswer(line.response?.body as OpenAI.Chat.Completions.ChatCompletion) as LlmResponse);
        out.errors.delete(id);
      } catch (e) {
        out.errors.set(id, e instanceof Error ? e.message : String(e));
      }
    } else if (!out.answers.has(id)) {
      const body = line.response?.body as { error?: { message?: string } } | undefined;
      const why = line.error?.message ?? (status ? `HTTP ${status}${body?.error?.message ? `: ${body.error.message}` : ''}` : 'no response');
      out.errors.set(id, cleanMessage(why));
    }
  }
}

function classify(e: unknown, doing: string): Error {
  const status = (e as { status?: unknown })?.status;
  if (typeof status === 'number') {
    if (status === 401 || status === 403) {
      return new UserError(`the batch API refused the key while ${doing} (HTTP ${status}): check OPENAI_API_KEY.`);
    }
    return new ProviderError(kindForStatus(status), `${doing}: HTTP ${status}: ${cleanMessage(e instanceof Error ? e.message : String(e))}`, { status });
  }
  return new ProviderError('network', `${doing}: ${cleanMessage(e instanceof Error ? e.message : String(e))}`);
}
