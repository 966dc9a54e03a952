// The English evaluation set (README.md beside this file): conversational memory from public mailing
// list threads, and English small talk that should recall nothing. Split deterministically into a
// tuning half and a held-out half (by thread for the questions): tune on 'tuning' only.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELD_OUT_CHATTER, TUNING_CHATTER } from './chatter.ts';

export type EnglishHalf = 'tuning' | 'held-out';

export interface EnglishNote {
  id: string;
  title: string;
  /** The day the message was sent (YYYY-MM-DD). */
  date: string;
  body: string;
}

export interface EnglishQuestion {
  q: string;
  /** Notes that answer it (the other messages of its thread): a hit is any of them in the top k. */
  answerIds: string[];
  thread: string;
  half: EnglishHalf;
}

export interface EnglishSet {
  source: string;
  notes: EnglishNote[];
  questions: EnglishQuestion[];
  chatter: string[];
}

interface Stored {
  source: string;
  notes: EnglishNote[];
  questions: EnglishQuestion[];
}

let stored: Stored | undefined;

/** Every note, and the questions and chatter of one half (both halves when `half` is omitted). */
export function loadEnglishSet(half?: EnglishHalf): EnglishSet {
  stored ??= JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'mail-threads.json'), 'utf8')) as Stored;
  const questions = half === undefined ? stored.questions : stored.questions.filter((q) => q.half === half);
  const chatter = half === 'tuning' ? TUNING_CHATTER : half === 'held-out' ? HELD_OUT_CHATTER : [...TUNING_CHATTER, ...HELD_OUT_CHATTER];
  return { source: stored.source, notes: stored.notes, questions, chatter };
}
