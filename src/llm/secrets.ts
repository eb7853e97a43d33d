/**
 * API keys are redacted by value, not by shape: a key called `local-SECRET123` looks like
 * nothing in particular, so every configured key (environment variables, credentials in a
 * --base-url) is registered here and removed from every text that leaves the process or
 * reaches the run store. Process-wide because keys are: one environment, one set of flags.
 */
const secrets = new Set<string>();
/** Every form a registered key may take in a text, longest first. */
let forms: string[] = [];

/**
 * Values shorter than this are placeholders (`x` for a local server that ignores the key):
 * removing every `x` from the output would destroy it and protect nothing.
 */
export const MIN_SECRET_LENGTH = 5;

export const REDACTED = '[redacted]';

/** Registers a key (and its URL- and JSON-escaped spellings) for redaction. */
export function addSecret(value: string | undefined | null): void {
  if (!value) return;
  const v = value.trim();
  if (v.length < MIN_SECRET_LENGTH || secrets.has(v)) return;
  secrets.add(v);
  const all = new Set<string>();
  for (const s of secrets) {
    all.add(s);
    all.add(encodeURIComponent(s));
    all.add(JSON.stringify(s).slice(1, -1));
    all.add(JSON.stringify(JSON.stringify(s)).slice(3, -3));
  }
  forms = [...all].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** Registers the credentials a URL carries: user, password and key-like query values. */
export function addUrlSecrets(url: string | undefined): void {
  if (!url) return;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return;
  }
  addSecret(decodeURIComponent(u.username));
  addSecret(decodeURIComponent(u.password));
  for (const [k, v] of u.searchParams) if (/key|token|secret|signature|sig$|auth/i.test(k)) addSecret(v);
}

/** `text` with every registered key replaced by [redacted]. */
export function redact(text: string): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  return out;
}

/** Every string inside a JSON-like value redacted (store rows, item records). */
export function redactDeep<T>(value: T): T {
  if (forms.length === 0) return value;
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}

/** For tests: forget every registered key. */
export function clearSecrets(): void {
  secrets.clear();
  forms = [];
}
