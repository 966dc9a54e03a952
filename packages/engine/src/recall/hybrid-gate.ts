// The hybrid relevance gate: one fitted logistic decision over the evidence both channels give a
// candidate, used when the semantic channel ran. It replaces the fixed cosine floor, the
// "must also be a semantic candidate" rule and the coverage/specificity bars (which stay for
// lexical-only recall). Cosines are not compared with a constant: each is measured against the
// query's own background (its cosine over a fixed sample of the corpus), so the same weights work
// for bge-small-zh (unrelated ≈ 0.3), a hashed test embedder (≈ 0.05) and an OpenAI-style model.
// Fitted by packages/engine/bench/fit-gate.ts on CMRC dev (docs/benchmarks.md). Pure.

export interface CosineBackground {
  mean: number;
  std: number;
}

/** Everything the decision looks at, as shown by `recall --json`. */
export interface Evidence {
  /** 1 when the candidate matched query words (a lexical candidate), 0 when only the embedding found it. */
  lexical: number;
  /** Share of the query's weight its matched words carry (0 without matches). */
  coverage: number;
  /** IDF of its rarest matched word ÷ the corpus's highest possible IDF (0 without matches). */
  rarity: number;
  /** Its cosine in background standard deviations; not a semantic candidate = the last candidate's (an upper bound). */
  z: number;
  /** 1 when it is among the semantic channel's candidates. */
  semantic: number;
  /** 1 / semantic rank (0 when not a candidate). */
  semInvRank: number;
  /** 1 / lexical rank (0 when not a lexical candidate). */
  lexInvRank: number;
  /** Query-level: the best cosine of the query, in background deviations. */
  zTop: number;
  /** Query-level: (best − second best cosine) in background deviations. */
  margin: number;
  /** The gate's probability that this candidate is relevant. */
  p: number;
}

export type FeatureName = Exclude<keyof Evidence, 'p'>;

export const FEATURES: FeatureName[] = ['lexical', 'coverage', 'rarity', 'z', 'semantic', 'semInvRank', 'lexInvRank', 'zTop', 'margin'];

/** Bias first, then one weight per feature in FEATURES order. Fitted on CMRC dev (see bench/fit-gate.ts). */
export const FITTED_WEIGHTS: number[] = [-9.297, 0.481, 2.958, 1.968, 1.163, 0.501, 0.506, 2.585, -0.028, 0.874];

/**
 * Probability a candidate must reach to be injected. 0.95 was chosen with the weights, before the
 * query gate: the query gate now silences the questions the corpus does not answer, and 0.95 went on
 * removing the answering note of answerable ones as the store grew. Chosen on the growth benchmark's
 * tuning half (docs/benchmarks.md): at 20,000 notes R@5 0.961 → 0.972, answerable → nothing 1.5 →
 * 1.1 %, out-of-corpus → nothing 83.9 → 82.2 %; at 595 notes and on CMRC dev nothing moves.
 */
export const FITTED_THRESHOLD = 0.6;

/** Below this, a candidate the lexical rules let through is dropped too (chosen with the weights). */
export const FITTED_VETO = 0.1;

export interface CandidateSignals {
  matched: boolean;
  coverage: number;
  rarestIdf: number;
  maxIdf: number;
  cosine: number | null;
  semRank: number | null;
  lexRank: number | null;
}

export interface QuerySignals {
  background: CosineBackground;
  /** Cosines of the semantic candidates, best first. */
  cosines: number[];
  /** The cosine the first one's margin is measured against (rivalCosine); absent = the second cosine. */
  rival?: number;
}

/**
 * The cosine the top semantic candidate's margin is measured against: the best candidate that is not
 * a near-duplicate of it. Copies of one note (noted again, re-imported, a sentence dropped) sit right
 * under it and made a fact noted ten times look less certain than one noted once, so the query gate
 * silenced it. When every other candidate is a copy, the last cosine: how far the top stands above
 * everything the channel found. Undefined with fewer than two candidates. Pure.
 */
export function rivalCosine(hits: readonly { chunkId: string; score: number }[], sameGroup: (a: string, b: string) => boolean): number | undefined {
  const top = hits[0];
  if (!top || hits.length < 2) return undefined;
  for (let i = 1; i < hits.length; i++) {
    const h = hits[i] as { chunkId: string; score: number };
    if (!sameGroup(top.chunkId, h.chunkId)) return h.score;
  }
  return (hits[hits.length - 1] as { score: number }).score;
}

