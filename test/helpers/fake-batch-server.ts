import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { geminiBody, geminiMessages, openaiBody } from './fake-llm-server.js';
import type { Reply, SeenRequest } from './fake-llm-server.js';

/**
 * A real HTTP server on 127.0.0.1 implementing the OpenAI files and batches endpoints
 * the official SDK calls: POST /v1/files (multipart upload, purpose "batch"),
 * POST /v1/batches, GET /v1/batches/:id, POST /v1/batches/:id/cancel and
 * GET /v1/files/:id/content. Each batch walks validating → in_progress → its end
 * state, one step per poll; each request line is answered by the same kind of script
 * the online fake server uses, so a batch run and an online run can be compared.
 * It also speaks Gemini's batch mode as @google/genai calls it: POST
 * /v1beta/models/<model>:batchGenerateContent with inlined requests, then
 * GET /v1beta/batches/<id> until the operation's metadata holds the inlined responses.
 */
export interface BatchPlan {
  /** The state the batch ends in (default completed). */
  end?: 'completed' | 'expired' | 'failed' | 'cancelled';
  /** Polls spent in_progress before the end state (default 1). */
  polls?: number;
  /** Lines (custom ids) answered in the error file instead of the output file. */
  errorLine?: (customId: string, line: SeenRequest) => boolean;
  /** Lines left out of both files (a result file missing lines). */
  dropLine?: (customId: string, line: SeenRequest) => boolean;
  /** For end 'expired' or 'cancelled': answer only this many lines (the rest are unfinished). */
  finished?: number;
}

export interface FakeBatch {
  api: 'openai' | 'gemini';
  id: string;
  inputFileId: string;
  lines: { customId: string; req: SeenRequest }[];
  polls: number;
  plan: BatchPlan;
  status: string;
  outputFileId?: string;
  errorFileId?: string;
}

export interface FakeBatchServer {
  url: string;
  openaiBase: string;
  batches: FakeBatch[];
  /** Every request line answered, in order (as the online server's `seen`). */
  answered: SeenRequest[];
  /** Online chat completions (POST /v1/chat/completions), e.g. --batch-fallback online. */
  online: SeenRequest[];
  /** Every HTTP request the server got (method and path), with its headers. */
  http: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** The plan of the n-th batch created (1-based). */
  setPlan(p: (n: number) => BatchPlan): void;
  close(): Promise<void>;
}

