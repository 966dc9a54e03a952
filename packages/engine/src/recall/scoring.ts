// The recall's pure scoring: aliases, token ratings, coverage, fusion, decay, the gates, K and
// collapsing. Each takes plain data and returns plain data plus what it removed and why; the stage
// files in recall/stages/ wrap them, and pipeline.ts strings the stages together and does the I/O.
import type { EngramConfig } from '../config/schema.ts';
import { typedNamesOfIdentifiers } from '../text/latin.ts';
import { hasCjkChar, isSingleCjkChar } from '../text/scripts.ts';
import { isStopWord } from '../text/stopwords.ts';
import { asReadForWords } from '../text/script-fold.ts';
import { isTalkWord } from '../text/talk-words.ts';
import type { ChannelScore, GateRemoval, MatchedTerm, NamedKeepExplanation, QueryToken } from './types.ts';
import {
  FITTED_LEXICAL_QUERY_GATE,
  FITTED_QUERY_GATE,
  FITTED_THRESHOLD,
  FITTED_VETO,
  FITTED_WEIGHTS,
  QUERY_FEATURES,
  evidenceOf,
  queryEvidence,
  queryGateThreshold,
  agreementBarFor,
  queryProbability,
  roundQueryEvidence,
  type QueryEvidence,
  type Evidence,
  type QueryGate,
  type QuerySignals,
} from './hybrid-gate.ts';
import { groupIndexOf } from './near-duplicates.ts';
import { HAS_CJK } from './phrase.ts';

type RecallConfig = EngramConfig['recall'];

const CJK_CHAR = /^[\u3400-\u9fff\uf900-\ufaff]$/u;

export const isSingleCjk = (token: string): boolean => CJK_CHAR.test(token);

/** Adds every member of an alias group whose term (or its tokens) appears in the query. */
export function expandAliases(
  queryTokens: string[],
  groups: string[][],
  tokenize: (text: string) => string[],
): { token: string; fromAlias: boolean }[] {
  const seen = new Set(queryTokens);
  const out = queryTokens.map((token) => ({ token, fromAlias: false }));
  for (const group of groups) {
    const hit = group.some((term) => {
      const parts = tokenize(term);
      return parts.length > 0 && parts.every((p) => seen.has(p));
    });
    if (!hit) continue;
    for (const term of group)
      for (const t of tokenize(term))
        if (!seen.has(t)) {
          seen.add(t);
          out.push({ token: t, fromAlias: true });
        }
  }
  return out;
}

/**
 * The IDF a token must reach to count as distinctive. In a small corpus no token can reach the
 * configured threshold (with N chunks the largest IDF is ln(1 + (N - 0.5) / 1.5)), so the bar is
 * capped at half that ceiling: "found in at most about half of the corpus".
 */
export function idfThreshold(configured: number, chunkCount: number): number {
  if (chunkCount <= 0) return configured;
  const ceiling = Math.log(1 + (chunkCount - 0.5) / 1.5);
  return Math.min(configured, ceiling / 2);
}

/**
 * The ranking weight of a word with no CJK character (an English word, a number, a code identifier).
 * The words' channel searches a Chinese word twice, as itself and as its characters (text/grams.ts);
 * such a word has one spelling, so at weight 1 it counted about half: at 20,000 notes
 * 能给我介绍一下什么是BCPL么 ranked the one note on BCPL below thirty that only say 介绍. Chosen on the
 * growth benchmark's tuning half (2 and 3 gave the same; docs/benchmarks.md). A question in English
 * alone ranks as at 1: all its words scale together.
 */
export const UNSPELLED_WORD_WEIGHT = 2;

/**
 * The weight a query token ranks with in the words' channel (QueryToken.weight), read with the
 * tokenizer's own script table (text/scripts.ts) as the index reads it: a single CJK character the
 * index's singleCharWeight, a word in a script the characters spell again (text/grams.ts) 1, any
 * other word UNSPELLED_WORD_WEIGHT.
 */
function rankingWeight(token: string, fromAlias: boolean, singleCharWeight: number): number {
  if (isSingleCjkChar(token)) return singleCharWeight;
  return !fromAlias && !hasCjkChar(token) ? UNSPELLED_WORD_WEIGHT : 1;
}

/** A token is distinctive when it is long enough and (if an IDF table exists) rare enough. */
export function describeTokens(
  tokens: { token: string; fromAlias: boolean }[],
  idfOf: (t: string) => number,
  idfAvailable: boolean,
  cfg: Pick<RecallConfig, 'minTokenLen' | 'minTokenIdf' | 'singleCharWeight'>,
  minIdf: number = cfg.minTokenIdf,
): QueryToken[] {
  return tokens.map(({ token, fromAlias }) => {
    const idf = idfOf(token);
    const longEnough = [...token].length >= cfg.minTokenLen;
    const rareEnough = !idfAvailable || idf >= minIdf;
    return { token, idf, weight: rankingWeight(token, fromAlias, cfg.singleCharWeight), distinctive: longEnough && rareEnough, fromAlias };
  });
}

