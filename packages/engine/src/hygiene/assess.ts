// What a write should do, decided from the draft and the older memories its scope sees:
//   fragment  — refuse it (see fragment.ts);
//   duplicate — the same memory written again: no second file, its words join the older one;
//   new       — write it, with a warning for each older memory it probably contradicts.
// Nothing here deletes or replaces anything: a conflict is only named, the writer decides. Pure.
import type { EngramConfig } from '../config/schema.ts';
import { fragmentOf, type FragmentReason } from './fragment.ts';
import { claimsOf, clausesOf, conflictingClaim, differentOccasions, occasionsOf, type Claim } from './claims.ts';
import { flatText, intersection, isSubset, keywordSet, numbersIn, overlapCoefficient, wordSet } from './similarity.ts';

export type HygieneSettings = EngramConfig['hygiene'];

export interface HygieneDraft {
  title: string;
  /** The summary the writer gave ('' when none). */
  summary: string;
  body: string;
  tags: string[];
  /** No title was given: the first line of the text became the title. */
  titleFromContent?: boolean;
  /** Doc ids (or their prefixes) the draft says it replaces: no conflict warning about those. */
  supersedes?: string[];
}

export interface HygieneCandidate {
  docId: string;
  title: string;
  /** Only a summary a person or writer gave; a generated one adds no words of the memory. */
  summary: string;
  body: string;
  tags: string[];
  date: string;
  path: string;
  /** Locked memories are never changed by a merge. */
  locked?: boolean;
  /** Already replaced by a newer memory: not worth a conflict warning. */
  superseded?: boolean;
}

export interface HygieneText {
  /** The engine's tokenizer: no word runs across a line break or a clause boundary (claims.ts). */
  tokenize(text: string): string[];
  /** Whether a word can name a subject (general words like 使用, 问题 cannot); default: every word. */
  distinctive?(token: string): boolean;
}

export interface ConflictWarning {
  docId: string;
  title: string;
  /** For the writer: what is shared, which numbers differ, what to do. */
  reason: string;
}

export type WriteAssessment =
  | { verdict: 'fragment'; reason: FragmentReason; message: string }
  | { verdict: 'duplicate'; target: HygieneCandidate; overlap: number; identical: boolean; conflicts: ConflictWarning[] }
  | { verdict: 'new'; conflicts: ConflictWarning[]; warnings: string[] };

/** Conflict warnings per write at most: the strongest ones; a longer list would not be read. */
export const MAX_CONFLICTS = 3;
/** Distinctive words two memories must share to be about the same subject. */
export const CONFLICT_MIN_SHARED = 2;
/**
 * A word found in at least this many of the older memories compared (the dozen nearest) is how this
 * diary talks (修复, 在群里, 周四晚上), not what one memory is about.
 */
export const HABIT_MIN_MEMORIES = 3;

/** Texts with fewer content words than this are compared together with their titles (which then say much of what they are). */
export const SHORT_TEXT_WORDS = 8;

interface Profile {
  /** Words of summary + body: what the memory says (a title or tags reworded do not make it new). */
  words: Set<string>;
  withTitle: Set<string>;
  keywords: Set<string>;
  /** Distinctive words of the title and tags: what the memory says it is about. */
  named: Set<string>;
  numbers: Set<string>;
  /** Summary and body, each flattened ('' parts left out). */
  parts: string[];
  /** Everything the memory says, flattened: where "the same words again" is looked for. */
  flat: string;
  /** Clauses of summary and body that state a value (claims.ts). */
  claims: Claim[];
  /** Days, months, weeks, versions, numbered items it names: which occasion it is about. */
  occasions: Map<string, Set<string>>;
}

/**
 * The tokens of each text, tokenized once per write: a memory's content is tokenized clause by
 * clause (its clauses with values are then looked up, not tokenized again), its title once for the
 * title words and once more for nothing, and a clause or title many memories share (the same
 * wording in a dozen notes) once for all of them. No word runs across a line break or a clause
 * boundary, so these are the tokens of the whole texts.
 */
export class HygieneTokens {
  private readonly seen = new Map<string, string[]>();

  constructor(readonly text: HygieneText) {}

  of(s: string): string[] {
    let tokens = this.seen.get(s);
    if (tokens === undefined) {
      tokens = this.text.tokenize(s);
      this.seen.set(s, tokens);
    }
    return tokens;
  }

  /** tokenize(s), read clause by clause. */
  byClause(s: string): string[] {
    return clausesOf(s).flatMap((clause) => this.of(clause));
  }

  /** tokenize([title, summary, body, tags].join('\n')): what the lexical index is asked with. */
  ofMemory(m: { title: string; summary: string; body: string; tags: string[] }): string[] {
    return [...this.of(m.title), ...this.byClause(contentOf(m)), ...this.of(m.tags.join(' '))];
  }
}

const contentOf = (m: { summary: string; body: string }): string => [m.summary, m.body].join('\n');

function profileOf(m: { title: string; summary: string; body: string; tags: string[] }, tokens: HygieneTokens): Profile {
  const content = contentOf(m);
  const contentTokens = tokens.byClause(content);
  const titleOnly = tokens.of(m.title);
  // tokenize(title + '\n' + tags): the title's words, then the tags'.
  const titleTokens = [...titleOnly, ...tokens.of(m.tags.join(' '))];
  const words = wordSet(contentTokens);
  const all = [...titleTokens, ...contentTokens];
  const text = tokens.text;
  const distinctive = text.distinctive ? (t: string) => text.distinctive!(t) : undefined;
  return {
    words,
    withTitle: new Set([...words, ...wordSet(titleOnly)]),
    keywords: keywordSet(all, distinctive),
    named: keywordSet(titleTokens, distinctive),
    numbers: numbersIn([m.title, m.summary, m.body].join('\n')),
    parts: [m.summary, m.body].map(flatText).filter((s) => s !== ''),
    flat: flatText([m.title, m.summary, m.body].join('\n')),
    claims: claimsOf(content, (clause) => keywordSet(tokens.of(clause), distinctive)),
    occasions: occasionsOf(m.title, content),
  };
}

