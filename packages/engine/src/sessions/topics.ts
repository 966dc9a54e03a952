// A session's turns → topics, without a model: one import memory per topic instead of one per
// session. Walks the person's turns in order and keeps a turn in the current topic when its words
// overlap the topic's words; a turn whose words do not, starts a new topic. Pure and deterministic.
//
// The decision for turn i reads only turns ≤ i, so a log that grows (the same session continued)
// keeps its earlier topics where they were: appended turns extend the last topic or open new ones.
// The import relies on that to update a topic's memory in place rather than writing it again.
//
// What decides, in order:
//   1. The first turn opens the first topic.
//   2. A turn that says it changes the subject (换个话题, 另外一个问题, by the way…) starts a new
//      topic unless half its words are the topic's.
//   3. A turn that says it follows on (那…, 然后…, 继续, 刚才…) stays.
//   4. A turn with no content word of its own (好的, 继续, 为什么?) stays: it cannot be about
//      something else.
//   5. Otherwise it stays when at least `threshold` of the person's words are the topic's (a
//      follow-up often names what the answer said: "8443 要开防火墙吗" after "改用 8443"), or when
//      at least `threshold` of its answer's words are specific words of the topic (names, numbers,
//      paths, longer terms: "能不能写成脚本?" answered with the topic's ufw, 8443, sing-box).
//      Anything else starts a new topic.
import type { Tokenizer } from '../types.ts';
import { isSingleCjkChar } from '../text/scripts.ts';
import type { SessionTurn } from './log.ts';

export interface TopicSplitOptions {
  tokenizer: Tokenizer;
  /** Share of a turn's words that must be the topic's for it to stay (default 0.2). */
  threshold?: number;
  /** Turns of the current topic whose answers and tools count as its words (default 3); the person's words of every turn count. */
  recentTurns?: number;
  /** Words of an answer compared (its first distinct ones; default 40): a long answer must not outvote the question. */
  answerWords?: number;
}

export interface SessionTopic {
  /** 1-based turn numbers, inclusive. */
  from: number;
  to: number;
  turns: SessionTurn[];
}

/** Characters of the person's words and of the answer read per turn. */
const PERSON_CHARS = 1500;
/** A word that names something (a name, a number, a path, a term of three characters or more), not a word of the trade. */
const SPECIFIC = /[^\P{L}\p{Script=Han}]|\d|^.{3,}$/u;
const ANSWER_CHARS = 300;

const SHIFT_CUES = /对了|换个话题|换个问题|另外一个问题|另一个问题|另外一件事|另一件事|新问题|顺便问|题外话|不相关|无关的|\bby the way\b|\bbtw\b|\bunrelated\b|\bdifferent (?:question|topic)\b|\bnew (?:question|topic)\b|\banother (?:question|topic|thing)\b/i;
const FOLLOW_CUES = /^(?:那么?|然后|接着|继续|刚才|上面|照这|按这|还是|同样|(?:and|then|also|so|ok|okay|continue)\b)/i;
/** A bare question about what was just said: no words of its own, whichever tokenizer runs (gram splits 为什么 into words). */
const BARE_FOLLOW_UP = /^(?:为什么|为啥|怎么说|然后呢|还有呢|真的吗|确定吗|是吗|why|really|how so|are you sure)\s*[??!!。.…]*$/i;

/** Content words: the tokenizer's tokens without lone CJK characters and one-letter words. */
function wordsOf(text: string, tokenizer: Tokenizer): Set<string> {
  const out = new Set<string>();
  if (text.trim() === '') return out;
  for (const token of tokenizer.tokenize(text)) if (token.length > 1 && !isSingleCjkChar(token)) out.add(token);
  return out;
}

function firstWords(words: Set<string>, n: number): Set<string> {
  return new Set([...words].slice(0, n));
}

const share = (words: ReadonlySet<string>, inTopic: (word: string) => boolean): number => {
  if (words.size === 0) return 0;
  let shared = 0;
  for (const w of words) if (inTopic(w)) shared++;
  return shared / words.size;
};

interface TurnWords {
  person: Set<string>;
  /** The answer's first words and the tools' arguments. */
  answer: Set<string>;
}

/** Which turns go together; every turn is in exactly one topic, in order. */
export function splitTopics(turns: readonly SessionTurn[], options: TopicSplitOptions): SessionTopic[] {
  const threshold = options.threshold ?? 0.2;
  const recent = Math.max(1, options.recentTurns ?? 3);
  const answerCap = Math.max(1, options.answerWords ?? 40);
  const tokenizer = options.tokenizer;
  // Only the openings are read: what a turn is about is said first, and a pasted log or a long answer
  // would cost tokenizing time without changing the decision.
  const person = turns.map((t) => t.user.slice(0, PERSON_CHARS));
  const answers = turns.map((t) => t.assistant.slice(0, ANSWER_CHARS));
  tokenizer.prepare?.([...person, ...answers]);
  const words: TurnWords[] = turns.map((t, i) => {
    const answer = firstWords(wordsOf(answers[i]!, tokenizer), answerCap);
    for (const tool of t.tools) for (const w of wordsOf(tool.argsPreview, tokenizer)) answer.add(w);
    return { person: wordsOf(person[i]!, tokenizer), answer };
  });

  const topics: { members: number[]; person: Set<string> }[] = [];
  for (let i = 0; i < turns.length; i++) {
    const current = topics.at(-1);
    if (!current || !staysIn(i, current)) topics.push({ members: [i], person: new Set(words[i]!.person) });
    else {
      current.members.push(i);
      for (const w of words[i]!.person) current.person.add(w);
    }
  }
  return topics.map((t) => {
    const members = t.members.map((i) => turns[i]!);
    return { from: members[0]!.turn, to: members.at(-1)!.turn, turns: members };
  });

  function staysIn(i: number, current: { members: number[]; person: Set<string> }): boolean {
    const own = words[i]!;
    // The person's words of the whole topic (kept as it grows) and the answers of its last turns.
    const answers = new Set<string>();
    for (const m of current.members.slice(-recent)) for (const w of words[m]!.answer) answers.add(w);
    const topic = (w: string): boolean => current.person.has(w) || answers.has(w);
    const text = turns[i]!.user.trim();
    const personShare = share(own.person, topic);
    if (SHIFT_CUES.test(text.slice(0, 40))) return personShare >= 0.5;
    if (FOLLOW_CUES.test(text) || BARE_FOLLOW_UP.test(text)) return true;
    if (own.person.size === 0) return true;
    if (personShare >= threshold) return true;
    // Of the answer, only the specific words count: two unrelated technical answers share their
    // trade's words (配置, 运行, 命令) and would join otherwise.
    return share(own.answer, (w) => SPECIFIC.test(w) && topic(w)) >= threshold;
  }
}