/**
 * What to do with a character pair the tokenizer made from two single characters jieba left apart
 * (司马晏是谁 → 晏是, 是谁) when jieba's general table does not know it: such a pair straddles a word
 * boundary, so the table cannot know it, and it would weigh as much as an unseen name.
 * - 'keep': weigh it like any unknown word (the rule before #14's re-check);
 * - 'function': leave it out of the weight when one of its characters is a function word (是, 的,
 *   有): 晏是, 谁的, 恩有 go, a name made of two single characters (尚恩) stays;
 * - 'all': leave every such pair out.
 */
export type BoundaryPairRule = 'keep' | 'function' | 'all';

// 'function' since issue 26: a pair like 晏是 is not a rare word, and the single character beside the
// function word (晏) now carries its own weight (SINGLE_CHAR_MIN_IDF), so the name is not lost with it.
export const DEFAULT_BOUNDARY_PAIRS: BoundaryPairRule = 'function';

/**
 * A single CJK character counts toward the query's weight when the general table rates it at least
 * this rare: single-character names and places (晏 10.1, 渝 8.7, 湘 7.8) do, common characters (是 1.7,
 * 国 6.0, 王 5.7) do not. Absent from the table = rarer than the table keeps.
 */
export const SINGLE_CHAR_MIN_IDF = Number(process.env.ENGRAM_EVAL_SINGLE_CHAR_MIN_IDF) || 7;

// Evaluation switch: bench/semantic-dump.ts and eval-cmrc.ts compare the rules with one code base.
const envRule = process.env.ENGRAM_EVAL_BOUNDARY_PAIRS;
const defaultRule = (): BoundaryPairRule => (envRule === 'keep' || envRule === 'function' || envRule === 'all' ? envRule : DEFAULT_BOUNDARY_PAIRS);

/**
 * True when `token` is a pair of two CJK characters that the query also has as single characters
 * (or as function words, which the tokenizer drops): the mark of a pair made across jieba's
 * boundary rather than a word jieba produced.
 */
export function isBoundaryPair(token: string, singles: Set<string>, isFunctionChar: (c: string) => boolean): boolean {
  const chars = [...token];
  if (chars.length !== 2 || !chars.every((c) => isSingleCjk(c))) return false;
  return chars.every((c) => singles.has(c) || isFunctionChar(c));
}

/**
 * A word that asks (哪一年, 由谁, 哪部, 几层, 多少次): the note that answers holds the answer, not the
 * question word, so such a word can never be matched and must not weigh in how much of the query a
 * note explains. Only words the general table does not know are judged so (哪吒 is in the table).
 */
export function isAskingWord(token: string): boolean {
  return /[哪谁啥]|什么/u.test(token) || /^(几|多少|怎)/u.test(token);
}

// Evaluation switch (bench/growth.ts ablations): ENGRAM_EVAL_ASKING_WORDS=weigh keeps them weighted.
const ASKING_WORDS_UNWEIGHTED = process.env.ENGRAM_EVAL_ASKING_WORDS !== 'weigh';

/**
 * How much each query word weighs when judging how much of the query a hit explains: general-language
 * IDF when available (so a name the corpus never saw weighs a lot, 公司 little), else corpus IDF with
 * unseen words at the corpus ceiling. Alias additions do not count, nor (by `boundaryPairs`) pairs
 * straddling a word boundary that the general table cannot know; a single CJK character counts only
 * with the general table and only when it is rare there (SINGLE_CHAR_MIN_IDF: a one-character name).
 */
export function queryWeights(
  tokens: QueryToken[],
  background: Map<string, number> | null,
  unknownWeight: number,
  corpusCeiling: number,
  boundaryPairs: BoundaryPairRule = defaultRule(),
  isFunctionChar: (c: string) => boolean = isStopWord,
): Map<string, number> {
  const out = new Map<string, number>();
  const singles = new Set(tokens.filter((t) => isSingleCjk(t.token)).map((t) => t.token));
  for (const t of tokens) {
    if (t.fromAlias) continue;
    const known = background?.get(t.token);
    if (isSingleCjk(t.token)) {
      const rarity = known ?? unknownWeight;
      if (background && rarity >= SINGLE_CHAR_MIN_IDF && !isFunctionChar(t.token)) out.set(t.token, rarity);
      continue;
    }
    if (background && known === undefined && ASKING_WORDS_UNWEIGHTED && isAskingWord(t.token)) continue;
    if (background && known === undefined && boundaryPairs !== 'keep' && isBoundaryPair(t.token, singles, isFunctionChar)) {
      const [a, b] = [...t.token] as [string, string];
      if (boundaryPairs === 'all' || isFunctionChar(a) || isFunctionChar(b)) continue;
    }
    const w = background ? (known ?? unknownWeight) : t.idf > 0 ? t.idf : corpusCeiling;
    out.set(t.token, w);
  }
  return out;
}

