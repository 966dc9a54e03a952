// The texts of a summary: the rule-based one (the memory's opening sentences, cut on a sentence end),
// the prompt that asks the model for one, and the cleaning of the model's reply. Pure.
import { normaliseNewlines } from '../diary/parse.ts';

const SENTENCE_END = /[。！？!?…]/u;
const CLAUSE_END = /[，,；;、：:]/u;
const HAN = /\p{Script=Han}$/u;
// Markup at the start of a line says how it looks, not what it says.
const LINE_MARKUP = /^\s*(?:#{1,6}\s+|[-*+•·]\s+|\d{1,3}[.)、．]\s*|>\s?)/u;

const cps = (s: string): string[] => Array.from(s);

/** Sentences of a text, in order: a line end closes a sentence too. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of normaliseNewlines(text).split('\n')) {
    const line = rawLine.replace(LINE_MARKUP, '').replace(/\s+/gu, ' ').trim();
    if (line === '') continue;
    let current = '';
    const chars = cps(line);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      current += c;
      const next = chars[i + 1];
      const ends = SENTENCE_END.test(c) ? next === undefined || !SENTENCE_END.test(next) : c === '.' && (next === undefined || next === ' ');
      if (ends) {
        if (current.trim() !== '') out.push(current.trim());
        current = '';
      }
    }
    if (current.trim() !== '') out.push(current.trim());
  }
  return out;
}

/** One sentence cut to `max` characters: at the last clause boundary past its middle, else hard, then "…". */
function cutSentence(sentence: string, max: number): string {
  const chars = cps(sentence);
  if (chars.length <= max) return sentence;
  const room = Math.max(1, max - 1);
  let cut = -1;
  for (let i = room - 1; i >= Math.floor(room / 2); i--) {
    if (CLAUSE_END.test(chars[i]!) || chars[i] === ' ') {
      cut = i;
      break;
    }
  }
  const head = chars.slice(0, cut > 0 ? cut : room).join('').trimEnd();
  return `${head}…`;
}

/**
 * As many whole sentences of `text` as fit in `max` characters (at least the first, cut when it is
 * longer). A sentence of Chinese that ends without punctuation gets a 。 so the joined text reads.
 */
export function leadingSentences(text: string, max: number): string {
  const sentences = sentencesOf(text);
  if (sentences.length === 0) return '';
  let out = '';
  for (const s of sentences) {
    const piece = HAN.test(s) ? `${s}。` : s;
    const joined = out === '' ? piece : /[\p{Script=Han}。！？…，；：、]$/u.test(out) ? out + piece : `${out} ${piece}`;
    if (cps(joined).length > max) break;
    out = joined;
  }
  return out === '' ? cutSentence(sentences[0]!, max) : out;
}

/** The fallback summary: the body's opening sentences (the title when there is no body). */
export function ruleSummary(body: string, maxChars: number, title = ''): string {
  return leadingSentences(body, maxChars) || leadingSentences(title, maxChars);
}

/** Characters of the body shown to the model: its beginning says what the memory is about. */
export const PROMPT_BODY_CHARS = 3000;

export function summaryPrompt(title: string, body: string, maxChars: number): { system: string; prompt: string; maxTokens: number } {
  const chars = cps(body);
  const shown = chars.length > PROMPT_BODY_CHARS ? `${chars.slice(0, PROMPT_BODY_CHARS).join('')}\n……(后文略)` : body;
  return {
    system: '你为个人记忆库写摘要。只输出摘要这一句话本身。',
    prompt: [
      `用一句话概括下面这条记忆:它讲的是什么事,得出了什么结论或做了什么决定。不超过 ${maxChars} 个字。`,
      '只输出这一句话,不要引号、前缀或解释。',
      '',
      `标题:${title}`,
      '正文:',
      shown,
    ].join('\n'),
    // Room for models that think before answering; the answer itself is short.
    maxTokens: Math.min(4000, Math.max(512, maxChars * 4)),
  };
}

const PREFIX = /^(?:摘要|总结|概括|一句话(?:摘要|总结|概括)?|summary)\s*[:：]\s*/iu;
const QUOTES: [string, string][] = [['「', '」'], ['『', '』'], ['“', '”'], ['"', '"'], ["'", "'"], ['《', '》']];

/** The model's reply as a summary of at most `maxChars`; '' when it said nothing usable. */
export function cleanModelSummary(reply: string, maxChars: number): string {
  let text = normaliseNewlines(reply)
    .replace(/<think>[\s\S]*?<\/think>/giu, '')
    .replace(/```[a-z]*\n?/giu, '')
    .split('\n')
    .map((l) => l.replace(LINE_MARKUP, '').replace(PREFIX, '').trim())
    .filter((l) => l !== '')
    .join(' ')
    .replace(/\s+/gu, ' ')
    .trim();
  for (const [open, close] of QUOTES) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) text = text.slice(open.length, text.length - close.length).trim();
  }
  if (text === '') return '';
  return cps(text).length <= maxChars ? text : leadingSentences(text, maxChars);
}
