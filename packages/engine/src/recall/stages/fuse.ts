// Stage 4 — fuse: decay inside each channel (half-life, floor; a superseded memory × 0.5), then
// weighted reciprocal-rank fusion of the two channels into candidates (the semantic weight by the
// query's language: recall/channel-weights.ts), each with its coverage of the
// query, the phrase evidence (recall/phrase.ts: the question's wording repeated) added to its score,
// and, when the semantic channel ran with a cosine background, the hybrid gate's evidence (its margin
// measured against the best candidate that is not a copy of the first: hybrid-gate.ts rivalCosine).
import { bm25Idf } from '../../lexical/bm25.ts';
import { channelWeightsFor, semanticCandidates } from '../channel-weights.ts';
import type { RecallStage } from '../run.ts';
import { SUPERSEDED_FACTOR } from '../scope.ts';
import { bestSentenceCoverage, cjkCharCount, longestSharedRun, phraseCoverage, phrasePairs } from '../phrase.ts';
import { comparedWording } from '../../text/taiwan-words.ts';
import { rivalCosine, SPAN_CANDIDATES } from '../hybrid-gate.ts';
import { sameGroupOf } from '../near-duplicates.ts';
import { attachEvidence, byScore, coverageOf, decayFactor, fuse as fuseChannels } from '../scoring.ts';

export const fuse: RecallStage = {
  name: 'fuse',
  run(_candidates, run) {
    const { deps, cfg } = run;
    // Decay works inside each channel's own scale before fusion: RRF scores are compressed (1/61 vs
    // 1/62), so decaying them afterwards would let a few weeks of age outweigh a clear relevance gap.
    const decayOf = new Map<string, number>();
    const decayFor = (docId: string) => {
      let d = decayOf.get(docId);
      if (d === undefined) {
        const meta = deps.doc(docId);
        d = decayFactor(meta?.date ?? '', run.now, deps.config.timeDecay) * (meta?.supersededBy ? SUPERSEDED_FACTOR : 1);
        decayOf.set(docId, d);
      }
      return d;
    };
    const byDecayed = <T extends { docId: string; score: number; chunkId: string }>(list: T[]) =>
      list.map((h) => ({ h, s: h.score * decayFor(h.docId) })).sort((a, b) => b.s - a.s || (a.h.chunkId < b.h.chunkId ? -1 : 1)).map((x) => x.h);
    const guess = run.analysis.language;
    const weights = channelWeightsFor(guess.language, run.semantic.ran ? run.semantic.model : undefined, cfg);
    const semanticHits = semanticCandidates(weights.rule, run.lexicalHits, run.semanticHits);
    if (weights.rule === 'reorder') {
      run.reordered = true;
      // The gates judge by the words (channel-weights.ts): from here on the recall sees the semantic
      // channel as not having run.
      run.semantic = { ran: false, skipped: 'English query: the Chinese model only reorders what the words found' };
    }
    const fused = fuseChannels(byDecayed(run.lexicalHits), byDecayed(semanticHits), { rrfK: cfg.rrfK, lexicalWeight: weights.lexical, semanticWeight: weights.semantic });
    const { aliasTokens } = run.analysis;
    for (const c of fused) {
      c.decay = decayFor(c.docId);
      if (c.matched.length > 0) c.coverage = coverageOf(c.matched, run.analysis.weights, aliasTokens);
    }
    // The phrase share is read whatever the weight: the query gate reads it too (hybrid-gate.ts maxPhrase).
    // Wording is compared as the words are read: traditional characters folded (text/script-fold.ts),
    // so a question in 繁體 repeats the phrases of a note in 简体, and Taiwan words read as the
    // mainland's (text/taiwan-words.ts), so 伺服器 in a note repeats 服务器 in a question.
    const asked = comparedWording(run.query);
    const pairs = phrasePairs(asked);
    if (pairs.size > 0) {
      // In first-rank shares of the lexical channel, so the weight keeps its meaning whatever rrfK is.
      const unit = cfg.phraseWeight / (cfg.rrfK + 1);
      // The fields the lexical index reads besides the chunk (title, tags and goal), and the chunk, folded once.
      const read = new Map<string, { head: string; text: string }>();
      const readOf = (c: (typeof fused)[number]) => {
        let r = read.get(c.chunkId);
        if (!r) {
          const meta = deps.doc(c.docId);
          r = { head: comparedWording(meta ? [meta.title, ...meta.tags, meta.goal].join('\n') : ''), text: comparedWording(run.texts.get(c.chunkId) ?? '') };
          read.set(c.chunkId, r);
        }
        return r;
      };
      for (const c of fused) {
        const { head, text } = readOf(c);
        const phrase = phraseCoverage(pairs, head, text);
        c.phrase = phrase;
        c.score = c.fused + unit * phrase * c.decay;
      }
      fused.sort(byScore);
      // The longest stretch of the question a candidate repeats verbatim, for the first candidates the
      // query gate reads (hybrid-gate.ts spanShare), as a share of the question's CJK characters.
      const chars = cjkCharCount(asked);
      for (const c of fused.slice(0, SPAN_CANDIDATES)) {
        const { head, text } = readOf(c);
        c.span = chars > 0 ? longestSharedRun(asked, head, text) / chars : 0;
        // …and the most of the question's weight one of its sentences holds (hybrid-gate.ts sentenceShare).
        c.sentence = bestSentenceCoverage(run.analysis.weights, head, text);
      }
    }
    run.maxIdf = bm25Idf(Math.max(1, deps.lexical.size), 1);
    const semantic = run.semantic;
    if (semantic.ran && semantic.background && cfg.hybridGate.enabled) {
      const fitted = cfg.hybridGate.weights.length > 0 ? cfg.hybridGate.weights : undefined;
      const rival = rivalCosine(run.semanticHits, sameGroupOf(run.duplicateGroups));
      attachEvidence(fused, { background: semantic.background, cosines: run.semanticHits.map((h) => h.score), ...(rival === undefined ? {} : { rival }) }, run.maxIdf, fitted);
    }
    const language = { query: guess.language, cjkChars: guess.cjkChars, latinWords: guess.latinWords, semanticWeight: weights.semantic, rule: weights.rule };
    return { candidates: fused, record: { kept: fused.length, dropped: 0, explain: { language } } };
  },
};