// Evaluation switch (bench/growth.ts, english-eval.ts): ENGRAM_EVAL_TALK_WORDS=count counts them as before.
const TALK_WORDS_UNCOUNTED = process.env.ENGRAM_EVAL_TALK_WORDS !== 'count';

/** True for a query word left out of the query's information: it speaks of the conversation in hand. */
const isUncountedTalkWord = (token: string): boolean => TALK_WORDS_UNCOUNTED && isTalkWord(token);

/**
 * How much a query says, and in how many words: the sum of its words' weights (queryWeights), leaving
 * out the words about the conversation in hand (lol, one sec, revert it, 暂停: text/talk-words.ts),
 * which a line of small talk is made of however rare they are; `countTalk` counts them too (a search,
 * never small talk). Pure.
 */
export function queryInformation(weights: ReadonlyMap<string, number>, countTalk = false): { information: number; words: number; talkWords: string[] } {
  let information = 0;
  let words = 0;
  const talkWords: string[] = [];
  for (const [token, w] of weights) {
    if (!countTalk && isUncountedTalkWord(token)) talkWords.push(token);
    else {
      information += w;
      words++;
    }
  }
  return { information, words, talkWords };
}

/** Share of the query's weight that a hit's matched tokens carry (alias matches add, capped at 1). */
export function coverageOf(matched: MatchedTerm[], weights: Map<string, number>, aliasTokens: Set<string>): number {
  let total = 0;
  for (const w of weights.values()) total += w;
  if (total <= 0) return 1;
  let got = 0;
  for (const m of matched) {
    const w = weights.get(m.token);
    if (w !== undefined) got += w;
    else if (aliasTokens.has(m.token)) got += Math.min(...weights.values());
  }
  return Math.min(1, got / total);
}

export interface Candidate {
  chunkId: string;
  docId: string;
  lexical: ChannelScore | null;
  semantic: ChannelScore | null;
  matched: MatchedTerm[];
  /** Share of the query explained by the lexical matches (1 when there are none to judge). */
  coverage: number;
  fused: number;
  decay: number;
  /** Share of the query's character pairs the candidate repeats (recall/phrase.ts); absent when not read. */
  phrase?: number;
  /** Longest stretch of the question it repeats verbatim ÷ the question's CJK characters (first candidates only; recall/phrase.ts). */
  span?: number;
  /** The most of the query's weight one of its sentences holds (first candidates only; recall/phrase.ts bestSentenceCoverage). */
  sentence?: number;
  score: number;
  folded: number;
  /** Near-duplicate candidates folded into this one (collapseNearDuplicates). */
  duplicates?: number;
  /** What the hybrid gate judged (set when the semantic channel ran with a cosine background). */
  evidence?: Evidence;
}

/** Attaches the hybrid gate's evidence to every candidate (pure; the query's semantic signals are given). */
export function attachEvidence(candidates: Candidate[], q: QuerySignals, maxIdf: number, weights: number[] = FITTED_WEIGHTS): void {
  for (const c of candidates) {
    const rarest = rarestIdf(c);
    c.evidence = evidenceOf(
      {
        matched: c.matched.length > 0,
        coverage: c.coverage,
        rarestIdf: rarest,
        maxIdf,
        cosine: c.semantic?.score ?? null,
        semRank: c.semantic?.rank ?? null,
        lexRank: c.lexical?.rank ?? null,
      },
      q,
      weights,
    );
  }
}

/** Weighted reciprocal-rank fusion: score = Σ weight / (k + rank). Ranks start at 1. */
export function fuse(
  lexical: { chunkId: string; docId: string; score: number; matched: MatchedTerm[] }[],
  semantic: { chunkId: string; docId: string; score: number }[],
  cfg: Pick<RecallConfig, 'rrfK' | 'lexicalWeight' | 'semanticWeight'>,
): Candidate[] {
  const byId = new Map<string, Candidate>();
  const get = (chunkId: string, docId: string) => {
    let c = byId.get(chunkId);
    if (!c) {
      c = { chunkId, docId, lexical: null, semantic: null, matched: [], coverage: 1, fused: 0, decay: 1, score: 0, folded: 0 };
      byId.set(chunkId, c);
    }
    return c;
  };
  lexical.forEach((h, i) => {
    const c = get(h.chunkId, h.docId);
    c.lexical = { rank: i + 1, score: h.score };
    c.matched = h.matched;
    c.fused += cfg.lexicalWeight / (cfg.rrfK + i + 1);
  });
  semantic.forEach((h, i) => {
    const c = get(h.chunkId, h.docId);
    c.semantic = { rank: i + 1, score: h.score };
    c.fused += cfg.semanticWeight / (cfg.rrfK + i + 1);
  });
  const out = [...byId.values()];
  for (const c of out) c.score = c.fused;
  return out.sort(byScore);
}

