// Follow-up questions: 「那它现在多重？」 names its subject only through the previous message. Alone it
// says too little to recall anything (the gates silence it: no distinctive word, or too little
// information); read with the person's previous message it asks about that message's subject. Pure.
import { foldToSimplified } from '@engram/engine/script-fold';

/** Words that point back at something said before (Chinese pronouns and demonstratives, English pronouns). */
const REFERRING_ZH = /[他她它]们?|这个|那个|这些|那些|这件|那件|这事|那事|这条|那条|该|此|其|^那/u;
const REFERRING_EN = /\b(he|she|it|they|him|her|them|his|its|their|this|that|these|those)\b/i;
/** Longer messages say what they are about themselves. */
const MAX_CHARS = 40;

/** True for a short message that refers back to something said before. */
export function isFollowUp(text: string): boolean {
  const t = text.trim();
  if (t === '' || [...t].length > MAX_CHARS) return false;
  // Read as the engine reads the words: 這個 and 這些 as 这个 and 这些 (text/script-fold.ts).
  return REFERRING_ZH.test(foldToSimplified(t)) || REFERRING_EN.test(t);
}

/** The query a follow-up is recalled with: the previous message, then the follow-up. */
export const followUpQuery = (previous: string, current: string): string => `${previous.trim()}\n${current.trim()}`;
