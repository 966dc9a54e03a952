// The English row of the growth benchmark: the English evaluation set (bench/data/english/, mailing-list
// threads; its README gives the source and licence) as a growth QaSet. Every message is stored; the
// messages that answer a question are the asked notes (their copies in the repetition stores), the
// others are filler, and none is absent (the set has no out-of-corpus questions). A message's answers
// are not marked, so no answering message feeds the distractors.
import { loadEnglishSet } from './data/english/index.ts';
import type { QaSet } from './growth-data.ts';

const EN_SENTENCE = /(?<=[.!?])\s+/u;

export function englishGrowthSet(): QaSet {
  const set = loadEnglishSet();
  const answering = new Set(set.questions.flatMap((q) => q.answerIds));
  const notes = set.notes.map((n) => ({ id: n.id, title: n.title, text: n.body, answers: answering.has(n.id) ? null : [], questions: [] as string[] }));
  const halfOf = (h: string): 0 | 1 => (h === 'tuning' ? 0 : 1);
  const tuning = new Set(loadEnglishSet('tuning').chatter);
  return {
    name: 'English mail threads',
    language: 'en',
    notes,
    role: (i) => (answering.has(notes[i]!.id) ? 'asked' : 'filler'),
    half: () => 0,
    chatter: set.chatter.map((q) => ({ q, half: tuning.has(q) ? 0 : 1 })),
    sentences: (text) => text.split(EN_SENTENCE).map((s) => s.trim()).filter((s) => s.length > 0),
    questions: set.questions.map((q) => ({ q: q.q, answerIds: q.answerIds, half: halfOf(q.half) })),
  };
}