export const byScore = (a: { score: number; chunkId: string }, b: { score: number; chunkId: string }) =>
  b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0);

export interface GateContext {
  distinctive: Set<string>;
  semanticRan: boolean;
  cfg: Pick<RecallConfig, 'minSemantic' | 'requireSemantic' | 'minCoverage'> & Partial<Pick<RecallConfig, 'minSpecificity'>>;
  /** Probability the hybrid gate requires of candidates that carry evidence (absent = the fitted default). */
  hybridThreshold?: number;
  /** Below this probability even a candidate the lexical rules let through is dropped. */
  hybridVeto?: number;
  /** The highest IDF a word can have in this corpus (it occurs in one chunk): scales the specificity gate. */
  maxIdf?: number;
  titleOf: (docId: string) => string;
  /** A chunk without a vector (written while the endpoint was down) is not judged by semantic gates. */
  hasVector?: (chunkId: string) => boolean;
  /** The query-level gate (hybrid recall only); absent = the fitted default, null = off. */
  queryGate?: QueryGate | null;
  /** The query-level gate of lexical recall; absent = the fitted default, null = off. */
  lexicalQueryGate?: QueryGate | null;
  /** Chunks in the store (the query gate's bar falls as the store grows: hybrid-gate.ts queryGateThreshold). */
  chunkCount?: number;
  /** Whether the question names this document by its title (titleNamedBy): the hybrid gate keeps it. */
  namedByQuery?: (docId: string) => boolean;
}

/** A title or question as compared for naming: NFKC, traditional characters folded, lower-cased, without spaces and punctuation (《》「」, quotes). */
const namingForm = (text: string) => asReadForWords(text).toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/**
 * Whether `query` names a note by its title: the whole title (two characters or more, punctuation and
 * spaces aside) stands in the question and holds one of its distinctive words, so a generic title
 * (笔记, 问题) is not a name. A question that names a note asks about it — 《子不语》又叫做什么？ and the
 * note titled 子不语 — even when the note answers in other words (又名). The question is normalised
 * once, then each title is tested against it. Pure.
 */
export function titleNamedBy(query: string, distinctive: ReadonlySet<string>): (title: string) => boolean {
  const asked = namingForm(query);
  const words = [...distinctive].map((w) => w.toLowerCase());
  return (title) => {
    const name = namingForm(title);
    return [...name].length >= 2 && asked.includes(name) && words.some((w) => name.includes(w));
  };
}

/**
 * Relevance gates. The distinctive-term gate judges hits that have lexical matches; the semantic gates
 * apply only when the semantic channel really ran for this query (else cosine is meaningless).
 */
/** What the query-level gate decided (absent when it did not judge the query). */
export interface QueryGateVerdict {
  /** The gate's probability that the memories answer the query. */
  p: number;
  threshold: number;
  /** What it read (rounded): how the candidates look together. */
  features: QueryEvidence;
  /** Why the query was not silenced although its probability was below the bar. */
  overriddenBy?: 'channels agree';
}

