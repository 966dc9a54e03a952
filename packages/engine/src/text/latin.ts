/// <reference path="./vendor.d.ts" />
// Terms of one Latin/digit word (English, and the English words, code and numbers inside Chinese
// text). The same function runs at index and at query time, so a note's "Meetings" and a question's
// "meeting" meet on one term:
//   - case folded; a possessive or a contraction ends with the apostrophe (Alice's → alice, don't → dont);
//   - a plain word is stemmed (Porter2): meetings, meeting → meet; keys → key; a stop word goes (the, did, what)
//     unless written in capitals, where it is an acronym (AM, IT, WHO, GET) and stays as it is;
//   - a code identifier stays whole and also yields its stemmed parts (camelCase, snake_case, kebab,
//     dotted paths): getUserName → getusername, get, user, name; api_key → api_key, api, key; and
//     the whole without separators as a plain word's term, which a question typing it as one
//     lower-case word makes (getusername → getusernam, Next.js → nextjs → nextj);
//   - anything with a digit is an exact-match term (443, 2026-10-01, v0.2.6, utf8, A1B2): it is never
//     stemmed; of its parts only those with a letter or of three digits or more (a year, a port) count;
//     a name with a version glued on also yields the name (python3 → python3, python).
import stem from 'wink-porter2-stemmer';
import { forEachRun } from './scripts.ts';
import { isFillerInCapitals, isStopWord } from './stopwords.ts';

