import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI chat-completions
 * (POST <base>/chat/completions) and Gemini generateContent
 * (POST /<version>/models/<model>:generateContent), answering from a script.
 * The real SDKs talk to it, so tests exercise their HTTP, parsing and errors.
 */
export interface SeenRequest {
  api: 'openai' | 'gemini';
  path: string;
  model: string;
  /** Normalised to chat messages (Gemini's systemInstruction → a system message). */
  messages: { role: string; content: string }[];
  headers: IncomingHttpHeaders;
  body: string;
  /** Set when the client closed the connection before the reply was sent (it gave up: a timeout, an abort). */
  closedBeforeReply?: boolean;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Answer text, wrapped in the API's response format. */
  text?: string;
  /** A raw body instead (malformed JSON, error objects). */
  raw?: string;
  delayMs?: number;
  usage?: { input: number; output: number };
  /** Reported model version (OpenAI `model`, Gemini `modelVersion`). */
  model?: string;
  /** Stopped at the token limit (OpenAI finish_reason "length", Gemini "MAX_TOKENS"). */
  truncated?: boolean;
  /**
   * The API's usage object as sent (OpenAI `usage`, Gemini `usageMetadata`), instead of one built
   * from `usage`: malformed counts; present with the value undefined, the field is left out.
   */
  usageBody?: unknown;
}

export type Script = (req: SeenRequest, n: number) => Reply | Promise<Reply>;

export interface FakeLlmServer {
  url: string;
  /** OpenAI base URL (…/v1). */
  openaiBase: string;
  seen: SeenRequest[];
  setScript(s: Script): void;
  close(): Promise<void>;
}

export async function startFakeLlmServer(script: Script): Promise<FakeLlmServer> {
  let current = script;
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      const path = req.url ?? '';
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // keep {}
      }
      const gem = /\/models\/([^/:]+):generateContent/.exec(path);
      const api: 'openai' | 'gemini' = gem ? 'gemini' : 'openai';
      const model = gem ? decodeURIComponent(gem[1]) : String(parsed.model ?? '');
      const messages = api === 'openai' ? ((parsed.messages as { role: string; content: string }[]) ?? []) : geminiMessages(parsed);
      const s: SeenRequest = { api, path, model, messages, headers: req.headers, body };
      seen.push(s);
      res.on('close', () => {
        if (!res.writableEnded) s.closedBeforeReply = true;
      });
      let reply: Reply;
      try {
        reply = await current(s, seen.length);
      } catch (e) {
        reply = { status: 500, raw: String(e) };
      }
      const send = (): void => {
        if (res.destroyed) return;
        const status = reply.status ?? 200;
        const headers = { 'content-type': 'application/json', ...reply.headers };
        let out = reply.raw;
        if (out === undefined) {
          out = status === 200 ? JSON.stringify(api === 'openai' ? openaiBody(model, reply) : geminiBody(reply)) : JSON.stringify({ error: { message: `scripted ${status}`, code: status } });
        }
        res.writeHead(status, headers);
        res.end(out);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    seen,
    setScript: (s) => (current = s),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function geminiMessages(p: Record<string, unknown>): { role: string; content: string }[] {
  const out: { role: string; content: string }[] = [];
  const sys = p.systemInstruction as { parts?: { text?: string }[] } | string | undefined;
  if (typeof sys === 'string') out.push({ role: 'system', content: sys });
  else if (sys?.parts) out.push({ role: 'system', content: sys.parts.map((x) => x.text ?? '').join('') });
  for (const c of (p.contents as { role?: string; parts?: { text?: string }[] }[]) ?? []) {
    out.push({ role: c.role === 'model' ? 'assistant' : 'user', content: (c.parts ?? []).map((x) => x.text ?? '').join('') });
  }
  return out;
}

export function openaiBody(model: string, r: Reply): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: r.model ?? model,
    choices: [{ index: 0, message: { role: 'assistant', content: r.text ?? '' }, finish_reason: r.truncated ? 'length' : 'stop' }],
    usage:
      'usageBody' in r
        ? r.usageBody
        : { prompt_tokens: r.usage?.input ?? 100, completion_tokens: r.usage?.output ?? 20, total_tokens: (r.usage?.input ?? 100) + (r.usage?.output ?? 20) },
  };
}

export function geminiBody(r: Reply): unknown {
  return {
    candidates: [
      r.truncated && !r.text
        ? { content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 }
        : { content: { role: 'model', parts: [{ text: r.text ?? '' }] }, finishReason: r.truncated ? 'MAX_TOKENS' : 'STOP', index: 0 },
    ],
    usageMetadata:
      'usageBody' in r
        ? r.usageBody
        : { promptTokenCount: r.usage?.input ?? 100, candidatesTokenCount: r.usage?.output ?? 20, totalTokenCount: (r.usage?.input ?? 100) + (r.usage?.output ?? 20) },
    modelVersion: r.model ?? 'gemini-2.5-flash-001',
  };
}

/** Which judge stage a request is, from the system prompt the templates send. */
export function stageOf(req: SeenRequest): 'prover' | 'refuter' | 'refuter-match' | 'other' {
  const sys = req.messages.find((m) => m.role === 'system')?.content ?? '';
  if (sys.includes('You are the Prover')) return 'prover';
  if (sys.includes('returned exactly the same result')) return 'refuter-match';
  if (sys.includes('Adversarial Refuter')) return 'refuter';
  return 'other';
}

/** The question in a rendered judge prompt. */
export function questionOf(req: SeenRequest): string {
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const m = /## Question\n([\s\S]*?)\n\n## /.exec(user);
  return m ? m[1] : '';
}

/** The content of a request's delimited data block `name` (see src/judge/untrusted.ts), or undefined. */
export function dataBlockOf(req: SeenRequest, name: string): string | undefined {
  const all = req.messages.map((m) => m.content).join('\n');
  const m = new RegExp(`<<<DATA-([0-9a-f]+) ${name}>>>\\n([\\s\\S]*?)\\n<<<END-\\1>>>`).exec(all);
  return m ? m[2] : undefined;
}