export function applyGates(candidates: Candidate[], ctx: GateContext): { kept: Candidate[]; removals: GateRemoval[]; queryGate?: QueryGateVerdict; named: NamedKeepExplanation[] } {
  const lexical = ctx.semanticRan ? null : lexicalJudgement(candidates, ctx);
  const kept: Candidate[] = [];
  const named: NamedKeepExplanation[] = [];
  const removals: GateRemoval[] = [];
  const remove = (c: Candidate, gate: GateRemoval['gate'], detail: string) =>
    removals.push({ gate, chunkId: c.chunkId, docId: c.docId, title: ctx.titleOf(c.docId), detail });
  const admit = ctx.hybridThreshold ?? FITTED_THRESHOLD;
  const veto = Math.min(admit, ctx.hybridVeto ?? FITTED_VETO);
  const verdict = ctx.semanticRan ? querySilence(candidates, ctx) : lexical ? lexicalQuerySilence(candidates, ctx, lexical) : null;
  const queryGate = verdict ? verdict.verdict : undefined;
  if (verdict?.silence) {
    for (const c of candidates) remove(c, 'hybrid', verdict.silence);
    return { kept, removals, queryGate, named };
  }
  for (const [i, c] of candidates.entries()) {
    const rule = lexical ? lexical.ruleOf(i) : ruleVerdict(c, ctx);
    // With evidence from both channels, one fitted probability decides: a candidate the lexical
    // rules let through stays unless the evidence is very weak (veto); any other candidate (an
    // embedding-only find, or one the rules dropped) is admitted when the evidence is strong.
    if (ctx.semanticRan && c.evidence) {
      const e = c.evidence;
      const bar = rule === null && e.lexical ? veto : admit;
      if (e.p < bar && ctx.namedByQuery?.(c.docId)) {
        // The question names this note (titleNamedBy): its probability reads the words it shares with
        // the question, and a note asked about by name may answer in others.
        named.push({ chunkId: c.chunkId, title: ctx.titleOf(c.docId), p: Math.round(e.p * 1000) / 1000, bar });
        kept.push(c);
        continue;
      }
      if (e.p < bar) {
        const why = `${e.lexical ? `coverage ${(e.coverage * 100).toFixed(0)}%, rarity ${e.rarity.toFixed(2)}, ` : 'embedding only, '}z ${e.z.toFixed(1)}${e.semantic ? `, semantic rank ${Math.round(1 / e.semInvRank)}` : ', not a semantic candidate'}`;
        remove(c, 'hybrid', rule === null && e.lexical ? `p ${e.p.toFixed(2)} < veto ${bar} (${why})` : `p ${e.p.toFixed(2)} < ${bar} (${why}${rule ? `; lexical rules: ${rule.detail}` : ''})`);
        continue;
      }
      kept.push(c);
      continue;
    }
    if (rule) remove(c, rule.gate, rule.detail);
    else kept.push(c);
  }
  return { kept, removals, ...(queryGate ? { queryGate } : {}), named };
}

/**
 * The query-level gate: when the candidates together look like a question the memories do not
 * answer (recall/hybrid-gate.ts queryEvidence), everything goes, with the features in the reason.
 */
function querySilence(candidates: Candidate[], ctx: GateContext): { silence: string | null; verdict: QueryGateVerdict } | null {
  const gate = ctx.queryGate === undefined ? FITTED_QUERY_GATE : ctx.queryGate;
  if (!gate || candidates.length === 0 || !candidates.every((c) => c.evidence)) return null;
  // Fitted on Chinese questions only: on an English query the Chinese model's cosines say little and
  // the gate silenced most answerable questions (docs/benchmarks.md, English check), so it judges
  // only queries whose distinctive words are mostly Chinese.
  if (!mostlyCjk(ctx.distinctive)) return null;
  const threshold = queryGateThreshold(gate, ctx.chunkCount ?? 0);
  const q = queryEvidence(candidates.map((c) => ({ ...(c.evidence as Evidence), lexicalPass: ruleVerdict(c, ctx) === null && c.matched.length > 0 ? 1 : 0, phrase: c.phrase ?? 0, span: c.span ?? 0, sentence: c.sentence ?? 0 })));
  const p = queryProbability(q, gate.weights);
  const verdict: QueryGateVerdict = { p: Math.round(p * 1000) / 1000, threshold, features: roundQueryEvidence(q) };
  if (p >= threshold) return { silence: null, verdict };
  // Both channels putting the same memory first (one the lexical rules let through) is a strong sign
  // the question is answered, in a store large enough for that to mean something (agreementFrom): it
  // keeps the question unless the gate finds it hopeless (below agreementBar). Without that bar it let
  // out-of-corpus questions about another paragraph of the same article through unjudged
  // (hybrid-gate.ts FITTED_QUERY_GATE).
  const agreementKeeps = (bar: number | undefined) => bar !== undefined && q.agreePass === 1 && p >= bar;
  if (agreementKeeps(agreementBarFor(gate, ctx.chunkCount ?? 0))) return { silence: null, verdict: { ...verdict, overriddenBy: 'channels agree' } };
  const f = QUERY_FEATURES.map((k) => `${k} ${q[k].toFixed(2)}`).join(', ');
  // Said when agreement would have kept the question in a larger store, so the explanation shows why it did not.
  const unheard = agreementKeeps(gate.agreementBar) ? `; channels agree, which counts from ${gate.agreementFrom} chunks (this store: ${ctx.chunkCount ?? 0})` : '';
  return { silence: `query gate: q ${p.toFixed(2)} < ${threshold} (${f})${unheard}`, verdict };
}

