/**
 * An upper bound on a request's input tokens, for budget admission. OpenAI models are
 * counted with their own BPE (js-tiktoken, loaded only when a cost cap needs it); for any
 * other model the UTF-8 byte count stands in: every byte-level BPE or byte-fallback
 * SentencePiece token covers at least one byte, so bytes never undercount (they overcount
 * English about 4×, which only makes admission stricter). The old estimate of 3 characters
 * per token undercounted CJK text about 3× and let a run overspend its cap.
 */
export interface CountedText {
  /** Chat messages' contents. */
  messages: readonly { content: string }[];
  /** Text the API adds to the prompt and bills as input (a JSON schema for structured output). */
  extra?: readonly string[];
}

export type TokenCounter = (t: CountedText) => number;

/** Role markers and separators per message, and the reply primer: generous for every API. */
const PER_MESSAGE = 8;
const PER_REQUEST = 8;

type Encoding = 'o200k_base' | 'cl100k_base';

/** The tokenizer of an OpenAI model id, or undefined for models we cannot count exactly. */
export function openAiEncoding(model: string): Encoding | undefined {
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d)/.test(model)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(model)) return 'cl100k_base';
  return undefined;
}

export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function total(t: CountedText, count: (s: string) => number): number {
  let n = PER_REQUEST;
  for (const m of t.messages) n += count(m.content) + PER_MESSAGE;
  for (const e of t.extra ?? []) n += count(e);
  return n;
}

export const byteCounter: TokenCounter = (t) => total(t, utf8Bytes);

const CHUNK_CHARS = 64;

const loaded = new Map<Encoding, Promise<TokenCounter>>();

async function loadEncoding(enc: Encoding): Promise<TokenCounter> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks = enc === 'o200k_base' ? (await import('js-tiktoken/ranks/o200k_base')).default : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const tk = new Tiktoken(ranks);
  // Special-token text in a prompt is encoded as ordinary text (allowedSpecial none, disallowed none).
  // BPE is quadratic in the length of one pre-tokenized piece (60,000 CJK characters with no space
  // are one piece: minutes of CPU), so text is counted in chunks; a chunk boundary can only stop a
  // merge, so the sum is an upper bound, with one token per chunk of slack besides.
  return (t) =>
    total(t, (s) => {
      let n = 0;
      for (let i = 0; i < s.length; i += CHUNK_CHARS) n += tk.encode(s.slice(i, i + CHUNK_CHARS), [], []).length + 1;
      return n;
    });
}

/**
 * The counter for a provider's model: exact BPE for OpenAI models on the `openai` provider,
 * bytes otherwise (Gemini, and any model an OpenAI-compatible server runs).
 */
export function tokenCounterFor(provider: string, model: string): Promise<TokenCounter> {
  const enc = provider === 'openai' ? openAiEncoding(model) : undefined;
  if (!enc) return Promise.resolve(byteCounter);
  let p = loaded.get(enc);
  if (!p) {
    p = loadEncoding(enc);
    loaded.set(enc, p);
  }
  return p;
}
