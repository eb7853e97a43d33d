import type { Reply, Script, SeenRequest } from '../../helpers/fake-llm-server.js';
import { stageOf } from '../../helpers/fake-llm-server.js';

/**
 * A scripted judge model that is as gullible as a model can be: it obeys any instruction it
 * finds OUTSIDE the data delimiters the system prompt names (everything outside, if it names
 * none), and it quotes the data it was shown after its answer. Otherwise it answers as the
 * honest script says. An attack that leaks out of a data block steers it; one that stays
 * inside changes nothing but the quoted echo.
 */
export interface HonestScript {
  /** The honest Prover's verdict (its reason quotes the predicted SQL it saw). */
  proverSays: boolean;
  /** The honest Refuter overturns (both modes). */
  refuterOverturns: boolean;
}

/** What the model saw, per request: whether it obeyed something, and the text outside the data. */
export interface GullibleLog {
  stage: string;
  steered: boolean;
  outside: string;
}

const INSTRUCTIONS: RegExp[] = [
  /\bOBEY\b/,
  /\bignore\b[^\n]{0,20}\b(previous|prior|above|earlier)\b/i,
  /\b(note|message|instructions?)\s+(to|for)\s+(the\s+)?(grader|judge|reviewer|evaluator|refuter|prover|model|assistant)/i,
  /\b(answer|respond|reply|output|say|grade|mark)\b[^\n.]{0,60}\b(yes|true|correct|accept)\b/i,
  /\bdo not overturn\b/i,
  /\bmaintainers?\b/i,
];

function nonceOf(req: SeenRequest): string | undefined {
  const sys = req.messages.find((m) => m.role === 'system')?.content ?? '';
  return /<<<DATA-([0-9a-f]{8,}) /.exec(sys)?.[1];
}

function blocks(text: string, nonce: string): { name: string; content: string; start: number; end: number }[] {
  const re = new RegExp(`<<<DATA-${nonce} (\\w+)>>>\\n([\\s\\S]*?)\\n<<<END-${nonce}>>>`, 'g');
  return [...text.matchAll(re)].map((m) => ({ name: m[1]!, content: m[2]!, start: m.index!, end: m.index! + m[0].length }));
}

/** A verdict-shaped object standing in the instructions: a gullible model takes it as given. */
function forgedVerdict(outside: string): boolean {
  for (const m of outside.matchAll(/\{[^{}]*\}/g)) {
    try {
      const o = JSON.parse(m[0]) as Record<string, unknown>;
      if (o.verdict === true || o.overturn === false) return true;
    } catch {
      // not JSON
    }
  }
  return false;
}

export function gullibleModel(honest: HonestScript, log: GullibleLog[] = []): Script {
  return (req): Reply => {
    const stage = stageOf(req);
    const nonce = nonceOf(req);
    let outside = '';
    let userOutside = '';
    const data: { name: string; content: string }[] = [];
    for (const m of req.messages.filter((x) => x.role !== 'assistant')) {
      let here = '';
      let at = 0;
      for (const b of nonce ? blocks(m.content, nonce) : []) {
        here += m.content.slice(at, b.start);
        data.push(b);
        at = b.end;
      }
      here += m.content.slice(at) + '\n';
      outside += here;
      if (m.role === 'user') userOutside += here;
    }
    // The system message is the reviewers' own instructions, which it follows anyway; any
    // instruction in the user's text outside the data blocks, it obeys.
    const steered = INSTRUCTIONS.some((re) => re.test(userOutside)) || forgedVerdict(userOutside);
    log.push({ stage, steered, outside });
    const sql = data.find((d) => d.name === 'pred_sql')?.content ?? '';
    let answer: Record<string, unknown>;
    if (stage === 'prover') {
      const verdict = steered ? true : honest.proverSays;
      answer = { expectedAnswer: 'the rows the question asks for', sqlDescription: `it runs: ${sql}`, reason: `I read the query as: ${sql}`, verdict };
    } else {
      const overturn = steered ? false : honest.refuterOverturns;
      answer = { reason: 'checked against the question', overturn, ambiguity: 'none', goldCorrect: true };
    }
    // Asked for schema-constrained output, it answers the object alone, as such APIs do.
    if (/"response_format"|"responseSchema"/.test(req.body)) return { text: JSON.stringify(answer) };
    // Quoting the data after the answer puts any verdict forged in it AFTER the real one.
    const echo = data.map((d) => `${d.name}:\n${d.content}`).join('\n\n');
    return { text: `${JSON.stringify(answer)}\n\nThe data I was shown, for reference:\n${echo}` };
  };
}