/**
 * The query gate of lexical recall (hybrid-gate.ts FITTED_LEXICAL_QUERY_GATE): the same judgement as
 * querySilence from what the words alone show — how much of the question one candidate explains, how
 * rare its rarest shared word is, how many candidates the rules let through, how much of the
 * question's wording the first ones repeat. Chinese questions only, as the hybrid one.
 */
function lexicalQuerySilence(candidates: Candidate[], ctx: GateContext, { gate, loweredRules }: LexicalJudgement): { silence: string | null; verdict: QueryGateVerdict } {
  const maxIdf = ctx.maxIdf ?? 0;
  const q = queryEvidence(
    candidates.map((c, i) => {
      const rarest = rarestIdf(c);
      const matched = c.matched.length > 0;
      return {
        lexical: matched ? 1 : 0,
        coverage: matched ? c.coverage : 0,
        rarity: matched && maxIdf > 0 ? Math.min(1, rarest / maxIdf) : 0,
        z: 0,
        semantic: 0,
        semInvRank: 0,
        lexInvRank: c.lexical ? 1 / c.lexical.rank : 0,
        zTop: 0,
        margin: 0,
        p: 0,
        lexicalPass: loweredRules[i] === null && matched ? 1 : 0,
        phrase: c.phrase ?? 0,
        span: c.span ?? 0,
        sentence: c.sentence ?? 0,
      };
    }),
  );
  const features = gate.features ?? QUERY_FEATURES;
  const threshold = queryGateThreshold(gate, ctx.chunkCount ?? 0);
  const p = queryProbability(q, gate.weights, features);
  const verdict: QueryGateVerdict = { p: Math.round(p * 1000) / 1000, threshold, features: roundQueryEvidence(q) };
  if (p >= threshold) return { silence: null, verdict };
  const f = features.map((k) => `${k} ${q[k].toFixed(2)}`).join(', ');
  return { silence: `query gate (words only): q ${p.toFixed(2)} < ${threshold} (${f})`, verdict };
}

type RuleVerdict = ReturnType<typeof ruleVerdict>;

interface LexicalJudgement {
  gate: QueryGate;
  /** Each candidate's rule verdict at the bar the gate was fitted with (its features are read at it). */
  loweredRules: RuleVerdict[];
  /** Candidate i's rule verdict: at the gate's bar, or at the configured one for a companion (below). */
  ruleOf: (i: number) => RuleVerdict;
}

/**
 * The lexical query gate when it judges this query — one is set, the query is mostly Chinese, and a
 * candidate passes the rule gates at the gate's bars (when none does, the rules' own reasons say why
 * nothing was injected, more precisely than the query gate could) — with the rule verdicts it reads.
 * The gate was fitted with a lower specificity bar. A candidate meets that bar when it ranks above
 * every one that clears the configured bar, or repeats at least as much of the question's wording as
 * the first that does: below that note, one sharing only its words is a companion the configured bar
 * keeps out.
 */
function lexicalJudgement(candidates: Candidate[], ctx: GateContext): LexicalJudgement | null {
  const gate = ctx.lexicalQueryGate === undefined ? FITTED_LEXICAL_QUERY_GATE : ctx.lexicalQueryGate;
  if (!gate || candidates.length === 0 || !mostlyCjk(ctx.distinctive)) return null;
  const lowered = withGateSpecificity(ctx, gate);
  const loweredRules = candidates.map((c) => ruleVerdict(c, lowered));
  if (!candidates.some((c, i) => c.matched.length > 0 && loweredRules[i] === null)) return null;
  const firstClear = candidates.findIndex((c) => c.matched.length > 0 && ruleVerdict(c, ctx) === null);
  const clearPhrase = firstClear < 0 ? 0 : (candidates[firstClear]?.phrase ?? 0);
  const ruleOf = (i: number): RuleVerdict => {
    const c = candidates[i] as Candidate;
    return firstClear < 0 || i < firstClear || (c.phrase ?? 0) >= clearPhrase ? (loweredRules[i] ?? null) : ruleVerdict(c, ctx);
  };
  return { gate, loweredRules, ruleOf };
}

/** The context with the specificity bar the lexical query gate was fitted with (the lower of it and the configured one). */
function withGateSpecificity(ctx: GateContext, gate: QueryGate): GateContext {
  if (gate.minSpecificity === undefined) return ctx;
  return { ...ctx, cfg: { ...ctx.cfg, minSpecificity: Math.min(ctx.cfg.minSpecificity ?? 0, gate.minSpecificity) } };
}

/** True when more than half of the words contain a CJK character. */
export function mostlyCjk(words: Iterable<string>): boolean {
  let cjk = 0;
  let all = 0;
  for (const w of words) {
    all++;
    if (HAS_CJK.test(w)) cjk++;
  }
  return all > 0 && cjk * 2 > all;
}