export function evidenceOf(c: CandidateSignals, q: QuerySignals, weights: number[] = FITTED_WEIGHTS): Evidence {
  const std = Math.max(q.background.std, 1e-4);
  const zOf = (cos: number) => (cos - q.background.mean) / std;
  const last = q.cosines.length > 0 ? (q.cosines[q.cosines.length - 1] as number) : q.background.mean;
  const top = q.cosines[0] ?? q.background.mean;
  const second = q.rival ?? q.cosines[1] ?? top;
  const e: Omit<Evidence, 'p'> = {
    lexical: c.matched ? 1 : 0,
    coverage: c.matched ? c.coverage : 0,
    rarity: c.matched && c.maxIdf > 0 ? Math.min(1, c.rarestIdf / c.maxIdf) : 0,
    z: zOf(c.cosine ?? last),
    semantic: c.cosine !== null ? 1 : 0,
    semInvRank: c.semRank ? 1 / c.semRank : 0,
    lexInvRank: c.lexRank ? 1 / c.lexRank : 0,
    zTop: zOf(top),
    margin: (top - second) / std,
  };
  return { ...e, p: probability(e, weights) };
}

export function probability(e: Omit<Evidence, 'p'>, weights: number[] = FITTED_WEIGHTS): number {
  let s = weights[0] ?? 0;
  FEATURES.forEach((f, i) => (s += (weights[i + 1] ?? 0) * e[f]));
  return 1 / (1 + Math.exp(-s));
}

export const roundEvidence = (e: Evidence): Evidence => {
  const out = { ...e };
  for (const k of Object.keys(out) as (keyof Evidence)[]) out[k] = Math.round(out[k] * 1000) / 1000;
  return out;
};

/**
 * Query-level evidence: what the query's candidates show together. Out-of-corpus questions share
 * words with many memories (a name, a year, 哪一年) and so get candidates that look fine one by
 * one; together they still look different from a question the corpus answers (no candidate the
 * gate trusts, the best cosine close to the background, the matched words explaining little).
 */
export interface QueryEvidence {
  /** The best candidate's probability. */
  maxP: number;
  /** The best probability among candidates the lexical rules let through (0 when none). */
  maxPassP: number;
  zTop: number;
  margin: number;
  /** The most of the query's weight one candidate explains. */
  maxCoverage: number;
  /** The rarest word any candidate matched, relative to the corpus maximum. */
  maxRarity: number;
  /** Share of the candidates the lexical rules let through. */
  passShare: number;
  /** 1 when one candidate is first in both channels (the words and the embedding agree on the best memory). */
  agree: number;
  /**
   * The most of the question's wording (adjacent character pairs, recall/phrase.ts) one of the first
   * five candidates repeats: a question about a stored note usually repeats a phrase of it, one about
   * another paragraph of the same article shares its names and little else.
   */
  maxPhrase: number;
  /**
   * 1 when one candidate the lexical rules let through is first in both channels. It overruled the
   * gate outright; now it does only above FITTED_QUERY_GATE's agreementBar, because an out-of-corpus
   * question about another paragraph of the same article often has both channels agree on that
   * paragraph (13 % of the held-out half's out-of-corpus questions at 595 notes went through that way).
   */
  agreePass: number;
  /** The longest stretch of the question one of the first candidates repeats verbatim, ÷ the question's CJK characters. */
  spanShare: number;
  /**
   * The most of the question's weight one sentence of the first candidates holds (their head counting
   * in every sentence): a question about a stored note finds its words together in the sentence that
   * answers it; one about another paragraph of the same article finds the subject's name in one
   * sentence and its other words elsewhere, or nowhere.
   */
  sentenceShare: number;
}

export type QueryFeatureName = keyof QueryEvidence;

export const roundQueryEvidence = (q: QueryEvidence): QueryEvidence => {
  const out = { ...q };
  for (const k of QUERY_FEATURES) out[k] = Math.round(out[k] * 1000) / 1000;
  return out;
};

export const QUERY_FEATURES: QueryFeatureName[] = ['maxP', 'maxPassP', 'zTop', 'margin', 'maxCoverage', 'maxRarity', 'passShare', 'agree', 'maxPhrase', 'agreePass', 'spanShare', 'sentenceShare'];

/** How many of the first candidates maxPhrase and spanShare read. */
const PHRASE_CANDIDATES = 5;
/** The candidates whose shared stretch is measured (recall/stages/fuse.ts). */
export const SPAN_CANDIDATES = PHRASE_CANDIDATES;