export async function startFakeBatchServer(script: (req: SeenRequest, n: number) => Reply | Promise<Reply>): Promise<FakeBatchServer> {
  const files = new Map<string, string>();
  const batches: FakeBatch[] = [];
  const answered: SeenRequest[] = [];
  const online: SeenRequest[] = [];
  const http: FakeBatchServer['http'] = [];
  let planOf: (n: number) => BatchPlan = () => ({});
  let nextId = 1;

  const batchJson = (b: FakeBatch): unknown => {
    const terminal = ['completed', 'expired', 'failed', 'cancelled'].includes(b.status);
    const total = b.lines.length;
    const outLines = b.outputFileId ? (files.get(b.outputFileId) ?? '').split('\n').filter(Boolean).length : 0;
    const errLines = b.errorFileId ? (files.get(b.errorFileId) ?? '').split('\n').filter(Boolean).length : 0;
    return {
      id: b.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status: b.status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: b.errorFileId ?? null,
      created_at: 1_700_000_000,
      errors: b.status === 'failed' ? { object: 'list', data: [{ code: 'invalid_request', message: 'scripted validation failure' }] } : null,
      request_counts: { total, completed: terminal ? outLines : 0, failed: terminal ? errLines : 0 },
      metadata: null,
    };
  };

  const GEMINI_STATE: Record<string, string> = {
    validating: 'BATCH_STATE_PENDING',
    in_progress: 'BATCH_STATE_RUNNING',
    completed: 'BATCH_STATE_SUCCEEDED',
    failed: 'BATCH_STATE_FAILED',
    cancelled: 'BATCH_STATE_CANCELLED',
    expired: 'BATCH_STATE_EXPIRED',
  };
  const geminiJson = (b: FakeBatch): unknown => {
    const terminal = ['completed', 'expired', 'failed', 'cancelled'].includes(b.status);
    return {
      name: b.id,
      metadata: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
        name: b.id,
        displayName: 'sqlboard',
        model: `models/${b.lines[0]?.req.model ?? ''}`,
        state: GEMINI_STATE[b.status],
        createTime: '2026-12-01T00:00:00Z',
        ...(terminal && b.status !== 'failed' ? { output: { inlinedResponses: { inlinedResponses: geminiOut.get(b.id) ?? [] } } } : {}),
      },
      ...(terminal ? { done: true } : {}),
      ...(b.status === 'failed' ? { error: { code: 3, message: 'scripted validation failure' } } : {}),
    };
  };
  const geminiOut = new Map<string, unknown[]>();

  const finish = async (b: FakeBatch): Promise<void> => {
    const plan = b.plan;
    b.status = plan.end ?? 'completed';
    if (b.status === 'failed') return;
    const limit = b.status === 'completed' ? b.lines.length : (plan.finished ?? 0);
    if (b.api === 'gemini') {
      const responses: unknown[] = [];
      for (const [i, { customId, req }] of b.lines.entries()) {
        if (i >= limit) break;
        if (plan.dropLine?.(customId, req)) continue;
        if (plan.errorLine?.(customId, req)) {
          responses.push({ error: { code: 13, message: 'scripted line error' }, metadata: { key: customId } });
          continue;
        }
        answered.push(req);
        const reply = await script(req, answered.length);
        responses.push({ response: geminiBody(reply), metadata: { key: customId } });
      }
      geminiOut.set(b.id, responses);
      return;
    }
    const out: string[] = [];
    const err: string[] = [];
    for (const [i, { customId, req }] of b.lines.entries()) {
      if (i >= limit) break;
      if (plan.dropLine?.(customId, req)) continue;
      if (plan.errorLine?.(customId, req)) {
        err.push(JSON.stringify({ id: `r${i}`, custom_id: customId, response: { status_code: 500, request_id: `q${i}`, body: { error: { message: 'scripted line error' } } }, error: null }));
        continue;
      }
      answered.push(req);
      const reply = await script(req, answered.length);
      const body = reply.status && reply.status !== 200 ? { error: { message: `scripted ${reply.status}` } } : reply.raw !== undefined ? JSON.parse(reply.raw) : openaiBody(req.model, reply);
      const line = { id: `r${i}`, custom_id: customId, response: { status_code: reply.status ?? 200, request_id: `q${i}`, body }, error: null };
      (reply.status && reply.status !== 200 ? err : out).push(JSON.stringify(line));
    }
    if (out.length > 0) {
      b.outputFileId = `file-out-${nextId++}`;
      files.set(b.outputFileId, out.join('\n') + '\n');
    }
    if (err.length > 0) {
      b.errorFileId = `file-err-${nextId++}`;
      files.set(b.errorFileId, err.join('\n') + '\n');
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').replace(/\?.*$/, '');
      const method = req.method ?? 'GET';
      http.push({ method, path, headers: req.headers });
      const send = (status: number, json: unknown, type = 'application/json'): void => {
        res.writeHead(status, { 'content-type': type });
        res.end(typeof json === 'string' ? json : JSON.stringify(json));
      };
      try {
        if (method === 'POST' && path === '/v1/chat/completions') {
          const j = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
          const seen: SeenRequest = { api: 'openai', path, model: j.model, messages: j.messages, headers: req.headers, body };
          online.push(seen);
          const reply = await script(seen, answered.length + online.length);
          return send(reply.status ?? 200, reply.raw ?? (reply.status && reply.status !== 200 ? { error: { message: `scripted ${reply.status}` } } : openaiBody(j.model, reply)));
        }
        if (method === 'POST' && path === '/v1/files') {
          const boundary = /boundary=(.+)$/.exec(req.headers['content-type'] ?? '')?.[1];
          if (!boundary) return send(400, { error: { message: 'multipart expected' } });
          const part = body.split(`--${boundary}`).find((p) => /name="file"/.test(p));
          const content = part ? part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '') : '';
          const id = `file-in-${nextId++}`;
          files.set(id, content);
          return send(200, { id, object: 'file', bytes: Buffer.byteLength(content), created_at: 1_700_000_000, filename: 'batch.jsonl', purpose: 'batch' });
        }
        if (method === 'POST' && path === '/v1/batches') {
          const p = JSON.parse(body) as { input_file_id: string };
          const input = files.get(p.input_file_id);
          if (input === undefined) return send(404, { error: { message: 'no such file' } });
          const lines = input
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const j = JSON.parse(l) as { custom_id: string; url: string; body: { model: string; messages: { role: string; content: string }[] } };
              const seen: SeenRequest = { api: 'openai', path: j.url, model: j.body.model, messages: j.body.messages, headers: req.headers, body: JSON.stringify(j.body) };
              return { customId: j.custom_id, req: seen };
            });
          const b: FakeBatch = { api: 'openai', id: `batch_${nextId++}`, inputFileId: p.input_file_id, lines, polls: 0, plan: planOf(batches.length + 1), status: 'validating' };
          batches.push(b);
          return send(200, batchJson(b));
        }
        const gc = /^\/v1beta\/models\/([^/:]+):batchGenerateContent$/.exec(path);
        if (method === 'POST' && gc) {
          const p = JSON.parse(body) as { batch: { inputConfig: { requests: { requests: { request: Record<string, unknown>; metadata?: { key?: string }; systemInstruction?: unknown }[] } } } };
          const model = decodeURIComponent(gc[1]);
          const lines = p.batch.inputConfig.requests.requests.map((r) => {
            const request = { ...r.request, ...(r.systemInstruction ? { systemInstruction: r.systemInstruction } : {}) };
            const seen: SeenRequest = { api: 'gemini', path, model, messages: geminiMessages(request), headers: req.headers, body: JSON.stringify(request) };
            return { customId: r.metadata?.key ?? '', req: seen };
          });
          const b: FakeBatch = { api: 'gemini', id: `batches/${nextId++}`, inputFileId: '', lines, polls: 0, plan: planOf(batches.length + 1), status: 'validating' };
          batches.push(b);
          return send(200, geminiJson(b));
        }
        const gg = /^\/v1beta\/(batches\/[^/:]+)$/.exec(path);
        if (method === 'GET' && gg) {
          const b = batches.find((x) => x.id === gg[1]);
          if (!b) return send(404, { error: { code: 404, message: 'no such batch', status: 'NOT_FOUND' } });
          if (['validating', 'in_progress'].includes(b.status)) {
            b.polls += 1;
            if (b.status === 'validating') b.status = b.plan.end === 'failed' ? 'failed' : 'in_progress';
            else if (b.polls > (b.plan.polls ?? 1)) await finish(b);
          }
          return send(200, geminiJson(b));
        }
        const m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
        if (m) {
          const b = batches.find((x) => x.id === m[1]);
          if (!b) return send(404, { error: { message: 'no such batch' } });
          if (m[2]) {
            b.plan = { ...b.plan, end: 'cancelled' };
            await finish(b);
            return send(200, batchJson(b));
          }
          if (['validating', 'in_progress'].includes(b.status)) {
            b.polls += 1;
            if (b.status === 'validating') b.status = b.plan.end === 'failed' ? 'failed' : 'in_progress';
            else if (b.polls > (b.plan.polls ?? 1)) await finish(b);
          }
          return send(200, batchJson(b));
        }
        const f = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
        if (f) {
          const content = files.get(f[1]);
          if (content === undefined) return send(404, { error: { message: 'no such file' } });
          return send(200, content, 'application/jsonl');
        }
        return send(404, { error: { message: `no route ${method} ${path}` } });
      } catch (e) {
        return send(500, { error: { message: String(e) } });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    batches,
    answered,
    online,
    http,
    setPlan: (p) => (planOf = p),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