/**
 * Whether the model stands behind an English statement's candidate (recall.english.minStatementCosine):
 * among its nearest with a cosine at the bar. null = it does, or the chunk has no vector to judge by (the
 * model never saw it: written while the vectors were filled in). Pure.
 */
export function statementSupportVerdict(c: Pick<Candidate, 'chunkId' | 'semantic'>, bar: number, hasVector: (chunkId: string) => boolean): { gate: 'semantic-min' | 'semantic-required'; detail: string } | null {
  if (bar <= 0 || !hasVector(c.chunkId)) return null;
  if (c.semantic === null) return { gate: 'semantic-required', detail: 'an English statement: the model does not put this note among its nearest' };
  if (c.semantic.score < bar) return { gate: 'semantic-min', detail: `an English statement: cosine ${c.semantic.score.toFixed(3)} < ${bar}` };
  return null;
}

/** The rule gates (lexical recall, or a candidate without evidence): the first one a candidate fails, or null. */
function ruleVerdict(c: Candidate, ctx: GateContext): { gate: GateRemoval['gate']; detail: string } | null {
  if (!c.evidence) {
    if (ctx.semanticRan && ctx.cfg.requireSemantic && c.semantic === null && (ctx.hasVector?.(c.chunkId) ?? true)) {
      return { gate: 'semantic-required', detail: 'not among the semantic channel\'s candidates' };
    }
    if (ctx.semanticRan && c.semantic !== null && ctx.cfg.minSemantic > 0 && c.semantic.score < ctx.cfg.minSemantic) {
      return { gate: 'semantic-min', detail: `cosine ${c.semantic.score.toFixed(3)} < ${ctx.cfg.minSemantic}` };
    }
  }
  if (c.matched.length === 0) {
    if (c.evidence) return { gate: 'hybrid', detail: 'no lexical match' };
    // Found by the words' characters only (text/grams.ts): grams rank, they do not vouch.
    if (c.lexical !== null) return { gate: 'distinctive-term', detail: 'matched characters of the query, no word of it' };
    return null;
  }
  if (!c.matched.some((m) => ctx.distinctive.has(m.token))) {
    return { gate: 'distinctive-term', detail: `matched only ${c.matched.map((m) => m.token).join(' ')} (none distinctive)` };
  }
  if (c.coverage < ctx.cfg.minCoverage) {
    return { gate: 'coverage', detail: `explains ${(c.coverage * 100).toFixed(0)}% of the query (< ${(ctx.cfg.minCoverage * 100).toFixed(0)}%)` };
  }
  const minSpecificity = ctx.cfg.minSpecificity ?? 0;
  if (minSpecificity > 0 && ctx.maxIdf !== undefined && ctx.maxIdf > 0) {
    const s = specificityOf(c, ctx.maxIdf);
    if (s < minSpecificity) {
      return { gate: 'specificity', detail: `specificity ${s.toFixed(2)} < ${minSpecificity} (coverage ${(c.coverage * 100).toFixed(0)}%, rarest matched word ${rarestMatched(c)})` };
    }
  }
  return null;
}

/** Weight of coverage against the relative IDF of the rarest matched word (fitted on CMRC, see docs/benchmarks.md). */
export const SPECIFICITY_COVERAGE_WEIGHT = 0.75;

/**
 * How specifically a lexical hit answers the query: coverage of the query's weight, plus how rare
 * (in this corpus) the rarest word it matched is, relative to the rarest a word can be. Questions
 * about something the corpus does not hold still match common words (哪一年, 公司, 城市) of many
 * chunks; what they rarely match is a word that only few chunks contain.
 */
export function specificityOf(c: Pick<Candidate, 'coverage' | 'matched'>, maxIdf: number): number {
  return SPECIFICITY_COVERAGE_WEIGHT * c.coverage + Math.min(1, rarestIdf(c) / maxIdf);
}

/** The gate IDF of the rarest word a candidate matched (0 without matches). */
function rarestIdf(c: Pick<Candidate, 'matched'>): number {
  let rarest = 0;
  for (const m of c.matched) if (m.idf > rarest) rarest = m.idf;
  return rarest;
}

const rarestMatched = (c: Pick<Candidate, 'matched'>): string => {
  let best: { token: string; idf: number } | null = null;
  for (const m of c.matched) if (!best || m.idf > best.idf) best = m;
  return best ? `${best.token} (IDF ${best.idf.toFixed(2)})` : 'none';
};

/** One hit per document: the best chunk stays, the others are counted as folded. */
export function collapseByDocument(candidates: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of [...candidates].sort(byScore)) {
    const b = best.get(c.docId);
    if (b) b.folded += 1;
    else best.set(c.docId, { ...c, folded: 0 });
  }
  return [...best.values()].sort(byScore);
}