/** Words in HABIT_MIN_MEMORIES or more of the older memories. */
function habitWords(keywordSets: readonly Set<string>[]): Set<string> {
  const counts = new Map<string, number>();
  for (const set of keywordSets) for (const w of set) counts.set(w, (counts.get(w) ?? 0) + 1);
  const out = new Set<string>();
  for (const [w, n] of counts) if (n >= HABIT_MIN_MEMORIES) out.add(w);
  return out;
}

const refersTo = (refs: readonly string[], docId: string): boolean => refs.some((r) => r !== '' && docId.toLowerCase().startsWith(r.toLowerCase()));

const quoteList = (xs: readonly string[], n = 4): string => xs.slice(0, n).join('、');
/** A quoted clause: long ones are cut (the hint is read, not the memory). */
const clip = (s: string, max = 60): string => (Array.from(s).length <= max ? s : `${Array.from(s).slice(0, max - 1).join('')}…`);

/** `tokens`: the write's own, when it has tokenized the draft already (gate.ts); otherwise `text`'s. */
export function assessWrite(
  draft: HygieneDraft,
  existing: readonly HygieneCandidate[],
  settings: HygieneSettings,
  text: HygieneText,
  tokens: HygieneTokens = new HygieneTokens(text),
): WriteAssessment {
  if (!settings.enabled) return { verdict: 'new', conflicts: [], warnings: [] };
  const fragment = fragmentOf(draft, settings.minChars);
  if (fragment) return { verdict: 'fragment', reason: fragment.reason, message: fragment.message };

  const mine = profileOf(draft, tokens);
  const scored = existing.map((c) => {
    const theirs = profileOf(c, tokens);
    const short = Math.min(mine.words.size, theirs.words.size) < SHORT_TEXT_WORDS;
    return { c, theirs, overlap: short ? overlapCoefficient(mine.withTitle, theirs.withTitle) : overlapCoefficient(mine.words, theirs.words) };
  });

  // Same words, and no value of the draft that the older memory lacks (a changed number is news).
  const duplicates = scored
    .filter((s) => s.overlap >= settings.duplicateOverlap && isSubset(mine.numbers, s.theirs.numbers))
    .sort((a, b) => b.overlap - a.overlap || (a.c.date < b.c.date ? -1 : a.c.date > b.c.date ? 1 : 0));
  const target = duplicates.find((s) => !s.c.locked);
  const warnings: string[] = [];
  const lockedTwin = duplicates.find((s) => s.c.locked);
  if (!target && lockedTwin) {
    warnings.push(`这条和已锁定的记忆「${lockedTwin.c.title}」(${lockedTwin.c.docId})几乎相同;锁定的记忆不自动合并,所以另存了一条。若确属重复,可以删掉新的这条。`);
  }

  const refs = draft.supersedes ?? [];
  const conflicts: ConflictWarning[] = [];
  if (settings.conflictWarning) {
    const habits = habitWords(scored.map((s) => s.theirs.keywords));
    const found = scored
      .filter((s) => s !== target && !s.c.superseded && !refersTo(refs, s.c.docId) && !duplicates.includes(s))
      .map((s) => ({ s, shared: intersection(mine.keywords, s.theirs.keywords).filter((w) => !habits.has(w)) }))
      // The same subject: enough rare words in common, one of them named by both titles (or tags);
      // the same occasion (not this month's bill against last month's);
      .filter(({ s, shared }) => shared.length >= CONFLICT_MIN_SHARED && shared.some((w) => mine.named.has(w) && s.theirs.named.has(w)))
      .filter(({ s }) => !differentOccasions(mine.occasions, s.theirs.occasions))
      // and one claim stated by both with another value (claims.ts).
      .map((f) => ({ ...f, claim: conflictingClaim(f.s.theirs.claims, mine.claims, habits) }))
      .filter((f): f is typeof f & { claim: NonNullable<typeof f.claim> } => f.claim !== null)
      .sort((a, b) => b.claim.about.length - a.claim.about.length || b.shared.length - a.shared.length || b.s.overlap - a.s.overlap);
    for (const { s, claim } of found.slice(0, MAX_CONFLICTS)) {
      const unit = claim.unit === '' ? '' : ` ${claim.unit}`;
      conflicts.push({
        docId: s.c.docId,
        title: s.c.title,
        reason:
          `可能与更早的记忆「${s.c.title}」(${s.c.docId},${s.c.date})冲突:关于 ${quoteList(claim.about)},旧的写「${clip(claim.old.text)}」,新的写「${clip(claim.new.text)}」` +
          `(旧:${quoteList(claim.oldValues)}${unit};新:${quoteList(claim.newValues)}${unit})。` +
          `如果新的这条取代了旧的,请把它标为 supersede 旧的(旧的会保留、排在后面);如果两条都成立,不用处理。旧记忆没有被改动。`,
      });
    }
  }

  if (target) {
    const identical = mine.parts.length > 0 && mine.parts.every((p) => target.theirs.flat.includes(p));
    return { verdict: 'duplicate', target: target.c, overlap: target.overlap, identical, conflicts };
  }
  return { verdict: 'new', conflicts, warnings };
}
