import { existsSync } from 'node:fs';
import { readInputText } from '../benchmark/input-file.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputFileError } from '../errors.js';
import { sha256 } from '../llm/hash.js';
import type { ChatMessage } from '../llm/providers/types.js';
import { renderData, type RenderedData } from './untrusted.js';

/**
 * Prompt templates are Markdown files in prompts/. `<!-- system -->` and
 * `<!-- user -->` lines start the messages; anything before the first marker
 * is a maintainers' note and is not sent. `{{name}}` is replaced by a value.
 */
export interface PromptTemplate {
  name: string;
  file: string;
  /** sha256 (16 hex) of the file's text: stored with each verdict, part of the cache key. */
  hash: string;
  parts: { role: 'system' | 'user'; text: string }[];
  placeholders: string[];
}

export type PromptName = 'prover' | 'refuter' | 'refuter-match' | 'agent';

/** prompts/ of this package, found from this file whether run from src/ (tsx) or dist/src/. */
export function defaultPromptsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'prompts'))) return join(dir, 'prompts');
    dir = dirname(dir);
  }
  throw new Error('cannot find the prompts/ directory of sqlboard');
}

export function loadPrompt(name: PromptName, dir: string = defaultPromptsDir()): PromptTemplate {
  const file = join(dir, `${name}.md`);
  return parsePrompt(name, file, readInputText(file));
}

export function parsePrompt(name: string, file: string, text: string): PromptTemplate {
  const parts: PromptTemplate['parts'] = [];
  const marker = /^<!--\s*(system|user)\s*-->\s*$/gm;
  const found = [...text.matchAll(marker)];
  if (found.length === 0) throw new InputFileError(file, undefined, 'no `<!-- system -->` or `<!-- user -->` marker: nothing would be sent');
  found.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < found.length ? (found[i + 1].index ?? text.length) : text.length;
    parts.push({ role: m[1] as 'system' | 'user', text: text.slice(start, end).trim() });
  });
  const placeholders = [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))];
  return { name, file, hash: sha256(text).slice(0, 16), parts, placeholders };
}

/**
 * Fills the placeholders. Values are inserted verbatim, in one pass, so a value
 * that itself contains `{{x}}` (a question, a cell) is never expanded again.
 */
export function renderPrompt(t: PromptTemplate, values: Record<string, string>): ChatMessage[] {
  for (const p of t.placeholders) {
    if (!(p in values)) throw new Error(`prompt ${t.name}: no value for {{${p}}}`);
  }
  return t.parts.map((part) => ({
    role: part.role,
    content: part.text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? ''),
  }));
}

/** A task's evidence as the templates show it: "(none)" rather than an empty section. */
export function evidenceText(evidence: string): string {
  return evidence.trim() === '' ? '(none)' : evidence;
}

/**
 * Fills a judge template: `trusted` values (schema, question, evidence: the benchmark's) go in
 * verbatim; `untrusted` ones (anything a submission or a model wrote) go in as delimited data
 * blocks (src/judge/untrusted.ts), and `{{nonce}}` names the call's delimiters in the
 * instructions.
 */
export function renderWithData(
  t: PromptTemplate,
  trusted: Record<string, string>,
  untrusted: Record<string, string>,
): { messages: ChatMessage[]; data: RenderedData } {
  const data = renderData(untrusted, t.hash);
  return { messages: renderPrompt(t, { ...trusted, ...data.blocks, nonce: data.fence.nonce }), data };
}