/**
 * One hit per near-duplicate group: the best-scored member stays, carrying how many others were folded
 * into it; `groups` are chunk ids (recall/near-duplicates.ts). Returns the candidates and the groups
 * that folded anything, as (kept, folded) pairs.
 */
export function collapseNearDuplicates(candidates: Candidate[], groups: readonly (readonly string[])[]): { kept: Candidate[]; folded: { kept: string; folded: string[] }[] } {
  const groupOf = groupIndexOf(groups);
  const head = new Map<number, Candidate>();
  const folded = new Map<number, string[]>();
  const kept: Candidate[] = [];
  for (const c of [...candidates].sort(byScore)) {
    const g = groupOf.get(c.chunkId);
    if (g === undefined) {
      kept.push(c);
      continue;
    }
    const h = head.get(g);
    if (!h) {
      const first = { ...c, duplicates: 0 };
      head.set(g, first);
      kept.push(first);
      continue;
    }
    h.duplicates = (h.duplicates ?? 0) + 1 + (c.duplicates ?? 0);
    const list = folded.get(g) ?? [];
    list.push(c.chunkId);
    folded.set(g, list);
  }
  for (const c of kept) if (c.duplicates === 0) delete c.duplicates;
  return { kept, folded: [...folded.entries()].map(([g, ids]) => ({ kept: (head.get(g) as Candidate).chunkId, folded: ids })) };
}

/** Exponential half-life decay by document age, never below `floor`. Pure: `now` is passed in. */
export function decayFactor(date: string, now: Date, cfg: EngramConfig['timeDecay']): number {
  if (!cfg.enabled) return 1;
  const t = Date.parse(`${date}T00:00:00`);
  if (Number.isNaN(t)) return 1;
  const ageDays = Math.max(0, (now.getTime() - t) / 86_400_000);
  return Math.max(cfg.floor, Math.pow(0.5, ageDays / cfg.halfLifeDays));
}

/**
 * Dynamic K: around kBase, one more per distinctive query token beyond two (broad questions touch
 * more memories), bounded by kMin..kMax. An explicit k wins.
 */
export function chooseK(distinctiveCount: number, cfg: Pick<RecallConfig, 'kBase' | 'kMin' | 'kMax'>, explicit?: number): { k: number; reason: string } {
  if (explicit !== undefined) return { k: Math.max(1, Math.floor(explicit)), reason: `explicit k=${explicit}` };
  const lo = Math.min(cfg.kMin, cfg.kMax);
  const hi = Math.max(cfg.kMin, cfg.kMax);
  const k = Math.min(hi, Math.max(lo, cfg.kBase + Math.max(0, distinctiveCount - 2)));
  return { k, reason: `kBase ${cfg.kBase} + ${Math.max(0, distinctiveCount - 2)} for ${distinctiveCount} distinctive tokens, within ${lo}..${hi}` };
}

/** The tokenize stage: query tokens (aliases added), each rated, and the distinctive ones. */
export function analyseQuery(
  text: string,
  deps: { tokenize: (s: string) => string[]; aliases: string[][]; idf: (t: string) => number; hasIdf: boolean; corpusSize: number },
  cfg: Pick<RecallConfig, 'minTokenLen' | 'minTokenIdf' | 'singleCharWeight'>,
): { tokens: QueryToken[]; distinctive: Set<string>; idfAvailable: boolean; minIdf: number } {
  const expanded = expandAliases([...new Set(deps.tokenize(text))], deps.aliases, deps.tokenize);
  const minIdf = idfThreshold(cfg.minTokenIdf, deps.corpusSize);
  const tokens = describeTokens(expanded, deps.idf, deps.hasIdf, cfg, minIdf);
  return { tokens, distinctive: new Set(tokens.filter((x) => x.distinctive).map((x) => x.token)), idfAvailable: deps.hasIdf, minIdf };
}

/** What the tokenize stage needs from a recall's dependencies (shared by the pipeline and the time channel). */
export const queryDeps = (deps: {
  tokenizer: { tokenize(s: string): string[] };
  config: { aliases: string[][] };
  lexical: { idf(t: string): number; hasIdf(): boolean; readonly size: number };
}) => ({
  tokenize: (s: string) => {
    const typed = typedNamesOfIdentifiers(s);
    const tokens = deps.tokenizer.tokenize(s);
    return typed.size === 0 ? tokens : tokens.filter((t) => !typed.has(t));
  },
  aliases: deps.config.aliases,
  idf: (t: string) => deps.lexical.idf(t),
  hasIdf: deps.lexical.hasIdf(),
  corpusSize: deps.lexical.size,
});
