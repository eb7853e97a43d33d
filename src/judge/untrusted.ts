import { sha256 } from '../llm/hash.js';

/**
 * Untrusted text (the predicted SQL, its result, the Prover's reason) reaches the judge only
 * as data, between delimiter lines that carry a per-call nonce:
 *
 *     <<<DATA-3f9a0c…e1 predicted_sql>>>
 *     SELECT …
 *     <<<END-3f9a0c…e1>>>
 *
 * The nonce is a hash of every data block of the call, so a block cannot contain its own
 * call's delimiter (that would need a hash fixed point) and a submitter cannot know it in
 * advance; being deterministic, the same call renders the same prompt, so the response cache
 * and recorded replays keep working. The system prompt names the nonce and says that text
 * between the delimiters is evidence, never instructions.
 */
export interface DataFence {
  nonce: string;
  open(name: string): string;
  close: string;
}

export function fenceFor(nonce: string): DataFence {
  return { nonce, open: (name) => `<<<DATA-${nonce} ${name}>>>`, close: `<<<END-${nonce}>>>` };
}

/**
 * Characters that render like the delimiters' angle brackets or a Markdown fence's backticks.
 * A run of three or more of them is escaped, so no look-alike of a delimiter or a fence stands
 * in the data.
 */
const FENCE_LIKE = '<>＜＞﹤﹥‹›«»〈〉《》⟨⟩⟪⟫❮❯❬❭ᐸᐳ`｀´ˋ‵‶‷ʻʼ';
const FENCE_RUN = new RegExp(`[${FENCE_LIKE}]{3,}`, 'gu');

/**
 * Invisible or line-breaking characters (bidi overrides, zero-width characters, CR, vertical
 * tab, form feed, NEL, line and paragraph separators, other controls): escaped as \u{…} so
 * the text the model sees is the text a reviewer sees. Newline and tab stay.
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/gu;

const escapeChar = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/** Data as it may stand between the delimiters: hidden characters and fence look-alikes escaped. */
export function neutralise(text: string): string {
  return text.replace(HIDDEN, escapeChar).replace(FENCE_RUN, (run) => [...run].map(escapeChar).join(''));
}

export interface RenderedData {
  fence: DataFence;
  /** Each placeholder's block, delimiters included. */
  blocks: Record<string, string>;
  /** The neutralised contents, as the model sees them (the verdict parser ignores objects echoed from them). */
  contents: string[];
}

/**
 * Renders untrusted values as delimited blocks. `salt` (the template's hash) makes the nonce
 * differ between the stages of one item.
 */
export function renderData(values: Record<string, string>, salt: string): RenderedData {
  const names = Object.keys(values).sort();
  const contents = names.map((n) => neutralise(values[n]!));
  let nonce = '';
  for (let i = 0; ; i++) {
    nonce = sha256(JSON.stringify([salt, i, names, contents])).slice(0, 24);
    // Never true in practice (a fixed point of sha256); checked so the guarantee needs no argument.
    if (!contents.some((c) => c.includes(nonce))) break;
  }
  const fence = fenceFor(nonce);
  const blocks: Record<string, string> = {};
  names.forEach((n, i) => (blocks[n] = `${fence.open(n)}\n${contents[i]}\n${fence.close}`));
  return { fence, blocks, contents };
}

/** `text` without any block delimited by `fence` (what a model sees outside the data). */
export function outsideData(text: string, fence: DataFence): string {
  const open = `<<<DATA-${fence.nonce} `;
  let out = '';
  let at = 0;
  for (;;) {
    const s = text.indexOf(open, at);
    if (s < 0) return out + text.slice(at);
    const e = text.indexOf(fence.close, s);
    if (e < 0) return out + text.slice(at, s);
    out += text.slice(at, s);
    at = e + fence.close.length;
  }
}
