// The growth benchmark's data: a QA set (notes, questions about them, questions about notes the store
// never holds, chatter) and the stores grown from it — the notes once each, grown with distractor notes
// of overlapping topics, and with each asked-about note written again and again. Pure apart from
// reading the dataset file; everything is seeded, so every run builds the same stores.
import { CHATTER_QUERIES, HELD_OUT_CHATTER } from './chatter.ts';
import { seededRandom } from './corpus.ts';
import { loadCmrc, titleOf } from './eval-cmrc.ts';

/** One memory of a QA set: the text a note holds, and the spans that answer its questions. */
export interface QaNote {
  id: string;
  title: string;
  text: string;
  /** Substrings of `text` that answer its questions (a distractor never copies a sentence holding one); null = not known, so none of its sentences feeds distractors. */
  answers: string[] | null;
  questions: string[];
}

/**
 * A QA set the benchmark can grow stores from. `role` splits the notes deterministically:
 * 'asked' notes are stored and asked about, 'filler' notes are stored but never asked about (their
 * sentences also feed distractors), 'absent' notes are never stored (their questions must get nothing).
 * `half` splits the asked notes into the tuning half (0) and the held-out half (1).
 */
export interface QaSet {
  name: string;
  language: 'zh' | 'en';
  notes: QaNote[];
  role(index: number): 'asked' | 'filler' | 'absent';
  half(index: number): 0 | 1;
  /** Small talk (the right recall is nothing), each line in the half it was written for. */
  chatter: { q: string; half: 0 | 1 }[];
  /** Splits a note's text into sentences (the unit distractors are made of and repeats drop). */
  sentences(text: string): string[];
  /** Questions answered by any of several notes (sets whose questions are not one note's). */
  questions?: { q: string; answerIds: string[]; half: 0 | 1 }[];
}

const ZH_SENTENCE = /(?<=[。！？])/u;

/**
 * CMRC 2018 dev (/work/shared/datasets/cmrc2018, CC BY-SA 4.0): one paragraph per article. By paragraph
 * index i: i % 10 in 0..4 asked, 5..6 filler, 7..9 absent (the 7..9 of `npm run eval`'s out-of-corpus
 * set, so the 1× store is the eval's store); tuning half = even ⌊i / 10⌋, held out = odd (balanced: every role in both).
 */
export function cmrcSet(): QaSet {
  const notes = loadCmrc().map(
    (p): QaNote => ({
      id: p.id,
      title: titleOf(p.context),
      text: p.context,
      answers: (p.qas as { question: string; answers?: { text: string }[] }[]).flatMap((q) => (q.answers ?? []).map((a) => a.text)).filter((a) => a.length > 0),
      questions: p.qas.map((q) => q.question),
    }),
  );
  return {
    name: 'CMRC 2018 dev (zh)',
    language: 'zh',
    notes,
    role: (i) => (i % 10 < 5 ? 'asked' : i % 10 < 7 ? 'filler' : 'absent'),
    half: (i) => (Math.floor(i / 10) % 2) as 0 | 1,
    // The stop words and the vague-query gate were tuned on the first list; the second was written after.
    chatter: [...CHATTER_QUERIES.map((q) => ({ q, half: 0 as const })), ...HELD_OUT_CHATTER.map((q) => ({ q, half: 1 as const }))],
    sentences: (text) => text.split(ZH_SENTENCE).map((s) => s.trim()).filter((s) => s.length > 0),
  };
}

/** A note as written to the store. `group` is the asked note it repeats (its own id for the original). */
export interface StoreNote {
  id: string;
  title: string;
  text: string;
  group: string | null;
}

export interface StoreSpec {
  name: string;
  /** Total notes (distractors fill up to it). */
  size: number;
  /** Extra copies of each repeated asked note (each drops one sentence). */
  repeats: number;
  /** At most this many asked notes are repeated (the first by index; fewer when the copies would not fit in `size`); questions are asked about these only. */
  repeatedNotes?: number;
  /** Only `count` of the set's notes from index `from` on, each in the role and half it has in the whole set (a smaller store than the whole set's). */
  slice?: { from: number; count: number };
}