const APOSTROPHE = /['’]/;
const HAS_DIGIT = /\p{N}/u;
const HAS_LETTER = /\p{L}/u;
const SEPARATOR = /[-_.]+/;
/** An inner capital: a lower-case letter before an upper-case one (userName), or an acronym before a word (HTTPServer). */
const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
/** APIs, URLs: a plural, not an identifier made of "AP" and "Is". */
const ACRONYM_PLURAL = /^\p{Lu}{2,}s$/u;
const CAMEL_PARTS = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu;
/** Letters (two or more) with a version glued on: python3, vue3, win10. */
const VERSIONED_NAME = /^(\p{L}{2,})\p{N}+$/u;
/** Two capitals or more and nothing else: an acronym (AM, IT, WHO, GET), not the function word its lower case spells. */
const CAPITALS = /^\p{Lu}{2,}$/u;

/** The word without a trailing possessive ('s) and with a contraction joined (don't → dont, we've → weve). */
function withoutApostrophe(word: string): string {
  const at = word.search(APOSTROPHE);
  if (at < 0) return word;
  const head = word.slice(0, at);
  const tail = word.slice(at + 1);
  return tail.toLowerCase() === 's' ? head : head + tail.replace(/['’]/g, '');
}

/** A plain word's term: lower-cased and stemmed, or null for a stop word (before or after stemming). */
export function wordTerm(word: string): string | null {
  return termOfLower(word.toLowerCase());
}

/**
 * Longer words are terms as written: no English word is this long, and Porter2's regular expressions
 * take time that grows faster than the word (a 30 KB token in a memory blocked the host for 5 s).
 */
export const MAX_STEMMED_LENGTH = 64;

function termOfLower(lower: string): string | null {
  if (lower.length === 0 || isStopWord(lower)) return null;
  if (lower.length > MAX_STEMMED_LENGTH || HAS_DIGIT.test(lower) || !/^\p{L}+$/u.test(lower)) return lower;
  const stemmed = stem(lower);
  return stemmed.length === 0 || isStopWord(stemmed) ? null : stemmed;
}

/** A part of an identifier or of a code with digits: kept when it says something on its own. */
function partTerm(part: string): string | null {
  if (HAS_DIGIT.test(part)) {
    const lower = part.toLowerCase();
    return HAS_LETTER.test(part) ? (part.length >= 2 ? lower : null) : part.length >= 3 ? lower : null;
  }
  return part.length >= 2 ? wordTerm(part) : null;
}

// Porter2 runs a dozen regular expressions per word (~8 µs), and the word's shape a few more: English
// text tokenized ten times slower than before stemming. Words repeat (Zipf), so the terms of each
// word as written are remembered; the memory is dropped whole past TERMS_CACHE_LIMIT words (a bulk
// index of many notes), which keeps it bounded without bookkeeping per entry.
const TERMS_CACHE_LIMIT = 50_000;
interface WordTerms {
  terms: readonly string[];
  /** An identifier's name typed as one word (below), or null. */
  typed: string | null;
}
const termsCache = new Map<string, WordTerms>();

function termsOf(match: string): WordTerms {
  let terms = termsCache.get(match);
  if (terms === undefined) {
    const fresh: string[] = [];
    const typed = termsOfWord(match, fresh);
    terms = { terms: fresh, typed };
    if (termsCache.size >= TERMS_CACHE_LIMIT) termsCache.clear();
    termsCache.set(match, terms);
  }
  return terms;
}

/** Appends the terms of one Latin/digit word as RUN_PATTERN matched it (case kept, NFKC applied). */
export function latinTerms(match: string, out: string[]): void {
  for (const t of termsOf(match).terms) out.push(t);
}

/**
 * The terms a question leaves out of its own: the names its identifiers yield as typed in one word
 * (getUserProfile → getuserprofil). A note holds them so that a question typing the name that way
 * finds it; a question that writes the identifier meets the note on the identifier and its parts,
 * and the extra term, which a note naming only the parts lacks, would count against that note.
 * The question is read as the tokenizer reads it (NFKC).
 */
export function typedNamesOfIdentifiers(question: string): Set<string> {
  const out = new Set<string>();
  const plain: string[] = [];
  forEachRun(question.normalize('NFKC'), () => {}, (word) => {
    const { terms, typed } = termsOf(word);
    if (typed !== null) out.add(typed);
    else plain.push(...terms);
  });
  for (const t of plain) out.delete(t); // the question also typed it as a word of its own
  return out;
}

/** Appends a word's terms; returns the term of an identifier's name typed as one word, if it adds one. */
function termsOfWord(match: string, out: string[]): string | null {
  const word = withoutApostrophe(match);
  const isCode = !ACRONYM_PLURAL.test(word) && (SEPARATOR.test(word) || CAMEL.test(word) || word.endsWith('+') || word.endsWith('#'));
  if (!isCode) {
    const lower = word.toLowerCase();
    if (CAPITALS.test(word) && isStopWord(lower) && !isFillerInCapitals(lower)) {
      out.push(lower);
      return null;
    }
    const term = termOfLower(lower);
    if (term !== null) out.push(term);
    // A name with a version glued on (python3, vue3, win10) is asked about by the name too.
    const name = VERSIONED_NAME.exec(lower)?.[1];
    const nameTerm = name === undefined ? null : termOfLower(name);
    if (nameTerm !== null && nameTerm !== term) out.push(nameTerm);
    return null;
  }
  const whole = word.toLowerCase();
  if (!isStopWord(whole)) out.push(whole);
  const seen = new Set([whole]);
  const parts: string[] = [];
  for (const piece of word.split(SEPARATOR)) {
    for (const part of CAMEL.test(piece) ? (piece.match(CAMEL_PARTS) ?? []) : [piece]) {
      const term = partTerm(part);
      if (term !== null && !seen.has(term)) {
        seen.add(term);
        parts.push(term);
      }
    }
  }
  // The name as a question types it in one lower-case word — getuserprofile, or nextjs and singbox
  // without the separators of Next.js and sing-box — which is a plain word there and stemmed
  // (getuserprofil, nextj): the note holds that form too; so is a code joined by - or _ (utf-8 →
  // utf8, sha-256 → sha256). Not a dotted version or a date (v2.24 is not v224, 2026-10-01 no word).
  const joined = whole.split(SEPARATOR).join('');
  const joinable = /^\p{L}+$/u.test(joined) || (!whole.includes('.') && HAS_LETTER.test(joined) && /^[\p{L}\p{N}]+$/u.test(joined));
  const typed = joinable ? termOfLower(joined) : null;
  const addsTyped = typed !== null && !seen.has(typed);
  if (addsTyped) out.push(typed);
  for (const term of parts) out.push(term);
  return addsTyped ? typed : null;
}

/**
 * Each term a text's words become, with the word as the text writes it, where the two differ
 * (Redis → redi, migrations → migrat, getUserProfile → getuserprofile): what a reader recognises
 * beside the term the index holds. Read as the tokenizer reads the text (NFKC, its word runs, its
 * terms); a word's own term only, not the parts or the name an identifier also yields. The first
 * writing of a term wins. Pure.
 */
export function writtenForms(text: string): Map<string, string> {
  const out = new Map<string, string>();
  forEachRun(text.normalize('NFKC'), () => {}, (match) => {
    const terms: string[] = [];
    termsOfWord(match, terms);
    const word = withoutApostrophe(match);
    const own = terms[0];
    if (own !== undefined && own !== word && !out.has(own)) out.set(own, word);
  });
  return out;
}