/**
 * `lexicalPass`: 1 when the lexical rule gates let the candidate through (and it matched words);
 * `phrase`: its share of the question's wording; `span`: its longest verbatim stretch of the question
 * as a share (both absent = 0). Candidates in rank order. Pure.
 */
export function queryEvidence(candidates: (Evidence & { lexicalPass: number; phrase?: number; span?: number; sentence?: number })[]): QueryEvidence {
  const q: QueryEvidence = { maxP: 0, maxPassP: 0, zTop: 0, margin: 0, maxCoverage: 0, maxRarity: 0, passShare: 0, agree: 0, maxPhrase: 0, agreePass: 0, spanShare: 0, sentenceShare: 0 };
  if (candidates.length === 0) return q;
  let pass = 0;
  for (const c of candidates.slice(0, PHRASE_CANDIDATES)) {
    q.maxPhrase = Math.max(q.maxPhrase, c.phrase ?? 0);
    q.spanShare = Math.max(q.spanShare, c.span ?? 0);
    q.sentenceShare = Math.max(q.sentenceShare, c.sentence ?? 0);
  }
  for (const c of candidates) {
    q.maxP = Math.max(q.maxP, c.p);
    if (c.lexicalPass) {
      pass++;
      q.maxPassP = Math.max(q.maxPassP, c.p);
    }
    q.maxCoverage = Math.max(q.maxCoverage, c.coverage);
    q.maxRarity = Math.max(q.maxRarity, c.rarity);
    if (c.lexInvRank === 1 && c.semInvRank === 1) {
      q.agree = 1;
      if (c.lexicalPass) q.agreePass = 1;
    }
  }
  q.zTop = (candidates[0] as Evidence).zTop;
  q.margin = (candidates[0] as Evidence).margin;
  q.passShare = pass / candidates.length;
  return q;
}

export interface QueryGate {
  /** Bias, then one weight per feature of `features` (absent = QUERY_FEATURES). */
  weights: number[];
  /** The features the weights read, in order (absent = QUERY_FEATURES). */
  features?: readonly QueryFeatureName[];
  /**
   * The specificity bar of the rule gates it was fitted with (its features are read at it). The query
   * gate now turns away the questions the store does not answer, which the bar stood in for; while it
   * judges, a candidate meets the lower of this and recall.minSpecificity when it ranks above the first
   * candidate that clears the configured bar, or repeats at least as much of the question's wording
   * (its phrase share): a note below that one sharing only its words is a companion, kept out as before.
   */
  minSpecificity?: number;
  /** Below this the query gets nothing (in a store of at most `smallStore` chunks). */
  threshold: number;
  /** In a store of at least `largeStore.chunks` chunks the bar is `largeStore.threshold`; between the two it falls with log(chunks). */
  smallStore?: number;
  largeStore?: { chunks: number; threshold: number };
  /** Below the bar, a question whose candidates include one first in both channels (agreePass) is still answered from this probability on. */
  agreementBar?: number;
  /**
   * …in a store of at least this many chunks (0 when absent). In a store of a few hundred notes the one
   * note on a subject is first in both channels whether or not it answers the question.
   */
  agreementFrom?: number;
}

/**
 * The query gate's bar for a store of `chunks` chunks. Every query-level feature reads how the best
 * candidates stand out from the rest, and in a larger store more of the rest come close: answerable
 * questions look less answered (at 20,000 notes the small store's bar silenced 4.7 % of them, against
 * 1.5 % at 595 notes). Pure.
 */
export function queryGateThreshold(gate: QueryGate, chunks: number): number {
  const large = gate.largeStore;
  const small = gate.smallStore ?? 0;
  if (!large || chunks <= small || large.chunks <= small) return gate.threshold;
  if (chunks >= large.chunks) return large.threshold;
  const share = Math.log(chunks / small) / Math.log(large.chunks / small);
  return Math.round((gate.threshold + (large.threshold - gate.threshold) * share) * 1000) / 1000;
}

/**
 * The probability from which channels that agree keep a question the gate doubts, in a store of
 * `chunks` chunks; undefined when agreement does not count there (no agreementBar, or a store under
 * agreementFrom). Pure.
 */
export function agreementBarFor(gate: QueryGate, chunks: number): number | undefined {
  return chunks >= (gate.agreementFrom ?? 0) ? gate.agreementBar : undefined;
}

