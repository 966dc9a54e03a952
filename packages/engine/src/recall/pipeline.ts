// The recall pipeline: tokenize → lexical → semantic → fuse → gate → collapse → decay → judge → select.
// The one implementation behind the CLI, the console and the plugin.
import type { EngramConfig } from '../config/schema.ts';
import type { Tokenizer } from '../types.ts';
import { fitToBudget } from './render.ts';
import { backgroundIdfTable, UNKNOWN_WORD_IDF } from './background-idf.ts';
import {
  applyGates,
  chooseK,
  collapseByDocument,
  decayFactor,
  analyseQuery,
  fuse,
  coverageOf,
  attachEvidence,
  queryDeps,
  queryWeights,
  type Candidate,
} from './stages.ts';
import type { DocMeta, GateName, GateRemoval, MatchedTerm, RecallHit, RecallResult } from './types.ts';
import { planTimeChannel, type TimeChannelDeps } from '../timeq/channel.ts';
import { bm25Idf } from '../lexical/bm25.ts';
import { blankDocMeta, hitScope, SUPERSEDED_FACTOR, visibleIn, type RecallScope } from './scope.ts';

export type { DocMeta };

export interface LexicalSearcher {
  readonly size: number;
  idf(token: string): number;
  hasIdf(): boolean;
  search(tokens: string[], limit: number): { chunkId: string; docId: string; score: number; matched: MatchedTerm[] }[];
}

export type SemanticSearchResult =
  | { ran: true; hits: { chunkId: string; score: number; rank: number }[]; ms: number; background?: { mean: number; std: number; n: number } }
  | { ran: false; skipped: string };

export interface SemanticSearcher {
  search(query: string, limit: number, opts?: { signal?: AbortSignal }): Promise<SemanticSearchResult>;
  hasVector?(chunkId: string): boolean;
}

export interface JudgeVerdict {
  applied: boolean;
  reason: string | null;
  /** chunkIds the judge dropped, with their probability. */
  dropped: { chunkId: string; probability: number | null }[];
}

export type Judge = (query: string, candidates: { chunkId: string; title: string; text: string }[]) => Promise<JudgeVerdict>;

export interface RecallDeps {
  config: EngramConfig;
  tokenizer: Tokenizer;
  lexical: LexicalSearcher;
  doc(docId: string): DocMeta | undefined;
  docOfChunk(chunkId: string): string | undefined;
  semantic: SemanticSearcher | null;
  chunkTexts(chunkIds: string[]): Promise<Map<string, string>>;
  judge?: Judge | null;
  now?: () => Date;
  /** The time channel's view of the corpus; absent = no time channel. */
  time?: TimeChannelDeps | null;
}

export interface RecallOptions {
  k?: number;
  /** Debug: run one channel only. Excluding a channel names the *other* one (pitfall #13). */
  only?: 'lexical' | 'semantic';
  signal?: AbortSignal;
  /** false: ignore time words in the query (no time channel for this recall). */
  time?: boolean;
  /** The recall's workspace: it sees that workspace's memories and global ones. Absent/null = all. */
  workspace?: string | null;
}

/** Candidates searched per channel when a scope filters them afterwards: other workspaces' hits must not crowd ours out. */
const SCOPED_OVERFETCH = 4;

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export async function recall(deps: RecallDeps, query: string, options: RecallOptions = {}): Promise<RecallResult> {
  const time = await planTimeChannel(deps, query, options);
  if (time?.kind === 'answer') return time.result;
  const result = await recallByRelevance(deps, query, options);
  result.explain.time = time?.explain ?? null;
  return result;
}

