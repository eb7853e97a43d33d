import type { LlmClient } from '../llm/client.js';
import type { PromptTemplate } from '../judge/prompts.js';
import { evidenceText, renderPrompt } from '../judge/prompts.js';
import { addCall, emptyUsage } from '../judge/stages.js';
import type { Usage } from '../judge/stages.js';

/**
 * The SQL in an agent's answer (prompts/agent.md asks for SQL only, but models
 * still fence it or add a sentence): the first ```sql (or bare ```) fence, else
 * the text from its first SELECT/WITH; one trailing semicolon dropped.
 */
export function extractSql(text: string): string {
  const fenced = /```(?:sql|sqlite)?\s*\n?([\s\S]*?)```/i.exec(text);
  let sql = fenced ? fenced[1] : text;
  if (!fenced) {
    const start = sql.search(/\b(SELECT|WITH)\b/i);
    if (start > 0) sql = sql.slice(start);
  }
  return sql.trim().replace(/;\s*$/, '').trim();
}

export interface AgentInput {
  schema: string;
  question: string;
  evidence: string;
}

/**
 * One SQL-generating agent call through the judge's client (so it is cached,
 * budgeted and retried like judge calls).
 */
export async function generateSql(
  client: LlmClient,
  template: PromptTemplate,
  input: AgentInput,
): Promise<{ sql: string; raw: string; usage: Usage; truncated: boolean }> {
  const messages = renderPrompt(template, { ...input, evidence: evidenceText(input.evidence) });
  const res = await client.call(template.hash, messages);
  const usage = emptyUsage();
  addCall(usage, res);
  // A cut answer may hold a plausible but unfinished query: the caller must not run it as the agent's SQL.
  return { sql: extractSql(res.text), raw: res.text, usage, truncated: res.truncated === true };
}