/** The stores of the growth benchmark (the situations). */
export const GROWTH_STORES: StoreSpec[] = [
  // CMRC's first 256 paragraphs: 181 stored notes, a store the size of a few weeks of notes.
  { name: 'small', size: 0, repeats: 0, slice: { from: 0, count: 256 } },
  // The same size from CMRC's last 256 paragraphs: a second small store, other articles.
  { name: 'small, last 256', size: 0, repeats: 0, slice: { from: 592, count: 256 } },
  { name: '1×', size: 0, repeats: 0 },
  { name: '5k', size: 5_000, repeats: 0 },
  { name: '20k', size: 20_000, repeats: 0 },
  { name: '5k, asked ×10', size: 5_000, repeats: 10 },
  { name: '10k, asked ×30', size: 10_000, repeats: 30, repeatedNotes: 300 },
];

export interface BuiltStore {
  notes: StoreNote[];
  /** The asked questions: text, the groups of notes that answer it (any one is a hit), the half. */
  asked: { q: string; groups: string[]; half: 0 | 1 }[];
  /** Questions about notes the store does not hold, by half. */
  absent: { q: string; half: 0 | 1 }[];
}

/**
 * Builds a store: every asked and filler note once; copies of the asked notes (copy k drops sentence
 * k mod n, so no two neighbouring copies are the same); then distractors until `size` notes — each
 * four to seven sentences of different stored notes (so every distractor touches the topics of
 * several asked notes, names included), never a sentence that holds an answer.
 */
export function buildStore(set: QaSet, spec: StoreSpec, seed = 2018): BuiltStore {
  const rnd = seededRandom(seed);
  const joiner = set.language === 'zh' ? '' : ' ';
  const notes: StoreNote[] = [];
  const asked: BuiltStore['asked'] = [];
  const absent: BuiltStore['absent'] = [];
  const from = spec.slice?.from ?? 0;
  const setNotes = spec.slice === undefined ? set.notes : set.notes.slice(from, from + spec.slice.count);
  // Roles and halves by the note's index in the whole set.
  const role = (i: number) => set.role(from + i);
  const half = (i: number) => set.half(from + i);
  const stored = setNotes.filter((_, i) => role(i) !== 'absent');
  const askedIds = setNotes.filter((_, i) => role(i) === 'asked').map((n) => n.id);
  const room = spec.repeats > 0 ? Math.floor(Math.max(0, spec.size - stored.length) / spec.repeats) : 0;
  const repeated = new Set(spec.repeats > 0 ? askedIds.slice(0, Math.min(room, spec.repeatedNotes ?? Infinity)) : []);
  const askedAbout = (ids: string[]) => spec.repeats === 0 || ids.some((id) => repeated.has(id));
  setNotes.forEach((n, i) => {
    const r = role(i);
    if (r === 'absent') {
      for (const q of n.questions) absent.push({ q, half: half(i) });
      return;
    }
    notes.push({ id: n.id, title: n.title, text: n.text, group: r === 'asked' ? n.id : null });
    if (r === 'asked' && askedAbout([n.id])) for (const q of n.questions) asked.push({ q, groups: [n.id], half: half(i) });
  });
  const inStore = new Set(setNotes.map((n) => n.id));
  for (const q of set.questions ?? []) if (askedAbout(q.answerIds) && (spec.slice === undefined || q.answerIds.some((id) => inStore.has(id)))) asked.push({ q: q.q, groups: q.answerIds, half: q.half });
  for (const n of setNotes) {
    if (!repeated.has(n.id)) continue;
    const parts = set.sentences(n.text);
    for (let k = 0; k < spec.repeats; k++) {
      const drop = parts.length > 1 ? k % parts.length : -1;
      notes.push({ id: `${n.id}-r${k + 1}`, title: n.title, text: parts.filter((_, j) => j !== drop).join(joiner), group: n.id });
    }
  }
  const pools = stored.map((n) => (n.answers === null ? [] : set.sentences(n.text).filter((s) => !(n.answers as string[]).some((a) => s.includes(a)) && [...s].length >= 6)));
  const usable = pools.map((p, i) => (p.length > 0 ? i : -1)).filter((i) => i >= 0);
  const sentences = pools.reduce((n, p) => n + p.length, 0);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  for (let d = 0; notes.length < spec.size && sentences >= 8; d++) {
    const parts = new Set<string>();
    const want = 4 + Math.floor(rnd() * 4);
    while (parts.size < want) parts.add(pick(pools[pick(usable)] as string[]));
    const text = [...parts].join(joiner);
    notes.push({ id: `x${d}`, title: titleOf(text), text, group: null });
  }
  return { notes, asked, absent };
}