export function queryProbability(q: QueryEvidence, weights: number[], features: readonly QueryFeatureName[] = QUERY_FEATURES): number {
  let s = weights[0] ?? 0;
  features.forEach((f, i) => (s += (weights[i + 1] ?? 0) * q[f]));
  return 1 / (1 + Math.exp(-s));
}

/** What a question's candidates show together when only the words searched: QueryEvidence without the embedding's features. */
export const LEXICAL_QUERY_FEATURES: readonly QueryFeatureName[] = ['maxCoverage', 'maxRarity', 'passShare', 'maxPhrase', 'spanShare', 'sentenceShare'];

/**
 * The query gate of lexical recall (no semantic channel: the model not installed, or not ready): the
 * same question — do the candidates together look like a question the memories answer? — read from
 * the words alone. Without it lexical recall let 22–46 % of out-of-corpus questions through (their
 * names and years match many notes), and its specificity bar, which stood in for it, silenced 3.3 %
 * of the answerable ones at 20,000 notes. Fitted by bench/fit-query-gate.ts --lexical on the growth
 * benchmark's tuning half only (the stores of 181 and 20,000 notes and the 10,000-note store whose
 * asked notes are written 30 more times, kept without the model, dumped by bench/query-gate-dump.ts
 * MODEL=none with the specificity bar below), the bars chosen on the same half: up to 600 chunks 0.3
 * (out-of-corpus → nothing ≥ 85 % at R@5 ≥ 0.98), from 5,000 chunks 0.2 (answerable → nothing ≤ 2 %).
 * docs/benchmarks.md, "Recall as memory grows".
 */
export const FITTED_LEXICAL_QUERY_GATE: QueryGate | null = {
  weights: [-10.988, 0.981, 2.841, 1.211, 4.844, 3.18, 8.113],
  features: LEXICAL_QUERY_FEATURES,
  threshold: 0.3,
  smallStore: 600,
  largeStore: { chunks: 5_000, threshold: 0.2 },
  minSpecificity: 0.75,
};

/**
 * Fitted by bench/fit-query-gate.ts on the growth benchmark's tuning half only (both stores of about
 * 180 notes, the stores of 595 and 20,000 notes and the 10,000-note store whose asked notes are each
 * written 30 more times, dumped by bench/query-gate-dump.ts; positives: answerable questions whose note
 * is in the top 5, negatives: out-of-corpus questions and chatter), over QUERY_FEATURES. The bars were
 * chosen on the same half: up to 600 chunks the highest out-of-corpus → nothing keeping R@5 ≥ 0.98 in
 * the stores of about 180 and 595 notes, the higher of equal bars (0.48; channels that agree keep a
 * question from 0.1 on only from 600 chunks), from 5,000 chunks the highest keeping answerable →
 * nothing ≤ 1.5 % in both large stores (0.12). docs/benchmarks.md, "Recall as memory grows".
 */
export const FITTED_QUERY_GATE: QueryGate | null = {
  weights: [-15.93, 6.188, -1.027, 0.337, 1.028, 1.277, 2.11, 2.182, 0.245, 5.446, 0.187, 2.929, 5.296],
  threshold: 0.48,
  agreementBar: 0.1,
  agreementFrom: 600,
  smallStore: 600,
  largeStore: { chunks: 5_000, threshold: 0.12 },
};

/** The model FITTED_QUERY_GATE was fitted on: its features are that model's cosines. */
export const QUERY_GATE_MODEL = /bge-small-zh/i;

/**
 * The query gate for a recall: 'auto' uses the fitted gate only with the model it was fitted on (with
 * another embedder — a test embedder with cosines near 0.2, an OpenAI-style model — it silenced
 * answerable questions: apps/plugin/test/fuzz-endpoints.test.ts 33/40), 'on' always, 'off' never.
 */
export function queryGateFor(model: string | undefined, mode: 'auto' | 'on' | 'off'): QueryGate | null {
  if (mode === 'off') return null;
  if (mode === 'on' || (model !== undefined && QUERY_GATE_MODEL.test(model))) return FITTED_QUERY_GATE;
  return null;
}

/** The query gate of lexical recall: the fitted one unless the query gate is turned off. */
export function lexicalQueryGateFor(mode: 'auto' | 'on' | 'off'): QueryGate | null {
  return mode === 'off' ? null : FITTED_LEXICAL_QUERY_GATE;
}
