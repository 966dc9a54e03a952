// Phrase evidence: how much of a question's wording a memory repeats, read as adjacent character
// pairs. Words and their characters rank each memory by what it holds, not in what order; a question
// usually repeats a phrase of the note it is about (东京节点的端口 — 东京节点端口), while notes that
// merely share its words scatter them. Only pairs with a CJK character count, and in a question with
// such pairs its words with Latin letters, whole: letter pairs say nothing about phrases. Pure.

const RUN = /[\p{L}\p{N}]+/gu;
const LATIN_WORD = /[\p{Script=Latin}\p{N}]{2,}/gu;
const HAS_LETTER = /\p{Script=Latin}/u;
/** A CJK character (the recall code's one test for Chinese text). */
export const HAS_CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

/** The distinct adjacent pairs inside each run of letters and digits that hold a CJK character (lower-cased), and with them the question's words with Latin letters. */
export function phrasePairs(text: string): Set<string> {
  const pairs = new Set<string>();
  for (const run of text.toLowerCase().match(RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) {
      const pair = `${chars[i]}${chars[i + 1]}`;
      if (HAS_CJK.test(pair)) pairs.add(pair);
    }
  }
  // In a question with Chinese wording, each word with Latin letters is a unit of its own: a note that
  // repeats it says that part of the question (能给我介绍一下什么是BCPL么: without it only the notes
  // sharing 介绍 gained, and one ranked above the note on BCPL). Numbers alone are not: a year is
  // written in many notes. A question in English alone has no pairs and so no units, as before.
  if (pairs.size === 0) return pairs;
  for (const word of text.toLowerCase().match(LATIN_WORD) ?? []) {
    if (HAS_LETTER.test(word)) pairs.add(word);
  }
  return pairs;
}

/** Share of the query's pairs that occur in the head (title, tags, goal) or the text (0 when the query has none). */
export function phraseCoverage(queryPairs: ReadonlySet<string>, head: string, text: string): number {
  if (queryPairs.size === 0) return 0;
  const t = head.toLowerCase();
  const body = text.toLowerCase();
  let found = 0;
  for (const p of queryPairs) if (body.includes(p) || t.includes(p)) found++;
  return found / queryPairs.size;
}

/** The CJK characters of a text. */
export function cjkCharCount(text: string): number {
  let n = 0;
  for (const ch of text) if (HAS_CJK.test(ch)) n++;
  return n;
}

/**
 * The longest stretch of the question (in characters, inside one run of letters and digits holding a
 * CJK character) that the head or the text repeats verbatim: a question about a note usually copies a
 * phrase of it (东京节点的端口), one about another paragraph of the same article shares only its
 * names. Pure.
 */
export function longestSharedRun(query: string, head: string, text: string): number {
  const t = head.toLowerCase();
  const body = text.toLowerCase();
  let best = 0;
  for (const run of query.toLowerCase().match(RUN) ?? []) {
    if (!HAS_CJK.test(run)) continue;
    const chars = [...run];
    for (let i = 0; i + best < chars.length; i++) {
      // Only stretches longer than the best so far are worth checking.
      for (let len = best + 1; i + len <= chars.length; len++) {
        const piece = chars.slice(i, i + len).join('');
        if (!body.includes(piece) && !t.includes(piece)) break;
        best = len;
      }
    }
  }
  return best;
}

/**
 * Where one sentence of a note ends: Chinese and Latin full stops (a Latin one only before a space or
 * the end, so v0.2.6 and api.key stay whole), question and exclamation marks, semicolons, line breaks.
 */
export const SENTENCE_END = /[。！？!?；;\n\r]+|\.(?=\s|$)/u;

/**
 * The most of the question's weight (word → weight, as coverage reads it) one sentence of the text
 * holds, the head's words counting in every sentence: the words of a question about a stored note
 * meet in one of its sentences (东京节点 … 端口 8443), while a note that only mentions the question's
 * subject (another paragraph of the same article, a passing name) holds its other words, if at all,
 * elsewhere. 0 when the question has no weight. Pure.
 */
export function bestSentenceCoverage(weights: ReadonlyMap<string, number>, head: string, text: string): number {
  let total = 0;
  for (const w of weights.values()) total += w;
  if (total <= 0) return 0;
  const h = head.toLowerCase();
  let inHead = 0;
  const rest: [string, number][] = [];
  for (const [word, w] of weights) {
    const lower = word.toLowerCase();
    if (h.includes(lower)) inHead += w;
    else rest.push([lower, w]);
  }
  let best = 0;
  for (const sentence of text.toLowerCase().split(SENTENCE_END)) {
    let got = 0;
    for (const [word, w] of rest) if (sentence.includes(word)) got += w;
    if (got > best) best = got;
  }
  return Math.min(1, (inHead + best) / total);
}