async function recallByRelevance(deps: RecallDeps, query: string, options: RecallOptions): Promise<RecallResult> {
  const cfg = deps.config.recall;
  const tStart = performance.now();
  const stages: RecallResult['explain']['stages'] = [];

  let t = performance.now();
  const { tokens, distinctive, idfAvailable, minIdf } = analyseQuery(query, queryDeps(deps), cfg);
  const tokenizeMs = ms(t);

  t = performance.now();
  const scope: RecallScope = { workspace: options.workspace ?? null };
  const scoped = scope.workspace !== null;
  const inScope = (docId: string) => {
    const d = deps.doc(docId);
    return d !== undefined && visibleIn(scope, d.workspace);
  };
  const lexicalAll =
    options.only === 'semantic' || tokens.length === 0 ? [] : deps.lexical.search(tokens.map((x) => x.token), scoped ? cfg.lexicalLimit * SCOPED_OVERFETCH : cfg.lexicalLimit);
  const lexicalHits = scoped ? lexicalAll.filter((h) => inScope(h.docId)).slice(0, cfg.lexicalLimit) : lexicalAll;
  const lexicalMs = ms(t);
  stages.push({ name: 'lexical', kept: lexicalHits.length, dropped: lexicalAll.length - lexicalHits.length, note: scoped ? `scope: ${scope.workspace} + global` : undefined });

  t = performance.now();
  let semantic: SemanticSearchResult;
  if (options.only === 'lexical') semantic = { ran: false, skipped: 'excluded by only=lexical' };
  else if (!deps.semantic) semantic = { ran: false, skipped: 'semantic channel not configured' };
  else {
    try {
      semantic = await deps.semantic.search(query, scoped ? cfg.semanticLimit * SCOPED_OVERFETCH : cfg.semanticLimit, { signal: options.signal });
    } catch (e) {
      semantic = { ran: false, skipped: `semantic search failed: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const semanticMs = ms(t);
  const semanticHits = semantic.ran
    ? semantic.hits.flatMap((h) => {
        const docId = deps.docOfChunk(h.chunkId);
        return docId && (!scoped || inScope(docId)) ? [{ chunkId: h.chunkId, docId, score: h.score }] : [];
      }).slice(0, cfg.semanticLimit)
    : [];
  stages.push({ name: 'semantic', kept: semanticHits.length, dropped: 0, note: semantic.ran ? undefined : semantic.skipped });

  t = performance.now();
  // Decay works inside each channel's own scale before fusion: RRF scores are compressed (1/61 vs
  // 1/62), so decaying them afterwards would let a few weeks of age outweigh a clear relevance gap.
  const now = (deps.now ?? (() => new Date()))();
  const decayOf = new Map<string, number>();
  const decayFor = (docId: string) => {
    let d = decayOf.get(docId);
    if (d === undefined) {
      const meta = deps.doc(docId);
      d = decayFactor(meta?.date ?? '', now, deps.config.timeDecay) * (meta?.supersededBy ? SUPERSEDED_FACTOR : 1);
      decayOf.set(docId, d);
    }
    return d;
  };
  const byDecayed = <T extends { docId: string; score: number; chunkId: string }>(list: T[]) =>
    list.map((h) => ({ h, s: h.score * decayFor(h.docId) })).sort((a, b) => b.s - a.s || (a.h.chunkId < b.h.chunkId ? -1 : 1)).map((x) => x.h);
  const fused = fuse(byDecayed(lexicalHits), byDecayed(semanticHits), cfg);
  const weights = queryWeights(tokens, backgroundIdfTable(), UNKNOWN_WORD_IDF, Math.log(1 + (Math.max(1, deps.lexical.size) - 0.5) / 1.5));
  const aliasTokens = new Set(tokens.filter((x) => x.fromAlias).map((x) => x.token));
  for (const c of fused) {
    c.decay = decayFor(c.docId);
    if (c.matched.length > 0) c.coverage = coverageOf(c.matched, weights, aliasTokens);
  }
  const maxIdf = bm25Idf(Math.max(1, deps.lexical.size), 1);
  const hybrid = semantic.ran && semantic.background && cfg.hybridGate.enabled;
  if (semantic.ran && hybrid && semantic.background) {
    const weights = cfg.hybridGate.weights.length > 0 ? cfg.hybridGate.weights : undefined;
    attachEvidence(fused, { background: semantic.background, cosines: semanticHits.map((h) => h.score) }, maxIdf, weights);
  }
  const fuseMs = ms(t);
  stages.push({ name: 'fuse', kept: fused.length, dropped: 0 });

  t = performance.now();
  const titleOf = (docId: string) => deps.doc(docId)?.title ?? '';
  let gated: { kept: Candidate[]; removals: GateRemoval[] };
  const noDistinctive = distinctive.size === 0;
  let information = 0;
  for (const w of weights.values()) information += w;
  const tooVague = !noDistinctive && cfg.minQueryInformation > 0 && information < cfg.minQueryInformation;
  if (noDistinctive || tooVague) {
    const gate = noDistinctive ? ('no-distinctive-query' as const) : ('vague-query' as const);
    const detail = noDistinctive
      ? 'the query has no distinctive term, so nothing is injected'
      : `the query carries too little information (${information.toFixed(1)} < ${cfg.minQueryInformation}), so nothing is injected`;
    gated = { kept: [], removals: fused.map((c) => ({ gate, chunkId: c.chunkId, docId: c.docId, title: titleOf(c.docId), detail, evidence: c.evidence })) };
  } else {
    gated = applyGates(fused, {
      distinctive,
      semanticRan: semantic.ran,
      cfg,
      titleOf,
      hasVector: (id) => deps.semantic?.hasVector?.(id) ?? true,
      maxIdf,
      hybridThreshold: cfg.hybridGate.threshold,
      hybridVeto: cfg.hybridGate.veto,
    });
    const byChunk = new Map(fused.map((c) => [c.chunkId, c]));
    for (const r of gated.removals) r.evidence = byChunk.get(r.chunkId)?.evidence;
  }
  stages.push({ name: 'gate', kept: gated.kept.length, dropped: gated.removals.length });

  const decayed = collapseByDocument(gated.kept);
  stages.push({ name: 'collapse', kept: decayed.length, dropped: gated.kept.length - decayed.length, note: 'one hit per document' });
  const gateMs = ms(t);

  const { k, reason: kReason } = chooseK(distinctive.size, cfg, options.k);
  // The judge sees a few more than K so its drops can be refilled from the next ranks.
  let pool = decayed.slice(0, Math.max(k * 2, k));
  const texts = await deps.chunkTexts(pool.map((c) => c.chunkId));

  t = performance.now();
  let judgeInfo: RecallResult['explain']['judge'] = null;
  if (deps.judge && pool.length > 0) {
    let verdict: JudgeVerdict;
    try {
      verdict = await deps.judge(query, pool.map((c) => ({ chunkId: c.chunkId, title: titleOf(c.docId), text: texts.get(c.chunkId) ?? '' })));
    } catch (e) {
      verdict = { applied: false, reason: `judge failed: ${e instanceof Error ? e.message : String(e)}`, dropped: [] };
    }
    if (verdict.applied) {
      const dropIds = new Set(verdict.dropped.map((d) => d.chunkId));
      for (const d of verdict.dropped) {
        const c = pool.find((p) => p.chunkId === d.chunkId);
        if (c) gated.removals.push({ gate: 'judge', chunkId: c.chunkId, docId: c.docId, title: titleOf(c.docId), detail: `judge probability ${d.probability ?? 'unknown'}` });
      }
      pool = pool.filter((c) => !dropIds.has(c.chunkId));
    }
    judgeInfo = { applied: verdict.applied, dropped: verdict.applied ? verdict.dropped.length : 0, reason: verdict.reason, ms: ms(t) };
  }
  const judgeMs = judgeInfo ? judgeInfo.ms : 0;

  const top = pool.slice(0, k).map((c) => ({ c, text: texts.get(c.chunkId) ?? '' }));
  const budget = fitToBudget(top, cfg.maxChars);
  stages.push({ name: 'select', kept: budget.kept.length, dropped: decayed.length - budget.kept.length, note: `k=${k}, maxChars=${cfg.maxChars}` });

  const hits: RecallHit[] = budget.kept.map(({ c, text }) => {
    const meta = deps.doc(c.docId) ?? blankDocMeta(c.docId);
    return {
      ...meta,
      chunkId: c.chunkId,
      scope: hitScope(scope, meta.workspace),
      score: c.score,
      channels: { lexical: c.lexical, semantic: c.semantic, fused: c.fused, decay: c.decay },
      matched: c.matched,
      coverage: c.coverage,
      folded: c.folded,
      text,
      evidence: c.evidence,
    };
  });

  const byGate: Partial<Record<GateName, number>> = {};
  for (const r of gated.removals) byGate[r.gate] = (byGate[r.gate] ?? 0) + 1;

  return {
    query,
    tokenizer: deps.tokenizer.engine,
    tokens,
    hits,
    explain: {
      stages,
      gate: {
        removed: gated.removals.length,
        byGate,
        removals: gated.removals,
        distinctiveTokens: [...distinctive],
        noDistinctiveTokens: noDistinctive,
        queryInformation: Math.round(information * 100) / 100,
        idfAvailable,
        idfThreshold: minIdf,
      },
      semantic: { ran: semantic.ran, skipped: semantic.ran ? null : semantic.skipped, candidates: semanticHits.length, background: semantic.ran ? (semantic.background ?? null) : null },
      lexical: { candidates: lexicalHits.length },
      judge: judgeInfo,
      k: { chosen: k, reason: kReason },
      maxChars: { limit: cfg.maxChars, used: budget.used, truncatedItems: budget.truncated },
    },
    timing: { totalMs: ms(tStart), tokenizeMs, lexicalMs, semanticMs, fuseMs, gateMs, judgeMs },
  };
}
