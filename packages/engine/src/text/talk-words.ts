// Words about the conversation in hand rather than about anything a memory holds: reactions (lol,
// 哈哈哈), pacing (just a sec, 暂停), courtesy (cheers, 感谢), the form of the answer (shorter, more
// detail, 列表, 简短), verdicts (I agree, fair enough, 有道理) and directives on the work in hand
// (revert it, skip that, 撤销). A user types them between requests, and a line made of them alone
// asks about no memory. Unlike stop words they stay terms, searched and ranked: "revert the schema
// migration" still finds the note on the revert. They only do not count toward how much a query says
// (recall/scoring.ts queryInformation), so a line of talk words alone meets the vague-query gate and
// injects nothing. Words that name a procedure a memory may hold (deploy, rollback, 回滚, 发布) are not here.

import { wordTerm } from './latin.ts';
import { foldToSimplified } from './script-fold.ts';

// Listed as the tokenizer spells them (stemmed), so a word whose stem is another word stays out:
// evening → even, nearly → near, tired → tire, excellent → excel, exactly → exact, interesting → interest.
const ENGLISH_TALK_WORDS = [
  // reactions
  'ugh', 'argh', 'lol', 'lmao', 'haha', 'hah', 'heh', 'hehe', 'oops', 'whoops', 'wow', 'yay', 'meh', 'phew',
  'welp', 'aha', 'ooh', 'yikes', 'geez', 'jeez', 'omg', 'damn', 'dang', 'duh', 'hooray', 'bravo',
  // courtesy
  'cheers', 'appreciate', 'welcome', 'regards', 'pleasure', 'afternoon', 'bunch',
  // pacing
  'minute', 'sec', 'second', 'moment', 'pause', 'rush', 'hurry', 'quick', 'quickly', 'hang', 'brb', 'afk',
  'forever', 'ready', 'resume', 'proceed', 'skip', 'stop', 'halt', 'ahead', 'meanwhile', 'asap',
  // the form of the answer
  'short', 'shorter', 'shorten', 'brief', 'briefly', 'concise', 'long', 'longer', 'verbose', 'detail',
  'detailed', 'elaborate', 'explain', 'explanation', 'clarify', 'rephrase', 'repeat', 'summarize',
  'simpler', 'simple', 'simplify', 'plain', 'bullet', 'tldr', 'eli5', 'word', 'wording', 'read',
  // verdicts and feelings
  'agree', 'disagree', 'correct', 'incorrect', 'wrong', 'true', 'fair', 'enough', 'idea', 'sense', 'confused',
  'confusing', 'lost', 'frustrating', 'annoying', 'weird', 'strange', 'odd', 'funny', 'happy', 'glad', 'love',
  'hate', 'wonderful', 'amazing', 'terrible', 'bad', 'worse', 'better', 'best', 'mistake', 'fault', 'impressive',
  'brilliant', 'clever', 'silly', 'stupid', 'lovely', 'neat', 'sweet',
  // directives on the work in hand, and how it goes
  'do', 'run', 'undo', 'redo', 'revert', 'retry', 'rerun', 'apply', 'change', 'fix', 'help', 'finish',
  'work', 'happen', 'going', 'whatever', 'easy', 'easiest', 'usual', 'instead', 'left', 'progress',
  'status', 'almost',
];

const CHINESE_TALK_WORDS = [
  // reactions
  '哈哈哈', '哎呀', '唉', '哇', '烦死了', '好累', '懵', '加油', '厉害', '太棒了', '完美',
  // courtesy
  '感谢', '多谢', '拜拜', '晚安', '早安', '晚上好', '早上好', '下午好', '愉快', '回头', '抱歉', '对不起',
  '不好意思',
  // pacing
  '暂停', '着急', '不着急', '多久', '多长时间', '进展', '进度', '还剩',
  // the form of the answer
  '详细', '通俗', '简短', '啰嗦', '简洁', '列表',
  // verdicts, and directives on the work in hand
  '同意', '不同意', '有道理', '有意思', '想法', '想想', '都行', '无所谓', '撤销', '跳过',
];

const TALK_TERMS: ReadonlySet<string> = new Set([
  ...CHINESE_TALK_WORDS,
  ...ENGLISH_TALK_WORDS.map(wordTerm).filter((t): t is string => t !== null),
]);

/** True for a query term that speaks of the conversation in hand, not of a memory (as the tokenizer spells it: English stemmed). */
export function isTalkWord(term: string): boolean {
  return TALK_TERMS.has(term);
}

// A question that opens with a question word asks about something: its one content word is its topic
// ("where are we going for our anniversary?", "where did I park?").
const QUESTION_WORDS = "what|what's|whats|where|where's|when|when's|which|who|who's|whom|whose|why|how|how's";
const OPENS_WITH_QUESTION_WORD = new RegExp(`^\\W*(?:${QUESTION_WORDS})\\b`, 'iu');

/** True for an English line that opens with a question word (what, where, when, which, who, why, how). */
export function opensWithQuestionWord(text: string): boolean {
  return OPENS_WITH_QUESTION_WORD.test(text);
}

// An English line asks when it carries a question mark, or opens with a question word or with an
// auxiliary verb as a question does ("is the backup done", "did we pick a database", "can you find the
// router password"): people type questions without the mark. "remind me…", "tell me…" ask too.
const ASKS_IN_ENGLISH_OPENING = new RegExp(
  `^\\W*(?:${QUESTION_WORDS}|is|isn't|are|aren't|was|wasn't|were|weren't|do|does|doesn't|did|didn't|don't|can|can't|could|couldn't|would|wouldn't|should|shouldn't|will|won't|have|haven't|has|hasn't|had|any|anyone|anything|remind me|tell me|show me|find)\\b`,
  'iu',
);

/** True for an English line that asks: a question mark anywhere, or a question word, an auxiliary verb or a request for a memory first. */
export function asksInEnglish(text: string): boolean {
  return /[?？]/u.test(text) || ASKS_IN_ENGLISH_OPENING.test(text);
}

// A Chinese line asks when it holds a question mark, a question word (什么, 哪, 谁, 怎么, 如何, 多少,
// 几点…) or a question particle (吗, 是否, 有没有, 能不能…): 开会改到几点 asks about its one word, 明天要开会
// says something about the day. 呢 is left out: it closes statements too (我还在等呢).
const ASKS_IN_CHINESE = /[？?]|什么|啥|哪|谁|怎|如何|多少|几[个年月日号时点次岁天位种条本]|吗|为何|为啥|是否|有没有|是不是|能不能|可不可以|要不要|会不会/u;

/** True for a line that asks a question in Chinese (a question mark, word or particle anywhere in it; 什麼 as 什么). */
export function asksInChinese(text: string): boolean {
  return ASKS_IN_CHINESE.test(foldToSimplified(text));
}
